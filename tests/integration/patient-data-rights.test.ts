/**
 * A patient's rights (LGPD art. 18, decision 026): the export ZIP (record, sealed PDFs or frozen
 * models, access log in words and São Paulo time, manifest) and anonymization (irreversible,
 * refused while a signed document must be kept).
 */
import { createHash } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditEvents, contratos, pacientes } from "../../src/db/schema.js";
import { ERRORS } from "../../src/shared/errors.js";
import { RETENTION_MESSAGES, retainedUntil } from "../../src/shared/retention/retention-rule.js";
import { entryText, type SignedDocument, signedDocument, unzipEntries } from "../helpers/data-rights.js";
import { newClinic, newStaff, type SignedIn } from "../helpers/sessions.js";
import { draftDocument, publishedTemplateVersion, signingPatient } from "../helpers/signing.js";
import { createTestApp, type TestContext } from "../helpers/test-app.js";

let ctx: TestContext;
let clinic: SignedIn;
let other: SignedIn;
let admin: SignedIn;
let versionId: string;
let signed: SignedDocument;
let draftId: string;

type Method = "GET" | "POST";
const call = (who: SignedIn, method: Method, url: string, payload?: unknown) =>
  ctx.app.inject({ method, url, payload: payload as object, headers: { cookie: who.cookie } });
const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");
const eventsOf = async (tenantId: string, action: string) =>
  ctx.database.db
    .select()
    .from(auditEvents)
    .where(and(eq(auditEvents.tenant_id, tenantId), eq(auditEvents.action, action)));

beforeAll(async () => {
  ctx = await createTestApp({ env: { RATE_LIMIT_PUBLIC_PER_MINUTE: "100000" } });
  clinic = await newClinic(ctx.app);
  other = await newClinic(ctx.app);
  admin = await newStaff(ctx.app, ctx.database, clinic.tenantId, "admin");
  versionId = await publishedTemplateVersion(ctx.app, clinic);
  signed = await signedDocument(ctx.app, ctx.database, clinic, { versionId, nome: "Beatriz Nogueira Sales" });
  draftId = await draftDocument(ctx.app, clinic, versionId, signed.patient.id, "TCLE - Retoque");
  // The administrator looks at the patient: the access log must say so, by name and role.
  expect((await call(admin, "GET", `/api/patients/${signed.patient.id}`)).statusCode).toBe(200);
}, 120_000);
afterAll(async () => {
  await ctx?.close();
});

describe("GET /api/patients/:id/export", () => {
  it("downloads a ZIP with the record, the sealed PDF, the draft's frozen model, the access log and a manifest", async () => {
    // Another patient of the same clinic, viewed too: nothing of theirs may appear in this ZIP.
    const neighbour = await signingPatient(ctx.app, clinic, { nome: "Vizinho Que Não Aparece" });
    expect((await call(admin, "GET", `/api/patients/${neighbour.id}`)).statusCode).toBe(200);

    const response = await call(clinic, "GET", `/api/patients/${signed.patient.id}/export`);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers["content-type"]).toBe("application/zip");
    expect(response.headers["cache-control"]).toBe("private, no-store");
    expect(response.headers["content-disposition"]).toMatch(
      /^attachment; filename="dados-do-paciente_Beatriz_Nogueira_Sales_\d{8}_\d{6}\.zip"$/,
    );
    const entries = unzipEntries(response.rawPayload);
    const names = Object.keys(entries);

    expect(entryText(entries, "LEIA-ME.txt")).toContain("LGPD, art. 18, II e V");
    const record = JSON.parse(entryText(entries, "paciente.json"));
    expect(record).toMatchObject({
      id: signed.patient.id,
      nome: "Beatriz Nogueira Sales",
      cpf: signed.patient.cpf,
      email: signed.patient.email,
    });
    expect(record).not.toHaveProperty("tenant_id");

    const [row] = await ctx.database.db.select().from(contratos).where(eq(contratos.id, signed.documentId));
    const pdfName = names.find((n) => n.startsWith("documentos/001_") && n.endsWith("_assinado.pdf"));
    expect(pdfName, names.join(", ")).toBeDefined();
    const pdf = entries[pdfName!]!;
    expect(Buffer.from(pdf.subarray(0, 5)).toString()).toBe("%PDF-");
    expect(sha256(pdf)).toBe(row!.signed_pdf_sha256);
    const modelName = names.find((n) => n.startsWith("documentos/002_") && n.endsWith("_modelo.json"));
    expect(modelName, names.join(", ")).toBeDefined();
    const model = JSON.parse(entryText(entries, modelName!));
    expect(model).toMatchObject({ id: draftId, status: "draft" });
    expect(JSON.stringify(model.documento)).toContain("Beatriz Nogueira Sales");
    const index = JSON.parse(entryText(entries, "documentos.json")) as {
      id: string;
      status: string;
      arquivo: string;
    }[];
    expect(index.map((d) => [d.id, d.status, d.arquivo])).toEqual([
      [signed.documentId, "Assinado", pdfName],
      [draftId, "Rascunho", modelName],
    ]);

    const log = JSON.parse(entryText(entries, "registro-de-acessos.json")) as {
      quem: string;
      papel: string;
      acao: string;
      data_hora: string;
      documento: string | null;
    }[];
    expect(log).toContainEqual(
      expect.objectContaining({
        quem: "Equipe admin",
        papel: "Administrador/Secretária",
        acao: "Dados do paciente consultados",
      }),
    );
    expect(log).toContainEqual(
      expect.objectContaining({ acao: "Documento assinado por todas as partes", documento: "TCLE - Blefaroplastia" }),
    );
    expect(log).toContainEqual(
      expect.objectContaining({ quem: "Signatário (pelo link de assinatura)", acao: "Assinatura registrada" }),
    );
    expect(log.at(-1)).toMatchObject({
      acao: "Dados do paciente exportados (LGPD)",
      papel: "Profissional (proprietário)",
    });
    for (const entry of log) expect(entry.data_hora).toMatch(/^\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}:\d{2}$/);
    const csv = entryText(entries, "registro-de-acessos.csv");
    // UTF-8 with a byte-order mark (the decoder drops it), ';' between fields, as spreadsheets in Brazil expect.
    expect([...entries["registro-de-acessos.csv"]!.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(csv.startsWith("Data e hora (São Paulo);Quem;Papel;Ação;Documento")).toBe(true);
    expect(csv).toContain(";Equipe admin;Administrador/Secretária;Dados do paciente consultados;");
    for (const name of names) expect(entryText(entries, name), name).not.toContain("Vizinho Que Não Aparece");

    const manifest = JSON.parse(entryText(entries, "manifesto.json")) as {
      entradas: { nome: string; bytes: number; sha256: string }[];
    };
    expect(manifest.entradas.map((e) => e.nome).sort()).toEqual(names.filter((n) => n !== "manifesto.json").sort());
    for (const entry of manifest.entradas) {
      expect(sha256(entries[entry.nome]!), entry.nome).toBe(entry.sha256);
      expect(entries[entry.nome]!.byteLength).toBe(entry.bytes);
    }
    const exported = await eventsOf(clinic.tenantId, "patient.exported");
    expect(exported.at(-1)).toMatchObject({
      actor_profile_id: clinic.profileId,
      entity_id: signed.patient.id,
      data: { documentos: 2, pdfs_assinados: 1 },
    });
  });

  it("lets administrators export, not the front desk; another clinic's patient is 404; a malformed id is 400", async () => {
    expect((await call(admin, "GET", `/api/patients/${signed.patient.id}/export`)).statusCode).toBe(200);
    const desk = await newStaff(ctx.app, ctx.database, clinic.tenantId, "atendente");
    const forbidden = await call(desk, "GET", `/api/patients/${signed.patient.id}/export`);
    expect(forbidden.statusCode).toBe(403);
    expect(forbidden.json()).toMatchObject({ code: "FORBIDDEN", message: ERRORS.FORBIDDEN.message });
    const before =
      (await eventsOf(other.tenantId, "patient.exported")).length +
      (await eventsOf(clinic.tenantId, "patient.exported")).length;
    const theirs = await call(other, "GET", `/api/patients/${signed.patient.id}/export`);
    expect(theirs.statusCode).toBe(404);
    expect(theirs.json()).toMatchObject({ code: "NOT_FOUND", message: "Paciente não encontrado" });
    expect(
      (await eventsOf(other.tenantId, "patient.exported")).length +
        (await eventsOf(clinic.tenantId, "patient.exported")).length,
    ).toBe(before);
    const malformed = await call(clinic, "GET", "/api/patients/nao-e-um-id/export");
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().code).toBe("VALIDATION");
  });
});

describe("POST /api/patients/:id/anonymize", () => {
  it("refuses a patient with a signed document, naming the retention duty and its end", async () => {
    const response = await call(clinic, "POST", `/api/patients/${signed.patient.id}/anonymize`, {
      confirmacao: "ANONIMIZAR",
    });
    expect(response.statusCode).toBe(409);
    const [row] = await ctx.database.db.select().from(contratos).where(eq(contratos.id, signed.documentId));
    expect(response.json()).toMatchObject({
      code: "PATIENT_ANONYMIZE_RETAINED",
      message: RETENTION_MESSAGES.anonymizeRetained(retainedUntil(row!.signed_at!)),
    });
    expect(response.json().message).toContain("Lei 13.787/2018");
    const [patient] = await ctx.database.db.select().from(pacientes).where(eq(pacientes.id, signed.patient.id));
    expect(patient?.nome).toBe("Beatriz Nogueira Sales");
    expect((await ctx.database.db.select().from(contratos).where(eq(contratos.id, draftId))).length).toBe(1);
  });

  it("refuses while a document waits for a signature", async () => {
    const patient = await signingPatient(ctx.app, clinic, { nome: "Caio Pendente" });
    const id = await draftDocument(ctx.app, clinic, versionId, patient.id);
    expect((await call(clinic, "POST", `/api/documents/${id}/send`, {})).statusCode).toBe(200);
    const response = await call(clinic, "POST", `/api/patients/${patient.id}/anonymize`, { confirmacao: "ANONIMIZAR" });
    expect(response.statusCode).toBe(409);
    expect(response.json()).toMatchObject({
      code: "PATIENT_ANONYMIZE_PENDING",
      message: RETENTION_MESSAGES.anonymizePending(1),
    });
  });

  it("removes the personal data and the unsigned documents, irreversibly and audited; two anonymized patients coexist", async () => {
    const anonymize = async (nome: string) => {
      const patient = await signingPatient(ctx.app, clinic, { nome });
      const draft = await draftDocument(ctx.app, clinic, versionId, patient.id);
      const cancelled = await draftDocument(ctx.app, clinic, versionId, patient.id);
      expect(
        (await call(clinic, "POST", `/api/documents/${cancelled}/cancel`, { motivo: "Desistiu" })).statusCode,
      ).toBe(204);
      const response = await call(admin, "POST", `/api/patients/${patient.id}/anonymize`, {
        confirmacao: "ANONIMIZAR",
      });
      expect(response.statusCode, response.body).toBe(200);
      return { patient, draft, cancelled, body: response.json() };
    };
    const first = await anonymize("Débora Quintana");
    const second = await anonymize("Eduardo Quintana");
    expect(first.body).toMatchObject({
      nome: "Paciente anonimizado",
      cpf: null,
      email: null,
      telefone: null,
      data_nascimento: null,
      endereco: null,
      contratos_count: 0,
    });
    const [stored] = await ctx.database.db.select().from(pacientes).where(eq(pacientes.id, first.patient.id));
    expect(stored).toMatchObject({
      nome: "Paciente anonimizado",
      cpf: null,
      email: null,
      telefone: null,
      data_nascimento: null,
      sexo: null,
      responsavel_nome: null,
      responsavel_cpf: null,
    });
    expect(stored?.busca).not.toContain("quintana");
    for (const id of [first.draft, first.cancelled, second.draft, second.cancelled]) {
      expect(await ctx.database.db.select().from(contratos).where(eq(contratos.id, id))).toHaveLength(0);
    }
    const [event] = (await eventsOf(clinic.tenantId, "patient.anonymized")).filter(
      (e) => e.entity_id === first.patient.id,
    );
    expect(event).toMatchObject({ actor_profile_id: admin.profileId, data: { documentos_excluidos: 2 } });
    expect(JSON.stringify(event?.data)).not.toContain("Quintana");
    // The export still answers, with nothing left that names them.
    const exported = unzipEntries((await call(clinic, "GET", `/api/patients/${first.patient.id}/export`)).rawPayload);
    expect(JSON.parse(entryText(exported, "paciente.json"))).toMatchObject({ nome: "Paciente anonimizado", cpf: null });
    for (const name of Object.keys(exported)) expect(entryText(exported, name)).not.toContain("Débora");
  });

  it("another clinic's patient is 404, the front desk 403, a body without the confirmation 400", async () => {
    const patient = await signingPatient(ctx.app, clinic, { nome: "Fábio Intocado" });
    expect(
      (await call(other, "POST", `/api/patients/${patient.id}/anonymize`, { confirmacao: "ANONIMIZAR" })).statusCode,
    ).toBe(404);
    const desk = await newStaff(ctx.app, ctx.database, clinic.tenantId, "atendente");
    expect(
      (await call(desk, "POST", `/api/patients/${patient.id}/anonymize`, { confirmacao: "ANONIMIZAR" })).statusCode,
    ).toBe(403);
    for (const body of [{ confirmacao: "sim" }, {}, { confirmacao: true }, { confirmar: true }]) {
      const response = await call(clinic, "POST", `/api/patients/${patient.id}/anonymize`, body);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ code: "VALIDATION" });
    }
    expect(
      (await call(clinic, "POST", `/api/patients/${patient.id}/anonymize`, { confirmacao: "sim" })).json().message,
    ).toBe("Digite ANONIMIZAR para confirmar: a anonimização não pode ser desfeita.");
    expect(
      (await call(clinic, "POST", "/api/patients/nao-e-um-id/anonymize", { confirmacao: "ANONIMIZAR" })).statusCode,
    ).toBe(400);
    const [stored] = await ctx.database.db.select().from(pacientes).where(eq(pacientes.id, patient.id));
    expect(stored?.nome).toBe("Fábio Intocado");
  });
});
