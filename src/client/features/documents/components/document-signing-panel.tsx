import { Eye, FileCheck2, RefreshCw, Send, TabletSmartphone, UserPen } from "lucide-react";
import type * as React from "react";
import { useState } from "react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Skeleton } from "@/components/ui/skeleton";
import { Spinner } from "@/components/ui/spinner";
import { DOCUMENT_MESSAGES, type DocumentDetail, shortDocumentId } from "@shared/schemas/document";
import { SIGNING_MESSAGES } from "@shared/schemas/signing";
import { useSigningLink } from "../api/signing-api";
import { SIGNED_PDF_LABEL, SIGNED_PDF_PREPARING, useSignedPdfDownload } from "../lib/use-signed-pdf-download";
import { ContactFixDialog } from "./contact-fix-dialog";
import { SendForSignatureDialog, type SendTarget } from "./send-for-signature-dialog";
import { ProfessionalSignature } from "./professional-signature";
import { SigningLinkActions } from "./signing-link-actions";
import { HandOverDialog, type HandOverTarget } from "@/features/front-desk";
import { useSigningSettings } from "@/features/settings";

const awaitingSignature = (status: string) => status === "sent" || status === "viewed";

/**
 * What the document offers about signing (preview dialog and document page): Enviar para
 * Assinatura on a draft; the live link ('Pronto para assinatura') with its actions on a sent or
 * viewed one; Reenviar (new deadline) on an expired one; the sealed PDF once signed.
 */
export function DocumentSigningPanel({
  doc,
  canWrite,
  signedPdf = true,
}: {
  doc: DocumentDetail;
  canWrite: boolean;
  signedPdf?: boolean;
}) {
  const [target, setTarget] = useState<SendTarget | null>(null);
  const signingSettings = useSigningSettings();
  const [handOver, setHandOver] = useState<HandOverTarget | null>(null);
  const [fixingContact, setFixingContact] = useState(false);
  const live = awaitingSignature(doc.status);
  // Whoever sees the link can open the term: it is fetched (and audited) only when asked for.
  const [revealed, setRevealed] = useState(false);
  const link = useSigningLink(doc.id, live && revealed);
  const label = `${shortDocumentId(doc.id)} · ${doc.paciente_nome ?? DOCUMENT_MESSAGES.noPatient}`;

  let body: React.ReactNode = null;
  if (doc.status === "draft") {
    // Only a clinic that chose "antes do envio" waits for the professional before sending (decision 050).
    // Until the setting is known the button waits too (the send dialog would say why anyway).
    const awaitingProfessional =
      doc.assinaturas_pendentes.includes("profissional") &&
      (!signingSettings.data || signingSettings.data.ordem_profissional === "antes_do_envio");
    body = (
      <>
        <ProfessionalSignature doc={doc} />
        {canWrite ? (
          <Button
            onClick={() => setTarget({ id: doc.id, mode: "send", label })}
            className="w-full"
            disabled={awaitingProfessional}
          >
            <Send /> Enviar para Assinatura
          </Button>
        ) : null}
      </>
    );
  } else if (live) {
    if (!revealed && !link.data) {
      body = (
        <>
          <ProfessionalSignature doc={doc} />
          <Badge variant="success" className="w-fit" data-testid="ready-to-sign">
            {DOCUMENT_MESSAGES.readyToSign}
          </Badge>
          <Button variant="outline" onClick={() => setRevealed(true)} data-testid="show-signing-link">
            <Eye /> Mostrar link de assinatura
          </Button>
          <p className="text-xs text-muted-foreground">
            Quem tem o link pode abrir o documento: cada exibição fica registrada na auditoria com o seu nome.
          </p>
        </>
      );
    } else if (link.isPending) body = <Skeleton className="h-24 w-full" />;
    else if (link.data) {
      body = (
        <>
          <ProfessionalSignature doc={doc} />
          <Badge variant="success" className="w-fit" data-testid="ready-to-sign">
            {DOCUMENT_MESSAGES.readyToSign}
          </Badge>
          <SigningLinkActions documentId={doc.id} link={link.data} canWrite={canWrite} />
        </>
      );
    } else {
      body = (
        <>
          <p className="text-sm text-muted-foreground">
            {link.isError ? SIGNING_MESSAGES.linkError : SIGNING_MESSAGES.tokenMissing}
          </p>
          {canWrite ? (
            <Button variant="outline" onClick={() => setTarget({ id: doc.id, mode: "resend", label })}>
              <RefreshCw /> Reenviar
            </Button>
          ) : null}
        </>
      );
    }
  } else if (doc.status === "expired" && canWrite) {
    // "Reenvie ou cancele": a new link with a new deadline (Cancelar is beside the title).
    body = (
      <>
        <p className="text-sm text-muted-foreground">
          O prazo de assinatura passou. Reenvie para gerar um novo link, com novo prazo.
        </p>
        <Button
          onClick={() => setTarget({ id: doc.id, mode: "resend", label, expired: true })}
          data-testid="resend-expired"
        >
          <RefreshCw /> Reenviar
        </Button>
      </>
    );
  } else if (doc.status === "signed" && signedPdf) {
    body = <SignedPdfButton id={doc.id} />;
  }

  if (!body) return null;
  return (
    <section className="grid gap-3" aria-label="Assinatura" data-testid="signing-panel">
      {body}
      {live &&
      canWrite &&
      doc.assinaturas_pendentes.some((papel) => papel === "paciente" || papel === "responsavel") ? (
        // Front-desk signing: the patient signs on this device, which stays locked until the staff password.
        <Button
          variant="outline"
          onClick={() => setHandOver({ id: doc.id, titulo: doc.titulo, paciente: doc.paciente_nome })}
          data-testid="front-desk-start"
        >
          <TabletSmartphone /> Assinar neste aparelho
        </Button>
      ) : null}
      {(live || doc.status === "expired") &&
      canWrite &&
      doc.paciente &&
      doc.assinaturas_pendentes.some((papel) => papel === "paciente" || papel === "responsavel") ? (
        // A wrong e-mail or mobile found after sending is fixed here, keeping the document.
        <>
          <Button variant="outline" onClick={() => setFixingContact(true)} data-testid="contact-fix-open">
            <UserPen /> Corrigir contato e reenviar
          </Button>
          <ContactFixDialog doc={doc} open={fixingContact} onOpenChange={setFixingContact} />
        </>
      ) : null}
      <HandOverDialog target={handOver} onOpenChange={(open) => !open && setHandOver(null)} />
      <SendForSignatureDialog target={target} onClose={() => setTarget(null)} canWrite={canWrite} />
    </section>
  );
}

/**
 * The primary download of a signed document: the sealed PDF (document + signatures + registry,
 * PAdES). While the job is still sealing it the label says so and the hook tries again.
 */
export function SignedPdfButton({ id, hint = true, className }: { id: string; hint?: boolean; className?: string }) {
  const { state, download } = useSignedPdfDownload();
  return (
    <div className={`grid gap-1.5 ${className ?? ""}`}>
      <Button onClick={() => download(id)} disabled={state !== "idle"} data-testid="signed-pdf-button">
        {state === "idle" ? <FileCheck2 /> : <Spinner />}{" "}
        {state === "preparing" ? "Preparando PDF assinado…" : SIGNED_PDF_LABEL}
      </Button>
      {hint && state === "preparing" ? (
        <p className="text-xs text-muted-foreground" role="status">
          {SIGNED_PDF_PREPARING}
        </p>
      ) : null}
    </div>
  );
}
