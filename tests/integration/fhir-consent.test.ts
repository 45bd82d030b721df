/**
 * FHIR R4 export (decision 063): GET /api/fhir/Consent/:id and ?patient=<cpf> answer Consent
 * resources and a searchset Bundle that the official R4 JSON schema accepts — draft, sent, signed
 * (with the sealed PDF as sourceAttachment, SHA-1 and SHA-256 checked against the downloaded
 * bytes, and the optional consents as nested provisions), refused and revoked documents; a
 * session or an API key; another clinic's ids 404 and malformed input 400, as OperationOutcome.
 */
import { createHash } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditEvents, contratos } from "../../src/db/schema.js";
import { RNDS_CPF_SYSTEM } from "../../src/server/services/fhir/consent-resource.js";
import { fhirSchemaErrors } from "../helpers/fhir-schema.js";
import { newClinic, newStaff, type SignedIn } from "../helpers/sessions.js";
import { draftDocument, signAsPatient, signingPatient, type SignablePatient, tokenOf } from "../helpers/signing.js";
import { createTestApp, type TestContext } from "../helpers/test-app.js";

const ORIGIN = "https://app.consentir.test";
let ctx: TestContext;
let clinic: SignedIn;
let other: SignedIn;
let versionId: string;
let otherVersionId: string;

const ITEMS = [
  { id: "imagem-prontuario", title: "Uso de imagem no prontuário", text: "Fotos no prontuário." },
  { id: "imagem-divulgacao", title: "Uso de imagem para divulgação", text: "Fotos nas redes da clínica." },
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
];

type Headers = Record<string, string>;
const as = (who: SignedIn): Headers => ({ cookie: who.cookie });
const call = (method: "GET" | "POST" | "PUT", url: string, payload?: unknown, headers: Headers = {}) =>
  ctx.app.inject({ method, url, payload: payload as object, headers });
const fhir = (url: string, headers: Headers) => call("GET", url, undefined, headers);
const tick = () => ctx.app.worker.tick({ sweep: false });

async function optionalTemplate(who: SignedIn): Promise<string> {
  const specialties = (await call("GET", "/api/templates/specialties", undefined, as(who))).json().items as string[];
  const created = await call(
    "POST",
    "/api/templates",
    { titulo: "TCLE com opcionais", especialidade: specialties[0], categoria: "Consentimento", estrutura: STRUCTURE },
    as(who),
  );
  expect(created.statusCode, created.body).toBe(201);
  const published = await call("POST", `/api/templates/${created.json().id}/status`, { status: "published" }, as(who));
  expect(published.statusCode, published.body).toBe(200);
  return published.json().versao_atual_id as string;
}

interface Made {
  documentId: string;
  patient: SignablePatient;
  token: string;
}
async function sent(who: SignedIn = clinic, patient?: SignablePatient): Promise<Made> {
  const p = patient ?? (await signingPatient(ctx.app, who));
  const documentId = await draftDocument(ctx.app, who, who === other ? otherVersionId : versionId, p.id);
  const response = await call("POST", `/api/documents/${documentId}/send`, {}, as(who));
  expect(response.statusCode, response.body).toBe(200);
  return { documentId, patient: p, token: tokenOf(response.json().link) };
}
const documentRow = async (id: string) => {
  const [row] = await ctx.database.db.select().from(contratos).where(eq(contratos.id, id));
  return row!;
};
async function signedAndSealed(who: SignedIn = clinic, patient?: SignablePatient): Promise<Made> {
  const made = await sent(who, patient);
  const signing = await signAsPatient(ctx.app, ctx.database, made.token, made.patient, {
    consentimentos_opcionais: ANSWERS,
  });
  expect(signing.response.statusCode, signing.response.body).toBe(200);
  for (let round = 0; round < 10 && !(await documentRow(made.documentId)).signed_pdf_file_id; round++) await tick();
  expect((await documentRow(made.documentId)).signed_pdf_file_id).not.toBeNull();
  return made;
}

function expectValid(definition: string, resource: unknown) {
  expect(fhirSchemaErrors(definition, resource)).toEqual([]);
}
function expectOutcome(response: Awaited<ReturnType<typeof fhir>>, status: number, text: RegExp) {
  expect(response.statusCode, response.body).toBe(status);
  expect(response.headers["content-type"]).toMatch(/^application\/fhir\+json/);
  const outcome = response.json();
  expectValid("OperationOutcome", outcome);
  expect(outcome.resourceType).toBe("OperationOutcome");
  expect(outcome.issue[0].diagnostics).toMatch(text);
}

beforeAll(async () => {
  ctx = await createTestApp({ env: { PUBLIC_URL: ORIGIN } });
  clinic = await newClinic(ctx.app);
  other = await newClinic(ctx.app);
  for (const who of [clinic, other])
    expect((await call("PUT", "/api/settings/signing", { codigo_email: false }, as(who))).statusCode).toBe(200);
  versionId = await optionalTemplate(clinic);
  otherVersionId = await optionalTemplate(other);
});
afterAll(async () => {
  await ctx.close();
});

describe("the official R4 JSON schema in the tests", () => {
  it("refuses what R4 does not allow (so a pass means something)", () => {
    expect(fhirSchemaErrors("Consent", { resourceType: "Consent", status: "signed" }).length).toBeGreaterThan(0);
    expect(
      fhirSchemaErrors("Consent", {
        resourceType: "Consent",
        status: "active",
        scope: { text: "x" },
        category: [{ text: "x" }],
        campoInventado: 1,
      }),
    ).not.toEqual([]);
  });
});

describe("GET /api/fhir/Consent/:id", () => {
  it("maps a draft and a sent document: draft and proposed, the patient with the RNDS CPF identifier, no attachment", async () => {
    const patient = await signingPatient(ctx.app, clinic);
    const draftId = await draftDocument(ctx.app, clinic, versionId, patient.id);
    const response = await fhir(`/api/fhir/Consent/${draftId}`, as(clinic));
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers["content-type"]).toMatch(/^application\/fhir\+json/);
    const consent = response.json();
    expectValid("Consent", consent);
    expect(consent).toMatchObject({
      resourceType: "Consent",
      id: draftId,
      status: "draft",
      scope: { coding: [{ system: "http://terminology.hl7.org/CodeSystem/consentscope", code: "treatment" }] },
      category: [{ coding: [{ system: "http://loinc.org", code: "59284-0" }] }],
      patient: { reference: "#paciente" },
      organization: [{ reference: "#clinica" }],
    });
    const contained = consent.contained.find((r: { id: string }) => r.id === "paciente");
    expect(contained.identifier).toEqual([
      expect.objectContaining({ system: RNDS_CPF_SYSTEM, value: patient.cpf.replace(/\D/g, "") }),
    ]);
    expect(consent.contained.find((r: { id: string }) => r.id === "profissional").resourceType).toBe("Practitioner");
    expect(consent.sourceAttachment).toBeUndefined();
    expect(consent.provision).toBeUndefined();

    const proposed = await sent();
    const sentConsent = (await fhir(`/api/fhir/Consent/${proposed.documentId}`, as(clinic))).json();
    expectValid("Consent", sentConsent);
    expect(sentConsent.status).toBe("proposed");
  });

  it("maps a signed document: active, the sealed PDF with its SHA-1 (base64) and SHA-256, the optional consents as permit/deny", async () => {
    const made = await signedAndSealed();
    const consent = (await fhir(`/api/fhir/Consent/${made.documentId}`, as(clinic))).json();
    expectValid("Consent", consent);
    expect(consent.status).toBe("active");
    const row = await documentRow(made.documentId);
    expect(consent.dateTime).toBe(row.signed_at!.toISOString());
    const pdf = await call("GET", `/api/documents/${made.documentId}/signed-pdf`, undefined, as(clinic));
    expect(pdf.statusCode).toBe(200);
    expect(consent.sourceAttachment).toMatchObject({
      contentType: "application/pdf",
      url: `${ORIGIN}/api/documents/${made.documentId}/signed-pdf`,
      size: pdf.rawPayload.byteLength,
      hash: createHash("sha1").update(pdf.rawPayload).digest("base64"),
    });
    expect(consent.sourceAttachment.extension[0].valueString).toBe(
      createHash("sha256").update(pdf.rawPayload).digest("hex"),
    );
    expect(consent.provision).toMatchObject({
      type: "permit",
      period: { start: row.signed_at!.toISOString() },
      provision: [
        { type: "permit", code: [{ coding: [{ code: "imagem-prontuario" }], text: "Uso de imagem no prontuário" }] },
        { type: "deny", code: [{ coding: [{ code: "imagem-divulgacao" }], text: "Uso de imagem para divulgação" }] },
      ],
    });
    expect(consent.provision.period.end).toBeUndefined();
    expect(consent.identifier).toContainEqual(expect.objectContaining({ value: row.verification_code }));
    // The export is in the document's trail.
    const events = await ctx.database.db
      .select({ action: auditEvents.action })
      .from(auditEvents)
      .where(and(eq(auditEvents.entity_id, made.documentId), eq(auditEvents.action, "document.fhir_exported")));
    expect(events.length).toBe(1);
  });

  it("maps a refused document to rejected and a revoked one to inactive, with the revocation as the end of the provision", async () => {
    const refused = await sent();
    const refusal = await call(
      "POST",
      `/api/documents/${refused.documentId}/refusal`,
      { meio: "presencial" },
      as(clinic),
    );
    expect(refusal.statusCode, refusal.body).toBe(201);
    const rejected = (await fhir(`/api/fhir/Consent/${refused.documentId}`, as(clinic))).json();
    expectValid("Consent", rejected);
    expect(rejected.status).toBe("rejected");
    expect(rejected.provision).toEqual({ type: "deny" });
    expect(rejected.dateTime).toBe((await documentRow(refused.documentId)).recusado_at!.toISOString());

    const revoked = await signedAndSealed();
    const revocation = await call(
      "POST",
      `/api/documents/${revoked.documentId}/revocation`,
      { meio: "telefone" },
      as(clinic),
    );
    expect(revocation.statusCode, revocation.body).toBe(201);
    const inactive = (await fhir(`/api/fhir/Consent/${revoked.documentId}`, as(clinic))).json();
    expectValid("Consent", inactive);
    expect(inactive.status).toBe("inactive");
    expect(inactive.provision.period.end).toBe((await documentRow(revoked.documentId)).revogado_at!.toISOString());
    // The original sealed PDF is still what the attachment names.
    expect(inactive.sourceAttachment.url).toContain(revoked.documentId);
  });

  it("answers another clinic's id with 404, a malformed id with 400 and no credential with 401, as pt-BR OperationOutcome", async () => {
    const theirs = await sent(other);
    expectOutcome(await fhir(`/api/fhir/Consent/${theirs.documentId}`, as(clinic)), 404, /Documento não encontrado/);
    expectOutcome(await fhir("/api/fhir/Consent/nao-e-um-id", as(clinic)), 400, /id inválido/);
    expectOutcome(await fhir("/api/fhir/Consent/%00", as(clinic)), 400, /[a-zà-ú]/);
    expectOutcome(await fhir(`/api/fhir/Consent/${theirs.documentId}`, {}), 401, /[a-zà-ú]/);
    // No export event was written for the other clinic's document by this clinic.
    const events = await ctx.database.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.entity_id, theirs.documentId), eq(auditEvents.action, "document.fhir_exported")));
    expect(events).toEqual([]);
  });
});

describe("GET /api/fhir/Consent?patient=<cpf>", () => {
  it("answers a searchset Bundle of the patient's documents in this clinic only, newest first", async () => {
    const first = await signedAndSealed();
    const second = await sent(clinic, first.patient);
    // The same CPF in another clinic is another clinic's patient.
    const twin = await call(
      "POST",
      "/api/patients",
      { nome: first.patient.nome, cpf: first.patient.cpf, data_nascimento: "1990-05-10" },
      as(other),
    );
    expect(twin.statusCode, twin.body).toBe(201);
    await draftDocument(ctx.app, other, otherVersionId, twin.json().id);

    const masked = first.patient.cpf.replace(/^(\d{3})(\d{3})(\d{3})(\d{2})$/, "$1.$2.$3-$4");
    for (const query of [first.patient.cpf, masked, `${RNDS_CPF_SYSTEM}|${first.patient.cpf}`]) {
      const response = await fhir(`/api/fhir/Consent?patient=${encodeURIComponent(query)}`, as(clinic));
      expect(response.statusCode, response.body).toBe(200);
      expect(response.headers["content-type"]).toMatch(/^application\/fhir\+json/);
      const bundle = response.json();
      expectValid("Bundle", bundle);
      expect(bundle).toMatchObject({ resourceType: "Bundle", type: "searchset", total: 2 });
      expect(bundle.entry.map((e: { resource: { id: string } }) => e.resource.id)).toEqual([
        second.documentId,
        first.documentId,
      ]);
      expect(bundle.entry[0].fullUrl).toBe(`${ORIGIN}/api/fhir/Consent/${second.documentId}`);
      expect(bundle.entry.map((e: { resource: { status: string } }) => e.resource.status)).toEqual([
        "proposed",
        "active",
      ]);
    }
    const theirs = (await fhir(`/api/fhir/Consent?patient=${first.patient.cpf}`, as(other))).json();
    expectValid("Bundle", theirs);
    expect(theirs.total).toBe(1);
    expect(theirs.entry[0].resource.id).not.toBe(first.documentId);
  });

  it("answers an unknown CPF with an empty Bundle, a malformed or missing one with 400", async () => {
    const empty = (await fhir("/api/fhir/Consent?patient=52998224725", as(clinic))).json();
    expectValid("Bundle", empty);
    expect(empty).toMatchObject({ total: 0, entry: [] });
    for (const bad of ["123", "111.111.111-11", "abc", "%00", "https%3A%2F%2Foutro.sistema%7C52998224725"])
      expectOutcome(await fhir(`/api/fhir/Consent?patient=${bad}`, as(clinic)), 400, /CPF inválido|caracteres/);
    expectOutcome(await fhir("/api/fhir/Consent", as(clinic)), 400, /CPF/);
  });
});

describe("with an API key", () => {
  it("a key of the clinic reads its consents (audited with the key); on another clinic's id it gets 404", async () => {
    const created = await call("POST", "/api/settings/api-keys", { nome: "Prontuário", role: "auditor" }, as(clinic));
    expect(created.statusCode, created.body).toBe(201);
    const bearer = { authorization: `Bearer ${created.json().segredo}` };
    const mine = await sent();
    const response = await fhir(`/api/fhir/Consent/${mine.documentId}`, bearer);
    expect(response.statusCode, response.body).toBe(200);
    expectValid("Consent", response.json());
    const [event] = await ctx.database.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.entity_id, mine.documentId), eq(auditEvents.action, "document.fhir_exported")));
    expect((event!.data as { chave_api?: { nome: string } }).chave_api?.nome).toBe("Prontuário");

    const theirs = await sent(other);
    expectOutcome(await fhir(`/api/fhir/Consent/${theirs.documentId}`, bearer), 404, /Documento não encontrado/);
    expectOutcome(
      await fhir(`/api/fhir/Consent/${mine.documentId}`, { authorization: "Bearer csk_live_invalida" }),
      401,
      /[a-zà-ú]/,
    );
  });

  it("every role that reads documents may export them (the same permission table)", async () => {
    const mine = await sent();
    for (const role of ["atendente", "juridico", "auditor"] as const) {
      const staff = await newStaff(ctx.app, ctx.database, clinic.tenantId, role);
      expect((await fhir(`/api/fhir/Consent/${mine.documentId}`, as(staff))).statusCode).toBe(200);
    }
  });
});
