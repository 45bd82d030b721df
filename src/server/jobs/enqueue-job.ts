import type { DbOrTx } from "../../db/client.js";
import { jobs } from "../../db/schema.js";

/** The kinds of background work and their payloads. */
export interface JobPayloads {
  /** Build the final PDF (document, signatures, registry page), seal it, e-mail the parties. */
  "document.finalize": { contratoId: string };
  /** Move sent/viewed documents past their deadline to expired (recurring). */
  "documents.expire": Record<string, never>;
  /** Send a text by SMS (the signing code); `sealed` is the text sealed with the secret box. */
  "sms.send": { to: string; sealed: string; contratoId: string };
  /** Send one PDF to the patient's record in Feegow (a feegow_uploads row; decision 016). */
  "feegow.upload": { uploadId: string };
  /** The day's backup into BACKUP_DIR or the bucket (decisions 027, 030); `dia` is the São Paulo date it is for. */
  "backup.daily": { dia: string };
  /** Automatic reminder number `ordem` of a sent link, by the channels of the send (decision 059). */
  "document.remind": {
    contratoId: string;
    ordem: number;
    canais: ReminderChannel[];
    /** Start of the chain this reminder belongs to (Reenviar starts a new one; absent: the send). Decision 066. */
    desde?: string;
    /** Reminders written before this chain began: this one is the (ordem − base)th of its chain. */
    base?: number;
  };
  /** One WhatsApp template message (a whatsapp_messages row); `sealed` holds its parameters (decision 059). */
  "whatsapp.send": {
    messageId: string;
    to: string;
    tipo: "link" | "codigo" | "lembrete" | "via_assinada" | "registro";
    sealed: string;
  };
  /** A WhatsApp message failed for good: send it again by SMS or e-mail, once (decision 066). */
  "whatsapp.fallback": { messageId: string };
  /** Seal a refusal's or revocation's record, e-mail it, send it to Feegow (decision 056). */
  "document.choice_record": { registroId: string };
  /** The day's archive re-time-stamp of the sealed PDFs (decision 064); `dia` is the São Paulo date. */
  "archive.retimestamp": { dia: string };
  /** Time-stamp tokens over the audit chain heads that moved (decision 072); one pending at a time. */
  "audit.trail_timestamp": Record<string, never>;
  /** Attempt `attempt` of one webhook delivery (a webhook_deliveries row; decision 062). */
  "webhook.deliver": { deliveryId: string; attempt: number };
}
/** How a reminder reaches the patient and witnesses: the channels the link was sent by. */
export type ReminderChannel = "email" | "whatsapp" | "sms";
export type JobKind = keyof JobPayloads;

export interface NewJob<K extends JobKind> {
  kind: K;
  payload: JobPayloads[K];
  tenantId?: string | null;
  /** While a job with this key is pending or running, enqueuing another is a no-op. */
  dedupeKey?: string;
  runAt?: Date;
  maxAttempts?: number;
}

/**
 * Adds a job inside the caller's transaction: it runs only if that work commits, and it is
 * never lost (the worker retries with back-off; src/server/jobs/worker.ts).
 */
export async function enqueueJob<K extends JobKind>(tx: DbOrTx, job: NewJob<K>): Promise<void> {
  await tx
    .insert(jobs)
    .values({
      kind: job.kind,
      payload: job.payload as Record<string, unknown>,
      tenant_id: job.tenantId ?? null,
      dedupe_key: job.dedupeKey ?? null,
      run_at: job.runAt ?? new Date(),
      max_attempts: job.maxAttempts ?? 5,
    })
    // No conflict target: naming one would need SELECT on jobs, which tenant transactions lack;
    // the only unique index that can conflict is the dedupe key's.
    .onConflictDoNothing();
}
