import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { and, eq, sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { type Database, openDatabase } from "../../src/db/client.js";
import { rawRows } from "../../src/db/raw.js";
import { feegowUploads, jobs } from "../../src/db/schema.js";
import { FAKE_FEEGOW_TOKEN, type FakeFeegowServer, startFakeFeegowServer } from "../fakes/feegow-server.js";
import { type AppProcess, startAppProcess, waitFor } from "../helpers/server-process.js";
import { newClinic } from "../helpers/sessions.js";
import { draftDocument, publishedTemplateVersion } from "../helpers/signing.js";
import { createTestApp } from "../helpers/test-app.js";
import { openTestDatabase } from "../helpers/test-db.js";

/**
 * a worker killed (SIGKILL) while Feegow holds its upload's answer; a fresh worker
 * process takes the job after its lease and finishes it — Feegow accepts the file exactly once.
 * Real child processes (src/server/main.ts with WORKER on) on a shared database: the PostgreSQL
 * at TEST_DATABASE_URL, or a PGlite directory (opened by one process at a time).
 */
const onPostgres = process.env.TEST_DB === "postgres";
const dataDir = mkdtempSync(path.join(os.tmpdir(), "consentir-feegow-crash-"));
const APP_SECRET = "segredo-de-teste-do-crash-do-feegow-0123456789";
let fake: FakeFeegowServer;
const children: AppProcess[] = [];

afterAll(async () => {
  for (const child of children) child.kill("SIGKILL");
  await Promise.all(children.map((child) => child.exited));
  await fake?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const openShared = (): Promise<Database> =>
  onPostgres ? openTestDatabase() : openDatabase({ kind: "pglite", dataDir: path.join(dataDir, "pglite") });

describe("a worker killed in the middle of an upload", () => {
  it("leaves the upload to a fresh worker, and Feegow gets the file exactly once", async () => {
    fake = await startFakeFeegowServer();
    const env = { FEEGOW_URL: fake.url, DATA_DIR: dataDir, APP_SECRET };

    // The clinic, its token, a document and its queued upload — written by a test app that then goes away.
    let database = await openShared();
    const setup = await createTestApp({ database, env: { ...env, FEEGOW_TIMEOUT_MS: "5000" } });
    const owner = await newClinic(setup.app);
    const call = (method: "GET" | "POST" | "PUT", url: string, payload?: unknown) =>
      setup.app.inject({
        method,
        url,
        ...(payload === undefined ? {} : { payload: payload as object }),
        headers: { cookie: owner.cookie },
      });
    expect((await call("PUT", "/api/integration/feegow", { token: FAKE_FEEGOW_TOKEN })).statusCode).toBe(200);
    expect((await call("POST", "/api/integration/feegow/test")).statusCode).toBe(200);
    expect((await call("PUT", "/api/integration/feegow", { integrations: { file_upload: true } })).statusCode).toBe(
      200,
    );
    const patient = await call("POST", "/api/patients", {
      nome: "Helena Duarte Vasconcelos",
      cpf: "52998224725",
      data_nascimento: "1979-09-23",
    });
    const documentId = await draftDocument(
      setup.app,
      owner,
      await publishedTemplateVersion(setup.app, owner),
      patient.json().id,
    );
    const queued = await call("POST", `/api/documents/${documentId}/feegow-upload`);
    expect(queued.statusCode).toBe(202);
    const uploadId = queued.json().upload.id as string;
    await setup.close();
    if (!onPostgres) await database.close();

    const childEnv = {
      ...env,
      WORKER: "true",
      ...(onPostgres ? { DATABASE_URL: process.env.TEST_DATABASE_URL ?? "" } : {}),
    };
    const uploadsSeen = async (child: AppProcess) => {
      const response = await fetch(`${child.baseUrl}/api/documents/${documentId}/feegow-uploads`, {
        headers: { cookie: owner.cookie },
      });
      return response.ok
        ? ((await response.json()) as { items: { status: string; tentativas: number; possivel_duplicata: boolean }[] })
            .items[0]
        : undefined;
    };

    // Worker A takes the job, marks 'enviando' and calls Feegow, which holds the answer.
    fake.holdUploads = true;
    const first = await startAppProcess({ ...childEnv, FEEGOW_TIMEOUT_MS: "60000" });
    children.push(first);
    await waitFor("o upload chegar ao Feegow", () => fake.held() === 1, 90_000);
    expect(await uploadsSeen(first)).toMatchObject({ status: "enviando", tentativas: 1 });
    first.kill("SIGKILL");
    expect(await first.exited).toBe("SIGKILL");
    await waitFor("o Feegow ver a conexão cair", () => fake.held() === 0, 30_000);
    expect(fake.uploads).toEqual([]);
    expect(fake.uploadArrivals).toBe(1);

    // Worker B, a new process: after A's lease runs out it takes the job and finishes the upload.
    fake.holdUploads = false;
    const second = await startAppProcess({ ...childEnv, FEEGOW_TIMEOUT_MS: "3000" });
    children.push(second);
    const done = await waitFor(
      "o segundo worker concluir o envio",
      async () => {
        const upload = await uploadsSeen(second);
        return upload?.status === "enviado" ? upload : undefined;
      },
      120_000,
      250,
    );
    expect(done).toMatchObject({ status: "enviado", tentativas: 2, possivel_duplicata: true });
    second.kill("SIGTERM");
    await second.exited;

    expect(fake.uploadArrivals).toBe(2);
    expect([...fake.acceptedByKey().entries()]).toEqual([[`4817:${queued.json().upload.file_sha256}`, 1]]);

    if (!onPostgres) database = await openShared();
    try {
      const [row] = await database.db.select().from(feegowUploads).where(eq(feegowUploads.id, uploadId));
      expect(row).toMatchObject({
        status: "enviado",
        tentativas: 2,
        possivel_duplicata: true,
        envio_iniciado_at: null,
      });
      const [job] = await database.db
        .select()
        .from(jobs)
        .where(and(eq(jobs.kind, "feegow.upload"), sql`${jobs.payload} ->> 'uploadId' = ${uploadId}`));
      expect(job).toMatchObject({ status: "done", attempts: 2 });
      const events = await rawRows<{ action: string }>(
        database.db,
        sql`select action from audit_events where entity_id = ${documentId} and action like 'document.feegow%' order by seq`,
      );
      expect(events.map((e) => e.action)).toEqual(["document.feegow_upload_requested", "document.feegow_uploaded"]);
    } finally {
      await database.close();
    }
  }, 300_000);
});
