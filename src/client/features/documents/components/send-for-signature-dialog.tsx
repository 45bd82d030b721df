import { OctagonX, Send } from "lucide-react";
import { useEffect, useId, useState } from "react";
import { Link, useLocation } from "react-router";
import { toast } from "sonner";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
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
import { Label } from "@/components/ui/label";
import { Skeleton } from "@/components/ui/skeleton";
import { Spinner } from "@/components/ui/spinner";
import { errorMessage } from "@/lib/api";
import { DOCUMENT_VALIDITY_DAYS } from "@shared/schemas/document";
import { SIGNING_MESSAGES, type SendCheck, type SigningLink } from "@shared/schemas/signing";
import { signingLevelNotice, useSigningSettings } from "@/features/settings";
import { type SendMode, useSendCheck, useSendForSignature } from "../api/signing-api";
import { patientEditLink } from "../lib/patient-edit-link";
import { SendProblemsAlert } from "./send-problems-alert";
import { RESEND_WARNING, SigningLinkActions } from "./signing-link-actions";

export interface SendTarget {
  id: string;
  mode: SendMode;
  /** "#1a2b3c4d · Paciente" */
  label: string;
  /** Reenviar on an expired document: it gets a new deadline. */
  expired?: boolean;
}

/**
 * Enviar para Assinatura (draft) / Reenviar (sent, viewed or expired): first asks the server what
 * would stop it (GET send-check: the same rule sending applies) and says so inside the dialog,
 * with "Completar cadastro"; "Enviar também o link por e-mail" only when the patient has an
 * e-mail. A refusal from the server is shown inside the dialog too. Then the link, with Copiar
 * Link and WhatsApp.
 */
export function SendForSignatureDialog({
  target,
  onClose,
  canWrite = true,
}: {
  target: SendTarget | null;
  onClose: () => void;
  canWrite?: boolean;
}) {
  const send = useSendForSignature();
  const settings = useSigningSettings();
  const [email, setEmail] = useState(true);
  const [sms, setSms] = useState(false);
  const [result, setResult] = useState<SigningLink | null>(null);
  const [refusal, setRefusal] = useState<string | null>(null);
  const check = useSendCheck(target?.id, target !== null && result === null);
  const location = useLocation();
  const emailId = useId();
  const smsId = useId();

  useEffect(() => {
    setEmail(true);
    setSms(false);
    setResult(null);
    setRefusal(null);
  }, [target?.id, target?.mode]);

  const facts: SendCheck | undefined = check.data;
  // Production without SMTP: nothing reads the outbox, so no e-mail is offered (decision 067).
  const emailDeliverable = settings.data?.email_entregavel !== false;
  const emailPossible = facts?.email_possivel === true && emailDeliverable;
  const blocked = facts ? facts.problemas.some((problem) => problem.bloqueia) : false;
  // Signed "a rogo" (decision 070): nothing goes to the patient; the witnesses get their links by e-mail.
  const aRogo = facts?.a_rogo === true;
  const ready = Boolean(facts) && !blocked;
  // Decision 066: "SMS" when this server sends SMS; it needs a mobile on the record.
  const smsOffered = settings.data?.sms_configurado === true && !aRogo;
  const smsPossible = smsOffered && facts?.celular_possivel !== false;
  const returnTo = `${location.pathname}${location.search}`;

  async function confirm() {
    if (!target || !ready) return;
    setRefusal(null);
    const withEmail = email && emailPossible;
    const withSms = sms && smsPossible;
    try {
      const link = await send.mutateAsync({
        id: target.id,
        mode: target.mode,
        email: aRogo ? emailDeliverable : withEmail,
        sms: withSms,
      });
      setResult(link);
      toast.success(target.mode === "send" ? SIGNING_MESSAGES.sent : SIGNING_MESSAGES.resent);
      if (link.sms_enviado) toast.success(SMS_SENT);
      else if (link.sms_motivo) toast.warning(link.sms_motivo);
      if (withEmail) {
        if (link.email_na_caixa_de_saida) toast.warning(SIGNING_MESSAGES.emailInOutbox);
        else if (link.email_enviado) toast.success(SIGNING_MESSAGES.emailQueued);
      }
    } catch (error) {
      // The server is the authority: its pt-BR reason stays in the dialog, next to the button.
      setRefusal(errorMessage(error));
      void check.refetch();
    }
  }

  const resend = target?.mode === "resend";
  const renewed = resend && (facts?.novo_prazo ?? target?.expired === true);
  let description: string;
  if (result && aRogo)
    description =
      "Assinatura a rogo: com o paciente na clínica, use “Assinar neste aparelho” e leia o termo em voz alta para ele.";
  else if (result)
    description = "Envie este link ao paciente. Ele abre a página de assinatura no celular, sem precisar de conta.";
  else if (renewed)
    description = `${target?.label ?? ""}: o prazo de assinatura passou. Um novo link será gerado, com novo prazo de ${DOCUMENT_VALIDITY_DAYS} dias.`;
  else if (resend) description = `${target?.label ?? ""}: um novo link será gerado. ${RESEND_WARNING}.`;
  else description = `${target?.label ?? ""}: um link de assinatura será gerado e o documento passará a Enviado.`;

  const smsBox = (
    <div className="grid gap-1">
      <div className="flex items-center gap-2">
        <Checkbox
          id={smsId}
          checked={sms && smsPossible}
          onCheckedChange={(value) => setSms(value === true)}
          disabled={!canWrite || !smsPossible}
          aria-describedby={facts && !smsPossible ? `${smsId}-hint` : undefined}
          data-testid="send-sms-checkbox"
        />
        <Label htmlFor={smsId} className="font-normal">
          Enviar o link por SMS ao celular do paciente
        </Label>
      </div>
      {facts && !smsPossible ? (
        <p id={`${smsId}-hint`} className="pl-6 text-xs text-muted-foreground" data-testid="send-sms-missing">
          O paciente não tem celular cadastrado.{" "}
          <Link
            to={patientEditLink(facts.paciente_id, returnTo)}
            onClick={onClose}
            className="font-medium text-foreground underline underline-offset-4"
          >
            Cadastrar celular
          </Link>
        </p>
      ) : null}
    </div>
  );

  return (
    <Dialog open={target !== null} onOpenChange={(open) => !open && !send.isPending && onClose()}>
      <DialogContent
        className="max-h-[calc(100dvh-2rem)] overflow-y-auto sm:max-w-md"
        data-testid="send-for-signature-dialog"
      >
        <DialogHeader>
          <DialogTitle>
            {result ? "Link de assinatura" : resend ? "Reenviar link de assinatura" : "Enviar para Assinatura"}
          </DialogTitle>
          <DialogDescription>{description}</DialogDescription>
        </DialogHeader>
        {result && target ? (
          <div className="grid gap-3">
            {result.nivel === "simples" && result.motivo_simples ? (
              <p className="text-sm text-amber-700 dark:text-amber-400" data-testid="send-level">
                Assinatura eletrônica simples: {result.motivo_simples}
              </p>
            ) : null}
            {result.sms_enviado ? (
              <p className="text-sm text-muted-foreground" data-testid="send-sms-result">
                {SMS_SENT}
              </p>
            ) : result.sms_motivo ? (
              <p className="text-sm text-amber-700 dark:text-amber-400" data-testid="send-sms-result">
                {result.sms_motivo}
              </p>
            ) : null}
            <SigningLinkActions documentId={target.id} link={result} canWrite={false} />
          </div>
        ) : (
          <div className="grid gap-3">
            {check.isPending ? <Skeleton className="h-10 w-full" /> : null}
            {check.isError ? (
              <Alert variant="destructive" data-testid="send-check-error">
                <OctagonX />
                <AlertTitle>Não foi possível conferir o documento</AlertTitle>
                <AlertDescription>{errorMessage(check.error)}</AlertDescription>
              </Alert>
            ) : null}
            {facts ? (
              <SendProblemsAlert
                problems={facts.problemas.map((problem) => ({
                  code: problem.codigo,
                  message: problem.mensagem,
                  blocking: problem.bloqueia,
                }))}
                patientId={facts.paciente_id}
                returnTo={returnTo}
                blockingTitle={
                  resend ? "Não é possível reenviar este documento" : "Não é possível enviar este documento"
                }
                onNavigate={onClose}
              />
            ) : null}
            {refusal ? (
              <Alert variant="destructive" data-testid="send-refused">
                <OctagonX />
                <AlertTitle>{resend ? "O documento não foi reenviado" : "O documento não foi enviado"}</AlertTitle>
                <AlertDescription>{refusal}</AlertDescription>
              </Alert>
            ) : null}
            {aRogo ? (
              <p className="text-sm text-muted-foreground" data-testid="send-a-rogo">
                Assinatura a rogo: o link não é enviado ao paciente. Ele assina aqui na clínica, em “Assinar neste
                aparelho”; as testemunhas recebem cada uma o próprio link.
              </p>
            ) : (
              <div className="grid gap-1">
                {/* Decision 067: without e-mail, the ways that work come first; the e-mail box stays, off. */}
                {facts && !emailDeliverable ? (
                  <p
                    id={`${emailId}-hint`}
                    className="text-sm text-muted-foreground"
                    data-testid="send-email-undeliverable"
                  >
                    {smsOffered ? EMAIL_UNDELIVERABLE_SMS : EMAIL_UNDELIVERABLE}
                  </p>
                ) : null}
                {smsOffered && !emailDeliverable ? smsBox : null}
                <div className="flex items-center gap-2">
                  <Checkbox
                    id={emailId}
                    checked={email && emailPossible}
                    onCheckedChange={(value) => setEmail(value === true)}
                    disabled={!canWrite || !emailPossible}
                    aria-describedby={facts && !emailPossible ? `${emailId}-hint` : undefined}
                    data-testid="send-email-checkbox"
                  />
                  <Label htmlFor={emailId} className="font-normal">
                    Enviar também o link por e-mail ao paciente
                  </Label>
                </div>
                {facts && !emailDeliverable ? null : facts && !emailPossible ? (
                  <p
                    id={`${emailId}-hint`}
                    className="pl-6 text-xs text-muted-foreground"
                    data-testid="send-email-missing"
                  >
                    {SIGNING_MESSAGES.patientEmailMissing}.{" "}
                    <Link
                      to={patientEditLink(facts.paciente_id, returnTo)}
                      onClick={onClose}
                      className="font-medium text-foreground underline underline-offset-4"
                    >
                      Cadastrar e-mail
                    </Link>
                  </p>
                ) : null}
                {smsOffered && emailDeliverable ? smsBox : null}
              </div>
            )}
            {settings.data && !blocked ? <SendLevelNotice settings={settings.data} /> : null}
          </div>
        )}
        <DialogFooter>
          {result ? (
            <Button variant="outline" onClick={onClose}>
              Fechar
            </Button>
          ) : (
            <>
              <Button variant="outline" onClick={onClose} disabled={send.isPending}>
                Voltar
              </Button>
              <Button onClick={() => void confirm()} disabled={send.isPending || !canWrite || !ready}>
                {send.isPending ? <Spinner /> : <Send />} {resend ? "Reenviar" : "Enviar para Assinatura"}
              </Button>
            </>
          )}
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}

/** The one sentence of a server that sends no e-mail (production without SMTP, decision 067). */
const EMAIL_UNDELIVERABLE = "Este servidor não envia e-mails: envie o link pelo WhatsApp ou copie-o.";
/** The same sentence when this server sends SMS (decision 066): SMS comes first. */
const EMAIL_UNDELIVERABLE_SMS = "Este servidor não envia e-mails: envie o link por SMS, pelo WhatsApp ou copie-o.";
const SMS_SENT = "Link enviado por SMS ao celular do paciente.";

/** Before sending: what the signature will reach, and whether an e-mail can leave this server. */
function SendLevelNotice({ settings }: { settings: Parameters<typeof signingLevelNotice>[0] }) {
  const level = signingLevelNotice(settings);
  // The e-mail was already said once above: the level alone, without repeating it.
  const notice =
    !settings.email_entregavel && level.level === "simples" && settings.codigo_email
      ? {
          ...level,
          text: "Nenhum código pode chegar ao paciente: o documento será assinado com assinatura eletrônica simples.",
        }
      : level;
  return (
    <div className="grid gap-1 text-sm" data-testid="send-level-notice">
      <p className={notice.level === "simples" ? "text-amber-700 dark:text-amber-400" : "text-muted-foreground"}>
        {notice.text}
      </p>
      {settings.email_entregavel && !settings.email_configurado ? (
        <p className="text-amber-700 dark:text-amber-400">
          O envio de e-mail não está configurado: o e-mail ficará na caixa de saída. Envie o link pelo WhatsApp ou
          copie-o.
        </p>
      ) : null}
    </div>
  );
}
