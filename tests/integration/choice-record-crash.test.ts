/**
 * "A kill -9 between the revocation and its sealed record: the record is made once after
 * restart" (decision 056). Real processes, as crash-recovery.test.ts: the patient signs and the
 * original is sealed normally; staff record an in-person revocation; the record job seals its PDF
 * and stalls before storing it; SIGKILL; a fresh process with its real worker finishes it once.
 * No fixed sleeps: every wait polls with a generous deadline.
 */
import { createHash } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { and, eq, sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { type Database, openDatabase } from "../../src/db/client.js";
import { auditEvents, contratoRegistros, emailOutbox, jobs } from "../../src/db/schema.js";
import { verifySignedPdf } from "../../src/server/services/sealing/verify-signed-pdf.js";
import {
  type AppProcess,
  ownPostgresDatabase,
  RECOVERY_MS,
  STARTUP_MS,
  startAppProcess,
  within,
} from "../helpers/crash-app.js";
import { httpApp } from "../helpers/http-app.js";
import { newClinic } from "../helpers/sessions.js";
import { signableDocument, signAsPatient, tokenOf } from "../helpers/signing.js";

const scratch = mkdtempSync(path.join(os.tmpdir(), "consentir-record-crash-"));
const running: AppProcess[] = [];
let postgres: Awaited<ReturnType<typeof ownPostgresDatabase>> = null;
let database: Database | null = null;

afterAll(async () => {
  for (const app of running) app.child.kill("SIGKILL");
  await Promise.all(running.map((app) => app.exited));
  await database?.close();
  await postgres?.drop();
  rmSync(scratch, { recursive: true, force: true });
});

/** Polls `probe` until it returns a value, within `ms`. */
async function until<T>(what: string, ms: number, probe: () => Promise<T | null>): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== null) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${ms / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

describe("kill -9 between a revocation and its sealed record", () => {
  it(
    "a fresh process seals the record once: one PDF, one 'document.choice_sealed', each e-mail once",
    { timeout: 2 * STARTUP_MS + 2 * RECOVERY_MS + 60_000 },
    async () => {
      postgres = await ownPostgresDatabase();
      const env = {
        NODE_ENV: "test",
        LOG_LEVEL: "silent",
        DATA_DIR: scratch,
        JOB_LEASE_MS: "3000",
        RATE_LIMIT_AUTH_PER_MINUTE: "10000",
        RATE_LIMIT_PUBLIC_PER_MINUTE: "10000",
        VIACEP_URL: "http://127.0.0.1:9",
        BRASILAPI_URL: "http://127.0.0.1:9",
        ...(postgres ? { DATABASE_URL: postgres.url } : {}),
      };

      // 1. The original's sealed PDF is made (the first signed render passes); the record's will stall.
      const first = await startAppProcess({ ...env, APP_PROCESS_MODE: "stall", APP_PROCESS_STALL_SKIP: "1" });
      running.push(first);
      const app = httpApp(first.baseUrl);
      const clinic = await newClinic(app);
      const staff = (method: "GET" | "POST" | "PUT", url: string, payload?: unknown) =>
        app.inject({ method, url, payload: payload as object, headers: { cookie: clinic.cookie } });
      expect((await staff("PUT", "/api/settings/signing", { codigo_email: false })).statusCode).toBe(200);
      const { documentId, patient } = await signableDocument(app, clinic);
      const sent = await staff("POST", `/api/documents/${documentId}/send`, {});
      expect(sent.statusCode, sent.body).toBe(200);
      const { response } = await signAsPatient(app, null as never, tokenOf(sent.json().link), patient);
      expect(response.statusCode, response.body).toBe(200);
      await until("the original's sealed PDF", RECOVERY_MS, async () =>
        (await staff("GET", `/api/documents/${documentId}/signed-pdf`)).statusCode === 200 ? true : null,
      );

      // 2. Staff record the revocation; its record job seals and stalls: kill -9.
      const revoked = await staff("POST", `/api/documents/${documentId}/revocation`, {
        meio: "telefone",
        motivo: "Mudou de ideia",
      });
      expect(revoked.statusCode, revoked.body).toBe(201);
      await within("the record job stalling", RECOVERY_MS, first.stalled);
      const before = (await staff("GET", `/api/documents/${documentId}`)).json();
      expect(before.registros).toEqual([expect.objectContaining({ tipo: "revogacao", pdf_pronto: false })]);
      first.child.kill("SIGKILL");
      await within("the killed process ending", 30_000, first.exited);
      expect(first.child.signalCode).toBe("SIGKILL");

      // 3. A fresh process with its real worker finishes the record after the lease.
      const second = await startAppProcess({ ...env, APP_PROCESS_MODE: "serve", WORKER: "true" });
      running.push(second);
      const fresh = httpApp(second.baseUrl);
      const record = await until("the sealed record after the restart", RECOVERY_MS, async () => {
        const detail = await fresh.inject({
          method: "GET",
          url: `/api/documents/${documentId}`,
          headers: { cookie: clinic.cookie },
        });
        const [one] = detail.json().registros as { id: string; pdf_pronto: boolean; codigo_verificacao: string }[];
        return one?.pdf_pronto ? one : null;
      });
      // Staff download it from the document page; it verifies offline as a revocation record.
      const download = await fetch(`${second.baseUrl}/api/documents/${documentId}/records/${record.id}/pdf`, {
        headers: { cookie: clinic.cookie },
      });
      expect(download.status).toBe(200);
      expect(download.headers.get("content-type")).toBe("application/pdf");
      const recordPdf = Buffer.from(await download.arrayBuffer());
      const report = verifySignedPdf(recordPdf);
      expect(report.ok).toBe(true);
      expect(report.registro?.tipo).toBe("revogacao");
      second.child.kill("SIGTERM");
      await within("the second process stopping", 60_000, second.exited);

      // 4. Exactly once, and the record verifies offline as a revocation record of its original.
      database = postgres
        ? await openDatabase({ kind: "postgres", url: postgres.url, poolSize: 2 })
        : await openDatabase({ kind: "pglite", dataDir: path.join(scratch, "pglite") });
      const { db } = database;
      const rows = await db.select().from(contratoRegistros).where(eq(contratoRegistros.contrato_id, documentId));
      expect(rows).toHaveLength(1);
      expect(rows[0]!.verification_code).toBe(record.codigo_verificacao);
      const actions = (
        await db
          .select({ action: auditEvents.action })
          .from(auditEvents)
          .where(and(eq(auditEvents.entity_type, "contrato"), eq(auditEvents.entity_id, documentId)))
      ).map((e) => e.action);
      expect(actions.filter((a) => a === "document.revoked")).toHaveLength(1);
      expect(actions.filter((a) => a === "document.choice_sealed")).toHaveLength(1);
      const mails = await db
        .select({ to: emailOutbox.to_address, n: sql<number>`count(*)::int` })
        .from(emailOutbox)
        .where(
          and(
            eq(emailOutbox.tenant_id, clinic.tenantId),
            sql`${emailOutbox.attachments} @> ${JSON.stringify([{ file_id: rows[0]!.pdf_file_id }])}::jsonb`,
          ),
        )
        .groupBy(emailOutbox.to_address);
      expect(mails.map((m) => m.to)).toContain(patient.email);
      expect(mails.every((m) => m.n === 1)).toBe(true);
      const [job] = await db
        .select()
        .from(jobs)
        .where(and(eq(jobs.kind, "document.choice_record"), eq(jobs.tenant_id, clinic.tenantId)));
      expect(job).toMatchObject({ status: "done", attempts: 2 });
      expect(createHash("sha256").update(recordPdf).digest("hex")).toBe(rows[0]!.pdf_sha256);
    },
  );
});
