import { and, eq, sql } from "drizzle-orm";
import type { LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { rawRows } from "../../src/db/raw.js";
import { contratos, feegowUploads, files, jobs, pacientes } from "../../src/db/schema.js";
import type { JobContext } from "../../src/server/jobs/job-context.js";
import { runFeegowUpload } from "../../src/server/services/feegow/run-feegow-upload.js";
import {
  FAKE_FEEGOW_TOKEN,
  type FakeFeegowMode,
  type FakeFeegowServer,
  startFakeFeegowServer,
} from "../fakes/feegow-server.js";
import { newClinic, newStaff, type SignedIn } from "../helpers/sessions.js";
import { draftDocument, publishedTemplateVersion, signAsPatient, tokenOf } from "../helpers/signing.js";
import { createTestApp, type TestContext } from "../helpers/test-app.js";

/**
 * second step: PDFs to the patient's record in Feegow as 'feegow.upload' jobs — the
 * sealed PDF after sealing, "Gerar e Enviar PDF", each failure kind, retries with back-off,
 * "Tentar de novo", and never the same file twice (even with two workers) — against the fake.
 */
let fake: FakeFeegowServer;
let ctx: TestContext;
let clinic: SignedIn;
let versionId: string;
/** A patient Feegow knows (id 4817). */
const HELENA = { nome: "Helena Duarte Vasconcelos", cpf: "52998224725", feegowId: 4817 };

beforeAll(async () => {
  fake = await startFakeFeegowServer();
  ctx = await createTestApp({ env: { FEEGOW_URL: fake.url, FEEGOW_TIMEOUT_MS: "800" } });
  clinic = await connectedClinic();
  versionId = await publishedTemplateVersion(ctx.app, clinic);
}, 120_000);
afterAll(async () => {
  await ctx?.close();
  await fake?.close();
});
beforeEach(() => fake.reset());

function call(
  who: SignedIn | null,
  method: "GET" | "PUT" | "POST" | "DELETE",
  url: string,
  payload?: unknown,
): Promise<LightMyRequestResponse> {
  return ctx.app.inject({
    method,
    url,
    ...(payload === undefined ? {} : { payload: payload as object }),
    headers: who ? { cookie: who.cookie } : {},
  });
}

async function connectedClinic(
  switches: Record<string, boolean> = { patients: true, file_upload: true },
): Promise<SignedIn> {
  const owner = await newClinic(ctx.app);
  expect((await call(owner, "PUT", "/api/integration/feegow", { token: FAKE_FEEGOW_TOKEN })).statusCode).toBe(200);
  expect((await call(owner, "POST", "/api/integration/feegow/test")).statusCode).toBe(200);
  expect((await call(owner, "PUT", "/api/integration/feegow", { integrations: switches })).statusCode).toBe(200);
  return owner;
}

/** Helena's patient record in `who`'s clinic (made once per clinic: CPFs are unique there). */
const patients = new Map<string, string>();
async function helena(who: SignedIn): Promise<string> {
  const known = patients.get(who.tenantId);
  if (known) return known;
  const created = await call(who, "POST", "/api/patients", {
    nome: HELENA.nome,
    cpf: HELENA.cpf,
    data_nascimento: "1979-09-23",
    email: "helena@exemplo.com.br",
  });
  expect(created.statusCode).toBe(201);
  patients.set(who.tenantId, created.json().id);
  return created.json().id as string;
}

async function documentFor(who: SignedIn = clinic, patientId?: string, version = versionId): Promise<string> {
  return draftDocument(ctx.app, who, version, patientId ?? (await helena(who)));
}

const requestUpload = (who: SignedIn, documentId: string) =>
  call(who, "POST", `/api/documents/${documentId}/feegow-upload`);
const uploadsOf = async (who: SignedIn, documentId: string) =>
  (await call(who, "GET", `/api/documents/${documentId}/feegow-uploads`)).json().items;
const tick = () => ctx.app.worker.tick({ sweep: false });

/** The pending retry of this upload becomes due now (its back-off of 10 s × 4ⁿ is what it waits in life). */
async function makeDue(uploadId: string): Promise<void> {
  await ctx.database.db
    .update(jobs)
    .set({ run_at: new Date() })
    .where(
      and(
        eq(jobs.kind, "feegow.upload"),
        eq(jobs.status, "pending"),
        sql`${jobs.payload} ->> 'uploadId' = ${uploadId}`,
      ),
    );
}

async function jobOf(uploadId: string) {
  const [job] = await ctx.database.db
    .select()
    .from(jobs)
    .where(and(eq(jobs.kind, "feegow.upload"), sql`${jobs.payload} ->> 'uploadId' = ${uploadId}`))
    .orderBy(sql`${jobs.created_at} desc`)
    .limit(1);
  return job;
}

async function auditActions(documentId: string): Promise<string[]> {
  const rows = await rawRows<{ action: string }>(
    ctx.database.db,
    sql`select action from audit_events where entity_id = ${documentId} and action like 'document.feegow%' order by seq`,
  );
  return rows.map((r) => r.action);
}

describe("Gerar e Enviar PDF", () => {
  it("queues the current PDF, sends it once to the patient's record and says so everywhere", async () => {
    const documentId = await documentFor();
    const [draft] = await ctx.database.db
      .select({ sha256: files.sha256 })
      .from(contratos)
      .innerJoin(files, eq(files.id, contratos.pdf_file_id))
      .where(eq(contratos.id, documentId));

    const queued = await requestUpload(clinic, documentId);
    expect(queued.statusCode).toBe(202);
    expect(queued.json()).toMatchObject({
      enfileirado: true,
      upload: { status: "pendente", origem: "manual", file_sha256: draft?.sha256, tentativas: 0 },
    });
    const uploadId = queued.json().upload.id as string;

    await tick();
    expect(fake.uploads).toEqual([
      {
        paciente_id: HELENA.feegowId,
        arquivo_descricao: `Termo de Consentimento - TCLE - Blefaroplastia · ref. ${draft?.sha256.slice(0, 12)}`,
        bytes: expect.any(Number),
        sha256: draft?.sha256,
        key: `${HELENA.feegowId}:${draft?.sha256}`,
      },
    ]);
    // The patient's Feegow id was looked up by CPF once and kept.
    expect(fake.requests.filter((r) => r.path.startsWith("/patient/list")).map((r) => r.path)).toEqual([
      `/patient/list?cpf=${HELENA.cpf}`,
    ]);
    const [patient] = await ctx.database.db
      .select({ id: pacientes.feegow_patient_id })
      .from(pacientes)
      .where(eq(pacientes.id, await helena(clinic)));
    expect(patient?.id).toBe(HELENA.feegowId);

    const [shown] = await uploadsOf(clinic, documentId);
    expect(shown).toMatchObject({
      id: uploadId,
      status: "enviado",
      tentativas: 1,
      ultimo_erro: null,
      possivel_duplicata: false,
      enviado_at: expect.any(String),
    });
    const latest = await call(clinic, "GET", `/api/integration/feegow/uploads?documentos=${documentId}`);
    expect(latest.json().items).toEqual([shown]);

    // Again: the same file is not queued again, and no worker sends it twice.
    const again = await requestUpload(clinic, documentId);
    expect(again.json()).toMatchObject({ enfileirado: false, upload: { id: uploadId, status: "enviado" } });
    await tick();
    expect(fake.uploads).toHaveLength(1);
    expect(await auditActions(documentId)).toEqual(["document.feegow_upload_requested", "document.feegow_uploaded"]);
  });

  it("needs the switch and a token; staff who write documents may ask; another clinic's document is 404", async () => {
    const documentId = await documentFor();
    const auditor = await newStaff(ctx.app, ctx.database, clinic.tenantId, "auditor");
    expect((await requestUpload(auditor, documentId)).statusCode).toBe(403);
    const atendente = await newStaff(ctx.app, ctx.database, clinic.tenantId, "atendente");
    expect((await requestUpload(atendente, documentId)).statusCode).toBe(202);
    expect((await call(auditor, "GET", `/api/documents/${documentId}/feegow-uploads`)).statusCode).toBe(200);

    const other = await newClinic(ctx.app);
    expect((await requestUpload(other, documentId)).statusCode).toBe(404);
    expect((await call(other, "GET", `/api/documents/${documentId}/feegow-uploads`)).statusCode).toBe(404);
    expect((await call(other, "GET", `/api/integration/feegow/uploads?documentos=${documentId}`)).json().items).toEqual(
      [],
    );
    const otherDocument = await documentFor(other, undefined, await publishedTemplateVersion(ctx.app, other));
    const disabled = await requestUpload(other, otherDocument);
    expect(disabled.statusCode).toBe(409);
    expect(disabled.json()).toMatchObject({
      code: "FEEGOW_FEATURE_DISABLED",
      message: expect.stringContaining("envio de arquivos"),
    });
    expect((await call(null, "POST", `/api/documents/${documentId}/feegow-upload`)).statusCode).toBe(401);
    expect((await call(clinic, "GET", "/api/integration/feegow/uploads?documentos=nao-e-id")).statusCode).toBe(400);
    expect((await call(clinic, "GET", "/api/integration/feegow/uploads?status=talvez")).statusCode).toBe(400);
    await tick();
  });
});

describe("the sealed PDF after signing", () => {
  async function signAndSeal(who: SignedIn, documentId: string, patientId: string): Promise<void> {
    const sent = await call(who, "POST", `/api/documents/${documentId}/send`, {});
    expect(sent.statusCode).toBe(200);
    const [patient] = await ctx.database.db.select().from(pacientes).where(eq(pacientes.id, patientId));
    const signed = await signAsPatient(ctx.app, ctx.database, tokenOf(sent.json().link), {
      id: patientId,
      nome: patient!.nome,
      cpf: patient!.cpf!,
      email: patient!.email,
    });
    expect(signed.response.statusCode).toBe(200);
  }

  it("is queued in the sealing transaction and sent, with the switch on; never with it off", async () => {
    const documentId = await documentFor();
    await signAndSeal(clinic, documentId, await helena(clinic));
    // Signed, not sealed yet: "Gerar e Enviar PDF" waits for the sealed PDF instead of sending the draft.
    const early = await requestUpload(clinic, documentId);
    expect(early.statusCode).toBe(409);
    expect(early.json()).toMatchObject({ code: "FEEGOW_SIGNED_PDF_PENDING" });
    await tick(); // finalize (seal) and, in the same round, the upload it queued
    await tick();
    const [document] = await ctx.database.db.select().from(contratos).where(eq(contratos.id, documentId));
    expect(document?.signed_pdf_sha256).toMatch(/^[0-9a-f]{64}$/);
    const uploads = await uploadsOf(clinic, documentId);
    expect(uploads).toEqual([
      expect.objectContaining({ origem: "assinado", status: "enviado", file_sha256: document?.signed_pdf_sha256 }),
    ]);
    expect(
      fake.uploads.filter((u) => u.sha256 === document?.signed_pdf_sha256).map((u) => u.arquivo_descricao),
    ).toEqual([expect.stringContaining("Termo de Consentimento - TCLE - Blefaroplastia (assinado) · ref.")]);
    // "Gerar e Enviar PDF" on a signed document sends the sealed PDF: the same file, so nothing new.
    expect((await requestUpload(clinic, documentId)).json()).toMatchObject({
      enfileirado: false,
      upload: { status: "enviado" },
    });

    const off = await connectedClinic({ patients: true });
    const offDocument = await documentFor(off, undefined, await publishedTemplateVersion(ctx.app, off));
    await signAndSeal(off, offDocument, await helena(off));
    await tick();
    const [sealed] = await ctx.database.db.select().from(contratos).where(eq(contratos.id, offDocument));
    expect(sealed?.signed_pdf_file_id).not.toBeNull();
    expect(await uploadsOf(off, offDocument)).toEqual([]);
    expect(fake.uploads.filter((u) => u.sha256 === sealed?.signed_pdf_sha256)).toEqual([]);
  }, 90_000);
});

describe("failures", () => {
  async function failedWith(
    setup: () => Promise<void> | void,
  ): Promise<{ documentId: string; upload: Record<string, unknown>; arrivals: number }> {
    const documentId = await documentFor();
    const queued = await requestUpload(clinic, documentId);
    expect(queued.statusCode).toBe(202);
    await setup();
    const arrivalsBefore = fake.uploadArrivals;
    await tick();
    await tick();
    const [upload] = await uploadsOf(clinic, documentId);
    return { documentId, upload, arrivals: fake.uploadArrivals - arrivalsBefore };
  }

  it("Feegow's refusals and token problems end as 'falhou' with Feegow's words, not retried, the PDF kept", async () => {
    const cases: [FakeFeegowMode, string][] = [
      ["conflict", "O Feegow recusou a solicitação: Registro em conflito com outro já existente"],
      ["unprocessable", "O Feegow recusou a solicitação: Parâmetro paciente_cpf inválido"],
      ["success_false", "O Feegow respondeu com erro: Erro interno ao processar a solicitação"],
      ["unauthorized", "Token do Feegow ausente ou inválido. Confira o token salvo."],
      ["inactive", "Token do Feegow inativo. Gere um novo token no Feegow e salve-o aqui."],
    ];
    for (const [mode, message] of cases) {
      const { documentId, upload, arrivals } = await failedWith(() => {
        fake.mode = mode;
        fake.modeOnly = "/patient/upload";
      });
      expect(upload, mode).toMatchObject({ status: "falhou", ultimo_erro: message, tentativas: 1 });
      expect(arrivals, mode).toBe(1);
      const job = await jobOf(upload.id as string);
      expect(job?.status, mode).toBe("done");
      // The PDF is still ours to download.
      expect((await call(clinic, "GET", `/api/documents/${documentId}/pdf`)).statusCode, mode).toBe(200);
      expect(await auditActions(documentId), mode).toEqual([
        "document.feegow_upload_requested",
        "document.feegow_upload_failed",
      ]);
      fake.reset();
    }
    expect(fake.uploads).toEqual([]);
  }, 120_000);

  it("a patient Feegow does not know, or without CPF, fails with what to do, before any upload", async () => {
    const stranger = await call(clinic, "POST", "/api/patients", {
      nome: "Sem Feegow",
      cpf: "11144477735",
      data_nascimento: "1980-01-01",
    });
    const noCpf = await call(clinic, "POST", "/api/patients", { nome: "Sem CPF", data_nascimento: "1980-01-01" });
    for (const [patientId, message] of [
      [
        stranger.json().id,
        "Paciente não encontrado no Feegow com o CPF do cadastro. Cadastre-o no Feegow (ou confira o CPF) e use Tentar de novo.",
      ],
      [noCpf.json().id, expect.stringContaining("O paciente não tem CPF no cadastro")],
    ] as const) {
      const created = await call(clinic, "POST", "/api/documents", {
        paciente_id: patientId,
        template_version_id: versionId,
        titulo: "TCLE - Blefaroplastia",
        procedimento: "Blefaroplastia superior",
        data_procedimento: "2026-12-03",
        medico_responsavel_id: clinic.profileId,
        permitir_pendencias: true,
      });
      expect(created.statusCode).toBe(201);
      const documentId = created.json().id as string;
      await requestUpload(clinic, documentId);
      await tick();
      const [upload] = await uploadsOf(clinic, documentId);
      expect(upload).toMatchObject({ status: "falhou", ultimo_erro: message });
    }
    expect(fake.uploadArrivals).toBe(0);
  });

  it("a switch turned off (or a token removed) after queueing fails the upload instead of sending", async () => {
    const owner = await connectedClinic();
    const documentId = await documentFor(owner, undefined, await publishedTemplateVersion(ctx.app, owner));
    await requestUpload(owner, documentId);
    await call(owner, "DELETE", "/api/integration/feegow/token");
    await tick();
    const [upload] = await uploadsOf(owner, documentId);
    expect(upload).toMatchObject({
      status: "falhou",
      ultimo_erro: expect.stringContaining("Integração desabilitada: O envio de arquivos ao Feegow está desativado"),
    });
    expect(fake.uploadArrivals).toBe(0);
  });

  it("Feegow down (500): 'pendente' with the reason, retried with back-off, then sent", async () => {
    const { upload } = await failedWith(() => {
      fake.mode = "server_error";
      fake.modeOnly = "/patient/upload";
    });
    expect(upload).toMatchObject({
      status: "pendente",
      ultimo_erro: "O Feegow respondeu com erro (HTTP 500): Internal Server Error",
      tentativas: 1,
    });
    const job = await jobOf(upload.id as string);
    expect(job).toMatchObject({ status: "pending", attempts: 1 });
    // Back-off: the second attempt is due about 10 s later (10 s × 4ⁿ), not at once.
    expect(job!.run_at.getTime() - Date.now()).toBeGreaterThan(5_000);

    fake.reset();
    await makeDue(upload.id as string);
    await tick();
    const [after] = await ctx.database.db
      .select()
      .from(feegowUploads)
      .where(eq(feegowUploads.id, upload.id as string));
    expect(after).toMatchObject({ status: "enviado", tentativas: 2, ultimo_erro: null, possivel_duplicata: false });
    expect(fake.uploads).toHaveLength(1);
  });

  it("gives up after the last attempt: 'falhou' with the last reason; 'Tentar de novo' starts over", async () => {
    const { documentId, upload } = await failedWith(() => {
      fake.mode = "server_error";
      fake.modeOnly = "/patient/upload";
    });
    for (let attempt = 2; attempt <= 5; attempt++) {
      await makeDue(upload.id as string);
      await tick();
    }
    const [failed] = await uploadsOf(clinic, documentId);
    expect(failed).toMatchObject({ status: "falhou", tentativas: 5, ultimo_erro: expect.stringContaining("HTTP 500") });
    expect(fake.uploadArrivals).toBe(5);
    await makeDue(upload.id as string);
    await tick();
    expect(fake.uploadArrivals).toBe(5);

    // Only the clinic's writers, only a failed upload, only this clinic's.
    const auditor = await newStaff(ctx.app, ctx.database, clinic.tenantId, "auditor");
    expect((await call(auditor, "POST", `/api/integration/feegow/uploads/${upload.id}/retry`)).statusCode).toBe(403);
    expect(
      (await call(await newClinic(ctx.app), "POST", `/api/integration/feegow/uploads/${upload.id}/retry`)).json(),
    ).toMatchObject({ code: "FEEGOW_UPLOAD_NOT_FOUND" });
    const failedList = await call(clinic, "GET", "/api/integration/feegow/uploads?status=falhou");
    expect(failedList.json().items.map((u: { id: string }) => u.id)).toContain(upload.id);

    fake.reset();
    const retried = await call(clinic, "POST", `/api/integration/feegow/uploads/${upload.id}/retry`);
    expect(retried.statusCode).toBe(200);
    expect(retried.json()).toMatchObject({ status: "pendente", tentativas: 0, ultimo_erro: null });
    await tick();
    const [sent] = await uploadsOf(clinic, documentId);
    expect(sent).toMatchObject({ status: "enviado", tentativas: 1 });
    expect(fake.uploads).toHaveLength(1);
    const twice = await call(clinic, "POST", `/api/integration/feegow/uploads/${upload.id}/retry`);
    expect(twice.statusCode).toBe(409);
    expect(twice.json()).toMatchObject({ code: "FEEGOW_UPLOAD_NOT_FAILED" });
    expect(await auditActions(documentId)).toEqual([
      "document.feegow_upload_requested",
      "document.feegow_upload_failed",
      "document.feegow_upload_retried",
      "document.feegow_uploaded",
    ]);
  }, 60_000);

  it("an answer that never came (timeout) is retried and the upload flagged as a possible duplicate", async () => {
    const { upload } = await failedWith(() => {
      fake.mode = "slow";
      fake.modeOnly = "/patient/upload";
      fake.slowMs = 3000;
    });
    expect(upload).toMatchObject({
      status: "pendente",
      ultimo_erro: "O Feegow não respondeu a tempo. Tente novamente em instantes.",
    });
    fake.reset();
    await makeDue(upload.id as string);
    await tick();
    const [after] = await ctx.database.db
      .select()
      .from(feegowUploads)
      .where(eq(feegowUploads.id, upload.id as string));
    expect(after).toMatchObject({ status: "enviado", possivel_duplicata: true });
    expect(fake.uploads).toHaveLength(1);
  });

  it("when Feegow stored the file but its answer was lost, the retry makes a second copy there — and we say so", async () => {
    const { upload } = await failedWith(() => {
      fake.holdUploads = true;
      fake.holdCommits = true;
    });
    expect(upload).toMatchObject({ status: "pendente", ultimo_erro: expect.stringContaining("não respondeu a tempo") });
    fake.holdUploads = false;
    await makeDue(upload.id as string);
    await tick();
    const [after] = await ctx.database.db
      .select()
      .from(feegowUploads)
      .where(eq(feegowUploads.id, upload.id as string));
    expect(after).toMatchObject({ status: "enviado", possivel_duplicata: true });
    // The documented limit of at-least-once after an unknown outcome: two copies of one key, flagged.
    expect([...fake.acceptedByKey().values()]).toEqual([2]);
  });
});

describe("never the same file twice", () => {
  it("two workers on one database send each queued upload once", async () => {
    const second = await createTestApp({
      database: ctx.database,
      env: { FEEGOW_URL: fake.url, FEEGOW_TIMEOUT_MS: "2000" },
    });
    try {
      fake.latencyMs = 150;
      const documents = await Promise.all([1, 2, 3, 4].map(() => documentFor()));
      for (const documentId of documents) expect((await requestUpload(clinic, documentId)).statusCode).toBe(202);
      await Promise.all([
        ctx.app.worker.tick({ sweep: false }),
        second.app.worker.tick({ sweep: false }),
        second.app.worker.tick({ sweep: false }),
      ]);
      await Promise.all([tick(), second.app.worker.tick({ sweep: false })]);
      expect(fake.uploads).toHaveLength(4);
      expect([...fake.acceptedByKey().values()]).toEqual([1, 1, 1, 1]);
      for (const documentId of documents)
        expect((await uploadsOf(clinic, documentId))[0]).toMatchObject({
          status: "enviado",
          possivel_duplicata: false,
        });
    } finally {
      await second.close();
    }
  });

  it("two runs of one upload at the same moment (a stray duplicate job) make one call", async () => {
    const documentId = await documentFor();
    const { upload } = (await requestUpload(clinic, documentId)).json();
    fake.latencyMs = 300;
    const jobContext: JobContext = {
      db: ctx.database.db,
      storage: ctx.app.services.storage,
      secretBox: ctx.app.services.secretBox,
      env: ctx.env,
      origin: "http://localhost",
      log: { info() {}, warn() {}, error() {} },
    };
    const runs = await Promise.allSettled(
      [1, 2, 3].map(() => runFeegowUpload(jobContext, { uploadId: upload.id }, clinic.tenantId)),
    );
    expect(runs.filter((r) => r.status === "fulfilled").length).toBeGreaterThanOrEqual(1);
    expect(fake.uploadArrivals).toBe(1);
    const [after] = await uploadsOf(clinic, documentId);
    expect(after).toMatchObject({ status: "enviado", possivel_duplicata: false });
  });
});
