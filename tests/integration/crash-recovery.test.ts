/**
 * "kill -9 between the last party's signature and the sealed PDF loses nothing and the
 * PDF is made once". Real processes: the app runs in a child (tests/helpers/app-process.ts) on a
 * database of its own — file-backed PGlite in a scratch folder, or a new PostgreSQL database when
 * the suite runs on PostgreSQL — the patient signs over HTTP, the finalize job is taken and
 * stalls after sealing (before the sealed PDF is stored and linked), the process gets SIGKILL,
 * and a fresh process (the app with its real worker) must finish the job once its lease ends.
 * No fixed sleeps: every wait polls with a generous deadline (CI runs busy processes beside it).
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { and, eq, like, sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { type Database, openDatabase } from "../../src/db/client.js";
import { auditEvents, contratos, emailOutbox, files, jobs } from "../../src/db/schema.js";
import { verifySignedPdf } from "../../src/server/services/sealing/verify-signed-pdf.js";
import { httpApp } from "../helpers/http-app.js";
import { newClinic } from "../helpers/sessions.js";
import { signableDocument, signAsPatient, tokenOf } from "../helpers/signing.js";
import {
  type AppProcess,
  ownPostgresDatabase,
  RECOVERY_MS,
  STARTUP_MS,
  startAppProcess,
  within,
} from "../helpers/crash-app.js";

const scratch = mkdtempSync(path.join(os.tmpdir(), "consentir-crash-"));
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

describe("kill -9 between the last signature and the sealed PDF", () => {
  it(
    "loses nothing: a fresh process makes the sealed PDF once, with one 'document.sealed' and the e-mails queued once",
    { timeout: 2 * STARTUP_MS + RECOVERY_MS + 60_000 },
    async () => {
      postgres = await ownPostgresDatabase();
      const env = {
        NODE_ENV: "test",
        LOG_LEVEL: "silent",
        DATA_DIR: scratch,
        // A dead worker's job is taken again after this lease (the default 20 s would also pass, slower).
        JOB_LEASE_MS: "3000",
        RATE_LIMIT_AUTH_PER_MINUTE: "10000",
        RATE_LIMIT_PUBLIC_PER_MINUTE: "10000",
        VIACEP_URL: "http://127.0.0.1:9",
        BRASILAPI_URL: "http://127.0.0.1:9",
        ...(postgres ? { DATABASE_URL: postgres.url } : {}),
      };

      // 1. The app whose worker will die mid-job; the patient signs (the last party: the professional signed before sending).
      const first = await startAppProcess({ ...env, APP_PROCESS_MODE: "stall" });
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

      // 2. The finalize job was taken and sealed, but nothing is stored yet: kill -9.
      await within("the finalize job stalling", RECOVERY_MS, first.stalled);
      const preparing = await staff("GET", `/api/documents/${documentId}/signed-pdf`);
      expect(preparing.statusCode, preparing.body).toBe(404);
      first.child.kill("SIGKILL");
      await within("the killed process ending", 30_000, first.exited);
      expect(first.child.signalCode).toBe("SIGKILL");

      // 3. A fresh process with its real worker: the job comes back after its lease and finishes.
      const second = await startAppProcess({ ...env, APP_PROCESS_MODE: "serve", WORKER: "true" });
      running.push(second);
      const fresh = httpApp(second.baseUrl);
      const deadline = Date.now() + RECOVERY_MS;
      let sealed: Buffer | null = null;
      while (!sealed) {
        const answer = await fetch(`${second.baseUrl}/api/documents/${documentId}/signed-pdf`, {
          headers: { cookie: clinic.cookie },
        });
        if (answer.status === 200) sealed = Buffer.from(await answer.arrayBuffer());
        else if (Date.now() > deadline)
          throw new Error(`no sealed PDF ${RECOVERY_MS / 1000} s after the restart (last answer ${answer.status})`);
        else await new Promise((resolve) => setTimeout(resolve, 250));
      }
      // The sealed PDF holds its evidence: the signature made before the crash is in it.
      const report = verifySignedPdf(sealed);
      expect(report.linhas.filter((line) => line.ok === false)).toEqual([]);
      expect(report.partes.map((party) => party.nome)).toContain(patient.nome);
      // Let the worker go idle, then stop it cleanly so the database can be opened here.
      await expect
        .poll(async () => (await fresh.inject({ method: "GET", url: "/api/health" })).statusCode, { timeout: 30_000 })
        .toBe(200);
      second.child.kill("SIGTERM");
      await within("the second process stopping", 60_000, second.exited);

      // 4. Exactly once: one sealed PDF, one 'document.sealed', each e-mail queued once; the job was taken twice.
      database = postgres
        ? await openDatabase({ kind: "postgres", url: postgres.url, poolSize: 2 })
        : await openDatabase({ kind: "pglite", dataDir: path.join(scratch, "pglite") });
      const { db } = database;
      const [row] = await db.select().from(contratos).where(eq(contratos.id, documentId));
      expect(row?.status).toBe("signed");
      expect(row?.signed_pdf_file_id).not.toBeNull();
      const actions = (
        await db
          .select({ action: auditEvents.action })
          .from(auditEvents)
          .where(and(eq(auditEvents.entity_type, "contrato"), eq(auditEvents.entity_id, documentId)))
      ).map((e) => e.action);
      expect(actions.filter((a) => a === "document.sealed")).toHaveLength(1);
      expect(actions.filter((a) => a === "document.signed")).toHaveLength(1);
      expect(actions.filter((a) => a === "document.party_signed")).toHaveLength(2);
      const pdfs = await db
        .select({ id: files.id, sha256: files.sha256 })
        .from(files)
        .where(
          and(
            eq(files.tenant_id, clinic.tenantId),
            eq(files.content_type, "application/pdf"),
            like(files.nome, "%assinado%"),
          ),
        );
      expect(pdfs).toEqual([{ id: row!.signed_pdf_file_id, sha256: row!.signed_pdf_sha256 }]);
      const mails = await db
        .select({ to: emailOutbox.to_address, n: sql<number>`count(*)::int` })
        .from(emailOutbox)
        .where(
          and(
            eq(emailOutbox.tenant_id, clinic.tenantId),
            sql`${emailOutbox.attachments} @> ${JSON.stringify([{ file_id: row!.signed_pdf_file_id }])}::jsonb`,
          ),
        )
        .groupBy(emailOutbox.to_address);
      expect(mails.map((m) => m.to)).toContain(patient.email);
      expect(mails.every((m) => m.n === 1)).toBe(true);
      const [job] = await db
        .select()
        .from(jobs)
        .where(and(eq(jobs.kind, "document.finalize"), sql`${jobs.payload}->>'contratoId' = ${documentId}`));
      expect(job).toMatchObject({ status: "done", attempts: 2 });
    },
  );
});
