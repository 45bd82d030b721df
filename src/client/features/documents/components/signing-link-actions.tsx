import { Copy, Mail, MessageCircle, RefreshCw } from "lucide-react";
import { useState } from "react";
import { toast } from "sonner";
import {
  AlertDialog,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from "@/components/ui/alert-dialog";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Spinner } from "@/components/ui/spinner";
import { errorMessage } from "@/lib/api";
import { SIGNING_MESSAGES, type SigningLink } from "@shared/schemas/signing";
import { useSigningSettings } from "@/features/settings";
import { useEmailSigningLink, useSendForSignature } from "../api/signing-api";
import { copyText } from "../lib/clipboard";

export const RESEND_WARNING = "O link anterior deixará de funcionar";

export async function copyLink(link: string | undefined | null) {
  if (!link) return void toast.error(SIGNING_MESSAGES.tokenMissing);
  if (await copyText(link)) toast.success(SIGNING_MESSAGES.linkCopied);
  else toast.error(SIGNING_MESSAGES.linkError, { description: "Copie o link selecionando o texto." });
}

/** Copies the ready message and opens WhatsApp (wa.me, the patient's phone) in a new tab. */
export function shareOnWhatsApp(link: SigningLink | null | undefined) {
  if (!link) return void toast.error(SIGNING_MESSAGES.tokenMissing);
  // Open first, inside the click: browsers block pop-ups opened after an await.
  window.open(link.whatsapp_url, "_blank", "noopener,noreferrer");
  void copyText(link.whatsapp_text).then((copied) =>
    copied ? toast.success(SIGNING_MESSAGES.messageCopied) : toast.error(SIGNING_MESSAGES.whatsappError),
  );
}

/**
 * The live link and what staff do with it (spec part 1 §2): Copiar Link, Email (e-mails the
 * patient this same link and copies it), WhatsApp and, for writers, Reenviar (a new link; the
 * old one stops working, so it asks first).
 */
export function SigningLinkActions({
  documentId,
  link,
  canWrite,
}: {
  documentId: string;
  link: SigningLink;
  canWrite: boolean;
}) {
  const [confirm, setConfirm] = useState<null | "resend">(null);
  const send = useSendForSignature();
  const emailLink = useEmailSigningLink();
  const emailDeliverable = useSigningSettings().data?.email_entregavel !== false;

  async function resend() {
    try {
      await send.mutateAsync({ id: documentId, mode: "resend", email: false });
      setConfirm(null);
      toast.success(SIGNING_MESSAGES.resent);
    } catch (error) {
      setConfirm(null);
      toast.error(SIGNING_MESSAGES.linkError, { description: errorMessage(error) });
    }
  }

  async function email() {
    try {
      const sent = await emailLink.mutateAsync({ id: documentId });
      if (sent.email_na_caixa_de_saida) toast.warning(SIGNING_MESSAGES.emailInOutbox);
      else toast.success(SIGNING_MESSAGES.emailQueued);
      if (await copyText(sent.link)) toast.success(SIGNING_MESSAGES.linkCopied);
    } catch (error) {
      toast.error(SIGNING_MESSAGES.linkError, { description: errorMessage(error) });
    }
  }

  return (
    <div className="grid gap-3" data-testid="signing-link-panel">
      <Input
        readOnly
        value={link.link}
        aria-label="Link de assinatura"
        className="font-mono text-xs"
        onFocus={(event) => event.currentTarget.select()}
        data-testid="signing-link"
      />
      <div className="grid grid-cols-2 gap-2">
        <Button variant="outline" size="sm" onClick={() => void copyLink(link.link)}>
          <Copy /> Copiar Link
        </Button>
        <Button variant="outline" size="sm" onClick={() => shareOnWhatsApp(link)}>
          <MessageCircle /> WhatsApp
        </Button>
        {canWrite ? (
          <>
            {/* Production without SMTP: no e-mail into an outbox nobody reads (decision 067). */}
            {emailDeliverable ? (
              <Button variant="outline" size="sm" disabled={emailLink.isPending} onClick={() => void email()}>
                {emailLink.isPending ? <Spinner /> : <Mail />} Email
              </Button>
            ) : null}
            <Button variant="outline" size="sm" onClick={() => setConfirm("resend")}>
              <RefreshCw /> Reenviar
            </Button>
          </>
        ) : null}
      </div>
      <AlertDialog open={confirm !== null} onOpenChange={(open) => !open && !send.isPending && setConfirm(null)}>
        <AlertDialogContent>
          <AlertDialogHeader>
            <AlertDialogTitle>Reenviar link de assinatura?</AlertDialogTitle>
            <AlertDialogDescription>{`Um novo link será gerado. ${RESEND_WARNING}.`}</AlertDialogDescription>
          </AlertDialogHeader>
          <AlertDialogFooter>
            <AlertDialogCancel disabled={send.isPending}>Voltar</AlertDialogCancel>
            <Button onClick={() => void resend()} disabled={send.isPending}>
              {send.isPending ? <Spinner /> : <RefreshCw />}
              Reenviar
            </Button>
          </AlertDialogFooter>
        </AlertDialogContent>
      </AlertDialog>
    </div>
  );
}
