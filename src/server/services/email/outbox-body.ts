import { createSecretBox, type SecretBox } from "../../lib/secret-box.js";

/**
 * The text of a queued e-mail is sealed at rest (AES-256-GCM, a key of its own derived from the
 * instance key): it carries signing links, signing codes, invitations and password-reset links
 * that still work, and the database (its dumps, its replicas, whoever reads them) must not hand
 * them out. The seal is bound to the message's id, clinic, address, subject and attachments, so a
 * body moved to another row, or a row sent to another address, no longer opens and is not sent.
 */
export const OUTBOX_BODY_KEY_PURPOSE = "email-outbox-body-v1";

export interface OutboxBody {
  /** The subject as sent, when it differs from the row's (it carries a code: the row's has none). */
  subject: string | null;
  text: string;
  html: string | null;
}

/** What a message's seal is bound to: the row's addressing, never its status or attempts. */
export interface OutboxEnvelope {
  id: string;
  tenant_id: string;
  to_address: string;
  subject: string;
  attachments: { file_id: string }[];
}

/** The stored shape: `body_sealed` on every row written since migration 0038; older rows in clear until sealed. */
export interface StoredOutboxBody extends OutboxEnvelope {
  body_sealed: Buffer | null;
  text_body: string | null;
  html_body: string | null;
}

function envelopeContext(envelope: OutboxEnvelope): string {
  return JSON.stringify([
    "email_outbox/v1",
    envelope.id,
    envelope.tenant_id,
    envelope.to_address,
    envelope.subject,
    envelope.attachments.map((a) => a.file_id),
  ]);
}

const outboxBox = (box: SecretBox): SecretBox => createSecretBox(box.deriveKey(OUTBOX_BODY_KEY_PURPOSE));

export function sealOutboxBody(box: SecretBox, envelope: OutboxEnvelope, body: OutboxBody): Buffer {
  return outboxBox(box).seal(
    JSON.stringify({ subject: body.subject, text: body.text, html: body.html }),
    envelopeContext(envelope),
  );
}

/** The message's text. Throws when the seal does not open (another key, or a row changed since). */
export function openOutboxBody(box: SecretBox, row: StoredOutboxBody): OutboxBody {
  if (row.body_sealed === null) return { subject: null, text: row.text_body ?? "", html: row.html_body };
  const parsed = JSON.parse(
    outboxBox(box).open(row.body_sealed, envelopeContext(row)).toString("utf8"),
  ) as Partial<OutboxBody>;
  if (typeof parsed.text !== "string") throw new Error("sealed e-mail body has an unknown shape");
  return {
    subject: typeof parsed.subject === "string" ? parsed.subject : null,
    text: parsed.text,
    html: typeof parsed.html === "string" ? parsed.html : null,
  };
}
