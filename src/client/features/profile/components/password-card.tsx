import { zodResolver } from "@hookform/resolvers/zod";
import { KeyRound } from "lucide-react";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { toast } from "sonner";
import { FormErrorAlert } from "@/components/form/form-error-alert";
import { SubmitButton } from "@/components/form/submit-button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { ApiError } from "@/lib/api";
import { applyServerErrors } from "@/lib/form-errors";
import { PASSWORD_MIN_LENGTH } from "@shared/schemas/common";
import { type PasswordChangeInput, PROFILE_MESSAGES, passwordChangeSchema } from "@shared/schemas/profile";
import { useChangePassword } from "../api/profile-api";

const EMPTY: PasswordChangeInput = { senha_atual: "", nova_senha: "", confirmar_senha: "" };
const FIELDS = ["senha_atual", "nova_senha", "confirmar_senha"];

/** Alterar senha: the current one, then the new one twice (decision 011's rule). */
export function PasswordCard() {
  const change = useChangePassword();
  const [formError, setFormError] = useState<string | null>(null);
  const { register, handleSubmit, formState, setError, reset } = useForm<PasswordChangeInput>({
    resolver: zodResolver(passwordChangeSchema),
    defaultValues: EMPTY,
  });
  const { errors } = formState;

  const onSubmit = handleSubmit(async (values) => {
    setFormError(null);
    try {
      const result = await change.mutateAsync(values);
      reset(EMPTY);
      toast.success("Senha alterada", {
        description:
          result.sessions_ended > 0 ? PROFILE_MESSAGES.passwordChanged : "Use a nova senha na próxima vez que entrar.",
      });
    } catch (error) {
      const rest = applyServerErrors(error, setError, FIELDS);
      setFormError(rest);
      toast.error(PROFILE_MESSAGES.passwordError, {
        description: error instanceof ApiError && error.code !== "INTERNAL" ? error.message : undefined,
      });
    }
  });

  return (
    <Card data-testid="password-card">
      <CardHeader>
        <CardTitle className="flex items-center gap-2 text-base">
          <KeyRound className="size-4 text-primary" aria-hidden /> Alterar senha
        </CardTitle>
        <CardDescription>
          Ao trocar a senha, as suas outras sessões abertas (outros navegadores e aparelhos) são encerradas.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <form onSubmit={onSubmit} noValidate className="grid gap-4" aria-label="Alteração de senha">
          <FormField label="Senha atual" htmlFor="senha_atual" required error={errors.senha_atual?.message}>
            <Input {...register("senha_atual")} type="password" autoComplete="current-password" />
          </FormField>
          <div className="grid gap-4 sm:grid-cols-2">
            <FormField
              label="Nova senha"
              htmlFor="nova_senha"
              required
              hint={`Mínimo de ${PASSWORD_MIN_LENGTH} caracteres`}
              error={errors.nova_senha?.message}
            >
              <Input {...register("nova_senha")} type="password" autoComplete="new-password" />
            </FormField>
            <FormField
              label="Confirmar nova senha"
              htmlFor="confirmar_senha"
              required
              error={errors.confirmar_senha?.message}
            >
              <Input {...register("confirmar_senha")} type="password" autoComplete="new-password" />
            </FormField>
          </div>
          <FormErrorAlert message={formError} />
          <SubmitButton pending={formState.isSubmitting} className="justify-self-start">
            Alterar senha
          </SubmitButton>
        </form>
      </CardContent>
    </Card>
  );
}
