/**
 * Separate optional consents (decision 057): a template version offers them, the document freezes
 * them in its model (and its SHA-256), the signer answers exactly those ids Sim/Não in the
 * signature's transaction, and the answers reach the signature's event, evidencias.json, the
 * sealed PDF, the verifier, the staff document page and both exports.
 */
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditEvents, consentimentosOpcionais, contratoPartes, contratos } from "../../src/db/schema.js";
import { canonicalSha256 } from "../../src/server/lib/content-hash.js";
import { embeddedFiles } from "../../src/server/services/sealing/pdf-embedded-files.js";
import { verifySignedPdf } from "../../src/server/services/sealing/verify-signed-pdf.js";
import { expectBrowserParity } from "../helpers/browser-parity.js";
import type { ERRORS } from "../../src/shared/errors.js";
import type { Evidence } from "../../src/shared/evidence/evidence.js";
import { entryText, unzipEntries } from "../helpers/data-rights.js";
import { newClinic, type SignedIn } from "../helpers/sessions.js";
import { draftDocument, signAsPatient, signingPatient, tokenOf } from "../helpers/signing.js";
import { createTestApp, type TestContext } from "../helpers/test-app.js";

let ctx: TestContext;
let clinic: SignedIn;
let other: SignedIn;
let versionId: string;
let templateId: string;

const ITEMS = [
  { id: "imagem-prontuario", title: "Uso de imagem no prontuário", text: "Fotos de {{procedimento}} no prontuário." },
  { id: "imagem-divulgacao", title: "Uso de imagem para divulgação", text: "Fotos nas redes da clínica." },
  { id: "contato-pesquisas", title: "Contato para pesquisas", text: "Convites para pesquisas." },
];
const STRUCTURE = {
  title: "Termo — {{procedimento}}",
  introduction: "Eu, {{paciente_nome}}, autorizo {{procedimento}}.",
  sections: [
    { id: "s1", type: "paragraph", title: "Riscos", content: "Riscos explicados." },
    { id: "s2", type: "signature", title: "Assinaturas", content: "{{paciente_nome}}" },
  ],
  optional_consents: ITEMS,
};
const ANSWERS = [
  { id: "imagem-prontuario", aceito: true },
  { id: "imagem-divulgacao", aceito: false },
  { id: "contato-pesquisas", aceito: true },
];

const call = (method: "GET" | "POST" | "PUT", url: string, payload?: unknown, who?: SignedIn) =>
  ctx.app.inject({ method, url, payload: payload as object, headers: who ? { cookie: who.cookie } : {} });

async function optionalTemplate(who: SignedIn, structure: unknown = STRUCTURE) {
  const specialties = (await call("GET", "/api/templates/specialties", undefined, who)).json().items as string[];
  const created = await call(
    "POST",
    "/api/templates",
    { titulo: "TCLE com opcionais", especialidade: specialties[0], categoria: "Consentimento", estrutura: structure },
    who,
  );
  expect(created.statusCode, created.body).toBe(201);
  const published = await call("POST", `/api/templates/${created.json().id}/status`, { status: "published" }, who);
  expect(published.statusCode, published.body).toBe(200);
  return { templateId: created.json().id as string, versionId: published.json().versao_atual_id as string };
}

async function sent(who: SignedIn = clinic, version = versionId) {
  const patient = await signingPatient(ctx.app, who);
  const documentId = await draftDocument(ctx.app, who, version, patient.id);
  const response = await call("POST", `/api/documents/${documentId}/send`, {}, who);
  expect(response.statusCode, response.body).toBe(200);
  return { documentId, patient, token: tokenOf(response.json().link) };
}

const answersOf = (documentId: string) =>
  ctx.database.db.select().from(consentimentosOpcionais).where(eq(consentimentosOpcionais.contrato_id, documentId));
const partiesOf = (documentId: string) =>
  ctx.database.db.select().from(contratoPartes).where(eq(contratoPartes.contrato_id, documentId));

beforeAll(async () => {
  ctx = await createTestApp();
  clinic = await newClinic(ctx.app);
  other = await newClinic(ctx.app);
  for (const who of [clinic, other])
    expect((await call("PUT", "/api/settings/signing", { codigo_email: false }, who)).statusCode).toBe(200);
  ({ versionId, templateId } = await optionalTemplate(clinic));
});
afterAll(async () => {
  await ctx.close();
});

describe("a template version offers optional consents (decision 057)", () => {
  it("keeps them with the version, and a new version keeps its own while the old one stays as it was", async () => {
    const detail = (await call("GET", `/api/templates/${templateId}`, undefined, clinic)).json();
    expect(detail.estrutura.optional_consents).toEqual(ITEMS);
    const edited = await call(
      "PUT",
      `/api/templates/${templateId}`,
      {
        titulo: "TCLE com opcionais",
        especialidade: detail.especialidade,
        categoria: "Consentimento",
        estrutura: { ...STRUCTURE, optional_consents: ITEMS.slice(0, 1) },
      },
      clinic,
    );
    expect(edited.statusCode, edited.body).toBe(200);
    const versions = (await call("GET", `/api/templates/${templateId}/versions`, undefined, clinic)).json().items;
    const first = versions.find((v: { id: string }) => v.id === versionId);
    const old = (await call("GET", `/api/templates/${templateId}/versions/${first.id}`, undefined, clinic)).json();
    expect(old.estrutura.optional_consents).toEqual(ITEMS);
    const now = (await call("GET", `/api/templates/${templateId}`, undefined, clinic)).json();
    expect(now.estrutura.optional_consents).toEqual(ITEMS.slice(0, 1));
  });

  it("refuses more than 10 items, a long title or a repeated id with a pt-BR 400", async () => {
    const specialties = (await call("GET", "/api/templates/specialties", undefined, clinic)).json().items as string[];
    const post = (optional_consents: unknown) =>
      call(
        "POST",
        "/api/templates",
        {
          titulo: "Inválido",
          especialidade: specialties[0],
          categoria: "Consentimento",
          estrutura: { ...STRUCTURE, optional_consents },
        },
        clinic,
      );
    const eleven = Array.from({ length: 11 }, (_, n) => ({ id: `i${n}`, title: "T", text: "X" }));
    for (const [body, message] of [
      [eleven, "Use no máximo 10 consentimentos opcionais"],
      [[{ id: "a", title: "x".repeat(121), text: "X" }], "Use no máximo 120 caracteres"],
      [
        [
          { id: "a", title: "T", text: "X" },
          { id: "a", title: "U", text: "Y" },
        ],
        "identificador repetido",
      ],
      ["sim", null],
    ] as const) {
      const response = await post(body);
      expect(response.statusCode, response.body).toBe(400);
      if (message) expect(response.body).toContain(message);
    }
  });
});

describe("the document freezes them", () => {
  it("puts the resolved items in the frozen model its conteudo_sha256 hashes, and the signing page offers them", async () => {
    const { documentId, token } = await sent();
    const [row] = await ctx.database.db.select().from(contratos).where(eq(contratos.id, documentId));
    const model = row!.documento as { optional_consents: { id: string; title: string; paragraphs: unknown }[] };
    expect(model.optional_consents.map((i) => i.id)).toEqual(ITEMS.map((i) => i.id));
    expect(JSON.stringify(model.optional_consents[0]!.paragraphs)).toContain("Fotos de Blefaroplastia superior");
    expect(row!.conteudo_sha256).toBe(canonicalSha256(row!.documento));
    const page = (await call("GET", `/api/public/sign/${token}`)).json();
    expect(page.documento.modelo.optional_consents.map((i: { title: string }) => i.title)).toEqual(
      ITEMS.map((i) => i.title),
    );
    // Another clinic cannot read the document that carries them.
    expect((await call("GET", `/api/documents/${documentId}`, undefined, other)).statusCode).toBe(404);
  });
});

describe("POST /api/public/sign/:token with the answers", () => {
  it("refuses missing, unknown, repeated or non-boolean answers with a pt-BR 400 and stores nothing", async () => {
    const { documentId, patient, token } = await sent();
    const bad: [unknown, keyof typeof ERRORS][] = [
      [undefined, "SIGNING_OPTIONAL_ANSWERS_INVALID"],
      [ANSWERS.slice(0, 2), "SIGNING_OPTIONAL_ANSWERS_INVALID"],
      [[...ANSWERS.slice(0, 2), { id: "outro-item", aceito: true }], "SIGNING_OPTIONAL_ANSWERS_INVALID"],
      [[...ANSWERS, { id: "imagem-prontuario", aceito: false }], "SIGNING_OPTIONAL_ANSWERS_INVALID"],
      [[...ANSWERS.slice(0, 2), { id: "contato-pesquisas", aceito: "sim" }], "VALIDATION"],
      ["sim", "VALIDATION"],
    ];
    for (const [consentimentos_opcionais, code] of bad) {
      const { response } = await signAsPatient(ctx.app, ctx.database, token, patient, { consentimentos_opcionais });
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json().code).toBe(code);
      expect(response.json().message).toMatch(/[a-zà-ú]/);
    }
    expect(await answersOf(documentId)).toEqual([]);
    expect((await partiesOf(documentId)).map((p) => p.papel)).toEqual(["profissional"]);
    const [row] = await ctx.database.db.select().from(contratos).where(eq(contratos.id, documentId));
    expect(row!.status).not.toBe("signed");
  });

  it("refuses the ids of another clinic's document (its own model decides)", async () => {
    const theirs = await optionalTemplate(other, {
      ...STRUCTURE,
      optional_consents: [{ id: "so-deles", title: "Só deles", text: "Outro item." }],
    });
    const { documentId, patient, token } = await sent(other, theirs.versionId);
    const { response } = await signAsPatient(ctx.app, ctx.database, token, patient, {
      consentimentos_opcionais: ANSWERS,
    });
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json().code).toBe("SIGNING_OPTIONAL_ANSWERS_INVALID");
    expect(await answersOf(documentId)).toEqual([]);
  });

  it("a document without items takes no answers and signs as before", async () => {
    const plain = await optionalTemplate(clinic, { ...STRUCTURE, optional_consents: [] });
    const { documentId, patient, token } = await sent(clinic, plain.versionId);
    const [row] = await ctx.database.db.select().from(contratos).where(eq(contratos.id, documentId));
    expect(row!.documento).not.toHaveProperty("optional_consents");
    const refused = await signAsPatient(ctx.app, ctx.database, token, patient, {
      consentimentos_opcionais: ANSWERS.slice(0, 1),
    });
    expect(refused.response.statusCode).toBe(400);
    const { response } = await signAsPatient(ctx.app, ctx.database, token, patient);
    expect(response.statusCode, response.body).toBe(200);
    expect(await answersOf(documentId)).toEqual([]);
  });

  it("stores each answer with the signature, and carries them to the event, the evidence, the PDF, the verifier, the staff page and the exports", async () => {
    const { documentId, patient, token } = await sent();
    const { response } = await signAsPatient(ctx.app, ctx.database, token, patient, {
      consentimentos_opcionais: [ANSWERS[2], ANSWERS[0], ANSWERS[1]],
    });
    expect(response.statusCode, response.body).toBe(200);

    const parties = await partiesOf(documentId);
    const signer = parties.find((p) => p.papel === "paciente")!;
    const stored = (await answersOf(documentId)).sort((a, b) => a.ordem - b.ordem);
    expect(stored.map((a) => [a.item_id, a.titulo, a.aceito, a.parte_id])).toEqual([
      ["imagem-prontuario", "Uso de imagem no prontuário", true, signer.id],
      ["imagem-divulgacao", "Uso de imagem para divulgação", false, signer.id],
      ["contato-pesquisas", "Contato para pesquisas", true, signer.id],
    ]);
    // Written with the signature: the same instant.
    for (const a of stored) expect(a.respondido_em.getTime()).toBe(signer.assinou_em.getTime());

    const signedEvents = await ctx.database.db
      .select({ data: auditEvents.data })
      .from(auditEvents)
      .where(and(eq(auditEvents.entity_id, documentId), eq(auditEvents.action, "document.party_signed")));
    const patientEvent = signedEvents.find((e) => e.data.parte_id === signer.id);
    expect(patientEvent!.data.consentimentos_opcionais).toEqual([
      { id: "imagem-prontuario", titulo: "Uso de imagem no prontuário", aceito: true },
      { id: "imagem-divulgacao", titulo: "Uso de imagem para divulgação", aceito: false },
      { id: "contato-pesquisas", titulo: "Contato para pesquisas", aceito: true },
    ]);

    // The signer's link, reopened, shows their own answers.
    const reopened = (await call("GET", `/api/public/sign/${token}`)).json();
    expect(reopened.estado).toBe("signed");
    expect(reopened.consentimentos_opcionais).toEqual(ANSWERS);

    // Sealed by the worker: evidencias.json, the printed block, the offline verifier.
    for (let round = 0; round < 5; round++) {
      const [row] = await ctx.database.db.select().from(contratos).where(eq(contratos.id, documentId));
      if (row?.signed_pdf_file_id) break;
      await ctx.app.worker.tick();
    }
    const download = await call("GET", `/api/documents/${documentId}/signed-pdf`, undefined, clinic);
    expect(download.statusCode, download.body.slice(0, 200)).toBe(200);
    const pdf = download.rawPayload;
    const evidence = JSON.parse(
      embeddedFiles(pdf)
        .find((f) => f.name === "evidencias.json")!
        .bytes.toString("utf8"),
    ) as Evidence;
    expect(evidence.partes.find((p) => p.papel === "paciente")!.consentimentos_opcionais).toEqual(
      patientEvent!.data.consentimentos_opcionais,
    );
    const file = path.join(os.tmpdir(), `optional-consents-${documentId.slice(-8)}.pdf`);
    writeFileSync(file, pdf);
    const text = execFileSync("pdftotext", ["-layout", file, "-"])
      .toString("utf8")
      .replace(/[ \t]+/g, " ");
    expect(text).toContain("Consentimentos opcionais");
    expect(text).toMatch(
      /Uso de imagem no prontuário\s+Fotos de Blefaroplastia superior no prontuário\.\s+Resposta: Sim/,
    );
    expect(text).toMatch(/Uso de imagem para divulgação\s+Fotos nas redes da clínica\.\s+Resposta: Não/);
    const report = verifySignedPdf(pdf);
    // The browser verifier says the same lines (decision 077).
    await expectBrowserParity(pdf, report);
    expect(report.linhas).toEqual(
      expect.arrayContaining([
        { ok: true, text: expect.stringContaining("respondeu a cada um dos 3 consentimentos opcionais") },
        { ok: null, text: "Consentimento opcional “Uso de imagem para divulgação”: Não." },
        { ok: null, text: "Consentimento opcional “Uso de imagem no prontuário”: Sim." },
      ]),
    );
    expect(report.conteudo_ok && report.cadeia_ok && report.selo_ok).toBe(true);

    // The staff document page; another clinic gets 404.
    const detail = (await call("GET", `/api/documents/${documentId}`, undefined, clinic)).json();
    expect(detail.consentimentos_opcionais.map((a: { id: string; aceito: boolean }) => [a.id, a.aceito])).toEqual([
      ["imagem-prontuario", true],
      ["imagem-divulgacao", false],
      ["contato-pesquisas", true],
    ]);

    // The patient's export and the clinic's.
    const patientZip = unzipEntries(
      (await call("GET", `/api/patients/${patient.id}/export`, undefined, clinic)).rawPayload,
    );
    const index = JSON.parse(entryText(patientZip, "documentos.json")) as {
      id: string;
      consentimentos_opcionais: { id: string; resposta: string }[];
    }[];
    expect(index.find((d) => d.id === documentId)!.consentimentos_opcionais.map((a) => [a.id, a.resposta])).toEqual([
      ["imagem-prontuario", "Sim"],
      ["imagem-divulgacao", "Não"],
      ["contato-pesquisas", "Sim"],
    ]);
    const clinicZip = unzipEntries(
      (await call("GET", "/api/settings/export?arquivos=nao", undefined, clinic)).rawPayload,
    );
    const rows = JSON.parse(entryText(clinicZip, "dados/consentimentos_opcionais.json")) as {
      contrato_id: string;
      item_id: string;
      aceito: boolean;
    }[];
    expect(rows.filter((r) => r.contrato_id === documentId).map((r) => [r.item_id, r.aceito])).toEqual(
      expect.arrayContaining([
        ["imagem-prontuario", true],
        ["imagem-divulgacao", false],
        ["contato-pesquisas", true],
      ]),
    );
    expect(entryText(clinicZip, "planilhas/consentimentos-opcionais.csv")).toContain("Uso de imagem para divulgação");
    const theirs = unzipEntries((await call("GET", "/api/settings/export?arquivos=nao", undefined, other)).rawPayload);
    expect(entryText(theirs, "dados/consentimentos_opcionais.json")).not.toContain(documentId);
  });
});
