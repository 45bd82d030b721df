import { useState } from "react";
import { Download, FileX2 } from "lucide-react";
import { toast } from "sonner";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { CHOICE_MEANS_LABEL, CHOICE_MESSAGES, CHOICE_RECORD_TITLE } from "@shared/schemas/choices";
import { DOCUMENT_MESSAGES, type DocumentDetail } from "@shared/schemas/document";
import { downloadChoiceRecordPdf } from "../api/documents-api";
import { formatDateTime } from "../lib/format";

/**
 * The patient's refusal or revocation (decision 056): when, how, who recorded it and why, and
 * whether its sealed record is ready. The signed PDF of a revoked consent stays as it was. A
 * revocation of one optional consent (decision 057) names the item; the main consent stands.
 * A sealed record can be downloaded here.
 */
export function ChoiceRecordsCard({ doc }: { doc: DocumentDetail }) {
  const [pending, setPending] = useState<string | null>(null);
  if (doc.registros.length === 0) return null;
  async function download(recordId: string) {
    setPending(recordId);
    try {
      const name = await downloadChoiceRecordPdf(doc.id, recordId);
      toast.success(DOCUMENT_MESSAGES.pdfDownloaded, { description: DOCUMENT_MESSAGES.pdfDownloadedText(name) });
    } catch {
      toast.error(DOCUMENT_MESSAGES.downloadError, { description: DOCUMENT_MESSAGES.downloadErrorText });
    } finally {
      setPending(null);
    }
  }
  // One optional consent revoked on its own (decision 057): named by its title as signed.
  const titleOf = (id: string) => doc.consentimentos_opcionais?.find((a) => a.id === id)?.titulo ?? id;
  return (
    <div className="grid gap-3" data-testid="choice-records">
      {doc.registros.map((record) => (
        <Alert key={record.id} variant="destructive">
          <FileX2 />
          <AlertTitle data-testid={record.item_id ? `choice-record-item-${record.item_id}` : undefined}>
            {record.item_id
              ? CHOICE_MESSAGES.itemRevokedAt(titleOf(record.item_id), formatDateTime(record.ocorrido_em))
              : record.tipo === "recusa"
                ? CHOICE_MESSAGES.refusedAt(formatDateTime(record.ocorrido_em))
                : CHOICE_MESSAGES.revokedAt(formatDateTime(record.ocorrido_em))}
          </AlertTitle>
          <AlertDescription className="grid gap-1">
            <span>
              {record.nome}, {CHOICE_MEANS_LABEL[record.meio]}
              {record.registrado_por_nome ? ` — registrado por ${record.registrado_por_nome}` : ""}
              {record.origem === "paciente" && record.otp_verificado ? " (nome, CPF e código conferidos)" : ""}.
            </span>
            <span>Motivo: {record.motivo ?? "não informado"}</span>
            <span>
              {CHOICE_RECORD_TITLE[record.tipo]}: {record.pdf_pronto ? "selado" : "sendo gerado"} · código{" "}
              <span className="font-mono">{record.codigo_verificacao}</span>
            </span>
            {record.pdf_pronto ? (
              <Button
                type="button"
                variant="outline"
                size="sm"
                className="mt-1 w-fit"
                disabled={pending === record.id}
                onClick={() => void download(record.id)}
              >
                <Download /> Baixar {CHOICE_RECORD_TITLE[record.tipo]}
              </Button>
            ) : null}
          </AlertDescription>
        </Alert>
      ))}
    </div>
  );
}
