import path from "node:path";
import { and, desc, eq, inArray, sql } from "drizzle-orm";
import { backupRuns, jobs, tenants } from "../../db/schema.js";
import { dateInSaoPaulo, startOfDayInSaoPaulo } from "../../shared/dates/sao-paulo.js";
import { backupRootKeyFromBox, instanceKeyIdFromBox } from "../backup/backup-keys.js";
import { type BackupDestination, dailyBackupConfigured, dailyBackupDestination } from "../backup/backup-destination.js";
import { createBackup } from "../backup/create-backup.js";
import { pruneBackups } from "../backup/prune-backups.js";
import { enqueueJob } from "./enqueue-job.js";
import type { JobContext } from "./job-context.js";
import { withTenant } from "../../db/tenant-scope.js";
import { recordSystemNotice } from "../services/notices/record-system-notice.js";

const dedupeKey = (dia: string) => `backup.daily:${dia}`;
/** Attempts per day (the job retries with back-off; each failure is a backup_runs row). */
const ATTEMPTS = 3;

/** When today's backup is due: BACKUP_TIME (HH:MM) on São Paulo's clock. */
export function dailyBackupDueAt(now: Date, backupTime: string): { dia: string; dueAt: Date } {
  const dia = dateInSaoPaulo(now);
  const [hours, minutes] = backupTime.split(":").map(Number) as [number, number];
  return { dia, dueAt: new Date(startOfDayInSaoPaulo(dia).getTime() + (hours * 60 + minutes) * 60_000) };
}

/**
 * Called by the worker's sweep: once BACKUP_TIME has passed (and BACKUP_DIR or BACKUP_S3 is set), enqueues the
 * day's 'backup.daily' job unless the day already has a backup, has used up its attempts, or has
 * its job waiting or running (the dedupe key keeps several processes to one job). Returns whether
 * it enqueued one.
 */
export async function scheduleDailyBackup(ctx: JobContext, now: Date = new Date()): Promise<boolean> {
  if (!dailyBackupConfigured(ctx.env)) return false;
  const { dia, dueAt } = dailyBackupDueAt(now, ctx.env.BACKUP_TIME);
  if (now < dueAt) return false;
  const [runs] = await ctx.db
    .select({
      ok: sql<number>`count(*) filter (where ${backupRuns.status} = 'ok')::int`,
      failed: sql<number>`count(*) filter (where ${backupRuns.status} = 'failed')::int`,
    })
    .from(backupRuns)
    .where(eq(backupRuns.dia, dia));
  if ((runs?.ok ?? 0) > 0 || (runs?.failed ?? 0) >= ATTEMPTS) return false;
  const [waiting] = await ctx.db
    .select({ id: jobs.id })
    .from(jobs)
    .where(and(eq(jobs.dedupe_key, dedupeKey(dia)), inArray(jobs.status, ["pending", "running"])))
    .limit(1);
  if (waiting) return false;
  await enqueueJob(ctx.db, {
    kind: "backup.daily",
    payload: { dia },
    dedupeKey: dedupeKey(dia),
    maxAttempts: ATTEMPTS,
  });
  return true;
}

/**
 * The 'backup.daily' job (decisions 027, 030): a backup into BACKUP_DIR or, with BACKUP_S3, the
 * bucket's backups/ (on PGlite from a copy of the data dir, so the app waits only for the dump),
 * then the 7 daily / 4 weekly / 12 monthly rule on that folder or those objects. Every attempt
 * leaves a backup_runs row; a failed one carries the pt-BR reason — the notice the owner's Avisos
 * show — and the job is retried (3 attempts, with back-off).
 */
export async function runDailyBackup(ctx: JobContext, payload: { dia: string }): Promise<void> {
  const startedAt = new Date();
  let destination: BackupDestination | null = null;
  try {
    destination = await dailyBackupDestination(ctx.env);
    if (!destination)
      throw new Error(
        "nem BACKUP_DIR nem BACKUP_S3 (com S3_BUCKET) estão definidas: o backup diário não tem onde ser gravado.",
      );
    if (!ctx.database) throw new Error("o backup diário precisa do banco do app (JobContext.database)");
    const written = await createBackup(ctx.database, {
      dir: destination,
      root: backupRootKeyFromBox(ctx.env, ctx.secretBox),
      instanceKeyId: instanceKeyIdFromBox(ctx.secretBox),
      storage: ctx.storage,
      copyPglite: true,
    });
    const removed = await pruneBackups(destination, new Date());
    const missing = written.manifest.files.missing;
    await ctx.db.insert(backupRuns).values({
      dia: payload.dia,
      status: "ok",
      arquivo: path.basename(written.path),
      bytes: written.bytes,
      mensagem:
        missing.length > 0
          ? `${missing.length} arquivo(s) do banco não estavam no armazenamento: ${missing.slice(0, 5).join(", ")}`
          : null,
      removidos: removed,
      started_at: startedAt,
    });
    ctx.log.info({ file: written.path, bytes: written.bytes, removed }, "daily backup written");
  } catch (error) {
    const message = `O backup diário de ${payload.dia} falhou: ${(error as Error).message}`;
    await ctx.db
      .insert(backupRuns)
      .values({ dia: payload.dia, status: "failed", mensagem: message.slice(0, 2000), started_at: startedAt });
    ctx.log.error({ err: error }, "daily backup failed");
    const where = ctx.env.BACKUP_S3
      ? "o bucket e as credenciais do armazenamento (variáveis S3_*)"
      : "o espaço e as permissões da pasta de backups (BACKUP_DIR)";
    await noticeBackupFailure(ctx, payload.dia, message, where).catch((noticeError: unknown) =>
      ctx.log.error({ err: noticeError }, "backup failure notice not recorded"),
    );
    throw error;
  } finally {
    destination?.close();
  }
}

/** The newest backup attempts, newest first (what a future Avisos screen reads). */
export async function latestBackupRuns(ctx: Pick<JobContext, "db">, limit = 10) {
  return ctx.db.select().from(backupRuns).orderBy(desc(backupRuns.finished_at)).limit(limit);
}

/**
 * A failed backup is an Aviso for the owner and the administration (decision 028): the instance's
 * backup covers every clinic on it, so each clinic's owner hears of it.
 */
async function noticeBackupFailure(
  ctx: Pick<JobContext, "db">,
  dia: string,
  message: string,
  where: string,
): Promise<void> {
  const clinics = await ctx.db.select({ id: tenants.id }).from(tenants);
  for (const clinic of clinics) {
    await withTenant(ctx.db, clinic.id, (tx) =>
      recordSystemNotice(tx, clinic.id, {
        kind: "backup.failed",
        title: `Backup de ${dia.split("-").reverse().join("/")} não concluído`,
        body: `${message.slice(0, 800)} Uma nova tentativa será feita automaticamente; se persistir, verifique ${where}.`,
      }),
    );
  }
}
