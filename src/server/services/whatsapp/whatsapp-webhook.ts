import { createHmac, timingSafeEqual } from "node:crypto";
import { and, eq, inArray } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "../../../db/client.js";
import { whatsappMessages } from "../../../db/schema.js";
import { enqueueWhatsappFallback } from "./whatsapp-fallback.js";
import { AppError } from "../../errors.js";

/**
 * X-Hub-Signature-256 is "sha256=" + hex HMAC-SHA256 of the raw body with the app secret (Meta
 * webhooks, decision 059); compared in constant time. Missing, malformed or wrong → false.
 */
export function validWebhookSignature(rawBody: Buffer, header: string | undefined, appSecret: string): boolean {
  if (typeof header !== "string" || !/^sha256=[0-9a-f]{64}$/i.test(header)) return false;
  const given = Buffer.from(header.slice(7).toLowerCase(), "hex");
  const expected = createHmac("sha256", appSecret).update(rawBody).digest();
  return given.length === expected.length && timingSafeEqual(given, expected);
}

const STATUSES = ["sent", "delivered", "read", "failed"] as const;
type WebhookStatus = (typeof STATUSES)[number];

/** The parts of a Cloud API webhook we read: entry[].changes[].value.statuses[] (messages and the rest ignored). */
const webhookSchema = z.object({
  object: z.string(),
  entry: z.array(
    z.object({
      changes: z.array(
        z.object({
          field: z.string().optional(),
          value: z
            .object({
              statuses: z
                .array(
                  z.object({
                    id: z.string().min(1).max(200),
                    status: z.string().max(40),
                    timestamp: z.string().regex(/^\d{1,12}$/),
                    recipient_id: z.string().max(40).optional(),
                    errors: z
                      .array(z.object({ code: z.number().optional(), title: z.string().max(500).optional() }).loose())
                      .optional(),
                  }),
                )
                .optional(),
            })
            .loose(),
        }),
      ),
    }),
  ),
});

/** How far a message got: a status never goes back (webhooks may arrive out of order); failed is final. */
const RANK: Record<string, number> = { queued: 0, accepted: 1, sent: 2, delivered: 3, read: 4, failed: 5 };

/** Statuses only move forward; a late "failed" never overwrites "delivered" or "read". */
export function advances(from: string, to: string): boolean {
  if (to === "failed") return from === "queued" || from === "accepted" || from === "sent";
  return (RANK[to] ?? 0) > (RANK[from] ?? 0) && from !== "failed";
}

/**
 * POST /api/webhooks/whatsapp (decision 059): signature first (401 before anything is parsed or
 * changed), then the JSON's shape (400), then each status is written on the message with that
 * wamid — whatever clinic it belongs to, as the sweep does; an unknown wamid or a status we do not
 * track is ignored. Answers how many messages changed.
 */
export async function receiveWhatsappWebhook(
  db: Db,
  input: { rawBody: Buffer; signature: string | undefined; appSecret: string },
): Promise<{ atualizadas: number }> {
  if (!validWebhookSignature(input.rawBody, input.signature, input.appSecret))
    throw new AppError("WEBHOOK_SIGNATURE_INVALID");
  let json: unknown;
  try {
    json = JSON.parse(input.rawBody.toString("utf8"));
  } catch {
    throw new AppError("BAD_REQUEST", "Corpo do webhook não é JSON válido.");
  }
  const parsed = webhookSchema.safeParse(json);
  if (!parsed.success) throw new AppError("BAD_REQUEST", "Corpo do webhook em formato inesperado.");
  const statuses = parsed.data.entry
    .flatMap((e) => e.changes)
    .flatMap((c) => c.value.statuses ?? [])
    .filter((s): s is typeof s & { status: WebhookStatus } => (STATUSES as readonly string[]).includes(s.status));
  if (statuses.length === 0) return { atualizadas: 0 };
  let updated = 0;
  await db.transaction(async (tx) => {
    const ids = [...new Set(statuses.map((s) => s.id))];
    const rows = await tx
      .select({
        id: whatsappMessages.id,
        tenantId: whatsappMessages.tenant_id,
        wamid: whatsappMessages.wamid,
        status: whatsappMessages.status,
      })
      .from(whatsappMessages)
      .where(inArray(whatsappMessages.wamid, ids))
      .for("update");
    const current = new Map(rows.map((r) => [r.wamid, { id: r.id, tenantId: r.tenantId, status: r.status }]));
    for (const s of statuses) {
      const row = current.get(s.id);
      if (!row || !advances(row.status, s.status)) continue;
      const error = s.status === "failed" ? s.errors?.[0] : undefined;
      await tx
        .update(whatsappMessages)
        .set({
          status: s.status,
          status_at: new Date(Number(s.timestamp) * 1000),
          ...(error ? { erro: `${error.title ?? "falha"}${error.code ? ` (código ${error.code})` : ""}` } : {}),
        })
        .where(and(eq(whatsappMessages.id, row.id)));
      row.status = s.status;
      updated += 1;
      // Undeliverable by WhatsApp: the message goes by SMS or e-mail instead (decision 066).
      if (s.status === "failed") await enqueueWhatsappFallback(tx, row.tenantId, row.id);
    }
  });
  return { atualizadas: updated };
}
