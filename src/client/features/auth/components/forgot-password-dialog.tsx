import { zodResolver } from "@hookform/resolvers/zod";
import { MailCheck } from "lucide-react";
import { useEffect, useState } from "react";
import { useForm } from "react-hook-form";
import type { z } from "zod";
import { FormErrorAlert } from "@/components/form/form-error-alert";
import { SubmitButton } from "@/components/form/submit-button";
import { Alert, AlertDescription } from "@/components/ui/alert";
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
import { errorMessage } from "@/lib/api";
import { passwordResetRequestSchema } from "@shared/schemas/auth";
import { useRequestPasswordReset } from "../api/auth-api";

type Values = z.input<typeof passwordResetRequestSchema>;

export function ForgotPasswordDialog({
  open,
  onOpenChange,
  defaultEmail,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  defaultEmail: string;
}) {
  const request = useRequestPasswordReset();
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const { register, handleSubmit, formState, reset } = useForm<
    Values,
    unknown,
    z.output<typeof passwordResetRequestSchema>
  >({
    resolver: zodResolver(passwordResetRequestSchema),
    defaultValues: { email: defaultEmail },
  });

  useEffect(() => {
    if (open) {
      reset({ email: defaultEmail });
      setSentTo(null);
      setError(null);
    }
  }, [open, defaultEmail, reset]);

  const onSubmit = handleSubmit(async ({ email }) => {
    setError(null);
    try {
      await request.mutateAsync(email);
      setSentTo(email);
    } catch (caught) {
      setError(errorMessage(caught));
    }
  });

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="sm:max-w-md">
        <DialogHeader>
          <DialogTitle>Redefinir senha</DialogTitle>
          <DialogDescription>Enviaremos um link para você criar uma nova senha.</DialogDescription>
        </DialogHeader>
        {sentTo ? (
          <Alert variant="success">
            <MailCheck />
            <AlertDescription>
              Se houver uma conta com o e-mail {sentTo}, você receberá o link em instantes. O link vale por 60 minutos.
            </AlertDescription>
          </Alert>
        ) : (
          <form id="forgot-password" onSubmit={onSubmit} noValidate className="grid gap-4">
            <FormField label="E-mail" htmlFor="forgot-email" required error={formState.errors.email?.message}>
              <Input {...register("email")} type="email" autoComplete="email" />
            </FormField>
            <FormErrorAlert message={error} />
          </form>
        )}
        <DialogFooter>
          {sentTo ? (
            <Button type="button" onClick={() => onOpenChange(false)}>
              Fechar
            </Button>
          ) : (
            <SubmitButton pending={formState.isSubmitting} form="forgot-password">
              Enviar link
            </SubmitButton>
          )}
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
