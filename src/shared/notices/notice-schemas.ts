import { z } from "zod";
import { text } from "../schemas/safe-input.js";
import { isAppPath } from "./notice-text.js";
import { MAX_READ_KEYS, NOTICE_KEY_PATTERN, NOTICE_KINDS, NOTICE_PAGE_SIZE } from "./notice-kinds.js";

/** One notice of GET /api/notices. */
export const noticeSchema = z.object({
  /** Kind + row + the state's instant: what POST /api/notices/read takes. */
  chave: text(),
  tipo: z.enum(NOTICE_KINDS),
  titulo: text(),
  mensagem: text(),
  /** Where it leads in the app (/documents/…, /integration, /certificates), or null. */
  link: text().nullable(),
  lido: z.boolean(),
  /** When it became a notice (ISO 8601, UTC). */
  em: text(),
  documento_id: text().nullable(),
  /** A failed Feegow upload: its id, for "Tentar de novo" in place. */
  envio_feegow_id: text().nullable(),
});
export type Notice = z.infer<typeof noticeSchema>;

export const noticeListSchema = z.object({
  items: z.array(noticeSchema),
  next_cursor: text().nullable(),
  /** Unread notices of this user (up to UNREAD_COUNT_CAP). */
  nao_lidos: z.number().int(),
});
export type NoticeList = z.infer<typeof noticeListSchema>;

export { NOTICE_PAGE_SIZE } from "./notice-kinds.js";

export const noticeListQuerySchema = z.object({
  cursor: text().max(200, "Cursor de paginação inválido.").optional(),
  limit: z.coerce
    .number({ error: "Limite inválido" })
    .int("Limite inválido")
    .min(1, "Limite inválido")
    .max(50, "Limite inválido")
    .default(NOTICE_PAGE_SIZE),
});

export const unreadNoticesSchema = z.object({
  /** Counted up to UNREAD_COUNT_CAP: the badge shows "99+" past 99. */
  nao_lidos: z.number().int(),
});
export type UnreadNotices = z.infer<typeof unreadNoticesSchema>;

const noticeKeyField = text({ error: "Aviso inválido" })
  .max(120, "Aviso inválido")
  .regex(NOTICE_KEY_PATTERN, "Aviso inválido");

/** POST /api/notices/read: some notices by key, or every notice shown so far. */
export const noticeReadSchema = z
  .object({
    chaves: z
      .array(noticeKeyField, { error: "Informe os avisos a marcar como lidos" })
      .min(1, "Informe os avisos a marcar como lidos")
      .max(MAX_READ_KEYS, `Informe no máximo ${MAX_READ_KEYS} avisos por vez`)
      .optional(),
    todas: z.literal(true, { error: "Use todas: true para marcar todos os avisos" }).optional(),
  })
  .refine((body) => (body.chaves === undefined) !== (body.todas === undefined), {
    error: "Informe os avisos (chaves) ou todas: true",
    path: ["chaves"],
  });
export type NoticeReadInput = z.infer<typeof noticeReadSchema>;

/** What another part of the server records as a system notice (recordSystemNotice). */
export const systemNoticeInputSchema = z.object({
  /** What happened, dotted, e.g. "backup.failed". */
  kind: text()
    .trim()
    .min(1)
    .max(60)
    .regex(/^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)*$/, "Tipo de aviso inválido"),
  title: text().trim().min(1).max(120),
  body: text().trim().min(1).max(1000),
  /** A path inside the app, e.g. "/settings". */
  link: text().max(300).refine(isAppPath, "O link deve ser um caminho do próprio sistema").nullish(),
});
export type SystemNoticeInput = z.input<typeof systemNoticeInputSchema>;
