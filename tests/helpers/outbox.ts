import type { FastifyInstance } from "fastify";
import { and, asc, eq, type SQL } from "drizzle-orm";
import type { Database } from "../../src/db/client.js";
import { emailOutbox } from "../../src/db/schema.js";
import type { SecretBox } from "../../src/server/lib/secret-box.js";
import { openOutboxBody } from "../../src/server/services/email/outbox-body.js";

export type OutboxRow = typeof emailOutbox.$inferSelect;

/** An outbox message as its recipient reads it: the row, with the subject as sent and the text opened. */
export interface OpenedMail extends OutboxRow {
  /** The subject as sent (the row's `subject` may leave a code out). */
  sentSubject: string;
  text: string;
  html: string | null;
}

/** Where the app's outbox lives and the key its messages are sealed with. */
export type OutboxSource = { app: FastifyInstance; database: Database } | { database: Database; box: SecretBox };

const boxOf = (source: OutboxSource): SecretBox => ("box" in source ? source.box : source.app.services.secretBox);

export function openMail(box: SecretBox, row: OutboxRow): OpenedMail {
  const body = openOutboxBody(box, row);
  return { ...row, sentSubject: body.subject ?? row.subject, text: body.text, html: body.html };
}

/** The messages to `to` (all when null), oldest first; `where` narrows them further. */
export async function outboxMails(source: OutboxSource, to: string | null, where?: SQL): Promise<OpenedMail[]> {
  const rows = await source.database.db
    .select()
    .from(emailOutbox)
    .where(and(to === null ? undefined : eq(emailOutbox.to_address, to), where))
    .orderBy(asc(emailOutbox.created_at));
  const box = boxOf(source);
  return rows.map((row) => openMail(box, row));
}

/** The newest message to `to`, or undefined. */
export async function latestMail(source: OutboxSource, to: string, where?: SQL): Promise<OpenedMail | undefined> {
  return (await outboxMails(source, to, where)).at(-1);
}
