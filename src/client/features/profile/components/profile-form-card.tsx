import { zodResolver } from "@hookform/resolvers/zod";
import { UserRound } from "lucide-react";
import { useMemo, useState } from "react";
import { type FieldErrors, FormProvider, useForm, useWatch } from "react-hook-form";
import { toast } from "sonner";
import type { z } from "zod";
import { FormErrorAlert } from "@/components/form/form-error-alert";
import { MaskedInput } from "@/components/form/masked-input";
import { CPF_MASK, PHONE_MASK } from "@/components/form/masks";
import { SubmitButton } from "@/components/form/submit-button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { CouncilFields, EMPTY_ESPECIALIDADE } from "@/features/auth";
import { ApiError } from "@/lib/api";
import { applyServerErrors } from "@/lib/form-errors";
import { maskCpf, maskPhone } from "@shared/br/masks";
import { addCouncilRoleIssues, needsCouncil } from "@shared/schemas/council";
import type { CurrentUser } from "@shared/schemas/me";
import {
  changesIdentity,
  PROFILE_MESSAGES,
  type ProfileUpdateInput,
  profileUpdateSchema,
} from "@shared/schemas/profile";
import { useUpdateProfile } from "../api/profile-api";

type Values = ProfileUpdateInput & { tem_conselho: boolean };
const FIELDS = [
  "nome",
  "telefone",
  "email",
  "cpf",
  "senha_atual",
  "conselho_tipo",
  "conselho_numero",
  "conselho_uf",
  "especialidades",
];

function valuesOf(profile: CurrentUser["profile"]): Values {
  return {
    nome: profile.nome,
    telefone: profile.telefone ? maskPhone(profile.telefone) : "",
    email: profile.email,
    cpf: maskCpf(profile.cpf),
    senha_atual: "",
    tem_conselho: Boolean(profile.conselho_tipo),
    conselho_tipo: profile.conselho_tipo ?? undefined,
    conselho_numero: profile.conselho_numero ?? "",
    conselho_uf: profile.conselho_uf ?? undefined,
    especialidades:
      profile.especialidades.length > 0
        ? profile.especialidades.map((e) => ({
            especialidade: e.especialidade,
            areas_atuacao: e.areas_atuacao,
            rqe: e.rqe ?? "",
          }))
        : [{ ...EMPTY_ESPECIALIDADE }],
  };
}

/**
 * Dados pessoais: name, phone, e-mail, CPF and the council with specialties — sign-up's rules
 * and components. Changing the e-mail (which signs in) or the CPF asks for the current password.
 */
export function ProfileFormCard({ profile }: { profile: CurrentUser["profile"] }) {
  const update = useUpdateProfile();
  const [formError, setFormError] = useState<string | null>(null);
  const careRole = needsCouncil(profile.role);
  const schema = useMemo(
    () =>
      profileUpdateSchema.superRefine((value, ctx) => {
        addCouncilRoleIssues(profile.role, value, ctx);
        if (changesIdentity(profile, value) && !value.senha_atual) {
          ctx.addIssue({ code: "custom", path: ["senha_atual"], message: PROFILE_MESSAGES.identityPasswordRequired });
        }
      }),
    [profile],
  );
  const form = useForm<Values, unknown, z.output<typeof profileUpdateSchema>>({
    // Without a council (a role that needs none, box unticked) the council fields are not sent.
    resolver: (values, context, options) => {
      const { tem_conselho, ...rest } = values;
      const body =
        tem_conselho || careRole
          ? rest
          : { ...rest, conselho_tipo: undefined, conselho_numero: "", conselho_uf: undefined, especialidades: [] };
      return zodResolver(schema)(body, context, options as never) as never;
    },
    defaultValues: valuesOf(profile),
  });
  const { register, handleSubmit, formState, setError, setValue, reset, control } = form;
  const errors: FieldErrors<Values> = formState.errors;
  const temConselho = useWatch({ control, name: "tem_conselho" });
  const email = useWatch({ control, name: "email" }) ?? "";
  const cpf = useWatch({ control, name: "cpf" }) ?? "";
  const identityChanged = changesIdentity(profile, { email, cpf });

  const onSubmit = handleSubmit(async (values) => {
    setFormError(null);
    try {
      const user = await update.mutateAsync(values);
      reset(valuesOf(user.profile));
      toast.success(PROFILE_MESSAGES.saved);
    } catch (error) {
      const rest = applyServerErrors(error, setError, FIELDS);
      setFormError(rest);
      toast.error(PROFILE_MESSAGES.saveError, {
        description: error instanceof ApiError && error.code !== "INTERNAL" ? error.message : undefined,
      });
    }
  });

  return (
    <Card data-testid="profile-form-card">
      <CardHeader>
        <CardTitle className="flex items-center gap-2 text-base">
          <UserRound className="size-4 text-primary" aria-hidden /> Dados pessoais
        </CardTitle>
        <CardDescription>Como você aparece nos documentos e na equipe.</CardDescription>
      </CardHeader>
      <CardContent>
        <FormProvider {...form}>
          <form onSubmit={onSubmit} noValidate className="grid gap-5" aria-label="Dados pessoais">
            <div className="grid gap-4 sm:grid-cols-2">
              <FormField
                className="sm:col-span-2"
                label="Nome completo"
                htmlFor="nome"
                required
                error={errors.nome?.message}
              >
                <Input {...register("nome")} autoComplete="name" maxLength={160} />
              </FormField>
              <FormField
                label="E-mail"
                htmlFor="email"
                required
                error={errors.email?.message}
                hint="É o seu acesso ao Consentir."
              >
                <Input {...register("email")} type="email" autoComplete="email" />
              </FormField>
              <FormField label="CPF" htmlFor="cpf" required error={errors.cpf?.message}>
                <MaskedInput
                  {...register("cpf")}
                  mask={CPF_MASK}
                  inputMode="numeric"
                  placeholder="000.000.000-00"
                  maxLength={14}
                />
              </FormField>
              <FormField label="Telefone" htmlFor="telefone" error={errors.telefone?.message}>
                <MaskedInput
                  {...register("telefone")}
                  mask={PHONE_MASK}
                  inputMode="tel"
                  autoComplete="tel"
                  placeholder="(00) 00000-0000"
                />
              </FormField>
              {identityChanged ? (
                <FormField
                  label="Senha atual"
                  htmlFor="profile-senha-atual"
                  required
                  error={errors.senha_atual?.message}
                  hint="Para alterar o e-mail ou o CPF, confirme que é você."
                >
                  <Input {...register("senha_atual")} type="password" autoComplete="current-password" />
                </FormField>
              ) : null}
            </div>

            {careRole ? null : (
              <label className="flex items-center gap-2 text-sm">
                <input type="checkbox" {...register("tem_conselho")} className="size-4 accent-[var(--primary)]" />
                Possui registro em conselho profissional
              </label>
            )}
            {careRole || temConselho ? (
              <CouncilFields onCouncilChange={() => setValue("especialidades", [{ ...EMPTY_ESPECIALIDADE }])} />
            ) : null}

            <FormErrorAlert message={formError} />
            <SubmitButton pending={formState.isSubmitting} className="justify-self-start">
              Salvar alterações
            </SubmitButton>
          </form>
        </FormProvider>
      </CardContent>
    </Card>
  );
}
