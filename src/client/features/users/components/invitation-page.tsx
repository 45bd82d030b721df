import type * as React from "react";
import { zodResolver } from "@hookform/resolvers/zod";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { Link, useNavigate, useParams } from "react-router";
import type { z } from "zod";
import { Logo } from "@/components/brand/logo";
import { FormErrorAlert } from "@/components/form/form-error-alert";
import { SubmitButton } from "@/components/form/submit-button";
import { Alert, AlertDescription } from "@/components/ui/alert";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { Spinner } from "@/components/ui/spinner";
import { errorMessage } from "@/lib/api";
import { PASSWORD_MIN_LENGTH } from "@shared/schemas/common";
import { invitationAcceptSchema, type InvitationAcceptInput } from "@shared/schemas/users";
import { useAcceptInvitation, useInvitation } from "../api/users-api";
import { useDocumentTitle } from "@/lib/use-document-title";

/**
 * /convite/:token — the page an invitation e-mail links to (decision 017): the invited person
 * chooses their password and is signed in.
 */
export function InvitationPage() {
  useDocumentTitle("Convite");
  const { token = "" } = useParams();
  const invitation = useInvitation(token);
  const accept = useAcceptInvitation();
  const navigate = useNavigate();
  const [error, setError] = useState<string | null>(null);
  const { register, handleSubmit, formState } = useForm<
    InvitationAcceptInput,
    unknown,
    z.output<typeof invitationAcceptSchema>
  >({
    resolver: zodResolver(invitationAcceptSchema),
    defaultValues: { token, password: "", confirmPassword: "" },
  });

  const onSubmit = handleSubmit(async (values) => {
    setError(null);
    try {
      await accept.mutateAsync(values);
      void navigate("/", { replace: true });
    } catch (caught) {
      setError(errorMessage(caught));
    }
  });

  let content: React.ReactNode;
  if (invitation.isPending) {
    content = (
      <div className="grid place-items-center py-6">
        <Spinner className="size-6" label="Carregando convite" />
      </div>
    );
  } else if (invitation.isError) {
    content = (
      <Alert variant="destructive">
        <AlertDescription>{errorMessage(invitation.error)}</AlertDescription>
      </Alert>
    );
  } else {
    content = (
      <form onSubmit={onSubmit} noValidate className="grid gap-4" aria-label="Criar senha do convite">
        <FormField label="E-mail" htmlFor="invite-email">
          <Input value={invitation.data.email} readOnly autoComplete="username" />
        </FormField>
        <FormField
          label="Senha"
          htmlFor="invite-password"
          required
          hint={`Mínimo de ${PASSWORD_MIN_LENGTH} caracteres`}
          error={formState.errors.password?.message}
        >
          <Input {...register("password")} type="password" autoComplete="new-password" />
        </FormField>
        <FormField
          label="Confirmar senha"
          htmlFor="invite-confirm"
          required
          error={formState.errors.confirmPassword?.message}
        >
          <Input {...register("confirmPassword")} type="password" autoComplete="new-password" />
        </FormField>
        <FormErrorAlert message={error} />
        <SubmitButton pending={formState.isSubmitting}>Criar senha e entrar</SubmitButton>
      </form>
    );
  }

  return (
    <main className="grid min-h-svh place-items-center bg-gradient-to-b from-accent/60 to-background px-4 py-8">
      <div className="grid w-full max-w-md gap-6">
        <Logo className="justify-self-center" />
        <Card>
          <CardHeader>
            <CardTitle>
              <h1>{invitation.data ? `Olá, ${invitation.data.nome}` : "Convite"}</h1>
            </CardTitle>
            <CardDescription>
              {invitation.data
                ? `Você foi convidado para a equipe de ${invitation.data.clinica} no Consentir. Escolha uma senha com pelo menos ${PASSWORD_MIN_LENGTH} caracteres, que não seja das mais comuns.`
                : "Crie a sua senha para entrar no Consentir."}
            </CardDescription>
          </CardHeader>
          <CardContent className="grid gap-4">
            {content}
            <Link to="/auth" className="justify-self-center text-sm text-primary underline-offset-4 hover:underline">
              Ir para o login
            </Link>
          </CardContent>
        </Card>
      </div>
    </main>
  );
}
