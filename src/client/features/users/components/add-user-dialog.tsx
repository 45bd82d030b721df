import { zodResolver } from "@hookform/resolvers/zod";
import { useEffect, useState } from "react";
import { type FieldErrors, FormProvider, useForm, useWatch } from "react-hook-form";
import { toast } from "sonner";
import type { z } from "zod";
import { FormErrorAlert } from "@/components/form/form-error-alert";
import { MaskedInput } from "@/components/form/masked-input";
import { CPF_MASK } from "@/components/form/masks";
import { NativeSelect } from "@/components/form/native-select";
import { SubmitButton } from "@/components/form/submit-button";
import { Button } from "@/components/ui/button";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from "@/components/ui/dialog";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { CouncilFields, EMPTY_ESPECIALIDADE } from "@/features/auth";
import { ApiError } from "@/lib/api";
import { applyServerErrors } from "@/lib/form-errors";
import { ROLE_LABEL } from "@shared/permissions";
import { PASSWORD_MIN_LENGTH } from "@shared/schemas/common";
import {
  ASSIGNABLE_ROLES,
  INVITATION_DAYS,
  needsCouncil,
  USER_MESSAGES,
  userCreateSchema,
  type UserCreateInput,
} from "@shared/schemas/users";
import { useCreateUser } from "../api/users-api";

type Values = UserCreateInput & { tem_conselho: boolean };
const FIELDS = [
  "nome",
  "email",
  "cpf",
  "role",
  "acesso",
  "password",
  "conselho_tipo",
  "conselho_numero",
  "conselho_uf",
  "especialidades",
];
/** Spec part 2 §5: nome, email, cpf and password are required ('Preencha todos os campos obrigatórios'). */
const REQUIRED = ["nome", "email", "cpf", "password"] as const;

const EMPTY: Values = {
  nome: "",
  email: "",
  cpf: "",
  role: "profissional",
  acesso: "convite",
  password: "",
  tem_conselho: false,
  conselho_tipo: undefined,
  conselho_numero: "",
  conselho_uf: undefined,
  especialidades: [{ ...EMPTY_ESPECIALIDADE }],
};

/** The add-user dialog (spec part 2 §2): the person, the role, how they get in, the council. */
export function AddUserDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const create = useCreateUser();
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm<Values, unknown, z.output<typeof userCreateSchema>>({
    // The council switch is the form's own: without it, the council fields are not sent.
    resolver: (values, context, options) => {
      const { tem_conselho, ...rest } = values;
      const withCouncil = tem_conselho || needsCouncil(rest.role);
      const body = withCouncil
        ? rest
        : { ...rest, conselho_tipo: undefined, conselho_numero: "", conselho_uf: undefined, especialidades: [] };
      return zodResolver(userCreateSchema)(body, context, options as never) as never;
    },
    defaultValues: EMPTY,
  });
  const { register, handleSubmit, formState, setError, setValue, reset, control } = form;
  const errors: FieldErrors<Values> = formState.errors;
  const role = useWatch({ control, name: "role" });
  const acesso = useWatch({ control, name: "acesso" });
  const temConselho = useWatch({ control, name: "tem_conselho" });
  const careRole = needsCouncil(role);

  useEffect(() => {
    if (open) {
      reset(EMPTY);
      setFormError(null);
    }
  }, [open, reset]);

  const onInvalid = (invalid: FieldErrors<Values>) => {
    const missing = REQUIRED.some((name) => invalid[name] && /^Informe/.test(String(invalid[name]?.message)));
    setFormError(missing ? USER_MESSAGES.requiredFields : null);
  };

  const onSubmit = handleSubmit(async (values) => {
    setFormError(null);
    try {
      const user = await create.mutateAsync(values);
      toast.success(USER_MESSAGES.added, user.convite ? { description: USER_MESSAGES.invited(user.email) } : undefined);
      onOpenChange(false);
    } catch (error) {
      const rest = applyServerErrors(error, setError, FIELDS);
      setFormError(rest);
      toast.error(USER_MESSAGES.addError, {
        description: error instanceof ApiError && error.code !== "INTERNAL" ? error.message : undefined,
      });
    }
  }, onInvalid);

  return (
    <Dialog open={open} onOpenChange={(next) => !formState.isSubmitting && onOpenChange(next)}>
      <DialogContent className="max-h-[92svh] overflow-y-auto sm:max-w-2xl">
        <DialogHeader>
          <DialogTitle>Adicionar usuário</DialogTitle>
          <DialogDescription>Cadastre um membro da equipe da clínica e escolha a função dele.</DialogDescription>
        </DialogHeader>
        <FormProvider {...form}>
          <form onSubmit={onSubmit} noValidate className="grid gap-5" aria-label="Cadastro de usuário">
            <div className="grid gap-4 sm:grid-cols-2">
              <FormField
                className="sm:col-span-2"
                label="Nome completo"
                htmlFor="user-nome"
                required
                error={errors.nome?.message}
              >
                <Input {...register("nome")} autoComplete="off" maxLength={160} />
              </FormField>
              <FormField label="E-mail" htmlFor="user-email" required error={errors.email?.message}>
                <Input {...register("email")} type="email" autoComplete="off" />
              </FormField>
              <FormField label="CPF" htmlFor="user-cpf" required error={errors.cpf?.message}>
                <MaskedInput
                  {...register("cpf")}
                  mask={CPF_MASK}
                  inputMode="numeric"
                  placeholder="000.000.000-00"
                  maxLength={14}
                />
              </FormField>
              <FormField
                className="sm:col-span-2"
                label="Função"
                htmlFor="user-role"
                required
                error={errors.role?.message}
                hint={careRole ? "Profissionais de saúde precisam de conselho profissional." : undefined}
              >
                <NativeSelect {...register("role")}>
                  {ASSIGNABLE_ROLES.map((value) => (
                    <option key={value} value={value}>
                      {ROLE_LABEL[value]}
                    </option>
                  ))}
                </NativeSelect>
              </FormField>
            </div>

            <fieldset className="grid gap-3 rounded-lg border p-3">
              <legend className="px-1 text-sm font-medium">Acesso</legend>
              <label className="flex items-start gap-2 text-sm">
                <input
                  type="radio"
                  value="convite"
                  {...register("acesso")}
                  className="mt-0.5 size-4 accent-[var(--primary)]"
                />
                <span>
                  Enviar convite por e-mail
                  <span className="block text-muted-foreground">
                    A pessoa recebe um link (válido por {INVITATION_DAYS} dias, uso único) e cria a própria senha.
                  </span>
                </span>
              </label>
              <label className="flex items-start gap-2 text-sm">
                <input
                  type="radio"
                  value="senha"
                  {...register("acesso")}
                  className="mt-0.5 size-4 accent-[var(--primary)]"
                />
                <span>
                  Definir a senha agora
                  <span className="block text-muted-foreground">Você informa a senha à pessoa por outro meio.</span>
                </span>
              </label>
              {acesso === "senha" ? (
                <FormField
                  label="Senha"
                  htmlFor="user-password"
                  required
                  hint={`Mínimo de ${PASSWORD_MIN_LENGTH} caracteres`}
                  error={errors.password?.message}
                >
                  <Input {...register("password")} type="password" autoComplete="new-password" />
                </FormField>
              ) : null}
            </fieldset>

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
            <DialogFooter>
              <Button
                type="button"
                variant="outline"
                onClick={() => onOpenChange(false)}
                disabled={formState.isSubmitting}
              >
                Cancelar
              </Button>
              <SubmitButton pending={formState.isSubmitting}>
                {acesso === "convite" ? "Adicionar e enviar convite" : "Adicionar usuário"}
              </SubmitButton>
            </DialogFooter>
          </form>
        </FormProvider>
      </DialogContent>
    </Dialog>
  );
}
