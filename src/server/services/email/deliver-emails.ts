import { and, eq, inArray, lte, sql } from "drizzle-orm";
import type { Transporter } from "nodemailer";
import type { Db, DbOrTx } from "../../../db/client.js";
import { emailOutbox, files } from "../../../db/schema.js";
import type { SecretBox } from "../../lib/secret-box.js";
import type { FileStorage } from "../../storage/file-storage.js";
import { type OutboxBody, openOutboxBody } from "./outbox-body.js";

/** After this many failed tries a message stays 'failed' (kept, visible, never lost). */
export const MAX_EMAIL_ATTEMPTS = 8;
const BATCH = 10;
/** Recorded (and shown on Avisos) for a message whose sealed text no longer matches its row. */
export const UNOPENABLE_BODY =
  "O texto cifrado da mensagem não confere com o registro (alterado depois de enfileirado ou chave da instância trocada); a mensagem não foi enviada.";

export function emailRetryDelayMs(attempt: number): number {
  return Math.min(6 * 60 * 60_000, 30_000 * 2 ** Math.max(0, attempt - 1));
}

type OutboxRow = typeof emailOutbox.$inferSelect;

async function attachmentsOf(db: DbOrTx, storage: FileStorage, row: OutboxRow) {
  if (row.attachments.length === 0) return [];
  const stored = await db
    .select()
    .from(files)
    .where(
      and(
        eq(files.tenant_id, row.tenant_id),
        inArray(
          files.id,
          row.attachments.map((a) => a.file_id),
        ),
      ),
    );
  return Promise.all(
    row.attachments.map(async (attachment) => {
      const file = stored.find((f) => f.id === attachment.file_id);
      const content = file ? await storage.get(file.sha256) : null;
      if (!content) throw new Error(`attachment ${attachment.file_id} is missing from storage`);
      return { filename: attachment.filename, contentType: attachment.content_type, content };
    }),
  );
}

export interface DeliverDueEmailsOptions {
  db: Db;
  transport: Transporter;
  from: string;
  storage: FileStorage;
  box: SecretBox;
  now?: () => Date;
}

/**
 * Sends due messages of the outbox through SMTP (nodemailer). Each message is taken with
 * FOR UPDATE SKIP LOCKED and marked in the same transaction, so two workers never send it
 * twice; a failure is recorded and retried with back-off. Returns how many were sent.
 */
export async function deliverDueEmails({
  db,
  transport,
  from,
  storage,
  box,
  now = () => new Date(),
}: DeliverDueEmailsOptions): Promise<number> {
  let sent = 0;
  for (let i = 0; i < BATCH; i += 1) {
    const outcome = await db.transaction(async (tx) => {
      const [row] = await tx
        .select()
        .from(emailOutbox)
        .where(and(eq(emailOutbox.status, "pending"), lte(emailOutbox.next_attempt_at, now())))
        .orderBy(emailOutbox.next_attempt_at)
        .limit(1)
        .for("update", { skipLocked: true });
      if (!row) return "none" as const;
      let body: OutboxBody;
      try {
        body = openOutboxBody(box, row);
      } catch {
        // The seal does not open: the row was changed after it was queued (another address, say),
        // or the instance key changed. Never sent as it now stands; 'failed' on the clinic's Avisos.
        const attempts = [...row.attempts, { at: now().toISOString(), error: UNOPENABLE_BODY }];
        await tx.update(emailOutbox).set({ attempts, status: "failed" }).where(eq(emailOutbox.id, row.id));
        return "failed" as const;
      }
      try {
        await transport.sendMail({
          from,
          to: row.to_address,
          subject: body.subject ?? row.subject,
          text: body.text,
          ...(body.html ? { html: body.html } : {}),
          attachments: await attachmentsOf(tx, storage, row),
        });
        await tx.update(emailOutbox).set({ status: "sent", sent_at: now() }).where(eq(emailOutbox.id, row.id));
        return "sent" as const;
      } catch (error) {
        const attempts = [
          ...row.attempts,
          { at: now().toISOString(), error: error instanceof Error ? error.message : String(error) },
        ];
        const exhausted = attempts.length >= MAX_EMAIL_ATTEMPTS;
        await tx
          .update(emailOutbox)
          .set({
            attempts,
            status: exhausted ? "failed" : "pending",
            next_attempt_at: new Date(now().getTime() + emailRetryDelayMs(attempts.length)),
          })
          .where(eq(emailOutbox.id, row.id));
        return "failed" as const;
      }
    });
    if (outcome === "none") break;
    if (outcome === "sent") sent += 1;
  }
  return sent;
}

/** Messages not yet delivered. */
export async function countPendingEmails(db: Db): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(emailOutbox)
    .where(eq(emailOutbox.status, "pending"));
  return row?.n ?? 0;
}
