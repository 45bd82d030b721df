import { zodResolver } from "@hookform/resolvers/zod";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { Link, useSearchParams } from "react-router";
import type { z } from "zod";
import { Logo } from "@/components/brand/logo";
import { FormErrorAlert } from "@/components/form/form-error-alert";
import { SubmitButton } from "@/components/form/submit-button";
import { Alert, AlertDescription } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { ApiError, errorMessage } from "@/lib/api";
import { passwordResetConfirmSchema } from "@shared/schemas/auth";
import { PASSWORD_MIN_LENGTH } from "@shared/schemas/common";
import { useConfirmPasswordReset } from "../api/auth-api";

type Values = z.input<typeof passwordResetConfirmSchema>;

/** /auth/redefinir-senha?token=…: the page the reset e-mail links to. */
export function ResetPasswordPage() {
  const [params] = useSearchParams();
  const token = params.get("token") ?? "";
  const confirm = useConfirmPasswordReset();
  const [done, setDone] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const { register, handleSubmit, formState } = useForm<Values, unknown, z.output<typeof passwordResetConfirmSchema>>({
    resolver: zodResolver(passwordResetConfirmSchema),
    defaultValues: { token, password: "", confirmPassword: "" },
  });

  const onSubmit = handleSubmit(async (values) => {
    setError(null);
    try {
      await confirm.mutateAsync(values);
      setDone(true);
    } catch (caught) {
      setError(errorMessage(caught));
    }
  });

  return (
    <main className="grid min-h-svh place-items-center bg-gradient-to-b from-accent/60 to-background px-4 py-8">
      <div className="grid w-full max-w-md gap-6">
        <Logo className="justify-self-center" />
        <Card>
          <CardHeader>
            <CardTitle>
              <h1>Criar nova senha</h1>
            </CardTitle>
            <CardDescription>Escolha uma senha com pelo menos {PASSWORD_MIN_LENGTH} caracteres, que não seja das mais comuns.</CardDescription>
          </CardHeader>
          <CardContent className="grid gap-4">
            {done ? (
              <>
                <Alert variant="success">
                  <AlertDescription>Senha alterada com sucesso! Entre com a nova senha.</AlertDescription>
                </Alert>
                <Button asChild>
                  <Link to="/auth">Ir para o login</Link>
                </Button>
              </>
            ) : !token ? (
              <Alert variant="destructive">
                <AlertDescription>O link de redefinição de senha é inválido ou expirou. Peça um novo.</AlertDescription>
              </Alert>
            ) : (
              <form onSubmit={onSubmit} noValidate className="grid gap-4">
                <FormField label="Nova senha" htmlFor="reset-password" required error={formState.errors.password?.message}>
                  <Input {...register("password")} type="password" autoComplete="new-password" />
                </FormField>
                <FormField label="Confirmar nova senha" htmlFor="reset-confirm" required error={formState.errors.confirmPassword?.message}>
                  <Input {...register("confirmPassword")} type="password" autoComplete="new-password" />
                </FormField>
                <FormErrorAlert message={error} />
                <SubmitButton pending={formState.isSubmitting}>Salvar nova senha</SubmitButton>
              </form>
            )}
            <Link to="/auth" className="justify-self-center text-sm text-primary underline-offset-4 hover:underline">
              Voltar para o login
            </Link>
          </CardContent>
        </Card>
      </div>
    </main>
  );
}
