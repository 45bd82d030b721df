import type { DbOrTx } from "../../../db/client.js";
import { systemNotices } from "../../../db/schema.js";
import { type SystemNoticeInput, systemNoticeInputSchema } from "../../../shared/notices/notice-schemas.js";

/**
 * A notice with no other home (decision 028), for the clinic's owner and administration in
 * Avisos — e.g. a failed backup:
 *
 *   await recordSystemNotice(db, tenantId, { kind: "backup.failed", title: "Backup não concluído",
 *     body: "O backup de hoje falhou: disco cheio.", link: "/settings" });
 *
 * Runs in the caller's transaction when given one (a rolled-back change records nothing), or
 * on its own. Title and body are shown as written (pt-BR, plain text, no personal data
 * beyond what the owner may see); the link, when any, must be a path of the app. Invalid input
 * throws (a programming error, not a user's). Browsers with Avisos open hear of it at once (the
 * row's trigger notifies 'notice'). Returns the notice's id.
 */
export async function recordSystemNotice(db: DbOrTx, tenantId: string, notice: SystemNoticeInput): Promise<string> {
  const parsed = systemNoticeInputSchema.parse(notice);
  const [row] = await db
    .insert(systemNotices)
    .values({
      tenant_id: tenantId,
      kind: parsed.kind,
      title: parsed.title,
      body: parsed.body,
      link: parsed.link ?? null,
    })
    .returning({ id: systemNotices.id });
  if (!row) throw new Error("system_notices insert returned no row");
  return row.id;
}
