import { randomUUID } from "node:crypto";
import type { DbOrTx } from "../../../db/client.js";
import { emailOutbox } from "../../../db/schema.js";
import type { SecretBox } from "../../lib/secret-box.js";
import { sealOutboxBody } from "./outbox-body.js";

export interface OutgoingEmail {
  tenantId: string;
  to: string;
  subject: string;
  /**
   * When `subject` carries a code: the subject the row keeps (and Avisos, exports and logs show).
   * The subject as sent is sealed with the text.
   */
  recordedSubject?: string;
  text: string;
  html?: string;
  /** Stored files to attach (by id in `files`), e.g. the signed PDF. */
  attachments?: { fileId: string; filename: string; contentType: string }[];
}

/**
 * Puts an e-mail in the outbox, inside the caller's transaction, so it is never lost and
 * never sent for work that rolled back. Delivery (SMTP) is a job that reads the outbox. The
 * text is stored sealed (outbox-body.ts), never in clear.
 */
export async function enqueueEmail(tx: DbOrTx, box: SecretBox, email: OutgoingEmail): Promise<string> {
  const envelope = {
    id: randomUUID(),
    tenant_id: email.tenantId,
    to_address: email.to,
    subject: email.recordedSubject ?? email.subject,
    attachments: (email.attachments ?? []).map((a) => ({
      file_id: a.fileId,
      filename: a.filename,
      content_type: a.contentType,
    })),
  };
  const [row] = await tx
    .insert(emailOutbox)
    .values({
      ...envelope,
      body_sealed: sealOutboxBody(box, envelope, {
        subject: email.recordedSubject === undefined ? null : email.subject,
        text: email.text,
        html: email.html ?? null,
      }),
    })
    .returning({ id: emailOutbox.id });
  if (!row) throw new Error("email_outbox insert returned no row");
  return row.id;
}
