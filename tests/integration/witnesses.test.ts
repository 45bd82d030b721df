/**
 * Optional witnesses (DESIGN §3, decision 021): staff name up to two on a draft; on Enviar each
 * gets a link of their own; each signs like the patient (own code, own name and CPF checked); the
 * document is signed only when the patient and every witness have signed.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { and, asc, eq, like } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditEvents, contratos, emailOutbox, jobs } from "../../src/db/schema.js";
import { ERRORS } from "../../src/shared/errors.js";
import { SIGNING_MESSAGES } from "../../src/shared/signing-rules.js";
import { WITNESS_MESSAGES } from "../../src/shared/schemas/witness.js";
import { verifySignedPdf } from "../../src/server/services/sealing/verify-signed-pdf.js";
import { validCpf } from "../helpers/factories.js";
import { outboxMails } from "../helpers/outbox.js";
import { newClinic, newStaff, type SignedIn } from "../helpers/sessions.js";
import {
  latestSigningCode,
  publishedTemplateVersion,
  type SignablePatient,
  signableDocument,
  signAsPatient,
  signatureDataUrl,
  tokenOf,
} from "../helpers/signing.js";
import { createTestApp, type TestContext } from "../helpers/test-app.js";

let ctx: TestContext;
let clinic: SignedIn;
let other: SignedIn;
let versionId: string;
let otherVersionId: string;

type Method = "GET" | "POST" | "PUT" | "DELETE";
const staff = (who: SignedIn, method: Method, url: string, payload?: unknown) =>
  ctx.app.inject({ method, url, payload: payload as object, headers: { cookie: who.cookie } });
const publicCall = (method: "GET" | "POST", url: string, payload?: unknown) =>
  ctx.app.inject({ method, url, payload: payload as object });
const expectError = (
  response: { statusCode: number; json(): any; body: string },
  code: keyof typeof ERRORS,
  message?: string,
) => {
  expect(response.statusCode, response.body).toBe(ERRORS[code].status);
  expect(response.json()).toMatchObject({
    code,
    ...(message || code !== "VALIDATION" ? { message: message ?? ERRORS[code].message } : {}),
  });
};

let counter = 0;
/** A witness body (a person nobody else on the document is), with a unique e-mail. */
function witnessBody(nome: string, contact: { email?: boolean; telefone?: boolean } = { email: true }) {
  counter += 1;
  const cpf = validCpf();
  return {
    nome,
    cpf: `${cpf.slice(0, 3)}.${cpf.slice(3, 6)}.${cpf.slice(6, 9)}-${cpf.slice(9)}`,
    ...(contact.email ? { email: `testemunha.${counter}.${cpf}@exemplo.com.br` } : {}),
    ...(contact.telefone ? { telefone: "(11) 97777-6666" } : {}),
  };
}
type WitnessBody = ReturnType<typeof witnessBody>;
const asSigner = (w: WitnessBody): SignablePatient => ({
  id: "",
  nome: w.nome,
  cpf: w.cpf.replace(/\D/g, ""),
  email: w.email ?? null,
});

const documentRow = async (id: string) =>
  (await ctx.database.db.select().from(contratos).where(eq(contratos.id, id)))[0]!;
const actionsOf = async (id: string) =>
  await ctx.database.db
    .select({ action: auditEvents.action, data: auditEvents.data })
    .from(auditEvents)
    .where(and(eq(auditEvents.entity_type, "contrato"), eq(auditEvents.entity_id, id)))
    .orderBy(asc(auditEvents.seq));

beforeAll(async () => {
  ctx = await createTestApp({ env: { RATE_LIMIT_PUBLIC_PER_MINUTE: "100000" } });
  clinic = await newClinic(ctx.app);
  other = await newClinic(ctx.app);
  versionId = await publishedTemplateVersion(ctx.app, clinic);
  otherVersionId = await publishedTemplateVersion(ctx.app, other);
});
afterAll(async () => {
  await ctx?.close();
});

describe("naming witnesses on a draft", () => {
  it("adds at most two (numbered 1 and 2), removes them, and audits both with the CPF masked", async () => {
    const { documentId } = await signableDocument(ctx.app, clinic, { versionId });
    const ana = witnessBody("Ana Testemunha Souza");
    const bruno = witnessBody("Bruno Testemunha Lima", { telefone: true });
    const first = await staff(clinic, "POST", `/api/documents/${documentId}/witnesses`, ana);
    expect(first.statusCode, first.body).toBe(201);
    expect(first.json()).toMatchObject({
      ordem: 1,
      nome: ana.nome,
      cpf: ana.cpf,
      email: ana.email,
      telefone: null,
      assinou_em: null,
    });
    const second = await staff(clinic, "POST", `/api/documents/${documentId}/witnesses`, bruno);
    expect(second.json()).toMatchObject({ ordem: 2, email: null, telefone: "11977776666" });
    expectError(
      await staff(clinic, "POST", `/api/documents/${documentId}/witnesses`, witnessBody("Carla Terceira Dias")),
      "WITNESS_LIMIT",
    );

    const listed = await staff(clinic, "GET", `/api/documents/${documentId}/witnesses`);
    expect(listed.json()).toMatchObject({ max: 2, items: [{ nome: ana.nome }, { nome: bruno.nome }] });
    expect((await staff(clinic, "GET", `/api/documents/${documentId}`)).json().assinaturas_pendentes).toEqual([
      "paciente",
      "testemunha",
      "testemunha",
    ]);

    expect(
      (await staff(clinic, "DELETE", `/api/documents/${documentId}/witnesses/${first.json().id}`)).statusCode,
    ).toBe(204);
    expect(
      (await staff(clinic, "GET", `/api/documents/${documentId}/witnesses`))
        .json()
        .items.map((w: { nome: string }) => w.nome),
    ).toEqual([bruno.nome]);
    expect((await staff(clinic, "POST", `/api/documents/${documentId}/witnesses`, ana)).json().ordem).toBe(1);

    const events = (await actionsOf(documentId)).filter((e) => e.action.startsWith("document.witness_"));
    expect(events.map((e) => e.action)).toEqual([
      "document.witness_added",
      "document.witness_added",
      "document.witness_removed",
      "document.witness_added",
    ]);
    expect(events[0]?.data).toMatchObject({
      ordem: 1,
      nome: ana.nome,
      cpf: `***.${ana.cpf.slice(4, 7)}.${ana.cpf.slice(8, 11)}-**`,
    });
  });

  it("refuses malformed bodies, an unreachable witness, and a witness who is already a party", async () => {
    const { documentId, patient } = await signableDocument(ctx.app, clinic, { versionId });
    const url = `/api/documents/${documentId}/witnesses`;
    const bad = await staff(clinic, "POST", url, { nome: "", cpf: "123.456.789-00", email: "não-é-email" });
    expectError(bad, "VALIDATION");
    expect(bad.json().issues.map((i: { path: string }) => i.path)).toEqual(
      expect.arrayContaining(["nome", "cpf", "email"]),
    );
    expectError(
      await staff(clinic, "POST", url, { nome: "Sem Contato Algum", cpf: witnessBody("x").cpf }),
      "VALIDATION",
      WITNESS_MESSAGES.contactRequired,
    );
    expect((await staff(clinic, "POST", url, "não é json")).statusCode).toBe(400);
    expectError(await staff(clinic, "POST", url, { ...witnessBody("Campo Extra"), nome: 42 }), "VALIDATION");
    expectError(
      await staff(clinic, "POST", url, { nome: "O Próprio Paciente", cpf: patient.cpf, email: "p@exemplo.com.br" }),
      "WITNESS_IS_PARTY",
    );
    const witness = witnessBody("Dora Repetida");
    expect((await staff(clinic, "POST", url, witness)).statusCode).toBe(201);
    expectError(
      await staff(clinic, "POST", url, { ...witnessBody("Outra Pessoa"), cpf: witness.cpf }),
      "WITNESS_IS_PARTY",
    );
    expectError(await staff(clinic, "DELETE", `${url}/nao-e-um-id`), "VALIDATION");
    expect((await staff(clinic, "GET", `/api/documents/${documentId}/witnesses`)).json().items).toHaveLength(1);
  });

  it("guards the clinic: another clinic's ids are 404, an auditor cannot change them, and nothing changes once sent", async () => {
    const { documentId } = await signableDocument(ctx.app, clinic, { versionId });
    const added = (
      await staff(clinic, "POST", `/api/documents/${documentId}/witnesses`, witnessBody("Elisa Guardada"))
    ).json();
    const { documentId: otherDocument } = await signableDocument(ctx.app, other, { versionId: otherVersionId });
    const otherWitness = (
      await staff(other, "POST", `/api/documents/${otherDocument}/witnesses`, witnessBody("Fábio Alheio"))
    ).json();

    expectError(
      await staff(other, "GET", `/api/documents/${documentId}/witnesses`),
      "NOT_FOUND",
      "Documento não encontrado",
    );
    expectError(
      await staff(other, "POST", `/api/documents/${documentId}/witnesses`, witnessBody("Intrusa")),
      "NOT_FOUND",
      "Documento não encontrado",
    );
    expectError(
      await staff(other, "DELETE", `/api/documents/${documentId}/witnesses/${added.id}`),
      "NOT_FOUND",
      "Documento não encontrado",
    );
    // Own document, the other clinic's witness id: not found either.
    expectError(
      await staff(clinic, "DELETE", `/api/documents/${documentId}/witnesses/${otherWitness.id}`),
      "NOT_FOUND",
      "Testemunha não encontrada",
    );
    expectError(
      await staff(clinic, "GET", `/api/documents/${documentId}/witnesses/${otherWitness.id}/link`),
      "NOT_FOUND",
      "Testemunha não encontrada",
    );
    const auditor = await newStaff(ctx.app, ctx.database, clinic.tenantId, "auditor");
    expect((await staff(auditor, "GET", `/api/documents/${documentId}/witnesses`)).statusCode).toBe(200);
    expectError(
      await staff(auditor, "POST", `/api/documents/${documentId}/witnesses`, witnessBody("Pelo Auditor")),
      "FORBIDDEN",
    );
    expectError(await staff(auditor, "DELETE", `/api/documents/${documentId}/witnesses/${added.id}`), "FORBIDDEN");
    expect((await staff(clinic, "GET", `/api/documents/${documentId}/witnesses`)).json().items).toHaveLength(1);

    expect((await staff(clinic, "POST", `/api/documents/${documentId}/send`, {})).statusCode).toBe(200);
    expectError(
      await staff(clinic, "POST", `/api/documents/${documentId}/witnesses`, witnessBody("Depois do Envio")),
      "WITNESS_NOT_EDITABLE",
    );
    expectError(
      await staff(clinic, "DELETE", `/api/documents/${documentId}/witnesses/${added.id}`),
      "WITNESS_NOT_EDITABLE",
    );
  });
});

describe("witnesses signing", () => {
  it("each signs by their own link and code; links and codes do not cross; the document is signed only after both", async () => {
    const { documentId, patient } = await signableDocument(ctx.app, clinic, { versionId });
    const ana = witnessBody("Ana Beatriz Testemunha");
    const bruno = witnessBody("Bruno César Testemunha");
    for (const w of [ana, bruno])
      expect((await staff(clinic, "POST", `/api/documents/${documentId}/witnesses`, w)).statusCode).toBe(201);
    const sent = await staff(clinic, "POST", `/api/documents/${documentId}/send`, { email: true });
    expect(sent.statusCode, sent.body).toBe(200);
    const links = sent.json().testemunhas as { id: string; nome: string; link: string; email_enviado: boolean }[];
    expect(links.map((l) => [l.nome, l.email_enviado])).toEqual([
      [ana.nome, true],
      [bruno.nome, true],
    ]);
    const patientToken = tokenOf(sent.json().link);
    const [anaToken, brunoToken] = links.map((l) => tokenOf(l.link)) as [string, string];
    expect(new Set([patientToken, anaToken, brunoToken]).size).toBe(3);
    // Each witness got their own link by e-mail, at their own address.
    const [anaMail] = await outboxMails(ctx, ana.email!, like(emailOutbox.subject, "%como testemunha%"));
    expect(anaMail?.text).toContain(links[0]!.link);
    expect(anaMail?.text).not.toContain(sent.json().link);
    // Staff can see a witness's link again, audited with the witness named.
    const again = await staff(clinic, "GET", `/api/documents/${documentId}/witnesses/${links[0]!.id}/link`);
    expect(again.json().link).toBe(links[0]!.link);

    // Each page knows whom it asks: the code goes to that signer's own address.
    const anaPage = (await publicCall("GET", `/api/public/sign/${anaToken}`)).json();
    expect(anaPage.signatario).toEqual({
      papel: "testemunha",
      qualidade: "testemunha",
      paciente_nome: patient.nome,
      a_rogo: null,
    });
    expect(anaPage.codigo_email).toBe(`${ana.email!.slice(0, 2)}***@exemplo.com.br`);
    expect((await publicCall("GET", `/api/public/sign/${patientToken}`)).json().signatario.papel).toBe("paciente");

    // The patient's name and CPF do not sign on a witness's link, nor a witness's on the patient's.
    const hash = anaPage.documento.conteudo_sha256 as string;
    const body = (who: { nome: string; cpf: string }) => ({
      nome: who.nome,
      cpf: who.cpf,
      email: "x@exemplo.com.br",
      assinatura: signatureDataUrl(),
      conteudo_sha256: hash,
      aceite_eletronico: true,
    });
    expectError(
      await publicCall("POST", `/api/public/sign/${anaToken}`, body(patient)),
      "SIGNING_NAME_MISMATCH",
      SIGNING_MESSAGES.witnessNameMismatch,
    );
    expectError(
      await publicCall("POST", `/api/public/sign/${anaToken}`, body({ nome: ana.nome, cpf: patient.cpf })),
      "SIGNING_CPF_MISMATCH",
      SIGNING_MESSAGES.witnessCpfMismatch,
    );
    expectError(
      await publicCall("POST", `/api/public/sign/${patientToken}`, body(ana)),
      "SIGNING_NAME_MISMATCH",
      SIGNING_MESSAGES.nameMismatch,
    );
    // The patient's code does not open a witness's link.
    expect((await publicCall("POST", `/api/public/sign/${patientToken}/code`)).statusCode).toBe(200);
    const patientCode = await latestSigningCode(ctx, patient.email!);
    expectError(
      await publicCall("POST", `/api/public/sign/${anaToken}/verify-code`, { codigo: patientCode }),
      "SIGNING_OTP_INVALID",
    );

    // The patient signs first: recorded, but the document waits for the witnesses.
    expect((await signAsPatient(ctx.app, ctx.database, patientToken, patient)).response.statusCode).toBe(200);
    let row = await documentRow(documentId);
    expect(row.status).toBe("viewed");
    expect(row.verification_code).toBeNull();
    const patientAfter = (await publicCall("GET", `/api/public/sign/${patientToken}`)).json();
    expect(patientAfter).toMatchObject({
      estado: "signed",
      aguardando_outras_assinaturas: true,
      pdf_assinado_pronto: false,
    });
    // Nothing to revoke while the document waits (decision 056).
    expect(patientAfter).not.toHaveProperty("revogacao");
    expectError(await publicCall("POST", `/api/public/sign/${patientToken}/code`), "SIGNING_ALREADY_SIGNED");
    expect((await staff(clinic, "GET", `/api/documents/${documentId}/signed-pdf`)).statusCode).toBe(404);

    // Ana signs (her code, from her mailbox): still waiting for Bruno.
    const anaSigned = await signAsPatient(ctx.app, ctx.database, anaToken, asSigner(ana));
    expect(anaSigned.response.statusCode, anaSigned.response.body).toBe(200);
    expect((await documentRow(documentId)).status).toBe("viewed");
    expect((await staff(clinic, "GET", `/api/documents/${documentId}`)).json().assinaturas_pendentes).toEqual([
      "testemunha",
    ]);
    expectError(await publicCall("POST", `/api/public/sign/${anaToken}`, body(ana)), "SIGNING_ALREADY_SIGNED");
    const finalizeJobs = () =>
      ctx.database.db
        .select()
        .from(jobs)
        .where(eq(jobs.dedupe_key, `finalize:${documentId}`));
    expect(await finalizeJobs()).toHaveLength(0);

    // Bruno, the last: the document is signed, with its code and the final-PDF job.
    expect((await signAsPatient(ctx.app, ctx.database, brunoToken, asSigner(bruno))).response.statusCode).toBe(200);
    row = await documentRow(documentId);
    expect(row.status).toBe("signed");
    expect(row.verification_code).toMatch(/^[0-9A-Z]+$/);
    expect(await finalizeJobs()).toHaveLength(1);
    // Signed: the patient's link offers the revocation; a witness's never does, nor sends a code for it.
    expect((await publicCall("GET", `/api/public/sign/${patientToken}`)).json().revogacao).toMatchObject({
      revogado_em: null,
      codigo_obrigatorio: true,
    });
    const anaSignedPage = (await publicCall("GET", `/api/public/sign/${anaToken}`)).json();
    expect(anaSignedPage.estado).toBe("signed");
    expect(anaSignedPage).not.toHaveProperty("revogacao");
    expectError(await publicCall("POST", `/api/public/sign/${anaToken}/code`), "SIGNING_ALREADY_SIGNED");
    const events = await actionsOf(documentId);
    expect(events.filter((e) => e.action === "document.signed")).toHaveLength(1);
    expect(events.find((e) => e.action === "document.signed")?.data).toMatchObject({
      partes: expect.arrayContaining(["profissional", "paciente", "testemunha", "testemunha"]),
    });
    expect(events.find((e) => e.action === "document.link_accessed")?.data).toMatchObject({
      testemunha_id: links[0]!.id,
    });

    // Staff see four signatures, the witnesses as "testemunha"; the list says both signed.
    const signatures = (await staff(clinic, "GET", `/api/documents/${documentId}/signatures`)).json().items as {
      nome: string;
      papel: string;
      qualidade: string | null;
      nivel_assinatura: string;
    }[];
    expect(
      signatures.filter((s) => s.papel === "testemunha").map((s) => [s.nome, s.qualidade, s.nivel_assinatura]),
    ).toEqual([
      [ana.nome, "testemunha", "avancada"],
      [bruno.nome, "testemunha", "avancada"],
    ]);
    expect(
      (await staff(clinic, "GET", `/api/documents/${documentId}/witnesses`))
        .json()
        .items.every((w: { assinou_em: string | null }) => w.assinou_em !== null),
    ).toBe(true);

    // The sealed PDF prints them "na qualidade de testemunha", and its evidence verifies.
    await ctx.app.worker.tick();
    const pdf = await staff(clinic, "GET", `/api/documents/${documentId}/signed-pdf`);
    expect(pdf.statusCode).toBe(200);
    const report = verifySignedPdf(pdf.rawPayload);
    expect(report.linhas.filter((l) => l.ok === false)).toEqual([]);
    expect(report.partes.map((p) => p.nome)).toEqual(expect.arrayContaining([patient.nome, ana.nome, bruno.nome]));
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), "witnesses-")), "assinado.pdf");
    writeFileSync(file, pdf.rawPayload);
    const text = execFileSync("pdftotext", ["-layout", file, "-"]).toString("utf8").replace(/\s+/g, " ");
    expect(text).toContain("Na qualidade de testemunha.");
    expect(text).toContain("Qualidade: testemunha");
  });

  it("Reenviar replaces only the patient's link: the witnesses' links keep working", async () => {
    const { documentId } = await signableDocument(ctx.app, clinic, { versionId });
    expect(
      (await staff(clinic, "POST", `/api/documents/${documentId}/witnesses`, witnessBody("Gina Permanente")))
        .statusCode,
    ).toBe(201);
    const sent = (await staff(clinic, "POST", `/api/documents/${documentId}/send`, {})).json();
    const witnessToken = tokenOf(sent.testemunhas[0].link);
    expect(sent.testemunhas[0].email_enviado).toBe(false);
    const resent = await staff(clinic, "POST", `/api/documents/${documentId}/resend`, {});
    expect(resent.statusCode, resent.body).toBe(200);
    expectError(await publicCall("GET", `/api/public/sign/${tokenOf(sent.link)}`), "SIGNING_LINK_INVALID");
    expect((await publicCall("GET", `/api/public/sign/${tokenOf(resent.json().link)}`)).statusCode).toBe(200);
    expect((await publicCall("GET", `/api/public/sign/${witnessToken}`)).json().signatario.papel).toBe("testemunha");
    // Cancelling closes every link.
    expect(
      (await staff(clinic, "POST", `/api/documents/${documentId}/cancel`, { motivo: "Remarcado" })).statusCode,
    ).toBe(204);
    expectError(await publicCall("GET", `/api/public/sign/${witnessToken}`), "SIGNING_LINK_INVALID");
  });
});
