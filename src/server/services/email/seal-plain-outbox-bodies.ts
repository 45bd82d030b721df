import { eq, isNotNull } from "drizzle-orm";
import type { Db } from "../../../db/client.js";
import { emailOutbox } from "../../../db/schema.js";
import type { SecretBox } from "../../lib/secret-box.js";
import { sealOutboxBody } from "./outbox-body.js";

const BATCH = 200;

/**
 * Messages queued before migration 0038 kept their text in clear: the worker's sweep seals them
 * (a batch per call; email_outbox_plain_idx finds them, so it costs nothing once done). Returns
 * how many it sealed.
 */
export async function sealPlainOutboxBodies(db: Db, box: SecretBox): Promise<number> {
  return db.transaction(async (tx) => {
    const rows = await tx
      .select({
        id: emailOutbox.id,
        tenant_id: emailOutbox.tenant_id,
        to_address: emailOutbox.to_address,
        subject: emailOutbox.subject,
        attachments: emailOutbox.attachments,
        text_body: emailOutbox.text_body,
        html_body: emailOutbox.html_body,
      })
      .from(emailOutbox)
      .where(isNotNull(emailOutbox.text_body))
      .limit(BATCH)
      .for("update", { skipLocked: true });
    for (const row of rows) {
      const body_sealed = sealOutboxBody(box, row, { subject: null, text: row.text_body ?? "", html: row.html_body });
      await tx
        .update(emailOutbox)
        .set({ body_sealed, text_body: null, html_body: null })
        .where(eq(emailOutbox.id, row.id));
    }
    return rows.length;
  });
}
