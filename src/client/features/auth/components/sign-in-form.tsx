import { zodResolver } from "@hookform/resolvers/zod";
import { useState } from "react";
import { useForm } from "react-hook-form";
import type { z } from "zod";
import { FormErrorAlert } from "@/components/form/form-error-alert";
import { SubmitButton } from "@/components/form/submit-button";
import { Button } from "@/components/ui/button";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { ApiError } from "@/lib/api";
import { signInSchema } from "@shared/schemas/auth";
import { useSignIn } from "../api/auth-api";
import { ForgotPasswordDialog } from "./forgot-password-dialog";

type Values = z.input<typeof signInSchema>;

export function SignInForm({ defaultEmail, onSignedIn }: { defaultEmail?: string; onSignedIn: () => void }) {
  const signIn = useSignIn();
  const [error, setError] = useState<string | null>(null);
  const [forgotOpen, setForgotOpen] = useState(false);
  const { register, handleSubmit, formState, getValues } = useForm<Values, unknown, z.output<typeof signInSchema>>({
    resolver: zodResolver(signInSchema),
    defaultValues: { email: defaultEmail ?? "", password: "" },
  });

  const onSubmit = handleSubmit(async (values) => {
    setError(null);
    try {
      await signIn.mutateAsync(values);
      onSignedIn();
    } catch (caught) {
      // Spec part 1 §8: the server's message in a red alert; anything unexpected, the fallback.
      setError(
        caught instanceof ApiError && caught.code !== "INTERNAL" ? caught.message : "Erro inesperado ao fazer login",
      );
    }
  });

  return (
    <form onSubmit={onSubmit} noValidate className="grid gap-4" aria-label="Entrar">
      <FormField label="E-mail" htmlFor="signin-email" required error={formState.errors.email?.message}>
        <Input {...register("email")} type="email" autoComplete="username" />
      </FormField>
      <FormField label="Senha" htmlFor="signin-password" required error={formState.errors.password?.message}>
        <Input {...register("password")} type="password" autoComplete="current-password" />
      </FormField>
      <FormErrorAlert message={error} />
      <SubmitButton pending={formState.isSubmitting}>Entrar</SubmitButton>
      <Button type="button" variant="link" className="justify-self-center" onClick={() => setForgotOpen(true)}>
        Esqueci minha senha
      </Button>
      <ForgotPasswordDialog open={forgotOpen} onOpenChange={setForgotOpen} defaultEmail={getValues("email")} />
    </form>
  );
}
