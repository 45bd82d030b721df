/**
 * Decision 051: the public signing page never shows a full CPF, at any level (code required,
 * past the code, no code at all); a simple signature still checks the typed full CPF and name;
 * a witness sees the patient's birth date and contacts masked; the link e-mail's event keeps the
 * address masked.
 */
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { auditEvents, profiles } from "../../src/db/schema.js";
import { SIGNING_MESSAGES } from "../../src/shared/signing-rules.js";
import { validCpf } from "../helpers/factories.js";
import { newClinic, type SignedIn } from "../helpers/sessions.js";
import {
  draftDocument,
  latestSigningCode,
  publishedTemplateVersion,
  signAsPatient,
  tokenOf,
} from "../helpers/signing.js";
import { createTestApp, type TestContext } from "../helpers/test-app.js";

let ctx: TestContext;
let clinic: SignedIn;
let versionId: string;

const call = (method: "GET" | "POST" | "PUT", url: string, payload?: unknown, who?: SignedIn) =>
  ctx.app.inject({ method, url, payload: payload as object, headers: who ? { cookie: who.cookie } : {} });
const formatted = (cpf: string) => `${cpf.slice(0, 3)}.${cpf.slice(3, 6)}.${cpf.slice(6, 9)}-${cpf.slice(9)}`;

function pdfText(bytes: Buffer): string {
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), "privacy-")), "assinado.pdf");
  writeFileSync(file, bytes);
  return execFileSync("pdftotext", ["-layout", file, "-"]).toString("utf8");
}

/** evidencias.json as embedded in the PDF (pdfdetach, as the registry tells a reader to do). */
function embeddedEvidence(bytes: Buffer): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), "privacy-"));
  const file = path.join(dir, "assinado.pdf");
  writeFileSync(file, bytes);
  execFileSync("pdfdetach", ["-saveall", "-o", dir, file]);
  return readFileSync(path.join(dir, "evidencias.json"), "utf8");
}

/** The 11 digits, formatted or not, anywhere in the answer. */
function expectNoCpf(body: string, cpf: string) {
  expect(body).not.toContain(cpf);
  expect(body).not.toContain(formatted(cpf));
}

const STRUCTURE = {
  title: "Termo — {{procedimento}}",
  introduction:
    "Eu, {{paciente_nome}}, CPF {{paciente_cpf}}, nascida em {{paciente_data_nascimento}}, e-mail {{paciente_email}}, " +
    "telefone {{paciente_telefone}}, autorizo {{procedimento}}.",
  sections: [
    { id: "s1", type: "paragraph", title: "Riscos", content: "Riscos explicados: {{riscos}}" },
    { id: "s2", type: "signature", title: "Assinaturas", content: "{{paciente_nome}}" },
  ],
};

async function template(who: SignedIn): Promise<string> {
  const specialties = (await call("GET", "/api/templates/specialties", undefined, who)).json().items as string[];
  const created = await call(
    "POST",
    "/api/templates",
    { titulo: "TCLE Privacidade", especialidade: specialties[0], categoria: "Consentimento", estrutura: STRUCTURE },
    who,
  );
  expect(created.statusCode, created.body).toBe(201);
  const published = await call("POST", `/api/templates/${created.json().id}/status`, { status: "published" }, who);
  return published.json().versao_atual_id as string;
}

let counter = 0;
async function sentDocument(who: SignedIn, version: string, options: { email?: boolean; witness?: boolean } = {}) {
  counter += 1;
  const cpf = validCpf();
  // No digits in the address: a CPF inside it would be masked too and hide what the test looks for.
  const email = options.email === false ? null : `privacidade.${"abcdefghij"[counter % 10]}${counter}x@exemplo.com.br`;
  const created = await call(
    "POST",
    "/api/patients",
    {
      nome: "Joana Privada Souza",
      cpf,
      data_nascimento: "1990-05-10",
      telefone: "11987654321",
      ...(email ? { email } : {}),
    },
    who,
  );
  expect(created.statusCode, created.body).toBe(201);
  const patient = { id: created.json().id as string, nome: "Joana Privada Souza", cpf, email };
  const documentId = await draftDocument(ctx.app, who, version, patient.id);
  let witness: { nome: string; cpf: string; email: string } | null = null;
  if (options.witness) {
    const wcpf = validCpf();
    witness = { nome: "Tereza Testemunha Lima", cpf: wcpf, email: `testemunha.${counter}x@exemplo.com.br` };
    const added = await call("POST", `/api/documents/${documentId}/witnesses`, witness, who);
    expect(added.statusCode, added.body).toBe(201);
  }
  const sent = await call("POST", `/api/documents/${documentId}/send`, { email: email !== null }, who);
  expect(sent.statusCode, sent.body).toBe(200);
  return {
    documentId,
    patient,
    token: tokenOf(sent.json().link),
    witnessToken: options.witness ? tokenOf(sent.json().testemunhas[0].link) : null,
    witness,
  };
}

beforeAll(async () => {
  ctx = await createTestApp();
  clinic = await newClinic(ctx.app);
  versionId = await template(clinic);
});
afterAll(async () => {
  await ctx.close();
});

describe("GET /api/public/sign/:token never contains the full CPF (decision 051)", () => {
  it("with the code required: before the code and past it", async () => {
    const { patient, token } = await sentDocument(clinic, versionId);
    const page = await call("GET", `/api/public/sign/${token}`);
    expect(page.json()).toMatchObject({ codigo_obrigatorio: true, nivel: "avancada", conteudo_mascarado: true });
    expectNoCpf(page.body, patient.cpf);
    expect(page.body).toContain(`***.${patient.cpf.slice(3, 6)}.${patient.cpf.slice(6, 9)}-**`);

    expect((await call("POST", `/api/public/sign/${token}/code`)).statusCode).toBe(200);
    const codigo = await latestSigningCode(ctx, patient.email!);
    const verified = await call("POST", `/api/public/sign/${token}/verify-code`, { codigo });
    expect(verified.statusCode, verified.body).toBe(200);
    expect(verified.json()).toMatchObject({ codigo_verificado: true, conteudo_mascarado: true });
    expectNoCpf(verified.body, patient.cpf);
    // The patient's own birth date and contacts stay visible to the patient.
    expect(verified.body).toContain("10/05/1990");
    expect(verified.body).toContain(patient.email!);

    // Signed: the page and its signatures block still mask it.
    const signed = await signAsPatient(ctx.app, ctx.database, token, patient);
    expect(signed.response.statusCode, signed.response.body).toBe(200);
    expectNoCpf((await call("GET", `/api/public/sign/${token}`)).body, patient.cpf);
  });

  it("with no code (clinic turned it off): masked, and the signature still checks the typed full CPF and name", async () => {
    const off = await newClinic(ctx.app);
    const offVersion = await template(off);
    expect((await call("PUT", "/api/settings/signing", { codigo_email: false }, off)).statusCode).toBe(200);
    const { patient, token, documentId } = await sentDocument(off, offVersion);
    const page = await call("GET", `/api/public/sign/${token}`);
    expect(page.json()).toMatchObject({ codigo_obrigatorio: false, nivel: "simples", conteudo_mascarado: true });
    expectNoCpf(page.body, patient.cpf);

    const other = validCpf();
    const wrongCpf = await signAsPatient(ctx.app, ctx.database, token, patient, { cpf: other });
    expect(wrongCpf.response.statusCode).toBe(400);
    expect(wrongCpf.response.json().message).toBe(SIGNING_MESSAGES.cpfMismatch);
    const wrongName = await signAsPatient(ctx.app, ctx.database, token, patient, { nome: "Outra Pessoa Qualquer" });
    expect(wrongName.response.statusCode).toBe(400);
    expect(wrongName.response.json().message).toBe(SIGNING_MESSAGES.nameMismatch);
    const refused = await ctx.database.db
      .select({ data: auditEvents.data })
      .from(auditEvents)
      .where(and(eq(auditEvents.entity_id, documentId), eq(auditEvents.action, "document.sign_attempt_failed")));
    expect(refused.map((e) => (e.data as { motivo: string }).motivo).sort()).toEqual(["cpf", "nome"]);

    const signed = await signAsPatient(ctx.app, ctx.database, token, patient);
    expect(signed.response.statusCode, signed.response.body).toBe(200);

    // The sealed PDF: the patient's own CPF in full; the professional's CPF and e-mail masked, since
    // no certificate of theirs signed it.
    await ctx.app.worker.tick();
    const pdf = await call("GET", `/api/documents/${documentId}/signed-pdf`, undefined, off);
    expect(pdf.statusCode).toBe(200);
    const [professional] = await ctx.database.db
      .select({ cpf: profiles.cpf, email: profiles.email })
      .from(profiles)
      .where(eq(profiles.id, off.profileId));
    const text = pdfText(pdf.rawPayload);
    expect(text).toContain(formatted(patient.cpf));
    expect(professional?.cpf).toMatch(/^\d{11}$/);
    expectNoCpf(text, professional!.cpf!);
    expect(text).not.toContain(professional!.email);
    const evidence = embeddedEvidence(pdf.rawPayload);
    expectNoCpf(evidence, professional!.cpf!);
    expect(evidence).not.toContain(professional!.email);
  }, 120_000);

  it("with no e-mail on record (no channel): masked", async () => {
    // The helper's template (no {{paciente_email}}, which would stay unresolved without an e-mail).
    const plain = await publishedTemplateVersion(ctx.app, clinic);
    const { patient, token } = await sentDocument(clinic, plain, { email: false });
    const page = await call("GET", `/api/public/sign/${token}`);
    expect(page.json()).toMatchObject({ codigo_obrigatorio: false, nivel: "simples" });
    expectNoCpf(page.body, patient.cpf);
  });
});

describe("a witness's page (decision 051)", () => {
  it("past the witness's code, shows the patient's CPF, birth date and contacts masked", async () => {
    const { patient, witnessToken, witness } = await sentDocument(clinic, versionId, { witness: true });
    expect((await call("POST", `/api/public/sign/${witnessToken}/code`)).statusCode).toBe(200);
    const codigo = await latestSigningCode(ctx, witness!.email);
    const verified = await call("POST", `/api/public/sign/${witnessToken}/verify-code`, { codigo });
    expect(verified.statusCode, verified.body).toBe(200);
    expect(verified.json()).toMatchObject({ codigo_verificado: true, signatario: { papel: "testemunha" } });
    const shown = JSON.stringify(verified.json().documento.modelo);
    expectNoCpf(verified.body, patient.cpf);
    expect(shown).not.toContain("10/05/1990");
    expect(shown).toContain("**/**/****");
    expect(verified.body).not.toContain(patient.email!);
    expect(shown).toContain(`${patient.email!.slice(0, 2)}***@exemplo.com.br`);
    expect(shown).not.toContain("98765-4321");
    expect(shown).toContain("(**) *****-4321");
  });
});

describe("audit events keep the patient's e-mail masked (decision 051)", () => {
  it("the link e-mail's event names the address masked", async () => {
    const { documentId, patient } = await sentDocument(clinic, versionId);
    const [event] = await ctx.database.db
      .select({ data: auditEvents.data })
      .from(auditEvents)
      .where(and(eq(auditEvents.entity_id, documentId), eq(auditEvents.action, "document.link_email_outbox")));
    expect(event?.data).toMatchObject({ email: `${patient.email!.slice(0, 2)}***@exemplo.com.br` });
    expect(JSON.stringify(event?.data)).not.toContain(patient.email!);
  });
});
