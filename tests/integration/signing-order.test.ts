import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { and, asc, eq, like } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditEvents, contratos, emailOutbox, jobs } from "../../src/db/schema.js";
import { ERRORS } from "../../src/shared/errors.js";
import { SIGNING_MESSAGES } from "../../src/shared/signing-rules.js";
import { twoClinics } from "../helpers/clinics.js";
import { expectError } from "../helpers/expect-error.js";
import { latestMail, outboxMails } from "../helpers/outbox.js";
import { sealedPdfText } from "../helpers/pdf-text.js";
import { newClinic, newStaff, type SignedIn } from "../helpers/sessions.js";
import { caller, signAsPatient, signingPatient, tokenOf, unsignedDocument, unsignedDraft } from "../helpers/signing.js";
import { createTestApp, type TestContext } from "../helpers/test-app.js";

/**
 * "Any signing order" (decision 050): the clinic chooses when the responsible professional signs;
 * whoever signs last completes the document, once; the professional can sign several at once.
 */
let ctx: TestContext;
let clinic: SignedIn;
let other: SignedIn;
let receptionist: SignedIn;
let versionId: string;
let otherVersionId: string;
const scratch = mkdtempSync(path.join(os.tmpdir(), "consentir-signing-order-"));

beforeAll(async () => {
  ctx = await createTestApp();
  ({ clinic, other, receptionist, versionId, otherVersionId } = await twoClinics(ctx, { frontDesk: true }));
});
afterAll(async () => {
  await ctx?.close();
});

type Method = "GET" | "POST" | "PUT";
const as = (who: SignedIn, method: Method, url: string, payload?: unknown) =>
  caller(ctx.app, who)(method, url, payload);
const setOrder = async (ordem: string, who = clinic) => {
  const saved = await as(who, "PUT", "/api/settings/signing", { ordem_profissional: ordem });
  expect(saved.statusCode, saved.body).toBe(200);
  expect(saved.json().ordem_profissional).toBe(ordem);
};
const signAsProfessional = (id: string, who = clinic, body: Record<string, unknown> = {}) =>
  as(who, "POST", `/api/documents/${id}/professional-signature`, { senha: who.password, ...body });
const documentRow = async (id: string) =>
  (await ctx.database.db.select().from(contratos).where(eq(contratos.id, id)))[0]!;
const eventsOf = (id: string, action: string) =>
  ctx.database.db
    .select()
    .from(auditEvents)
    .where(and(eq(auditEvents.entity_id, id), eq(auditEvents.action, action)));
const finalizeJobs = (id: string) =>
  ctx.database.db
    .select()
    .from(jobs)
    .where(and(eq(jobs.kind, "document.finalize"), eq(jobs.dedupe_key, `finalize:${id}`)));

/** A draft the professional has NOT signed, sent by the receptionist (the front desk). */
async function sentUnsigned(who = clinic, version = versionId, sender = receptionist) {
  const { id, patient } = await unsignedDocument(ctx.app, who, { versionId: version, nome: "Beatriz Nogueira Lima" });
  const sent = await as(sender, "POST", `/api/documents/${id}/send`, {});
  expect(sent.statusCode, sent.body).toBe(200);
  return { id, patient, token: tokenOf(sent.json().link) };
}

describe("the clinic's setting: when the professional signs (decision 050)", () => {
  it("is 'em qualquer ordem' by default, takes the three values, refuses others in pt-BR, managers only", async () => {
    const fresh = await newClinic(ctx.app);
    expect((await as(fresh, "GET", "/api/settings/signing")).json()).toMatchObject({
      ordem_profissional: "qualquer_ordem",
      codigo_email: true,
    });
    for (const ordem of ["antes_do_envio", "depois_do_paciente", "qualquer_ordem"]) await setOrder(ordem, fresh);
    // The other option is kept when only one is sent.
    expect((await as(fresh, "PUT", "/api/settings/signing", { codigo_email: false })).json()).toMatchObject({
      codigo_email: false,
      ordem_profissional: "qualquer_ordem",
    });
    const bad = await as(fresh, "PUT", "/api/settings/signing", { ordem_profissional: "sempre" });
    expectError(bad, "VALIDATION");
    expect(bad.body).toContain("Escolha quando o profissional assina");
    expectError(await as(fresh, "PUT", "/api/settings/signing", {}), "VALIDATION");
    const desk = await newStaff(ctx.app, ctx.database, fresh.tenantId, "atendente");
    expectError(await as(desk, "PUT", "/api/settings/signing", { ordem_profissional: "antes_do_envio" }), "FORBIDDEN");
    // Audited with the old and new value.
    const [event] = await ctx.database.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.tenant_id, fresh.tenantId), eq(auditEvents.action, "settings.signing_updated")))
      .orderBy(asc(auditEvents.seq))
      .limit(1);
    expect(event?.data).toEqual({ ordem_profissional: { antes: "qualquer_ordem", depois: "antes_do_envio" } });
  });

  it("'antes do envio': sending waits for the professional; then the patient's signature completes", async () => {
    await setOrder("antes_do_envio");
    const patient = await signingPatient(ctx.app, clinic);
    const id = await unsignedDraft(ctx.app, clinic, {
      versionId,
      patientId: patient.id,
      fields: { titulo: "TCLE", procedimento: "Rinoplastia", variaveis: { riscos_personalizados: "Edema" } },
    });
    expectError(await as(receptionist, "POST", `/api/documents/${id}/send`, {}), "PROFESSIONAL_SIGNATURE_MISSING");
    expect((await signAsProfessional(id)).json().documento_assinado).toBe(false);
    const sent = await as(receptionist, "POST", `/api/documents/${id}/send`, {});
    expect(sent.statusCode, sent.body).toBe(200);
    const signed = await signAsPatient(ctx.app, ctx.database, tokenOf(sent.json().link), patient);
    expect(signed.response.statusCode, signed.response.body).toBe(200);
    expect((await documentRow(id)).status).toBe("signed");
    expect(await finalizeJobs(id)).toHaveLength(1);
    await setOrder("qualquer_ordem");
  });

  it("'depois do paciente': the professional is refused (409, pt-BR) until the patient signed", async () => {
    await setOrder("depois_do_paciente");
    const { id, patient, token } = await sentUnsigned();
    const early = await signAsProfessional(id);
    expectError(early, "PROFESSIONAL_AFTER_PATIENT");
    expect(early.json().message).toBe(ERRORS.PROFESSIONAL_AFTER_PATIENT.message);
    // No code is sent for a signature that would be refused.
    expectError(
      await as(clinic, "POST", `/api/documents/${id}/professional-signature/code`, {}),
      "PROFESSIONAL_AFTER_PATIENT",
    );
    expect((await signAsPatient(ctx.app, ctx.database, token, patient)).response.statusCode).toBe(200);
    const late = await signAsProfessional(id);
    expect(late.statusCode, late.body).toBe(200);
    expect(late.json().documento_assinado).toBe(true);
    expect((await documentRow(id)).status).toBe("signed");
    await setOrder("qualquer_ordem");
  });
});

describe("completion in any order (decision 050)", () => {
  it("the receptionist sends unsigned, the patient signs, the professional's signature completes it once", async () => {
    const { id, patient, token } = await sentUnsigned();
    // Listed as waiting for the professional (the status detail and its filter).
    const waiting = await as(clinic, "GET", "/api/documents?aguardando_profissional=1");
    expect(waiting.statusCode, waiting.body).toBe(200);
    expect((waiting.json().items as { id: string }[]).map((d) => d.id)).toContain(id);

    // The dashboard counts it, for the clinic and for the professional.
    const before = (await as(clinic, "GET", "/api/documents/counters")).json();
    expect(before.aguardando_minha_assinatura).toBeGreaterThanOrEqual(1);
    expect(before.aguardando_profissional).toBe(before.aguardando_minha_assinatura);
    expect((await as(receptionist, "GET", "/api/documents/counters")).json()).toMatchObject({
      aguardando_profissional: before.aguardando_profissional,
      aguardando_minha_assinatura: 0,
    });
    // The professional was told by e-mail and has a notice leading to the batch screen; the receptionist has none.
    const mail = await latestMail(ctx, clinic.email, like(emailOutbox.subject, "%aguarda% sua assinatura"));
    expect(mail?.subject).toMatch(/\d+ documentos? aguardam? sua assinatura$/);
    expect(mail?.text).toContain("/documents/awaiting-signature");
    const notices = (await as(clinic, "GET", "/api/notices")).json().items as {
      tipo: string;
      titulo: string;
      link: string;
    }[];
    expect(notices.find((n) => n.tipo === "professional.awaiting")).toMatchObject({
      titulo:
        before.aguardando_minha_assinatura === 1
          ? "1 documento aguarda sua assinatura"
          : `${before.aguardando_minha_assinatura} documentos aguardam sua assinatura`,
      link: "/documents/awaiting-signature",
    });
    const deskNotices = (await as(receptionist, "GET", "/api/notices")).json().items as { tipo: string }[];
    expect(deskNotices.some((n) => n.tipo === "professional.awaiting")).toBe(false);

    const signed = await signAsPatient(ctx.app, ctx.database, token, patient);
    expect(signed.response.statusCode, signed.response.body).toBe(200);
    // Signed by the patient, still waiting for the professional: still listed and counted.
    const listed = (await as(clinic, "GET", "/api/documents?aguardando_profissional=1")).json();
    expect(listed.items.find((d: { id: string }) => d.id === id)).toMatchObject({ aguardando_profissional: true });
    const row = await documentRow(id);
    expect(row.status).not.toBe("signed");
    expect(await finalizeJobs(id)).toHaveLength(0);
    // The patient's page says plainly who is missing.
    const page = (await ctx.app.inject({ method: "GET", url: `/api/public/sign/${token}` })).json();
    expect(page).toMatchObject({
      estado: "signed",
      aguardando_outras_assinaturas: true,
      aguardando_profissional: true,
    });
    expect(SIGNING_MESSAGES.waitingProfessional(page.documento.profissional)).toContain(
      "Falta agora a assinatura do profissional responsável",
    );

    const professional = await signAsProfessional(id);
    expect(professional.statusCode, professional.body).toBe(200);
    expect(professional.json()).toMatchObject({ documento_assinado: true, nivel_assinatura: "simples" });
    const after = (await as(clinic, "GET", "/api/documents/counters")).json();
    expect(after.aguardando_minha_assinatura).toBe(before.aguardando_minha_assinatura - 1);
    const unlisted = (await as(clinic, "GET", "/api/documents?aguardando_profissional=1")).json();
    expect(unlisted.items.some((d: { id: string }) => d.id === id)).toBe(false);
    const done = await documentRow(id);
    expect(done.status).toBe("signed");
    expect(done.verification_code).toMatch(/\S/);
    expect(await finalizeJobs(id)).toHaveLength(1);
    const completed = await eventsOf(id, "document.signed");
    expect(completed).toHaveLength(1);
    const ordem = (completed[0]!.data as { ordem: { papel: string; assinou_em: string }[] }).ordem;
    expect(ordem.map((o) => o.papel)).toEqual(["paciente", "profissional"]);
    expect(Date.parse(ordem[0]!.assinou_em)).toBeLessThanOrEqual(Date.parse(ordem[1]!.assinou_em));
    // The party event comes before the completion's (lock order: status, party event, document.signed).
    const [party] = await eventsOf(id, "document.party_signed").then((events) =>
      events.filter((e) => (e.data as { papel?: string }).papel === "profissional"),
    );
    expect(party!.seq).toBeLessThan(completed[0]!.seq);
    // Signing again changes nothing.
    expectError(await signAsProfessional(id), "DOCUMENT_LOCKED");
    expect(await finalizeJobs(id)).toHaveLength(1);

    // The sealed PDF, made once, after the last signature: the registry prints each party with its time.
    const text = await sealedPdfText(ctx.app, clinic, id, path.join(scratch, "qualquer-ordem.pdf"));
    const registry = text.slice(text.indexOf("Registro de assinaturas"));
    const when = /assinou em \d{2}\/\d{2}\/\d{4} \d{2}:\d{2}:\d{2}/;
    const patientAt = registry.search(new RegExp(`${patient.nome} ${when.source}`));
    const professionalAt = registry.search(new RegExp(`Dra\\. Helena Martins Prado ${when.source}`));
    expect(patientAt).toBeGreaterThan(-1);
    expect(professionalAt).toBeGreaterThan(patientAt);
    expect(await finalizeJobs(id).then((rows) => rows.map((r) => r.status))).toEqual(["done"]);
    // Renders and seals a PDF: slow on a busy machine.
  }, 120_000);
});

describe("batch signature (decision 050)", () => {
  it("signs several declarations with one password and one code; one result per document", async () => {
    const first = await sentUnsigned();
    const second = await sentUnsigned();
    // The patient already signed the second: the professional's signature completes it.
    expect((await signAsPatient(ctx.app, ctx.database, second.token, second.patient)).response.statusCode).toBe(200);
    const foreign = await sentUnsigned(other, otherVersionId, other);

    const code = await as(clinic, "POST", "/api/documents/professional-signatures/code", {
      ids: [first.id, second.id, foreign.id],
    });
    expect(code.statusCode, code.body).toBe(200);
    expect(code.json()).toMatchObject({
      ids: [first.id, second.id],
      recusados: [{ id: foreign.id, codigo: "NOT_FOUND" }],
    });
    const mails = await outboxMails(
      ctx,
      clinic.email,
      like(emailOutbox.subject, "%código de assinatura do profissional%"),
    );
    const mail = await latestMail(
      ctx,
      clinic.email,
      like(emailOutbox.subject, "%código de assinatura do profissional%"),
    );
    expect(mail?.text).toContain("nos 2 documentos");
    const codigo = mail?.text.match(/\b(\d{6})\b/)?.[1];
    expect(codigo).toMatch(/^\d{6}$/);

    const signed = await as(clinic, "POST", "/api/documents/professional-signatures", {
      ids: [first.id, second.id, foreign.id],
      senha: clinic.password,
      codigo,
    });
    expect(signed.statusCode, signed.body).toBe(200);
    const items = signed.json().items as { id: string; ok: boolean; assinatura?: any; erro?: any }[];
    expect(items).toHaveLength(3);
    expect(items[0]).toMatchObject({
      id: first.id,
      ok: true,
      assinatura: { nivel_assinatura: "avancada", documento_assinado: false },
    });
    expect(items[1]).toMatchObject({
      id: second.id,
      ok: true,
      assinatura: { nivel_assinatura: "avancada", documento_assinado: true },
    });
    expect(items[2]).toMatchObject({ id: foreign.id, ok: false, erro: { codigo: "NOT_FOUND", status: 404 } });
    expect((await documentRow(second.id)).status).toBe("signed");
    expect(await finalizeJobs(second.id)).toHaveLength(1);
    expect(await finalizeJobs(first.id)).toHaveLength(0);
    // The other clinic's document is untouched.
    expect((await documentRow(foreign.id)).status).toBe("sent");
    // One e-mail for the batch's code.
    expect(
      (await outboxMails(ctx, clinic.email, like(emailOutbox.subject, "%código de assinatura do profissional%")))
        .length,
    ).toBe(mails.length);

    // Again: each row says it is already signed (or locked).
    const again = await as(clinic, "POST", "/api/documents/professional-signatures", {
      ids: [first.id, second.id],
      senha: clinic.password,
    });
    expect((again.json().items as { erro: { codigo: string } }[]).map((i) => i.erro.codigo)).toEqual([
      "PROFESSIONAL_ALREADY_SIGNED",
      "DOCUMENT_LOCKED",
    ]);
  });

  it("refuses someone else's documents per row, a wrong password for all, a malformed body in pt-BR", async () => {
    const mine = await sentUnsigned();
    const colleague = await newStaff(ctx.app, ctx.database, clinic.tenantId, "profissional");
    const notTheirs = await as(colleague, "POST", "/api/documents/professional-signatures", {
      ids: [mine.id],
      senha: colleague.password,
    });
    expect(notTheirs.statusCode, notTheirs.body).toBe(200);
    expect(notTheirs.json().items).toEqual([
      {
        id: mine.id,
        ok: false,
        erro: {
          codigo: "PROFESSIONAL_NOT_RESPONSIBLE",
          status: 403,
          mensagem: ERRORS.PROFESSIONAL_NOT_RESPONSIBLE.message,
        },
      },
    ]);
    const wrong = await as(clinic, "POST", "/api/documents/professional-signatures", {
      ids: [mine.id],
      senha: "nao-e-a-senha",
    });
    expectError(wrong, "WRONG_PASSWORD");
    expect(await eventsOf(mine.id, "document.sign_attempt_failed")).toHaveLength(1);

    for (const body of [{}, { ids: [], senha: "x" }, { ids: ["nao-e-id"], senha: "x" }, { ids: [mine.id] }]) {
      const refused = await as(clinic, "POST", "/api/documents/professional-signatures", body);
      expectError(refused, "VALIDATION");
      expect(refused.json().message).toMatch(/[ãçéíóú]|Selecione|Digite|Documento/);
    }
    expectError(await as(clinic, "POST", "/api/documents/professional-signatures/code", { ids: "x" }), "VALIDATION");
    expect((await documentRow(mine.id)).status).toBe("sent");
  });
});
