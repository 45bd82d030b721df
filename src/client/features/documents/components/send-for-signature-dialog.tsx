import { Send } from "lucide-react";
import { useEffect, useId, useState } from "react";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import { Checkbox } from "@/components/ui/checkbox";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { Label } from "@/components/ui/label";
import { Spinner } from "@/components/ui/spinner";
import { errorMessage } from "@/lib/api";
import { SIGNING_MESSAGES, type SigningLink } from "@shared/schemas/signing";
import { signingLevelNotice, useSigningSettings } from "@/features/settings/api/settings-api";
import { type SendMode, useSendForSignature } from "../api/signing-api";
import { RESEND_WARNING, SigningLinkActions } from "./signing-link-actions";

export interface SendTarget {
  id: string;
  mode: SendMode;
  /** "#1a2b3c4d · Paciente" */
  label: string;
}


/**
 * Enviar para Assinatura (draft) / Reenviar (sent or viewed): confirm (optionally e-mailing the
 * link to the patient), then show the link with Copiar Link and WhatsApp.
 */
export function SendForSignatureDialog({ target, onClose, canWrite = true }: { target: SendTarget | null; onClose: () => void; canWrite?: boolean }) {
  const send = useSendForSignature();
  const settings = useSigningSettings();
  const [email, setEmail] = useState(true);
  const [result, setResult] = useState<SigningLink | null>(null);
  const emailId = useId();

  useEffect(() => {
    setEmail(true);
    setResult(null);
  }, [target?.id, target?.mode]);

  async function confirm() {
    if (!target) return;
    try {
      const link = await send.mutateAsync({ id: target.id, mode: target.mode, email });
      setResult(link);
      toast.success(target.mode === "send" ? SIGNING_MESSAGES.sent : SIGNING_MESSAGES.resent);
      if (email) {
        if (link.email_na_caixa_de_saida) toast.warning(SIGNING_MESSAGES.emailInOutbox);
        else if (link.email_enviado) toast.success(SIGNING_MESSAGES.emailQueued);
        else toast.warning(SIGNING_MESSAGES.patientEmailMissing);
      }
    } catch (error) {
      toast.error(SIGNING_MESSAGES.linkError, { description: errorMessage(error) });
    }
  }

  const resend = target?.mode === "resend";
  return (
    <Dialog open={target !== null} onOpenChange={(open) => !open && !send.isPending && onClose()}>
      <DialogContent className="sm:max-w-md" data-testid="send-for-signature-dialog">
        <DialogHeader>
          <DialogTitle>{result ? "Link de assinatura" : resend ? "Reenviar link de assinatura" : "Enviar para Assinatura"}</DialogTitle>
          <DialogDescription>
            {result
              ? "Envie este link ao paciente. Ele abre a página de assinatura no celular, sem precisar de conta."
              : resend
                ? `${target?.label ?? ""}: um novo link será gerado. ${RESEND_WARNING}.`
                : `${target?.label ?? ""}: um link de assinatura será gerado e o documento passará a Enviado.`}
          </DialogDescription>
        </DialogHeader>
        {result && target ? (
          <div className="grid gap-3">
            {result.nivel === "simples" && result.motivo_simples ? (
              <p className="text-sm text-amber-700 dark:text-amber-400" data-testid="send-level">
                Assinatura eletrônica simples: {result.motivo_simples}
              </p>
            ) : null}
            <SigningLinkActions documentId={target.id} link={result} canWrite={false} />
          </div>
        ) : (
          <div className="grid gap-3">
            <div className="flex items-center gap-2">
              <Checkbox id={emailId} checked={email} onCheckedChange={(value) => setEmail(value === true)} disabled={!canWrite} />
              <Label htmlFor={emailId} className="font-normal">
                Enviar também o link por e-mail ao paciente
              </Label>
            </div>
            {settings.data ? <SendLevelNotice settings={settings.data} /> : null}
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
              <Button onClick={() => void confirm()} disabled={send.isPending || !canWrite}>
                {send.isPending ? <Spinner /> : <Send />} {resend ? "Reenviar" : "Enviar para Assinatura"}
              </Button>
            </>
          )}
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}

/** Before sending: what the signature will reach, and whether an e-mail can leave this server. */
function SendLevelNotice({ settings }: { settings: Parameters<typeof signingLevelNotice>[0] }) {
  const notice = signingLevelNotice(settings);
  return (
    <div className="grid gap-1 text-sm" data-testid="send-level-notice">
      <p className={notice.level === "simples" ? "text-amber-700 dark:text-amber-400" : "text-muted-foreground"}>{notice.text}</p>
      {!settings.email_configurado ? (
        <p className="text-amber-700 dark:text-amber-400">O envio de e-mail não está configurado: o e-mail ficará na caixa de saída. Envie o link pelo WhatsApp ou copie-o.</p>
      ) : null}
    </div>
  );
}
