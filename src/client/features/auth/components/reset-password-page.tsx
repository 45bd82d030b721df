import { zodResolver } from "@hookform/resolvers/zod";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { Link, useSearchParams } from "react-router";
import type { z } from "zod";
import { Logo } from "@/components/brand/logo";
import { FormErrorAlert } from "@/components/form/form-error-alert";
import { SubmitButton } from "@/components/form/submit-button";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { ApiError, errorMessage } from "@/lib/api";
import { passwordResetConfirmSchema } from "@shared/schemas/auth";
import { PASSWORD_MIN_LENGTH } from "@shared/schemas/common";
import { useConfirmPasswordReset } from "../api/auth-api";
import { readResetToken, RESET_LINK_MESSAGES } from "../lib/reset-token";
import { ForgotPasswordDialog } from "./forgot-password-dialog";
import { useDocumentTitle } from "@/lib/use-document-title";

type Values = z.input<typeof passwordResetConfirmSchema>;

/** /auth/redefinir-senha?token=…: the page the reset e-mail links to. */
export function ResetPasswordPage() {
  useDocumentTitle("Redefinir senha");
  const [params] = useSearchParams();
  const token = readResetToken(params.get("token"));
  const confirm = useConfirmPasswordReset();
  const [done, setDone] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // The link itself is the problem (cut when copied, used, expired): say so and offer a new one.
  const [linkProblem, setLinkProblem] = useState<string | null>(token ? null : RESET_LINK_MESSAGES.cut);
  const [forgotOpen, setForgotOpen] = useState(false);
  const { register, handleSubmit, formState } = useForm<Values, unknown, z.output<typeof passwordResetConfirmSchema>>({
    resolver: zodResolver(passwordResetConfirmSchema),
    defaultValues: { token: token ?? "", password: "", confirmPassword: "" },
  });

  const onSubmit = handleSubmit(
    async (values) => {
      setError(null);
      try {
        await confirm.mutateAsync(values);
        setDone(true);
      } catch (caught) {
        if (caught instanceof ApiError && caught.code === "RESET_TOKEN_INVALID")
          setLinkProblem(RESET_LINK_MESSAGES.invalid);
        else setError(errorMessage(caught));
      }
    },
    // The token has no field of its own: a refusal there is the link's problem, never a silent button.
    (invalid) => {
      if (invalid.token) setLinkProblem(RESET_LINK_MESSAGES.cut);
    },
  );

  return (
    <main className="grid min-h-svh place-items-center bg-gradient-to-b from-accent/60 to-background px-4 py-8">
      <div className="grid w-full max-w-md gap-6">
        <Logo className="justify-self-center" />
        <Card>
          <CardHeader>
            <CardTitle>
              <h1>Criar nova senha</h1>
            </CardTitle>
            <CardDescription>
              Escolha uma senha com pelo menos {PASSWORD_MIN_LENGTH} caracteres, que não seja das mais comuns.
            </CardDescription>
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
            ) : linkProblem ? (
              <>
                <Alert variant="destructive" role="alert">
                  <AlertTitle>Link de redefinição inválido</AlertTitle>
                  <AlertDescription>{linkProblem}</AlertDescription>
                </Alert>
                <Button type="button" onClick={() => setForgotOpen(true)}>
                  Pedir novo link
                </Button>
                <ForgotPasswordDialog open={forgotOpen} onOpenChange={setForgotOpen} defaultEmail="" />
              </>
            ) : (
              <form onSubmit={onSubmit} noValidate className="grid gap-4">
                <FormField
                  label="Nova senha"
                  htmlFor="reset-password"
                  required
                  error={formState.errors.password?.message}
                >
                  <Input {...register("password")} type="password" autoComplete="new-password" />
                </FormField>
                <FormField
                  label="Confirmar nova senha"
                  htmlFor="reset-confirm"
                  required
                  error={formState.errors.confirmPassword?.message}
                >
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
