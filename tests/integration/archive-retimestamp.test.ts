/**
 * The archive re-time-stamp (decision 064), with the local fake authority: a sealed PDF whose
 * document time-stamp was made with a short-lived authority certificate gets, once the authority
 * has a new certificate, a new revision (DSS + document time-stamp) whose first bytes are the
 * previous file; the stored file, its row and the history move together; the offline verifier
 * accepts it and reports the revision; a second run does nothing; another clinic's document, and a
 * run killed between writing the bytes and recording them, leave no extra revision.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { contratoRevisoesPdf, contratos, jobs } from "../../src/db/schema.js";
import type { JobContext } from "../../src/server/jobs/job-context.js";
import { latestDocumentTimestamp } from "../../src/server/services/sealing/archive-timestamp-rule.js";
import {
  buildRevision,
  recordRevision,
  retimestampArchive,
  scheduleArchiveRetimestamp,
} from "../../src/server/services/archive/retimestamp-archive.js";
import { checkAllPdfSignatures } from "../../src/server/services/sealing/verify-pdf-signature.js";
import { verifySignedPdf } from "../../src/server/services/sealing/verify-signed-pdf.js";
import { tsaConfigFromEnv } from "../../src/server/services/timestamping/tsa-client.js";
import { type FakeTsa, startFakeTsaServer } from "../fakes/tsa-server.js";
import { entryText, unzipEntries } from "../helpers/data-rights.js";
import { nodeEntryArgs } from "../helpers/node-entry.js";
import { newClinic, type SignedIn } from "../helpers/sessions.js";
import { signableDocument, signAsPatient, tokenOf } from "../helpers/signing.js";
import { createTestApp, type TestContext } from "../helpers/test-app.js";

const DAY = 24 * 60 * 60 * 1000;
const scratch = mkdtempSync(path.join(os.tmpdir(), "consentir-retimestamp-"));
let ctx: TestContext;
let tsa: FakeTsa;
let clinicA: SignedIn;
let clinicB: SignedIn;
let documentA: string;
let documentKilled: string;
let documentB: string;
const logs: string[] = [];

const logger = {
  info: (a: unknown, b?: unknown) => void logs.push(String(typeof a === "string" ? a : b)),
  warn: (a: unknown, b?: unknown) => void logs.push(String(typeof a === "string" ? a : b)),
  error: (a: unknown, b?: unknown) => void logs.push(String(typeof a === "string" ? a : b)),
} as unknown as JobContext["log"];

const jobContext = (env: Partial<TestContext["env"]> = {}): JobContext => ({
  db: ctx.database.db,
  storage: ctx.app.services.storage,
  secretBox: ctx.app.services.secretBox,
  env: { ...ctx.env, ...env },
  origin: "http://localhost:3000",
  log: logger,
});

const documentRow = async (id: string) => {
  const [row] = await ctx.database.db.select().from(contratos).where(eq(contratos.id, id));
  return row!;
};
const revisionsOf = (id: string) =>
  ctx.database.db.select().from(contratoRevisoesPdf).where(eq(contratoRevisoesPdf.contrato_id, id));
const storedPdf = async (id: string) =>
  (await ctx.app.services.storage.get((await documentRow(id)).signed_pdf_sha256!))!;

/** A document of `who`, signed by the patient and sealed by the finalize job. */
async function sealedDocument(who: SignedIn): Promise<string> {
  const { documentId, patient } = await signableDocument(ctx.app, who);
  const sent = await ctx.app.inject({
    method: "POST",
    url: `/api/documents/${documentId}/send`,
    payload: {},
    headers: { cookie: who.cookie },
  });
  expect(sent.statusCode, sent.body).toBe(200);
  const { response } = await signAsPatient(ctx.app, ctx.database, tokenOf(sent.json().link as string), patient);
  expect(response.statusCode, response.body).toBe(200);
  // On PostgreSQL the suite's queue may hold older due jobs: this one goes first, and a retry (a
  // loaded machine, the PDF pool busy) is brought forward rather than waited for.
  for (let round = 0; round < 40 && !(await documentRow(documentId)).signed_pdf_sha256; round++) {
    await ctx.database.db.execute(
      sql`update jobs set run_at = 'epoch' where kind = 'document.finalize' and status = 'pending' and payload->>'contratoId' = ${documentId}`,
    );
    await ctx.app.worker.tick({ sweep: false });
  }
  const [job] = await ctx.database.db
    .select({ status: jobs.status, attempts: jobs.attempts, last_error: jobs.last_error })
    .from(jobs)
    .where(and(eq(jobs.kind, "document.finalize"), sql`${jobs.payload}->>'contratoId' = ${documentId}`));
  expect((await documentRow(documentId)).signed_pdf_sha256, JSON.stringify(job)).toMatch(/^[0-9a-f]{64}$/);
  return documentId;
}

// The job is run with the clock two days ahead: whatever the app's own sweep did meanwhile (it
// schedules the day's run too), these documents are due by then.
const later = () => new Date(Date.now() + 2 * DAY);

beforeAll(async () => {
  // An authority whose certificate expires in 30 days: inside the 60-day margin from the start.
  tsa = await startFakeTsaServer({ validDays: 30 });
  ctx = await createTestApp({ env: { TSA_URL: tsa.url, TSA_TIMEOUT_MS: "10000", RETIMESTAMP_MARGIN_DAYS: "60" } });
  clinicA = await newClinic(ctx.app);
  clinicB = await newClinic(ctx.app);
  documentA = await sealedDocument(clinicA);
  documentKilled = await sealedDocument(clinicA);
  // The authority renews its certificate (ten years); clinic B's document is stamped with it.
  tsa.renew(3650);
  documentB = await sealedDocument(clinicB);
}, 180_000);

afterAll(async () => {
  await ctx?.close();
  await tsa?.close();
});

describe("archive re-time-stamp", () => {
  let before: Buffer;
  let killedBefore: Buffer;
  let orphan: Buffer;

  it("a run killed after writing the new bytes and before recording them leaves the document as it was", async () => {
    killedBefore = await storedPdf(documentKilled);
    const stamp = latestDocumentTimestamp(killedBefore)!;
    expect(stamp.tsaNotAfter!.getTime()).toBeLessThan(Date.now() + 31 * DAY);
    const built = await buildRevision({
      ctx: jobContext(),
      previous: killedBefore,
      stamp,
      tsa: tsaConfigFromEnv(ctx.env)!,
      now: new Date(),
    });
    orphan = built.pdf;
    await ctx.app.services.storage.put(orphan);
    // …kill -9 here: nothing recorded.
    const row = await documentRow(documentKilled);
    expect(row.signed_pdf_sha256).not.toBe((await ctx.app.services.storage.put(orphan)).sha256);
    expect(await revisionsOf(documentKilled)).toEqual([]);
    expect((await storedPdf(documentKilled)).equals(killedBefore)).toBe(true);
  });

  it("appends a revision to each due file: same bytes before it, verified, stored, recorded in the clinic's history", async () => {
    before = await storedPdf(documentA);
    const bBefore = (await documentRow(documentB)).signed_pdf_sha256;
    const summary = await retimestampArchive(jobContext(), later());
    expect(summary).toMatchObject({ configured: true });
    expect(summary.stamped).toBeGreaterThanOrEqual(2);

    const after = await storedPdf(documentA);
    expect(after.length).toBeGreaterThan(before.length);
    expect(after.subarray(0, before.length).equals(before)).toBe(true);
    const all = checkAllPdfSignatures(after);
    expect(all.valid, all.reason).toBe(true);
    expect(all.signatures.map((s) => s.kind)).toEqual(["assinatura", "carimbo_documento", "carimbo_documento"]);
    expect(all.afterSeal?.revisions.map((r) => r.kind)).toEqual([
      "dss",
      "carimbo_documento",
      "dss",
      "dss",
      "carimbo_documento",
      "dss",
    ]);
    // The new stamp is by the renewed certificate, outside the margin.
    const newest = latestDocumentTimestamp(after)!;
    expect(newest.tsaCertificateDer!.equals(tsa.certificate.der)).toBe(true);
    const report = verifySignedPdf(after);
    expect(
      report.ok,
      report.linhas
        .filter((l) => l.ok === false)
        .map((l) => l.text)
        .join("; "),
    ).toBe(true);
    expect(report.revisoes_arquivo).toEqual([
      expect.objectContaining({ revisao: 1, valido: true, a_tempo: true, autoridade: "ACT Teste Consentir" }),
    ]);

    const [revision] = await revisionsOf(documentA);
    const row = await documentRow(documentA);
    expect(revision).toMatchObject({
      tenant_id: clinicA.tenantId,
      revisao: 1,
      motivo: "vencimento",
      sha256: row.signed_pdf_sha256,
      file_id: row.signed_pdf_file_id,
      autoridade: "ACT Teste Consentir",
    });
    expect(revision!.anterior_sha256).not.toBe(revision!.sha256);
    expect(revision!.carimbo_em.getTime()).toBeGreaterThan(Date.now() - 120_000);
    expect(row.carimbo_revisar_em!.getTime()).toBeGreaterThan(Date.now() + 3000 * DAY);

    // The clinic downloads the new file; another clinic's document was not touched.
    const download = await ctx.app.inject({
      method: "GET",
      url: `/api/documents/${documentA}/signed-pdf`,
      headers: { cookie: clinicA.cookie },
    });
    expect(download.statusCode).toBe(200);
    expect(download.rawPayload.equals(after)).toBe(true);
    expect((await documentRow(documentB)).signed_pdf_sha256).toBe(bBefore);
    expect(await revisionsOf(documentB)).toEqual([]);
    // Clinic B's row-level view of the history holds none of clinic A's rows.
    const seenByB = await ctx.database.db.transaction(async (tx) => {
      await tx.execute(
        sql`select set_config('app.tenant_id', ${clinicB.tenantId}, true), set_config('role', 'consentir_app', true)`,
      );
      return tx.select().from(contratoRevisoesPdf);
    });
    expect(seenByB.filter((r) => r.tenant_id !== clinicB.tenantId)).toEqual([]);
  });

  it("the killed run's document got exactly one revision, and the stale bytes can no longer be recorded", async () => {
    const revisions = await revisionsOf(documentKilled);
    expect(revisions).toHaveLength(1);
    const now = await storedPdf(documentKilled);
    expect(now.subarray(0, killedBefore.length).equals(killedBefore)).toBe(true);
    expect(checkAllPdfSignatures(now).valid).toBe(true);
    const stale = await recordRevision(
      jobContext(),
      {
        id: documentKilled,
        tenantId: clinicA.tenantId,
        fileId: revisions[0]!.anterior_file_id,
        sha256: revisions[0]!.anterior_sha256,
      },
      { pdf: orphan, genTime: new Date(), tsaCertificateDer: undefined, reason: "vencimento" },
      new Date(),
    );
    expect(stale).toBe(false);
    expect(await revisionsOf(documentKilled)).toHaveLength(1);
  });

  it("a second run does nothing", async () => {
    const sha = (await documentRow(documentA)).signed_pdf_sha256;
    const requests = tsa.requests.length;
    const summary = await retimestampArchive(jobContext(), later());
    expect(summary.stamped).toBe(0);
    expect((await documentRow(documentA)).signed_pdf_sha256).toBe(sha);
    expect(await revisionsOf(documentA)).toHaveLength(1);
    // Nothing was due among these documents: the authority was not even asked for these.
    expect(tsa.requests.length - requests).toBeLessThanOrEqual(1);
  });

  it("the copy e-mailed before the revision is still this document's at /verificar", async () => {
    const { verification_code: code } = await documentRow(documentA);
    const check = await ctx.app.inject({
      method: "POST",
      url: `/api/public/verify/${code}/pdf`,
      headers: { "content-type": "application/pdf" },
      payload: before,
    });
    expect(check.statusCode, check.body).toBe(200);
    expect(check.json()).toMatchObject({ identico: true, selo_integro: true });
  });

  it("the clinic export carries the history and every revision's file; another clinic's export none of it", async () => {
    const exportOf = async (who: SignedIn) => {
      const response = await ctx.app.inject({
        method: "GET",
        url: "/api/settings/export",
        headers: { cookie: who.cookie },
      });
      expect(response.statusCode, response.body.slice(0, 200)).toBe(200);
      return unzipEntries(response.rawPayload);
    };
    const a = await exportOf(clinicA);
    const rows = JSON.parse(entryText(a, "dados/contrato_revisoes_pdf.json")) as {
      sha256: string;
      anterior_sha256: string;
    }[];
    const mine = [...(await revisionsOf(documentA)), ...(await revisionsOf(documentKilled))];
    expect(rows.map((r) => r.sha256).sort()).toEqual(mine.map((r) => r.sha256).sort());
    for (const r of mine) {
      expect(a[`arquivos/${r.sha256}.pdf`], r.sha256).toBeDefined();
      expect(a[`arquivos/${r.anterior_sha256}.pdf`], r.anterior_sha256).toBeDefined();
    }
    expect(entryText(a, "planilhas/revisoes-de-arquivo-dos-pdfs.csv")).toContain(mine[0]!.sha256);
    const b = await exportOf(clinicB);
    expect(JSON.parse(entryText(b, "dados/contrato_revisoes_pdf.json"))).toEqual([]);
  });

  it("npm run verify reports the archive revision", async () => {
    const file = path.join(scratch, "revisado.pdf");
    writeFileSync(file, await storedPdf(documentA));
    let out: string;
    let code = 0;
    try {
      out = execFileSync(process.execPath, [...nodeEntryArgs("src/server/cli/verify-pdf.ts"), file], {
        encoding: "utf8",
        stdio: ["ignore", "pipe", "pipe"],
      });
    } catch (error) {
      const e = error as { status: number; stdout: string };
      code = e.status;
      out = e.stdout;
    }
    // 3: everything holds, no fingerprint given to confirm the seal.
    expect(code, out).toBe(3);
    expect(out).toContain("Revisões de arquivo: 1 carimbo(s) do tempo do documento");
    expect(out).toMatch(
      /✓ Revisão de arquivo 1: carimbo de .+, autoridade “ACT Teste Consentir”, feito antes de vencer/,
    );
  }, 60_000);

  it("without an authority (TSA_URL=none) the job does nothing and says so", async () => {
    logs.length = 0;
    const summary = await retimestampArchive(jobContext({ TSA_URL: "none" }), later());
    expect(summary).toEqual({ configured: false, read: 0, stamped: 0, postponed: 0 });
    expect(logs.join("\n")).toContain("nenhuma autoridade de carimbo do tempo configurada");
  });
});

describe("scheduling", () => {
  it("the sweep enqueues one job a day with an authority, none without (and says so once)", async () => {
    // A day of its own (PostgreSQL keeps the queue between runs): some noon between 2040 and 2200.
    const day = new Date(Date.UTC(2040, 0, 1, 15) + Math.floor(Math.random() * 58_000) * DAY);
    const dia = day.toISOString().slice(0, 10);
    const nextDay = new Date(day.getTime() + DAY);
    const withAuthority = jobContext();
    expect(await scheduleArchiveRetimestamp(withAuthority, day)).toBe(true);
    expect(await scheduleArchiveRetimestamp(withAuthority, day)).toBe(false);
    // Another process (its own configuration) finds the day's job in the queue.
    expect(await scheduleArchiveRetimestamp(jobContext(), day)).toBe(false);
    const queued = await ctx.database.db
      .select({ kind: jobs.kind, payload: jobs.payload })
      .from(jobs)
      .where(eq(jobs.dedupe_key, `archive.retimestamp:${dia}`));
    expect(queued).toEqual([{ kind: "archive.retimestamp", payload: { dia } }]);
    logs.length = 0;
    const none = jobContext({ TSA_URL: "none" });
    expect(await scheduleArchiveRetimestamp(none, nextDay)).toBe(false);
    expect(await scheduleArchiveRetimestamp(none, nextDay)).toBe(false);
    expect(logs.filter((l) => l.includes("nenhuma autoridade de carimbo do tempo"))).toHaveLength(1);
    expect(
      await ctx.database.db
        .select()
        .from(jobs)
        .where(eq(jobs.dedupe_key, `archive.retimestamp:${nextDay.toISOString().slice(0, 10)}`)),
    ).toEqual([]);
  });
});

describe("the retention wall", () => {
  it("a sealed document's file still cannot be swapped without a recorded revision", async () => {
    const row = await documentRow(documentB);
    await expect(
      ctx.database.db
        .update(contratos)
        .set({ signed_pdf_sha256: "0".repeat(64) })
        .where(and(eq(contratos.id, documentB), eq(contratos.tenant_id, clinicB.tenantId))),
    ).rejects.toThrow();
    expect((await documentRow(documentB)).signed_pdf_sha256).toBe(row.signed_pdf_sha256);
  });
});
