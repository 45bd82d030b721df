/**
 * The archive re-time-stamp reads the revocation lists again (decision 078): a PDF sealed with an
 * ICP-Brasil e-CNPJ keeps, in its DSS, the lists read at sealing; when its document time-stamp
 * falls due, the new revision's DSS gets the lists as published THEN — fetched from the local list
 * repository through the address-checked source — and not only the old ones. The clock is moved
 * ahead to the day the job runs.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { contratoRevisoesPdf, contratos, jobs, tenants } from "../../src/db/schema.js";
import type { JobContext } from "../../src/server/jobs/job-context.js";
import { retimestampArchive } from "../../src/server/services/archive/retimestamp-archive.js";
import { readDss } from "../../src/server/services/sealing/dss.js";
import { checkAllPdfSignatures } from "../../src/server/services/sealing/verify-pdf-signature.js";
import { makeCrl, revocationPki, type RevocationPki } from "../fixtures/crl.js";
import { startCrlServer, type CrlServer } from "../fakes/crl-server.js";
import { type FakeTsa, startFakeTsaServer } from "../fakes/tsa-server.js";
import { newClinic, type SignedIn } from "../helpers/sessions.js";
import { draftDocument, publishedTemplateVersion, signAsPatient, signingPatient, tokenOf } from "../helpers/signing.js";
import { createTestApp, type TestContext } from "../helpers/test-app.js";

const CPF = "52998224725";
const CNPJ = "11222333000181";
const DAY = 24 * 60 * 60 * 1000;
const scratch = mkdtempSync(path.join(os.tmpdir(), "consentir-retimestamp-crl-"));
let server: CrlServer;
let pki: RevocationPki;
let tsa: FakeTsa;
let ctx: TestContext;
let clinic: SignedIn;
let documentId: string;

const silent = { info: () => undefined, warn: () => undefined, error: () => undefined } as unknown as JobContext["log"];
const jobContext = (): JobContext => ({
  db: ctx.database.db,
  storage: ctx.app.services.storage,
  secretBox: ctx.app.services.secretBox,
  // A new env object: a list source of its own (no list kept in memory from the sealing).
  env: { ...ctx.env },
  origin: "http://localhost:3000",
  log: silent,
});

const documentRow = async () =>
  (await ctx.database.db.select().from(contratos).where(eq(contratos.id, documentId)))[0]!;
const storedPdf = async () => (await ctx.app.services.storage.get((await documentRow()).signed_pdf_sha256!))!;

beforeAll(async () => {
  server = await startCrlServer();
  pki = revocationPki(server.base, { cpf: CPF, cnpj: CNPJ });
  const rootsFile = path.join(scratch, "raizes.pem");
  writeFileSync(rootsFile, pki.root.pem);
  // An authority whose certificate expires in 30 days: inside the 60-day margin from the start.
  tsa = await startFakeTsaServer({ validDays: 30 });
  ctx = await createTestApp({
    env: {
      ICP_BRASIL_ROOTS_FILE: rootsFile,
      TSA_URL: tsa.url,
      TSA_TIMEOUT_MS: "10000",
      RETIMESTAMP_MARGIN_DAYS: "60",
    },
  });
  server.publish("/raiz.crl", await makeCrl({ issuer: pki.root }));
  server.publish("/ac.crl", await makeCrl({ issuer: pki.ac }));

  clinic = await newClinic(ctx.app);
  await ctx.database.db.update(tenants).set({ cnpj: CNPJ }).where(eq(tenants.id, clinic.tenantId));
  const uploaded = await ctx.app.inject({
    method: "POST",
    url: "/api/certificates",
    headers: { cookie: clinic.cookie },
    payload: {
      arquivo_base64: pki.ecnpj.pfx.toString("base64"),
      nome_arquivo: "ecnpj.pfx",
      alias: "e-CNPJ",
      senha: pki.ecnpj.password,
      titular: "clinica",
    },
  });
  expect(uploaded.statusCode, uploaded.body).toBe(201);
  const versionId = await publishedTemplateVersion(ctx.app, clinic);
  const patient = await signingPatient(ctx.app, clinic);
  documentId = await draftDocument(ctx.app, clinic, versionId, patient.id);
  const sent = await ctx.app.inject({
    method: "POST",
    url: `/api/documents/${documentId}/send`,
    headers: { cookie: clinic.cookie },
    payload: {},
  });
  expect(sent.statusCode, sent.body).toBe(200);
  expect((await signAsPatient(ctx.app, ctx.database, tokenOf(sent.json().link), patient)).response.statusCode).toBe(
    200,
  );
  for (let round = 0; round < 40 && !(await documentRow()).signed_pdf_sha256; round++) {
    await ctx.database.db.execute(
      sql`update jobs set run_at = 'epoch' where kind = 'document.finalize' and status = 'pending' and payload->>'contratoId' = ${documentId}`,
    );
    await ctx.app.worker.tick({ sweep: false });
  }
  const [job] = await ctx.database.db
    .select({ status: jobs.status, last_error: jobs.last_error })
    .from(jobs)
    .where(and(eq(jobs.kind, "document.finalize"), sql`${jobs.payload}->>'contratoId' = ${documentId}`));
  expect((await documentRow()).signed_pdf_sha256, JSON.stringify(job)).toMatch(/^[0-9a-f]{64}$/);
}, 180_000);

afterAll(async () => {
  await ctx?.close();
  await tsa?.close();
  await server?.close();
  rmSync(scratch, { recursive: true, force: true });
});

describe("archive re-time-stamp and revocation lists (decision 078)", () => {
  it("the new revision's DSS carries the lists published on the day it runs, read again, besides the sealing's", async () => {
    const sealed = await storedPdf();
    const atSealing = readDss(sealed)!;
    const sealingAc = server.served("/ac.crl")!;
    expect(atSealing.crls.some((c) => c.der.equals(sealingAc))).toBe(true);

    // Two days later: the authorities have published new lists, and the time-stamp authority a
    // new certificate.
    const runAt = new Date(Date.now() + 2 * DAY);
    const fresh = { thisUpdate: new Date(runAt.getTime() - 3_600_000), nextUpdate: new Date(runAt.getTime() + DAY) };
    server.publish("/raiz.crl", await makeCrl({ issuer: pki.root, ...fresh }));
    server.publish("/ac.crl", await makeCrl({ issuer: pki.ac, ...fresh }));
    const newAc = server.served("/ac.crl")!;
    const newRoot = server.served("/raiz.crl")!;
    expect(newAc.equals(sealingAc)).toBe(false);
    tsa.renew(3650);
    const hitsBefore = server.hits("/ac.crl");

    const summary = await retimestampArchive(jobContext(), runAt);
    expect(summary).toMatchObject({ configured: true, stamped: 1 });
    expect(server.hits("/ac.crl")).toBeGreaterThan(hitsBefore);

    const after = await storedPdf();
    expect(after.subarray(0, sealed.length).equals(sealed)).toBe(true);
    const all = checkAllPdfSignatures(after);
    expect(all.valid, all.reason).toBe(true);
    const dss = readDss(after)!;
    const lists = dss.crls.map((c) => c.der);
    // The new lists, byte for byte, and the sealing's still there.
    expect(lists.some((der) => der.equals(newAc))).toBe(true);
    expect(lists.some((der) => der.equals(newRoot))).toBe(true);
    expect(lists.some((der) => der.equals(sealingAc))).toBe(true);
    const [revision] = await ctx.database.db
      .select()
      .from(contratoRevisoesPdf)
      .where(eq(contratoRevisoesPdf.contrato_id, documentId));
    expect(revision).toMatchObject({ revisao: 1, motivo: "vencimento" });
  });
});
