import { zodResolver } from "@hookform/resolvers/zod";
import { useEffect, useState } from "react";
import { type FieldErrors, FormProvider, useForm, useWatch } from "react-hook-form";
import { toast } from "sonner";
import type { z } from "zod";
import { FormErrorAlert } from "@/components/form/form-error-alert";
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
import { ROLE_LABEL, type Role } from "@shared/permissions";
import {
  ASSIGNABLE_ROLES,
  needsCouncil,
  type User,
  USER_MESSAGES,
  type UserUpdateInput,
  userUpdateSchema,
} from "@shared/schemas/users";
import { useUpdateUser } from "../api/users-api";

type Values = UserUpdateInput & { tem_conselho: boolean };
const FIELDS = ["nome", "role", "conselho_tipo", "conselho_numero", "conselho_uf", "especialidades"];

function valuesOf(user: User): Values {
  return {
    nome: user.nome,
    role: user.role as Values["role"],
    tem_conselho: Boolean(user.conselho_tipo),
    conselho_tipo: user.conselho_tipo ?? undefined,
    conselho_numero: user.conselho_numero ?? "",
    conselho_uf: user.conselho_uf ?? undefined,
    especialidades:
      user.especialidades.length > 0
        ? user.especialidades.map((e) => ({
            especialidade: e.especialidade,
            areas_atuacao: e.areas_atuacao,
            rqe: e.rqe ?? "",
          }))
        : [{ ...EMPTY_ESPECIALIDADE }],
  };
}

/** Editar usuário: name, role (not the owner's) and council with specialties, with the add-user dialog's rules. */
export function EditUserDialog({ user, onOpenChange }: { user: User | null; onOpenChange: (open: boolean) => void }) {
  const update = useUpdateUser();
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm<Values, unknown, z.output<typeof userUpdateSchema>>({
    resolver: (values, context, options) => {
      const { tem_conselho, ...rest } = values;
      const withCouncil = tem_conselho || needsCouncil(rest.role);
      const body = withCouncil
        ? rest
        : { ...rest, conselho_tipo: undefined, conselho_numero: "", conselho_uf: undefined, especialidades: [] };
      return zodResolver(userUpdateSchema)(body, context, options as never) as never;
    },
    defaultValues: user ? valuesOf(user) : undefined,
  });
  const { register, handleSubmit, formState, setError, setValue, reset, control } = form;
  const errors: FieldErrors<Values> = formState.errors;
  const role = useWatch({ control, name: "role" });
  const temConselho = useWatch({ control, name: "tem_conselho" });
  const careRole = needsCouncil(role ?? "");

  useEffect(() => {
    if (user) {
      reset(valuesOf(user));
      setFormError(null);
    }
  }, [user, reset]);

  const onSubmit = handleSubmit(async (values) => {
    if (!user) return;
    setFormError(null);
    try {
      await update.mutateAsync({ id: user.id, input: values });
      toast.success(USER_MESSAGES.updated, { description: values.nome });
      onOpenChange(false);
    } catch (error) {
      setFormError(applyServerErrors(error, setError, FIELDS));
      toast.error(USER_MESSAGES.updateError, {
        description: error instanceof ApiError && error.code !== "INTERNAL" ? error.message : undefined,
      });
    }
  });

  const assignable = (ASSIGNABLE_ROLES as readonly string[]).includes(user?.role ?? "");
  return (
    <Dialog open={user !== null} onOpenChange={(next) => !formState.isSubmitting && onOpenChange(next)}>
      <DialogContent className="max-h-[92svh] overflow-y-auto sm:max-w-2xl">
        <DialogHeader>
          <DialogTitle>Editar usuário</DialogTitle>
          <DialogDescription>
            {user?.email}. E-mail e CPF são da pessoa: ela os altera no próprio perfil.
          </DialogDescription>
        </DialogHeader>
        <FormProvider {...form}>
          <form onSubmit={onSubmit} noValidate className="grid gap-5" aria-label="Edição de usuário">
            <div className="grid gap-4 sm:grid-cols-2">
              <FormField
                className="sm:col-span-2"
                label="Nome completo"
                htmlFor="edit-user-nome"
                required
                error={errors.nome?.message}
              >
                <Input {...register("nome")} autoComplete="off" maxLength={160} />
              </FormField>
              <FormField
                className="sm:col-span-2"
                label="Função"
                htmlFor="edit-user-role"
                required
                error={errors.role?.message}
                hint={
                  user?.is_proprietario
                    ? "A função do proprietário da clínica não pode ser alterada."
                    : careRole
                      ? "Profissionais de saúde precisam de conselho profissional."
                      : undefined
                }
              >
                <NativeSelect {...register("role")} disabled={user?.is_proprietario}>
                  {assignable || !user ? null : (
                    <option value={user.role}>{ROLE_LABEL[user.role as Role] ?? user.role}</option>
                  )}
                  {ASSIGNABLE_ROLES.map((value) => (
                    <option key={value} value={value}>
                      {ROLE_LABEL[value]}
                    </option>
                  ))}
                </NativeSelect>
              </FormField>
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
            <DialogFooter>
              <Button
                type="button"
                variant="outline"
                onClick={() => onOpenChange(false)}
                disabled={formState.isSubmitting}
              >
                Cancelar
              </Button>
              <SubmitButton pending={formState.isSubmitting}>Salvar alterações</SubmitButton>
            </DialogFooter>
          </form>
        </FormProvider>
      </DialogContent>
    </Dialog>
  );
}
