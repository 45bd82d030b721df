import { z } from "zod";
import { normalizeCpf } from "../br/cpf.js";
import { documentCreateInputSchema } from "./document.js";
import { isIsoInstant, text } from "./safe-input.js";

/**
 * Enviar em lote (decision 076): one document per patient from one published template, each
 * created and sent by the same services as a single send. At most BULK_SEND_MAX_ROWS rows per
 * request; the screen sends a batch in requests of BULK_SEND_CHUNK rows to show progress.
 */
export const BULK_SEND_MAX_ROWS = 200;
export const BULK_SEND_CHUNK = 10;
/** How far back `lote_desde` may go. */
export const BULK_BATCH_MAX_AGE_MS = 24 * 60 * 60 * 1000;

/** What a row that was not sent says (pt-BR, for the front desk); other refusals use ERRORS. */
export const BULK_ROW_ERRORS = {
  CPF_INVALID: "CPF inválido",
  PATIENT_NOT_FOUND: "Paciente não encontrado",
  PATIENT_NOT_FOUND_BY_CPF: "Nenhum paciente cadastrado com este CPF",
  PATIENT_REPEATED: "Paciente repetido neste lote: só um documento é enviado",
  NO_CHANNEL:
    "Sem canal de envio: o paciente não tem e-mail nem celular para os canais escolhidos. Complete o cadastro ou envie um a um.",
  NO_MOBILE: "Sem celular cadastrado para os canais escolhidos. Cadastre o celular ou envie um a um.",
  UNEXPECTED: "Não foi possível enviar este documento. Tente novamente.",
  UNRESOLVED: "Variáveis sem valor neste documento:",
  BATCH_TOO_OLD: "Este lote começou há mais de um dia: comece um novo lote.",
} as const;
export type BulkRowErrorCode = keyof typeof BULK_ROW_ERRORS;

const rowSchema = z.union(
  [
    z.object({ paciente_id: z.uuid("Paciente inválido") }).strict(),
    // A CPF as typed or imported: checked per row (an invalid one fails that row, not the batch).
    z.object({ cpf: text({ error: "CPF inválido" }).max(40, "CPF inválido") }).strict(),
  ],
  { error: "Cada linha deve ter paciente_id ou cpf" },
);
export type BulkSendRow = z.infer<typeof rowSchema>;

/** Same fields as one document (minus the patient), the channels of one send, and the rows. */
export const bulkSendInputSchema = documentCreateInputSchema.omit({ paciente_id: true }).extend({
  email: z.boolean({ error: "Valor inválido" }).optional().default(false),
  whatsapp: z.boolean({ error: "Valor inválido" }).optional(),
  /** Also by SMS to each patient's mobile (decision 066); off unless chosen, as in one send. */
  sms: z.boolean({ error: "Valor inválido" }).optional().default(false),
  /**
   * When the batch began (server time, from GET /options): a patient who already has a document
   * of this template version sent since then is answered "já enviado" with that document, not sent
   * again — a retried request whose answer was lost sends nothing twice (decision 076).
   */
  lote_desde: text({ error: "Início do lote inválido" }).refine(isIsoInstant, "Início do lote inválido").optional(),
  linhas: z
    .array(rowSchema, { error: "Informe os pacientes do lote" })
    .min(1, "Escolha ao menos um paciente")
    .max(BULK_SEND_MAX_ROWS, `Envie no máximo ${BULK_SEND_MAX_ROWS} pacientes por lote`),
});
export type BulkSendInput = z.input<typeof bulkSendInputSchema>;
export type BulkSendData = z.output<typeof bulkSendInputSchema>;

export const bulkSendRowResultSchema = z.object({
  /** Position in the request's `linhas`. */
  linha: z.number().int(),
  paciente_id: text().nullable(),
  paciente_nome: text().nullable(),
  /** The CPF the row named (digits), when it named one. */
  cpf: text().nullable(),
  documento_id: text().nullable(),
  enviado: z.boolean(),
  /** Sent earlier in this batch (same template version, since `lote_desde`): nothing new was sent. */
  ja_enviado: z.boolean(),
  email_enviado: z.boolean(),
  whatsapp_enviado: z.boolean(),
  /** SMS was asked and the link went by SMS (decision 066). */
  sms_enviado: z.boolean(),
  /** SMS was asked and could not go (no mobile), while the other channels sent the document. */
  sms_motivo: text().nullable(),
  erro: z.object({ codigo: text(), mensagem: text() }).nullable(),
});
export type BulkSendRowResult = z.infer<typeof bulkSendRowResultSchema>;

export const bulkSendResultSchema = z.object({
  resultados: z.array(bulkSendRowResultSchema),
  enviados: z.number().int(),
  falhas: z.number().int(),
});
export type BulkSendResult = z.infer<typeof bulkSendResultSchema>;

/** What the Enviar em lote screen needs to know before choosing channels. */
export const bulkSendOptionsSchema = z.object({
  max_linhas: z.number().int(),
  /** The server's clock, for `lote_desde`. */
  agora: text(),
  email_disponivel: z.boolean(),
  whatsapp_disponivel: z.boolean(),
  /** This server sends SMS (decision 066): "SMS" is offered. */
  sms_disponivel: z.boolean(),
  /** The clinic's professional signs before sending (decision 050): bulk send is not possible. */
  profissional_antes_do_envio: z.boolean(),
});
export type BulkSendOptions = z.infer<typeof bulkSendOptionsSchema>;

/**
 * CPFs from pasted text or a CSV file (parsed in the browser; only the CPFs go to the server):
 * one per line, the first cell that looks like a CPF (digits with . - or spaces); a header line
 * or a line without one is skipped. Invalid CPFs are kept so their row says "CPF inválido".
 */
export function cpfsFromText(input: string): string[] {
  const found: string[] = [];
  for (const line of input.split(/\r?\n/)) {
    const cells = line.split(/[;,\t]/);
    const cell = cells.map((value) => value.trim().replace(/^"|"$/g, "")).find((value) => /\d/.test(value));
    if (!cell || normalizeCpf(cell).length < 5) continue;
    found.push(cell);
  }
  return found;
}
