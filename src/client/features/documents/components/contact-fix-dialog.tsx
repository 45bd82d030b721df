import { UserPen } from "lucide-react";
import { useEffect, useId, useState } from "react";
import { useForm, useWatch } from "react-hook-form";
import { toast } from "sonner";
import { FormErrorAlert } from "@/components/form/form-error-alert";
import { MaskedInput } from "@/components/form/masked-input";
import { PHONE_MASK } from "@/components/form/masks";
import { SubmitButton } from "@/components/form/submit-button";
import { Button } from "@/components/ui/button";
import { Checkbox } from "@/components/ui/checkbox";
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
import { Label } from "@/components/ui/label";
import { applyServerErrors } from "@/lib/form-errors";
import { useSigningSettings } from "@/features/settings";
import { maskPhone } from "@shared/br/masks";
import { isMobilePhone, normalizePhone } from "@shared/br/phone";
import type { DocumentDetail } from "@shared/schemas/document";
import { CONTACT_FIX_MESSAGES, contactFixInputSchema, type SigningLink } from "@shared/schemas/signing";
import { useFixContact } from "../api/signing-api";
import { SigningLinkActions } from "./signing-link-actions";

interface Values {
  email: string;
  telefone: string;
}
const FIELDS = ["email", "telefone"] as const;

/**
 * "Corrigir contato e reenviar" on a sent, viewed or expired document: the patient's e-mail or
 * mobile as they should be; only what changed is sent. The server puts it on the record, records
 * the change on the document and sends a new link (the old one and any pending code stop working).
 * "SMS" when this server sends SMS (decision 066), as in Reenviar: to the corrected mobile.
 */
export function ContactFixDialog({
  doc,
  open,
  onOpenChange,
}: {
  doc: DocumentDetail;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const fix = useFixContact();
  const settings = useSigningSettings();
  const emailId = useId();
  const smsId = useId();
  const [sendEmail, setSendEmail] = useState(true);
  const [sendSms, setSendSms] = useState(false);
  const [formError, setFormError] = useState<string | null>(null);
  const [result, setResult] = useState<SigningLink | null>(null);
  const recorded = { email: doc.paciente?.email ?? "", telefone: doc.paciente?.telefone ?? "" };
  const form = useForm<Values>({
    defaultValues: { email: recorded.email, telefone: recorded.telefone ? maskPhone(recorded.telefone) : "" },
  });
  const { register, handleSubmit, reset, setError, formState, control } = form;
  const emailDelivery = settings.data?.email_entregavel === true;
  // Decision 066: offered when this server sends SMS (not to a patient signing "a rogo", decision
  // 070); it needs a mobile in the field, the corrected one or the one on record.
  const typedPhone = useWatch({ control, name: "telefone" });
  const smsOffered = settings.data?.sms_configurado === true && !doc.a_rogo;
  const smsPossible = smsOffered && isMobilePhone(typedPhone);

  useEffect(() => {
    if (!open) return;
    setResult(null);
    setFormError(null);
    setSendEmail(true);
    setSendSms(false);
    reset({ email: recorded.email, telefone: recorded.telefone ? maskPhone(recorded.telefone) : "" });
    // Reset only when the dialog opens; the recorded values are read then.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [open]);

  const submit = handleSubmit(async (values) => {
    setFormError(null);
    const email = values.email.trim();
    const telefone = values.telefone.trim();
    const body = {
      ...(email.toLowerCase() !== recorded.email.toLowerCase() ? { email } : {}),
      ...(normalizePhone(telefone) !== normalizePhone(recorded.telefone) ? { telefone } : {}),
      enviar_email: emailDelivery && sendEmail && (email || recorded.email) !== "",
      ...(smsOffered && sendSms && isMobilePhone(telefone) ? { sms: true } : {}),
    };
    const parsed = contactFixInputSchema.safeParse(body);
    if (!parsed.success) {
      let placed = false;
      for (const issue of parsed.error.issues) {
        const field = issue.path[0];
        if (field === "email" || field === "telefone") {
          setError(field, { type: "validate", message: issue.message });
          placed = true;
        } else setFormError(issue.message);
      }
      if (!placed && parsed.error.issues.length === 0) setFormError(CONTACT_FIX_MESSAGES.nothing);
      return;
    }
    try {
      const link = await fix.mutateAsync({ id: doc.id, body });
      setResult(link);
      toast.success(CONTACT_FIX_MESSAGES.done);
      if (link.sms_enviado) toast.success(SMS_SENT);
      else if (link.sms_motivo) toast.warning(link.sms_motivo);
    } catch (error) {
      setFormError(applyServerErrors(error, setError, FIELDS));
    }
  });

  return (
    <Dialog open={open} onOpenChange={(next) => !fix.isPending && onOpenChange(next)}>
      <DialogContent className="max-h-[calc(100dvh-2rem)] overflow-y-auto sm:max-w-md" data-testid="contact-fix-dialog">
        <DialogHeader>
          <DialogTitle>{result ? "Novo link de assinatura" : "Corrigir contato e reenviar"}</DialogTitle>
          <DialogDescription>
            {result
              ? "O link anterior e os códigos já enviados deixaram de funcionar. Envie este link ao paciente."
              : `Corrija o e-mail ou o celular de ${doc.paciente_nome ?? "paciente"}. O cadastro é atualizado, um novo link é gerado e o anterior deixa de funcionar; a correção fica no registro do documento.`}
          </DialogDescription>
        </DialogHeader>
        {result ? (
          <>
            {result.sms_enviado ? (
              <p className="text-sm text-muted-foreground" data-testid="contact-fix-sms-result">
                {SMS_SENT}
              </p>
            ) : result.sms_motivo ? (
              <p className="text-sm text-amber-700 dark:text-amber-400" data-testid="contact-fix-sms-result">
                {result.sms_motivo}
              </p>
            ) : null}
            <SigningLinkActions documentId={doc.id} link={result} canWrite={false} />
            <DialogFooter>
              <Button variant="outline" onClick={() => onOpenChange(false)}>
                Fechar
              </Button>
            </DialogFooter>
          </>
        ) : (
          <form
            onSubmit={(event) => void submit(event)}
            className="grid gap-3"
            noValidate
            aria-label="Corrigir contato"
          >
            {formError ? <FormErrorAlert message={formError} /> : null}
            <FormField label="E-mail" htmlFor="contato-email" error={formState.errors.email?.message}>
              <Input {...register("email")} type="email" autoComplete="off" />
            </FormField>
            <FormField
              label="Celular"
              htmlFor="contato-telefone"
              error={formState.errors.telefone?.message}
              hint="O código de assinatura pode ir por SMS ou WhatsApp para este celular."
            >
              <MaskedInput {...register("telefone")} mask={PHONE_MASK} inputMode="tel" placeholder="(00) 00000-0000" />
            </FormField>
            <div className="grid gap-1">
              <div className="flex items-center gap-2">
                <Checkbox
                  id={emailId}
                  checked={emailDelivery && sendEmail}
                  onCheckedChange={(value) => setSendEmail(value === true)}
                  disabled={!emailDelivery}
                  data-testid="contact-fix-email-checkbox"
                />
                <Label htmlFor={emailId} className="font-normal">
                  Enviar o novo link por e-mail
                </Label>
              </div>
              {settings.data && !emailDelivery ? (
                <p className="pl-6 text-xs text-muted-foreground">
                  Este servidor não envia e-mails: envie o novo link pelo WhatsApp ou copie-o.
                </p>
              ) : null}
            </div>
            {smsOffered ? (
              <div className="grid gap-1">
                <div className="flex items-center gap-2">
                  <Checkbox
                    id={smsId}
                    checked={smsPossible && sendSms}
                    onCheckedChange={(value) => setSendSms(value === true)}
                    disabled={!smsPossible}
                    aria-describedby={smsPossible ? undefined : `${smsId}-hint`}
                    data-testid="contact-fix-sms-checkbox"
                  />
                  <Label htmlFor={smsId} className="font-normal">
                    Enviar o novo link por SMS ao celular
                  </Label>
                </div>
                {smsPossible ? null : (
                  <p id={`${smsId}-hint`} className="pl-6 text-xs text-muted-foreground">
                    {SMS_NEEDS_MOBILE}
                  </p>
                )}
              </div>
            ) : null}
            <DialogFooter>
              <Button type="button" variant="outline" onClick={() => onOpenChange(false)} disabled={fix.isPending}>
                Voltar
              </Button>
              <SubmitButton pending={fix.isPending}>
                <UserPen /> Corrigir e reenviar
              </SubmitButton>
            </DialogFooter>
          </form>
        )}
      </DialogContent>
    </Dialog>
  );
}

const SMS_SENT = "Novo link enviado por SMS ao celular do paciente.";
const SMS_NEEDS_MOBILE = "Informe um celular com DDD para enviar o novo link por SMS.";
