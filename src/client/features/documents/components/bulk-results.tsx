import { CheckCircle2, XCircle } from "lucide-react";
import { Link } from "react-router";
import { Badge } from "@/components/ui/badge";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { useIsMobile } from "@/components/ui/use-mobile";
import { formatCpf } from "@shared/br/cpf";
import type { BulkSendRowResult } from "@shared/schemas/bulk-send";
import { channelList } from "../lib/channel-list";
import type { BatchRow } from "./bulk-send-page";

/** A row's end: the server's answer, or the reason its request did not complete. */
export interface RowOutcome {
  row: BatchRow;
  result: BulkSendRowResult | null;
  error?: string;
}

const who = ({ row, result }: RowOutcome) =>
  result?.paciente_nome ?? (result?.cpf ? `CPF ${formatCpf(result.cpf)}` : row.label);

function sentBy(result: BulkSendRowResult): string {
  if (result.ja_enviado) return "Já enviado neste lote";
  const channels = channelList([
    result.email_enviado ? "e-mail" : null,
    result.whatsapp_enviado ? "WhatsApp" : null,
    result.sms_enviado ? "SMS" : null,
  ]);
  return channels ? `Enviado por ${channels}` : "Enviado";
}

function Outcome({ outcome }: { outcome: RowOutcome }) {
  const { result } = outcome;
  if (result?.enviado) {
    return (
      <span className="grid gap-0.5">
        <span className="flex items-center gap-1.5 text-emerald-700 dark:text-emerald-400">
          <CheckCircle2 className="size-4 shrink-0" aria-hidden /> {sentBy(result)}
        </span>
        {/* Sent by the other channels; the SMS asked for could not go (decision 066). */}
        {result.sms_motivo ? (
          <span className="pl-[1.375rem] text-amber-700 dark:text-amber-400" data-testid="bulk-row-sms-motivo">
            {result.sms_motivo}
          </span>
        ) : null}
      </span>
    );
  }
  return (
    <span className="flex items-start gap-1.5 text-destructive">
      <XCircle className="mt-0.5 size-4 shrink-0" aria-hidden />
      {result?.erro?.mensagem ?? outcome.error ?? "Não enviado"}
    </span>
  );
}

/** In a new tab: the result table stays where it is while a record is fixed. */
function DocumentLink({ outcome }: { outcome: RowOutcome }) {
  const id = outcome.result?.documento_id;
  if (id) {
    return (
      <Link to={`/documents/${id}`} target="_blank" rel="noopener" className="font-medium underline underline-offset-4">
        Abrir documento<span className="sr-only"> (em nova aba)</span>
      </Link>
    );
  }
  const patientId = outcome.result?.paciente_id;
  return patientId ? (
    <Link
      to={`/patients/${patientId}/edit`}
      target="_blank"
      rel="noopener"
      className="text-muted-foreground underline underline-offset-4"
    >
      Ver cadastro<span className="sr-only"> (em nova aba)</span>
    </Link>
  ) : null;
}

/** The per-row table (cards on phones): who, what happened, and the document or the record to fix. */
export function BulkResults({ outcomes }: { outcomes: RowOutcome[] }) {
  const mobile = useIsMobile();
  const sent = outcomes.filter((outcome) => outcome.result?.enviado).length;
  const failed = outcomes.length - sent;
  return (
    <Card data-testid="bulk-results">
      <CardHeader>
        <CardTitle className="flex flex-wrap items-center gap-2">
          Resultado
          <Badge variant="secondary" data-testid="bulk-sent-count">
            {sent === 1 ? "1 enviado" : `${sent} enviados`}
          </Badge>
          {failed > 0 ? (
            <Badge variant="destructive" data-testid="bulk-failed-count">
              {failed === 1 ? "1 não enviado" : `${failed} não enviados`}
            </Badge>
          ) : null}
        </CardTitle>
      </CardHeader>
      <CardContent>
        {mobile ? (
          <ul className="grid gap-2">
            {outcomes.map((outcome) => (
              <li
                key={outcome.row.key}
                className="grid gap-1 rounded-md border p-3 text-sm"
                data-testid="bulk-result-row"
              >
                <span className="font-medium">{who(outcome)}</span>
                <Outcome outcome={outcome} />
                <DocumentLink outcome={outcome} />
              </li>
            ))}
          </ul>
        ) : (
          <Table>
            <TableHeader>
              <TableRow>
                <TableHead>Paciente</TableHead>
                <TableHead>Resultado</TableHead>
                <TableHead className="text-right">Documento</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {outcomes.map((outcome) => (
                <TableRow key={outcome.row.key} data-testid="bulk-result-row">
                  <TableCell className="font-medium">{who(outcome)}</TableCell>
                  <TableCell className="whitespace-normal">
                    <Outcome outcome={outcome} />
                  </TableCell>
                  <TableCell className="text-right">
                    <DocumentLink outcome={outcome} />
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
      </CardContent>
    </Card>
  );
}
