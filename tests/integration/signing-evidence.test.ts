import { createHash } from "node:crypto";
import { and, asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditEvents, contratoPartes, signingOtps } from "../../src/db/schema.js";
import { ELECTRONIC_CONSENT, SIGNING_MESSAGES } from "../../src/shared/signing-rules.js";
import { newClinic, newStaff, type SignedIn } from "../helpers/sessions.js";
import { validCpf } from "../helpers/factories.js";
import {
  draftDocument,
  latestSigningCode,
  publishedTemplateVersion,
  signableDocument,
  signAsPatient,
  signatureDataUrl,
  tokenOf,
} from "../helpers/signing.js";
import { createTestApp, type TestContext } from "../helpers/test-app.js";

/**
 * first step: exclusive control by default (the e-mail code), honest levels, the
 * registered name exactly, failed attempts and staff link copies in the trail, contact changes
 * of a waiting patient recorded.
 */
let ctx: TestContext;
let clinic: SignedIn;
let versionId: string;

const IP = "198.51.100.20";
const UA = "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 Chrome/126.0 Mobile Safari/537.36";
const publicCall = (method: "GET" | "POST", url: string, payload?: unknown) =>
  ctx.app.inject({ method, url, payload: payload as object, remoteAddress: IP, headers: { "user-agent": UA } });
const staff = (who: SignedIn, method: "GET" | "POST" | "PUT", url: string, payload?: unknown) =>
  ctx.app.inject({ method, url, payload: payload as object, headers: { cookie: who.cookie } });
const eventsOf = (id: string) =>
  ctx.database.db
    .select()
    .from(auditEvents)
    .where(and(eq(auditEvents.entity_type, "contrato"), eq(auditEvents.entity_id, id)))
    .orderBy(asc(auditEvents.seq));

async function sent(who: SignedIn = clinic, options: { email?: string | null; version?: string } = {}) {
  const { documentId, patient } = await signableDocument(ctx.app, who, {
    versionId: options.version ?? versionId,
    email: options.email,
  });
  const response = await staff(who, "POST", `/api/documents/${documentId}/send`, {});
  expect(response.statusCode, response.body).toBe(200);
  return { documentId, patient, token: tokenOf(response.json().link), link: response.json() };
}

const formatted = (cpf: string) => `${cpf.slice(0, 3)}.${cpf.slice(3, 6)}.${cpf.slice(6, 9)}-${cpf.slice(9)}`;

beforeAll(async () => {
  ctx = await createTestApp();
  clinic = await newClinic(ctx.app);
  versionId = await publishedTemplateVersion(ctx.app, clinic);
});
afterAll(async () => {
  await ctx.close();
});

describe("exclusive control by default", () => {
  it("asks a new clinic's patient for the e-mail code, masks the CPF until it is verified, and reaches 'avançada'", async () => {
    const { documentId, patient, token, link } = await sent();
    expect(link).toMatchObject({ nivel: "avancada", motivo_simples: null });

    const page = (await publicCall("GET", `/api/public/sign/${token}`)).json();
    expect(page).toMatchObject({
      codigo_obrigatorio: true,
      codigo_verificado: false,
      conteudo_mascarado: true,
      nivel: "avancada",
    });
    const shown = JSON.stringify(page.documento.modelo);
    expect(shown).not.toContain(formatted(patient.cpf));
    expect(shown).toContain(`***.${patient.cpf.slice(3, 6)}.${patient.cpf.slice(6, 9)}-**`);

    // Signing without the code is refused; so is a wrong code (counted, audited).
    const withoutCode = await publicCall("POST", `/api/public/sign/${token}`, {
      nome: patient.nome,
      cpf: patient.cpf,
      email: patient.email,
      assinatura: "data:image/png;base64,AAAA",
      conteudo_sha256: page.documento.conteudo_sha256,
      aceite_eletronico: true,
    });
    expect(withoutCode.statusCode).toBe(400);
    expect((await publicCall("POST", `/api/public/sign/${token}/code`)).statusCode).toBe(200);
    const code = await latestSigningCode(ctx, patient.email ?? "");
    const wrong = code === "000000" ? "111111" : "000000";
    const refused = await publicCall("POST", `/api/public/sign/${token}/verify-code`, { codigo: wrong });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toBe(SIGNING_MESSAGES.otpInvalid);

    const verified = await publicCall("POST", `/api/public/sign/${token}/verify-code`, { codigo: code });
    expect(verified.statusCode, verified.body).toBe(200);
    // Past the code the CPF stays masked: the page asks for it (decision 051).
    expect(verified.json()).toMatchObject({ codigo_verificado: true, conteudo_mascarado: true });
    expect(JSON.stringify(verified.json().documento.modelo)).not.toContain(formatted(patient.cpf));

    const signed = await publicCall("POST", `/api/public/sign/${token}`, {
      nome: patient.nome,
      cpf: patient.cpf,
      email: patient.email,
      assinatura: signatureDataUrl(),
      conteudo_sha256: page.documento.conteudo_sha256,
      aceite_eletronico: true,
      aceite_detalhe_aberto: true,
      codigo: code,
    });
    expect(signed.statusCode, signed.body).toBe(200);
    const [party] = await ctx.database.db
      .select()
      .from(contratoPartes)
      .where(and(eq(contratoPartes.contrato_id, documentId), eq(contratoPartes.papel, "paciente")));
    expect(party).toMatchObject({
      otp_verificado: true,
      nivel_assinatura: "avancada",
      tipo_assinatura: "desenhada",
      dispositivo: "Chrome 126 · Android 14 · Google Pixel 8 (celular)",
    });

    const events = await eventsOf(documentId);
    const actions = events.map((e) => e.action);
    expect(actions).toEqual(
      expect.arrayContaining([
        "document.otp_email_outbox",
        "document.sign_attempt_failed",
        "document.otp_verified",
        "document.signed",
      ]),
    );
    expect(events.find((e) => e.action === "document.sign_attempt_failed")?.data).toEqual({ motivo: "codigo" });
    expect(events.find((e) => e.action === "document.sign_attempt_failed")?.ip_address).toBe(IP);
    const signedEvent = events.find(
      (e) => e.action === "document.party_signed" && (e.data as { papel: string }).papel === "paciente",
    );
    expect(signedEvent?.data).toMatchObject({
      nivel: "avancada",
      otp_verificado: true,
      consentimento: {
        versao: ELECTRONIC_CONSENT.versao,
        sha256: createHash("sha256").update(ELECTRONIC_CONSENT.texto).digest("hex"),
        detalhe_aberto: true,
      },
    });
  });

  it("verifies a code on a link never opened (no GET): the wrong attempt is counted with its event, the right one answers the page and the document becomes viewed after the code's event", async () => {
    const { documentId, patient, token } = await sent();
    expect((await publicCall("POST", `/api/public/sign/${token}/code`)).statusCode).toBe(200);
    const code = await latestSigningCode(ctx, patient.email ?? "");
    const wrong = code === "000000" ? "111111" : "000000";
    expect((await publicCall("POST", `/api/public/sign/${token}/verify-code`, { codigo: wrong })).statusCode).toBe(400);
    const [otp] = await ctx.database.db.select().from(signingOtps).where(eq(signingOtps.contrato_id, documentId));
    expect(otp?.attempts).toBe(1);

    const verified = await publicCall("POST", `/api/public/sign/${token}/verify-code`, { codigo: code });
    expect(verified.statusCode, verified.body).toBe(200);
    expect(verified.json()).toMatchObject({
      codigo_verificado: true,
      conteudo_mascarado: true,
      documento: { status: "viewed" },
    });
    const actions = (await eventsOf(documentId)).map((e) => e.action);
    expect(
      actions.filter((a) => ["document.sign_attempt_failed", "document.otp_verified", "document.viewed"].includes(a)),
    ).toEqual(["document.sign_attempt_failed", "document.otp_verified", "document.viewed"]);
    // Verified again on the now viewed link: the same page, one more event, no second 'viewed'.
    const again = await publicCall("POST", `/api/public/sign/${token}/verify-code`, { codigo: code });
    expect(again.json()).toMatchObject({ codigo_verificado: true, documento: { status: "viewed" } });
    const after = (await eventsOf(documentId)).map((e) => e.action);
    expect(after.filter((a) => a === "document.otp_verified")).toHaveLength(2);
    expect(after.filter((a) => a === "document.viewed")).toHaveLength(1);
  });

  it("signs without a code only as 'simples', saying why: the clinic turned it off, or the patient has no e-mail", async () => {
    const off = await newClinic(ctx.app);
    const offVersion = await publishedTemplateVersion(ctx.app, off);
    expect((await staff(off, "PUT", "/api/settings/signing", { codigo_email: false })).json()).toMatchObject({
      codigo_email: false,
    });
    const a = await sent(off, { version: offVersion });
    expect(a.link).toMatchObject({ nivel: "simples", motivo_simples: "A clínica desativou o código de verificação." });
    const pageA = (await publicCall("GET", `/api/public/sign/${a.token}`)).json();
    expect(pageA).toMatchObject({ codigo_obrigatorio: false, conteudo_mascarado: true, nivel: "simples" });
    const signedA = await signAsPatient(ctx.app, ctx.database, a.token, a.patient);
    expect(signedA.response.statusCode, signedA.response.body).toBe(200);
    const event = (await eventsOf(a.documentId)).find(
      (e) => e.action === "document.party_signed" && (e.data as { papel: string }).papel === "paciente",
    );
    expect(event?.data).toMatchObject({
      nivel: "simples",
      otp_verificado: false,
      motivo_simples: "A clínica desativou o código de verificação.",
    });

    const b = await sent(clinic, { email: null });
    expect(b.link).toMatchObject({
      nivel: "simples",
      motivo_simples: "O paciente não tem e-mail cadastrado para receber o código.",
    });
    expect((await publicCall("GET", `/api/public/sign/${b.token}`)).json()).toMatchObject({
      codigo_obrigatorio: false,
      nivel: "simples",
    });
  });

  it("never asks for a code that cannot arrive: production without SMTP signs 'simples' and queues no e-mail nobody can read", async () => {
    const prod = await createTestApp({
      database: ctx.database,
      env: { NODE_ENV: "production", PUBLIC_URL: "https://consentir.exemplo.com.br", TSA_URL: "none" },
    });
    try {
      const owner = await newClinic(prod.app);
      const version = await publishedTemplateVersion(prod.app, owner);
      const settings = await prod.app.inject({
        method: "GET",
        url: "/api/settings/signing",
        headers: { cookie: owner.cookie },
      });
      expect(settings.json()).toEqual({
        codigo_email: true,
        ordem_profissional: "qualquer_ordem",
        // No SMTP: the professional's code is not required by default (decision 078).
        codigo_profissional: false,
        email_configurado: false,
        email_entregavel: false,
        codigo_disponivel: false,
        sms_configurado: false,
      });
      const { documentId } = await signableDocument(prod.app, owner, { versionId: version });
      const response = await prod.app.inject({
        method: "POST",
        url: `/api/documents/${documentId}/send`,
        headers: { cookie: owner.cookie },
        payload: { email: true },
      });
      expect(response.statusCode, response.body).toBe(200);
      // Asked for the e-mail anyway (an old client, an integration): the link is issued, no e-mail queued.
      expect(response.json()).toMatchObject({
        email_enviado: false,
        email_na_caixa_de_saida: false,
        nivel: "simples",
        motivo_simples: "O envio de e-mail não está configurado neste servidor.",
      });
      expect(response.json().link).toMatch(/^https:\/\/consentir\.exemplo\.com\.br\/assinar\//);
      const page = (
        await prod.app.inject({ method: "GET", url: `/api/public/sign/${tokenOf(response.json().link)}` })
      ).json();
      expect(page).toMatchObject({ codigo_obrigatorio: false, nivel: "simples" });
      const actions = (await eventsOf(documentId)).map((e) => e.action);
      expect(actions).not.toContain("document.link_email_outbox");
      expect(actions).not.toContain("document.link_emailed");
      // "Email" on the live link says why, in pt-BR, and queues nothing either.
      const emailed = await prod.app.inject({
        method: "POST",
        url: `/api/documents/${documentId}/email-link`,
        headers: { cookie: owner.cookie },
      });
      expect(emailed.statusCode, emailed.body).toBe(409);
      expect(emailed.json().message).toBe("Este servidor não envia e-mails: envie o link pelo WhatsApp ou copie-o.");
      expect((await eventsOf(documentId)).map((e) => e.action)).not.toContain("document.link_email_outbox");
    } finally {
      await prod.close();
    }
  });
});

describe("signers sign as themselves", () => {
  it("wants the registered name (case, accents and spaces aside), not a part of it; refused attempts are audited", async () => {
    const off = await newClinic(ctx.app);
    const offVersion = await publishedTemplateVersion(ctx.app, off);
    await staff(off, "PUT", "/api/settings/signing", { codigo_email: false });
    const { documentId, patient, token } = await sent(off, { version: offVersion });
    const firstName = await signAsPatient(ctx.app, ctx.database, token, patient, { nome: "Ana Luíza" });
    expect(firstName.response.statusCode).toBe(400);
    expect(firstName.response.json().message).toBe(SIGNING_MESSAGES.nameMismatch);
    const wrongCpf = await signAsPatient(ctx.app, ctx.database, token, patient, { cpf: "529.982.247-25" });
    expect(wrongCpf.response.json().message).toBe(SIGNING_MESSAGES.cpfMismatch);
    const noConsent = await signAsPatient(ctx.app, ctx.database, token, patient, { aceite_eletronico: false });
    expect(noConsent.response.statusCode).toBe(400);
    expect(noConsent.response.json().message).toBe(SIGNING_MESSAGES.consentRequired);

    // A typed signature (accessibility) is accepted and recorded as typed.
    const ok = await signAsPatient(ctx.app, ctx.database, token, patient, {
      nome: "  ana   LUIZA conceicao ",
      tipo_assinatura: "digitada",
    });
    expect(ok.response.statusCode, ok.response.body).toBe(200);
    const [party] = await ctx.database.db
      .select()
      .from(contratoPartes)
      .where(and(eq(contratoPartes.contrato_id, documentId), eq(contratoPartes.papel, "paciente")));
    expect(party).toMatchObject({
      nome: patient.nome,
      tipo_assinatura: "digitada",
      nivel_assinatura: "simples",
      dispositivo: null,
    });
    const failures = (await eventsOf(documentId))
      .filter((e) => e.action === "document.sign_attempt_failed")
      .map((e) => e.data);
    expect(failures).toEqual([{ motivo: "nome" }, { motivo: "cpf" }]);
  });
});

describe("a minor signs through their legal guardian, in the guardian's own name", () => {
  it("refuses to send without the guardian on record, then wants the guardian's name and CPF and prints the capacity", async () => {
    const guardianCpf = "529.982.247-25";
    const minor = await staff(clinic, "POST", "/api/patients", {
      nome: "Pedro Henrique Souza",
      cpf: validCpf(),
      data_nascimento: "2014-03-09",
      email: "familia.souza@exemplo.com.br",
    });
    expect(minor.statusCode, minor.body).toBe(201);
    const patient = {
      id: minor.json().id as string,
      nome: "Pedro Henrique Souza",
      cpf: minor.json().cpf as string,
      email: "familia.souza@exemplo.com.br",
    };
    const documentId = await draftDocument(ctx.app, clinic, versionId, patient.id);
    const refused = await staff(clinic, "POST", `/api/documents/${documentId}/send`, {});
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ code: "GUARDIAN_MISSING" });

    const updated = await staff(clinic, "PUT", `/api/patients/${patient.id}`, {
      nome: patient.nome,
      cpf: patient.cpf,
      data_nascimento: "2014-03-09",
      email: patient.email,
      responsavel_nome: "Marta Souza Lima",
      responsavel_cpf: guardianCpf,
    });
    expect(updated.statusCode, updated.body).toBe(200);
    const sentNow = await staff(clinic, "POST", `/api/documents/${documentId}/send`, {});
    expect(sentNow.statusCode, sentNow.body).toBe(200);
    const token = tokenOf(sentNow.json().link);
    expect((await publicCall("GET", `/api/public/sign/${token}`)).json().signatario).toEqual({
      papel: "responsavel",
      qualidade: "responsável legal de Pedro Henrique Souza",
      paciente_nome: "Pedro Henrique Souza",
      a_rogo: null,
    });

    // The minor's own name and CPF do not sign.
    const asMinor = await signAsPatient(ctx.app, ctx.database, token, patient);
    expect(asMinor.response.statusCode).toBe(400);
    expect(asMinor.response.json().message).toBe(SIGNING_MESSAGES.guardianNameMismatch);
    const wrongCpf = await signAsPatient(ctx.app, ctx.database, token, patient, { nome: "marta souza lima" });
    expect(wrongCpf.response.json().message).toBe(SIGNING_MESSAGES.guardianCpfMismatch);

    const signed = await signAsPatient(ctx.app, ctx.database, token, patient, {
      nome: "Marta Souza Lima",
      cpf: guardianCpf,
    });
    expect(signed.response.statusCode, signed.response.body).toBe(200);
    const [party] = await ctx.database.db
      .select()
      .from(contratoPartes)
      .where(and(eq(contratoPartes.contrato_id, documentId), eq(contratoPartes.papel, "responsavel")));
    expect(party).toMatchObject({
      papel: "responsavel",
      nome: "Marta Souza Lima",
      cpf: "52998224725",
      qualidade: "responsável legal de Pedro Henrique Souza",
      nivel_assinatura: "avancada",
    });
    const block = await staff(clinic, "GET", `/api/documents/${documentId}/signatures`);
    expect(block.json().items.find((item: { papel: string }) => item.papel === "responsavel")).toMatchObject({
      papel: "responsavel",
      qualidade: "responsável legal de Pedro Henrique Souza",
      cpf: "529.982.247-25",
    });
  });
});

describe("the responsible professional signs as themselves, in the app, before sending", () => {
  it("blocks sending until the professional re-enters their password; nobody else may sign for them", async () => {
    const patient = await staff(clinic, "POST", "/api/patients", {
      nome: "Rita Campos Leal",
      cpf: validCpf(),
      data_nascimento: "1975-07-07",
      email: "rita@exemplo.com.br",
    });
    const created = await staff(clinic, "POST", "/api/documents", {
      paciente_id: patient.json().id,
      template_version_id: versionId,
      titulo: "TCLE - Rinoplastia",
      procedimento: "Rinoplastia",
      medico_responsavel_id: clinic.profileId,
      variaveis: { riscos_personalizados: "Edema" },
    });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().id as string;
    expect((await staff(clinic, "GET", `/api/documents/${id}`)).json().assinaturas_pendentes).toEqual([
      "profissional",
      "paciente",
    ]);
    // The clinic chose "antes do envio" (decision 050): sending waits for the professional.
    expect(
      (await staff(clinic, "PUT", "/api/settings/signing", { ordem_profissional: "antes_do_envio" })).statusCode,
    ).toBe(200);
    const early = await staff(clinic, "POST", `/api/documents/${id}/send`, {});
    expect(early.statusCode).toBe(409);
    expect(early.json().code).toBe("PROFESSIONAL_SIGNATURE_MISSING");

    // A receptionist cannot sign in the professional's place, even with their own password.
    const receptionist = await newStaff(ctx.app, ctx.database, clinic.tenantId, "atendente");
    const notMine = await staff(receptionist, "POST", `/api/documents/${id}/professional-signature`, {
      senha: receptionist.password,
    });
    expect(notMine.statusCode).toBe(403);
    expect(notMine.json().message).toBe(
      "Só o profissional responsável pelo documento pode assinar a declaração do profissional.",
    );
    // A wrong password is refused and audited with the user.
    const wrong = await staff(clinic, "POST", `/api/documents/${id}/professional-signature`, {
      senha: "nao-e-a-senha",
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().message).toBe("Senha incorreta.");
    const failure = (await eventsOf(id)).find((e) => e.action === "document.sign_attempt_failed");
    expect(failure).toMatchObject({ actor_profile_id: clinic.profileId, data: { motivo: "senha" } });

    const signed = await staff(clinic, "POST", `/api/documents/${id}/professional-signature`, {
      senha: clinic.password,
    });
    expect(signed.statusCode, signed.body).toBe(200);
    const again = await staff(clinic, "POST", `/api/documents/${id}/professional-signature`, {
      senha: clinic.password,
    });
    expect(again.statusCode).toBe(409);
    const [party] = await ctx.database.db
      .select()
      .from(contratoPartes)
      .where(and(eq(contratoPartes.contrato_id, id), eq(contratoPartes.papel, "profissional")));
    // The password alone (no code asked): login and password, recorded as simple (decision 042).
    expect(party).toMatchObject({
      nome: "Dra. Helena Martins Prado",
      tipo_assinatura: "senha",
      nivel_assinatura: "simples",
      otp_verificado: false,
      assinatura_file_id: null,
      qualidade: "profissional responsável — CRM-SP 123456",
    });
    expect((await staff(clinic, "GET", `/api/documents/${id}`)).json().assinaturas_pendentes).toEqual(["paciente"]);
    expect((await staff(clinic, "POST", `/api/documents/${id}/send`, {})).statusCode).toBe(200);
  });
});

describe("staff cannot sign in the patient's place unseen", () => {
  it("puts every staff copy of the live link in the trail, naming the user and how", async () => {
    const { documentId, token } = await sent();
    const receptionist = await newStaff(ctx.app, ctx.database, clinic.tenantId, "atendente");
    const copied = await staff(receptionist, "GET", `/api/documents/${documentId}/link`);
    expect(copied.statusCode, copied.body).toBe(200);
    expect(tokenOf(copied.json().link)).toBe(token);
    expect((await staff(clinic, "GET", `/api/documents/${documentId}/link?via=whatsapp`)).statusCode).toBe(200);
    const accesses = (await eventsOf(documentId)).filter((e) => e.action === "document.link_accessed");
    expect(accesses.map((e) => [e.actor_profile_id, (e.data as { via: string }).via])).toEqual([
      [receptionist.profileId, "ver"],
      [clinic.profileId, "whatsapp"],
    ]);
    // The document's Auditoria tab lists them with a label.
    const detail = await staff(clinic, "GET", `/api/documents/${documentId}`);
    expect(JSON.stringify(detail.json())).toContain("document.link_accessed");
    expect((await staff(clinic, "GET", `/api/documents/${documentId}/link?via=fax`)).statusCode).toBe(400);
  });

  it("records a change of the patient's e-mail or phone on each document waiting for signature, masked", async () => {
    const { documentId, patient } = await sent();
    const update = await staff(clinic, "PUT", `/api/patients/${patient.id}`, {
      nome: patient.nome,
      cpf: patient.cpf,
      data_nascimento: "1990-05-10",
      email: "outro.endereco@exemplo.com.br",
      telefone: "(11) 97777-6543",
    });
    expect(update.statusCode, update.body).toBe(200);
    const change = (await eventsOf(documentId)).find((e) => e.action === "patient.contact_changed");
    expect(change?.actor_profile_id).toBe(clinic.profileId);
    expect(change?.data).toMatchObject({
      paciente_id: patient.id,
      email: { antes: `${(patient.email ?? "").slice(0, 2)}***@exemplo.com.br`, depois: "ou***@exemplo.com.br" },
      telefone: { antes: null, depois: "(**) *****-6543" },
    });
  });
});
