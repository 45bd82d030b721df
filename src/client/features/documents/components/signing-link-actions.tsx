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
import { ApiError } from "@/lib/api";
import { SIGNING_MESSAGES, type SigningLink } from "@shared/schemas/signing";
import { useSendForSignature } from "../api/signing-api";
import { copyText } from "../lib/clipboard";

export const RESEND_WARNING = "O link anterior deixará de funcionar";

const reason = (error: unknown) => (error instanceof ApiError ? error.message : "Erro inesperado. Tente novamente em instantes.");

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
 * The live link and what staff do with it (spec part 1 §2): Copiar Link, Email, WhatsApp and,
 * for writers, Reenviar. There is no "e-mail the same link" call: Email issues a new link and
 * e-mails it (after saying the old one stops working), so what the patient receives always works.
 */
export function SigningLinkActions({ documentId, link, canWrite }: { documentId: string; link: SigningLink; canWrite: boolean }) {
  const [confirm, setConfirm] = useState<null | "email" | "resend">(null);
  const send = useSendForSignature();

  async function resend(email: boolean) {
    try {
      const fresh = await send.mutateAsync({ id: documentId, mode: "resend", email });
      setConfirm(null);
      toast.success(SIGNING_MESSAGES.resent);
      if (email) {
        if (fresh.email_enviado) toast.success(SIGNING_MESSAGES.emailQueued);
        else toast.warning(SIGNING_MESSAGES.patientEmailMissing);
        if (await copyText(fresh.link)) toast.success(SIGNING_MESSAGES.linkCopied);
      }
    } catch (error) {
      setConfirm(null);
      toast.error(SIGNING_MESSAGES.linkError, { description: reason(error) });
    }
  }

  return (
    <div className="grid gap-3" data-testid="signing-link-panel">
      <Input readOnly value={link.link} aria-label="Link de assinatura" className="font-mono text-xs" onFocus={(event) => event.currentTarget.select()} data-testid="signing-link" />
      <div className="grid grid-cols-2 gap-2">
        <Button variant="outline" size="sm" onClick={() => void copyLink(link.link)}>
          <Copy /> Copiar Link
        </Button>
        <Button variant="outline" size="sm" onClick={() => shareOnWhatsApp(link)}>
          <MessageCircle /> WhatsApp
        </Button>
        {canWrite ? (
          <>
            <Button variant="outline" size="sm" onClick={() => setConfirm("email")}>
              <Mail /> Email
            </Button>
            <Button variant="outline" size="sm" onClick={() => setConfirm("resend")}>
              <RefreshCw /> Reenviar
            </Button>
          </>
        ) : null}
      </div>
      <AlertDialog open={confirm !== null} onOpenChange={(open) => !open && !send.isPending && setConfirm(null)}>
        <AlertDialogContent>
          <AlertDialogHeader>
            <AlertDialogTitle>{confirm === "email" ? "Enviar o link por e-mail?" : "Reenviar link de assinatura?"}</AlertDialogTitle>
            <AlertDialogDescription>
              {confirm === "email"
                ? `Um novo link será gerado e enviado ao e-mail cadastrado do paciente. ${RESEND_WARNING}.`
                : `Um novo link será gerado. ${RESEND_WARNING}.`}
            </AlertDialogDescription>
          </AlertDialogHeader>
          <AlertDialogFooter>
            <AlertDialogCancel disabled={send.isPending}>Voltar</AlertDialogCancel>
            <Button onClick={() => void resend(confirm === "email")} disabled={send.isPending}>
              {send.isPending ? <Spinner /> : confirm === "email" ? <Mail /> : <RefreshCw />}
              {confirm === "email" ? "Gerar e enviar" : "Reenviar"}
            </Button>
          </AlertDialogFooter>
        </AlertDialogContent>
      </AlertDialog>
    </div>
  );
}
