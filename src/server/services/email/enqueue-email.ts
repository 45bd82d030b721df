import type { DbOrTx } from "../../../db/client.js";
import { emailOutbox } from "../../../db/schema.js";

export interface OutgoingEmail {
  tenantId: string;
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** Stored files to attach (by id in `files`), e.g. the signed PDF. */
  attachments?: { fileId: string; filename: string; contentType: string }[];
}

/**
 * Puts an e-mail in the outbox, inside the caller's transaction, so it is never lost and
 * never sent for work that rolled back. Delivery (SMTP) is a job that reads the outbox.
 */
export async function enqueueEmail(tx: DbOrTx, email: OutgoingEmail): Promise<string> {
  const [row] = await tx
    .insert(emailOutbox)
    .values({
      tenant_id: email.tenantId,
      to_address: email.to,
      subject: email.subject,
      text_body: email.text,
      html_body: email.html,
      attachments: (email.attachments ?? []).map((a) => ({ file_id: a.fileId, filename: a.filename, content_type: a.contentType })),
    })
    .returning({ id: emailOutbox.id });
  if (!row) throw new Error("email_outbox insert returned no row");
  return row.id;
}
