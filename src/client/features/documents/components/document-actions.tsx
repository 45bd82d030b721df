import {
  Ban,
  CloudUpload,
  Download,
  Eye,
  FileCheck2,
  FileSearch,
  History,
  MoreHorizontal,
  RefreshCw,
  RotateCcw,
  Send,
  Trash2,
} from "lucide-react";
import type * as React from "react";
import { useState } from "react";
import { Link } from "react-router";
import { Button } from "@/components/ui/button";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from "@/components/ui/dropdown-menu";
import { Sheet, SheetContent, SheetDescription, SheetHeader, SheetTitle } from "@/components/ui/sheet";
import { DOCUMENT_MESSAGES, type DocumentSummary } from "@shared/schemas/document";
import type { FeegowUpload } from "@shared/schemas/feegow";
import { removalFor } from "../lib/format";
import { DRAFT_PDF_LABEL, SIGNED_PDF_LABEL } from "../lib/use-signed-pdf-download";
import type { RemovalTarget } from "./document-remove-dialog";
import type { SendTarget } from "./send-for-signature-dialog";

/** What the list does for a row's actions (the page owns the dialogs). */
export interface DocumentRowHandlers {
  canDelete: boolean;
  onPreview: (id: string) => void;
  /** The draft PDF (watermarked 'RASCUNHO – sem validade'). */
  onDownload: (id: string) => void;
  /** The sealed PDF of a signed document (its primary download). */
  onDownloadSigned: (id: string) => void;
  onRemove: (target: RemovalTarget) => void;
  /** Enviar para Assinatura / Reenviar; absent when the user may not send. */
  onSend?: (target: SendTarget) => void;
  /** "Gerar e Enviar PDF" to Feegow; absent when the upload is off or the user may not write. */
  onFeegowUpload?: (id: string) => void;
  /** The latest Feegow upload of each listed document, when the clinic uses it. */
  feegowUploads?: ReadonlyMap<string, FeegowUpload>;
  /** "Tentar de novo" on a failed upload. */
  onFeegowRetry?: (upload: FeegowUpload) => void;
}

/**
 * Drafts are sent, sent or viewed documents resent (spec part 1 §2, §4); an expired one is resent
 * too, with a new deadline ("Reenvie ou cancele", the list's warning card).
 */
export function sendTarget(doc: DocumentSummary): SendTarget | null {
  const label = `${doc.short_id} · ${doc.paciente_nome ?? DOCUMENT_MESSAGES.noPatient}`;
  if (doc.status === "draft") return { id: doc.id, mode: "send", label };
  if (doc.status === "sent" || doc.status === "viewed") return { id: doc.id, mode: "resend", label };
  if (doc.status === "expired") return { id: doc.id, mode: "resend", label, expired: true };
  return null;
}

export function removalTarget(doc: DocumentSummary): RemovalTarget | null {
  const mode = removalFor(doc.status);
  return mode
    ? { id: doc.id, mode, label: `${doc.short_id} · ${doc.paciente_nome ?? DOCUMENT_MESSAGES.noPatient}` }
    : null;
}

/** The desktop row menu (spec part 1 §2); "Gerar e Enviar PDF" when the clinic's Feegow upload is on. */
export function DocumentRowMenu({ doc, handlers }: { doc: DocumentSummary; handlers: DocumentRowHandlers }) {
  const target = handlers.canDelete ? removalTarget(doc) : null;
  const send = handlers.onSend ? sendTarget(doc) : null;
  const patient = doc.paciente_nome ?? DOCUMENT_MESSAGES.noPatient;
  const latest = handlers.feegowUploads?.get(doc.id);
  const failedUpload = latest?.status === "falhou" ? latest : null;
  return (
    <DropdownMenu modal={false}>
      <DropdownMenuTrigger asChild>
        <Button variant="ghost" size="icon" aria-label={`Ações do documento ${doc.short_id} de ${patient}`}>
          <MoreHorizontal />
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end" className="w-60">
        <DropdownMenuItem asChild>
          <Link to={`/documents/${doc.id}`}>
            <Eye /> Ver Detalhes
          </Link>
        </DropdownMenuItem>
        <DropdownMenuItem onSelect={() => handlers.onPreview(doc.id)}>
          <FileSearch /> Gerar e Visualizar PDF
        </DropdownMenuItem>
        {handlers.onFeegowUpload && doc.status !== "recusado" ? (
          <DropdownMenuItem onSelect={() => handlers.onFeegowUpload?.(doc.id)}>
            <CloudUpload /> Gerar e Enviar PDF
          </DropdownMenuItem>
        ) : null}
        {failedUpload && handlers.onFeegowRetry ? (
          <DropdownMenuItem onSelect={() => handlers.onFeegowRetry?.(failedUpload)}>
            <RotateCcw /> Tentar de novo (Feegow)
          </DropdownMenuItem>
        ) : null}
        {doc.status === "signed" ? (
          <DropdownMenuItem onSelect={() => handlers.onDownloadSigned(doc.id)} className="font-medium">
            <FileCheck2 /> {SIGNED_PDF_LABEL}
          </DropdownMenuItem>
        ) : null}
        {doc.status === "recusado" ? null : (
          <DropdownMenuItem onSelect={() => handlers.onDownload(doc.id)}>
            <Download /> {DRAFT_PDF_LABEL}
          </DropdownMenuItem>
        )}
        {send ? (
          <DropdownMenuItem onSelect={() => handlers.onSend?.(send)}>
            {send.mode === "send" ? (
              <>
                <Send /> Enviar para Assinatura
              </>
            ) : (
              <>
                <RefreshCw /> Reenviar
              </>
            )}
          </DropdownMenuItem>
        ) : null}
        <DropdownMenuItem asChild>
          <Link to={`/documents/${doc.id}?aba=auditoria`}>
            <History /> Ver Trilha de Auditoria
          </Link>
        </DropdownMenuItem>
        {target ? (
          <>
            <DropdownMenuSeparator />
            <DropdownMenuItem variant="destructive" onSelect={() => handlers.onRemove(target)}>
              {target.mode === "delete" ? (
                <>
                  <Trash2 /> Excluir
                </>
              ) : (
                <>
                  <Ban /> Cancelar
                </>
              )}
            </DropdownMenuItem>
          </>
        ) : null}
      </DropdownMenuContent>
    </DropdownMenu>
  );
}

/**
 * Under 768 px: a button that opens a bottom sheet of large tiles (spec part 1 §2: Ver Detalhes,
 * Gerar PDF, Enviar p/ Assinatura, Excluir) — each where it applies: Reenviar in place of Enviar on
 * a sent, viewed or expired document, Cancelar in place of Excluir on one waiting for (or past) its
 * signature, and Auditoria in a free place. A signed document's sealed PDF comes first.
 */
export function DocumentRowSheet({ doc, handlers }: { doc: DocumentSummary; handlers: DocumentRowHandlers }) {
  const [open, setOpen] = useState(false);
  const target = handlers.canDelete ? removalTarget(doc) : null;
  const send = handlers.onSend ? sendTarget(doc) : null;
  const signed = doc.status === "signed";
  const patient = doc.paciente_nome ?? DOCUMENT_MESSAGES.noPatient;
  const run = (action: () => void) => () => {
    setOpen(false);
    action();
  };
  const close = () => setOpen(false);
  const tiles: React.ReactNode[] = [];
  // Signed: the sealed PDF is the sheet's first tile (the draft stays inside Gerar PDF's dialog).
  if (signed)
    tiles.push(
      <Tile
        key="signed"
        icon={<FileCheck2 />}
        label={SIGNED_PDF_LABEL}
        primary
        onClick={run(() => handlers.onDownloadSigned(doc.id))}
      />,
    );
  tiles.push(
    <Tile key="details" asLink={`/documents/${doc.id}`} icon={<Eye />} label="Ver Detalhes" onClick={close} />,
  );
  tiles.push(
    <Tile key="pdf" icon={<FileSearch />} label="Gerar PDF" onClick={run(() => handlers.onPreview(doc.id))} />,
  );
  if (send) {
    tiles.push(
      <Tile
        key="send"
        icon={send.mode === "send" ? <Send /> : <RefreshCw />}
        label={send.mode === "send" ? "Enviar p/ Assinatura" : "Reenviar"}
        onClick={run(() => handlers.onSend?.(send))}
      />,
    );
  }
  if (target) {
    tiles.push(
      <Tile
        key="remove"
        icon={target.mode === "delete" ? <Trash2 /> : <Ban />}
        label={target.mode === "delete" ? "Excluir" : "Cancelar"}
        destructive
        onClick={run(() => handlers.onRemove(target))}
      />,
    );
  }
  if (tiles.length < 4)
    tiles.push(
      <Tile
        key="audit"
        asLink={`/documents/${doc.id}?aba=auditoria`}
        icon={<History />}
        label="Auditoria"
        onClick={close}
      />,
    );
  return (
    <>
      <Button
        variant="ghost"
        size="icon"
        aria-label={`Ações do documento ${doc.short_id} de ${patient}`}
        onClick={() => setOpen(true)}
      >
        <MoreHorizontal />
      </Button>
      <Sheet open={open} onOpenChange={setOpen}>
        <SheetContent
          side="bottom"
          className="rounded-t-xl pb-[max(1rem,env(safe-area-inset-bottom))]"
          data-testid="document-row-sheet"
        >
          <SheetHeader className="pb-0 text-left">
            <SheetTitle className="truncate pr-8">{patient}</SheetTitle>
            <SheetDescription>
              {doc.short_id} · {doc.procedimento ?? doc.titulo}
            </SheetDescription>
          </SheetHeader>
          <div className={`grid gap-3 px-4 ${tiles.length === 3 ? "grid-cols-3" : "grid-cols-2"}`}>{tiles}</div>
        </SheetContent>
      </Sheet>
    </>
  );
}

function Tile({
  icon,
  label,
  onClick,
  asLink,
  destructive,
  primary,
}: {
  icon: React.ReactNode;
  label: string;
  onClick: () => void;
  asLink?: string;
  destructive?: boolean;
  primary?: boolean;
}) {
  const tone = primary
    ? "border-primary bg-primary text-primary-foreground hover:bg-primary/90"
    : `bg-card hover:bg-muted ${destructive ? "text-destructive" : "[&_svg]:text-primary"}`;
  const className = `flex min-h-20 flex-col items-center justify-center gap-2 rounded-lg border p-3 text-center text-xs font-medium transition focus-visible:ring-[3px] focus-visible:ring-ring/50 focus-visible:outline-none [&_svg]:size-5 ${tone}`;
  return asLink ? (
    <Link to={asLink} className={className} onClick={onClick}>
      {icon}
      {label}
    </Link>
  ) : (
    <button type="button" className={className} onClick={onClick}>
      {icon}
      {label}
    </button>
  );
}
