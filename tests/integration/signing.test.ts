import { createHash } from "node:crypto";
import { and, asc, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  auditEvents,
  contratoPartes,
  contratos,
  emailOutbox,
  files,
  jobs,
  signingOtps,
  signingTokens,
} from "../../src/db/schema.js";
import { ERRORS } from "../../src/shared/errors.js";
import { MAX_SIGNATURE_BYTES, OTP_MAX_ATTEMPTS, SIGNING_MESSAGES } from "../../src/shared/schemas/signing.js";
import { validCpf } from "../helpers/factories.js";
import { newClinic, newStaff, type SignedIn } from "../helpers/sessions.js";
import {
  pngDataUrl,
  publishedTemplateVersion,
  type SignablePatient,
  signableDocument,
  signatureDataUrl,
  signaturePng,
  tokenOf,
} from "../helpers/signing.js";
import { outboxMails } from "../helpers/outbox.js";
import { createTestApp, type TestContext } from "../helpers/test-app.js";

let ctx: TestContext;
let clinic: SignedIn;
let other: SignedIn;
let versionId: string;
let otherVersionId: string;

const PHONE_UA =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148 Safari/604.1";
const PHONE_IP = "203.0.113.7";

type Method = "GET" | "POST" | "PUT";
const staff = (who: SignedIn, method: Method, url: string, payload?: unknown) =>
  ctx.app.inject({ method, url, payload: payload as object, headers: { cookie: who.cookie } });
const publicCall = (method: Method, url: string, payload?: unknown, ip = PHONE_IP) =>
  ctx.app.inject({ method, url, payload: payload as object, remoteAddress: ip, headers: { "user-agent": PHONE_UA } });
const openPage = (token: string) => publicCall("GET", `/api/public/sign/${token}`);
const sign = (token: string, payload: unknown) => publicCall("POST", `/api/public/sign/${token}`, payload);

const expectError = (
  response: { statusCode: number; json(): any; body: string },
  code: keyof typeof ERRORS,
  message?: string,
) => {
  expect(response.statusCode, response.body).toBe(ERRORS[code].status);
  // VALIDATION carries the first field's message: checked only when the test names it.
  const expected =
    message === undefined && code === "VALIDATION" ? { code } : { code, message: message ?? ERRORS[code].message };
  expect(response.json()).toMatchObject(expected);
};

interface Sent {
  documentId: string;
  patient: SignablePatient;
  link: string;
  token: string;
}

/** A new document of `who`'s clinic, sent: its link and token. */
async function sentDocument(
  who: SignedIn = clinic,
  options: { email?: string | null; nome?: string } = {},
): Promise<Sent> {
  const { documentId, patient } = await signableDocument(ctx.app, who, {
    versionId: who === other ? otherVersionId : versionId,
    ...options,
  });
  const response = await staff(who, "POST", `/api/documents/${documentId}/send`, {});
  expect(response.statusCode, response.body).toBe(200);
  const link = response.json().link as string;
  return { documentId, patient, link, token: tokenOf(link) };
}

async function pageHash(token: string): Promise<string> {
  const response = await openPage(token);
  expect(response.statusCode, response.body).toBe(200);
  return response.json().documento.conteudo_sha256 as string;
}

const signerInput = (patient: SignablePatient, conteudo_sha256: string, overrides: Record<string, unknown> = {}) => ({
  // The registered name, in other case, without accents and with extra spaces.
  nome: "ANA  LUIZA conceicao ",
  cpf: `${patient.cpf.slice(0, 3)}.${patient.cpf.slice(3, 6)}.${patient.cpf.slice(6, 9)}-${patient.cpf.slice(9)}`,
  email: "Ana.Paciente@Exemplo.com.br",
  telefone: "(11) 98888-7777",
  assinatura: signatureDataUrl(),
  conteudo_sha256,
  aceite_eletronico: true,
  ...overrides,
});

const documentRow = async (id: string) => {
  const [row] = await ctx.database.db.select().from(contratos).where(eq(contratos.id, id));
  if (!row) throw new Error(`no document ${id}`);
  return row;
};
const eventsOf = (id: string) =>
  ctx.database.db
    .select()
    .from(auditEvents)
    .where(and(eq(auditEvents.entity_type, "contrato"), eq(auditEvents.entity_id, id)))
    .orderBy(asc(auditEvents.seq));
/** The link signer's parties (the professional signed the declaration before sending). */
const partiesOf = async (id: string) =>
  (await ctx.database.db.select().from(contratoPartes).where(eq(contratoPartes.contrato_id, id))).filter(
    (party) => party.papel !== "profissional",
  );

beforeAll(async () => {
  // Generous public limit here: the rate limit has its own app below.
  ctx = await createTestApp({ env: { RATE_LIMIT_PUBLIC_PER_MINUTE: "100000" } });
  clinic = await newClinic(ctx.app);
  other = await newClinic(ctx.app);
  // This clinic signs without the e-mail code (simple signature), so most tests here exercise the
  // other rules; the code's own tests below use a clinic with the default (code on).
  const off = await staff(clinic, "PUT", "/api/settings/signing", { codigo_email: false });
  expect(off.statusCode, off.body).toBe(200);
  versionId = await publishedTemplateVersion(ctx.app, clinic);
  otherVersionId = await publishedTemplateVersion(ctx.app, other);
});
afterAll(async () => {
  await ctx?.close();
});

describe("sending a document for signature", () => {
  it("moves a draft to sent and issues a 256-bit link whose token is stored only hashed and sealed", async () => {
    const { documentId, patient } = await signableDocument(ctx.app, clinic, { versionId });
    const before = await documentRow(documentId);
    const response = await staff(clinic, "POST", `/api/documents/${documentId}/send`, {});
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json();
    expect(body.link).toMatch(/^http:\/\/[^/]+\/assinar\/[A-Za-z0-9_-]{43}$/);
    expect(body.expires_at).toBe(before.expiracao_at.toISOString());
    expect(body.email_enviado).toBe(false);
    expect(body.whatsapp_text).toBe(
      `Olá, Ana! Segue o link para ler e assinar o documento "TCLE - Blefaroplastia": ${body.link}`,
    );
    expect(body.whatsapp_url).toBe(`https://wa.me/?text=${encodeURIComponent(body.whatsapp_text)}`);

    const token = tokenOf(body.link);
    const rows = await ctx.database.db.select().from(signingTokens).where(eq(signingTokens.contrato_id, documentId));
    expect(rows).toHaveLength(1);
    expect(rows[0]?.token_hash).toBe(createHash("sha256").update(token).digest("hex"));
    expect(rows[0]?.token_encrypted.toString("utf8")).not.toContain(token);
    expect(rows[0]?.expires_at.toISOString()).toBe(before.expiracao_at.toISOString());
    expect(rows[0]?.created_by).toBe(clinic.profileId);

    const after = await documentRow(documentId);
    expect(after.status).toBe("sent");
    expect(after.sent_at).toBeInstanceOf(Date);
    const sentEvent = (await eventsOf(documentId)).find((e) => e.action === "document.sent");
    expect(sentEvent).toMatchObject({ actor_profile_id: clinic.profileId, tenant_id: clinic.tenantId });

    // The same live link can be copied again; sending twice is refused.
    const copy = await staff(clinic, "GET", `/api/documents/${documentId}/link`);
    expect(copy.statusCode, copy.body).toBe(200);
    expect(copy.json().link).toBe(body.link);
    expect(copy.headers["cache-control"]).toContain("no-store");
    expectError(await staff(clinic, "POST", `/api/documents/${documentId}/send`, {}), "DOCUMENT_NOT_SENDABLE");
    expect(patient.nome).toBe("Ana Luíza Conceição");
  });

  it("gives a draft whose deadline already passed a fresh 7-day deadline when it is sent", async () => {
    const { documentId } = await signableDocument(ctx.app, clinic, { versionId });
    await ctx.database.db
      .update(contratos)
      .set({ expiracao_at: new Date(Date.now() - 86_400_000) })
      .where(eq(contratos.id, documentId));
    const response = await staff(clinic, "POST", `/api/documents/${documentId}/send`, {});
    expect(response.statusCode, response.body).toBe(200);
    const days = (Date.parse(response.json().expires_at) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(6.99);
    expect(days).toBeLessThanOrEqual(7);
    expect((await documentRow(documentId)).expiracao_at.toISOString()).toBe(response.json().expires_at);
    expect((await openPage(tokenOf(response.json().link))).statusCode).toBe(200);
  });

  it("answers 'Token de assinatura não gerado' for the link of a draft", async () => {
    const { documentId } = await signableDocument(ctx.app, clinic, { versionId });
    expectError(
      await staff(clinic, "GET", `/api/documents/${documentId}/link`),
      "NOT_FOUND",
      SIGNING_MESSAGES.tokenMissing,
    );
  });

  it("e-mails the link to the patient's registered address through the outbox, naming clinic and document", async () => {
    const { documentId, patient } = await signableDocument(ctx.app, clinic, { versionId });
    const response = await staff(clinic, "POST", `/api/documents/${documentId}/send`, { email: true });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().email_enviado).toBe(true);
    const mails = await outboxMails(ctx, patient.email ?? "");
    expect(mails).toHaveLength(1);
    expect(mails[0]?.tenant_id).toBe(clinic.tenantId);
    expect(mails[0]?.subject).toContain("TCLE - Blefaroplastia");
    expect(mails[0]?.subject).toContain("Dra. Helena Martins Prado");
    expect(mails[0]?.text).toContain(response.json().link);
    expect(mails[0]?.text).toContain("Olá, Ana!");
    // Kept sealed: the row holds neither the link nor its token in clear.
    expect(mails[0]?.text_body).toBeNull();
    expect(mails[0]?.body_sealed?.toString("latin1")).not.toContain(tokenOf(response.json().link));
    // No SMTP here: the e-mail waits in the outbox, and nothing says it was sent.
    expect(response.json().email_na_caixa_de_saida).toBe(true);
    const actions = (await eventsOf(documentId)).map((e) => e.action);
    expect(actions).toEqual(expect.arrayContaining(["document.sent", "document.link_email_outbox"]));
    expect(actions).not.toContain("document.link_emailed");
  });

  it("e-mails the SAME live link again later (Email in the preview dialog) without replacing it", async () => {
    const sent = await sentDocument();
    const response = await staff(clinic, "POST", `/api/documents/${sent.documentId}/email-link`);
    expect(response.statusCode, response.body).toBe(200);
    expect(tokenOf(response.json().link)).toBe(sent.token);
    expect(response.json().email_enviado).toBe(true);
    const mails = await outboxMails(ctx, sent.patient.email ?? "");
    expect(mails.at(-1)?.text).toContain(response.json().link);
    expect((await openPage(sent.token)).statusCode).toBe(200);
    // A draft has no link to e-mail; another clinic's id is not found.
    const { documentId: draft } = await signableDocument(ctx.app, clinic, { versionId });
    expect((await staff(clinic, "POST", `/api/documents/${draft}/email-link`)).json().message).toBe(
      SIGNING_MESSAGES.tokenMissing,
    );
    expect((await staff(other, "POST", `/api/documents/${sent.documentId}/email-link`)).statusCode).toBe(404);
  });

  it("refuses the e-mail when the patient has none, and then nothing changes", async () => {
    const { documentId } = await signableDocument(ctx.app, clinic, { versionId, email: null });
    expectError(
      await staff(clinic, "POST", `/api/documents/${documentId}/send`, { email: true }),
      "PATIENT_EMAIL_MISSING",
    );
    expect((await documentRow(documentId)).status).toBe("draft");
    expect(
      await ctx.database.db.select().from(signingTokens).where(eq(signingTokens.contrato_id, documentId)),
    ).toHaveLength(0);
  });

  it("refuses to send for a patient without CPF (nobody could ever sign it)", async () => {
    const { documentId, patient } = await signableDocument(ctx.app, clinic, { versionId });
    await ctx.database.db.execute(sql`update pacientes set cpf = null where id = ${patient.id}`);
    expectError(await staff(clinic, "POST", `/api/documents/${documentId}/send`, {}), "PATIENT_CPF_MISSING");
    expect((await documentRow(documentId)).status).toBe("draft");
  });

  it("resends with a new link: the old one answers 410 at once, the new one works, the status is kept", async () => {
    const sent = await sentDocument();
    expect((await openPage(sent.token)).statusCode).toBe(200); // now viewed
    const response = await staff(clinic, "POST", `/api/documents/${sent.documentId}/resend`, {});
    expect(response.statusCode, response.body).toBe(200);
    const fresh = tokenOf(response.json().link);
    expect(fresh).not.toBe(sent.token);

    expectError(await openPage(sent.token), "SIGNING_LINK_INVALID", SIGNING_MESSAGES.invalidLink);
    expectError(await sign(sent.token, signerInput(sent.patient, "0".repeat(64))), "SIGNING_LINK_INVALID");
    const page = await openPage(fresh);
    expect(page.statusCode, page.body).toBe(200);
    expect(page.json().documento.status).toBe("viewed");
    expect((await documentRow(sent.documentId)).status).toBe("viewed");

    const tokens = await ctx.database.db
      .select()
      .from(signingTokens)
      .where(eq(signingTokens.contrato_id, sent.documentId));
    expect(tokens.filter((t) => t.revoked_at === null)).toHaveLength(1);
    expect((await staff(clinic, "GET", `/api/documents/${sent.documentId}/link`)).json().link).toBe(
      response.json().link,
    );
    expect((await eventsOf(sent.documentId)).map((e) => e.action)).toContain("document.resent");
  });

  it("refuses to resend a draft", async () => {
    const { documentId } = await signableDocument(ctx.app, clinic, { versionId });
    expectError(await staff(clinic, "POST", `/api/documents/${documentId}/resend`, {}), "DOCUMENT_NOT_RESENDABLE");
  });
});

describe("opening the link", () => {
  it("shows the frozen document; the first opening moves sent → viewed with an audit event (IP, user agent, no actor)", async () => {
    const sent = await sentDocument();
    const detail = (await staff(clinic, "GET", `/api/documents/${sent.documentId}`)).json();
    const response = await openPage(sent.token);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers["referrer-policy"]).toBe("no-referrer");
    expect(response.headers["cache-control"]).toBe("no-store");
    const page = response.json();
    expect(page).toMatchObject({
      estado: "pending",
      codigo_obrigatorio: false,
      codigo_email: null,
      assinaturas: [],
      documento: {
        short_id: `#${sent.documentId.slice(-8)}`,
        titulo: "TCLE - Blefaroplastia",
        status: "viewed",
        conteudo_sha256: detail.conteudo_sha256,
        clinica: "Dra. Helena Martins Prado",
        profissional: "Dra. Helena Martins Prado",
        prazo_assinatura: detail.expiracao_at,
        created_at: detail.created_at,
      },
    });
    // The frozen document, its CPFs masked: the page never shows a full CPF (decision 051).
    const cpf = sent.patient.cpf;
    const full = `${cpf.slice(0, 3)}.${cpf.slice(3, 6)}.${cpf.slice(6, 9)}-${cpf.slice(9)}`;
    expect(JSON.stringify(detail.documento)).toContain(full);
    expect(page.documento.modelo).toEqual(
      JSON.parse(
        JSON.stringify(detail.documento)
          .split(full)
          .join(`***.${cpf.slice(3, 6)}.${cpf.slice(6, 9)}-**`),
      ),
    );

    const row = await documentRow(sent.documentId);
    expect(row.status).toBe("viewed");
    expect(row.viewed_at).toBeInstanceOf(Date);
    await openPage(sent.token);
    const viewed = (await eventsOf(sent.documentId)).filter((e) => e.action === "document.viewed");
    expect(viewed).toHaveLength(1);
    expect(viewed[0]).toMatchObject({
      actor_profile_id: null,
      ip_address: PHONE_IP,
      user_agent: PHONE_UA,
      data: { via: "link", papel: "paciente" },
    });
  });

  it("answers each link with its own document only, and unknown or malformed tokens with 410", async () => {
    const mine = await sentDocument();
    const theirs = await sentDocument(other);
    expect((await openPage(mine.token)).json().documento.short_id).toBe(`#${mine.documentId.slice(-8)}`);
    const theirPage = (await openPage(theirs.token)).json();
    expect(theirPage.documento.short_id).toBe(`#${theirs.documentId.slice(-8)}`);
    expect(JSON.stringify(theirPage)).not.toContain(mine.documentId.slice(-8));
    // The other clinic's content hash does not sign this document.
    expectError(
      await sign(mine.token, signerInput(mine.patient, theirPage.documento.conteudo_sha256)),
      "SIGNING_CONTENT_CHANGED",
    );

    expectError(await openPage("A".repeat(43)), "SIGNING_LINK_INVALID", SIGNING_MESSAGES.invalidLink);
    expectError(await openPage("abc"), "SIGNING_LINK_INVALID", SIGNING_MESSAGES.invalidLink);
    const invalid = await openPage(`${mine.token.slice(0, -1)}${mine.token.endsWith("A") ? "B" : "A"}`);
    expectError(invalid, "SIGNING_LINK_INVALID");
    expect(invalid.headers["referrer-policy"]).toBe("no-referrer");
    expect(invalid.headers["cache-control"]).toBe("no-store");
  });

  it("treats a past deadline as expired even while the status still says sent", async () => {
    const sent = await sentDocument();
    const hash = (await documentRow(sent.documentId)).conteudo_sha256;
    await ctx.database.db
      .update(contratos)
      .set({ expiracao_at: new Date(Date.now() - 60_000) })
      .where(eq(contratos.id, sent.documentId));
    expect((await documentRow(sent.documentId)).status).toBe("sent");
    expectError(await openPage(sent.token), "SIGNING_LINK_INVALID", SIGNING_MESSAGES.invalidLink);
    expectError(await sign(sent.token, signerInput(sent.patient, hash)), "SIGNING_LINK_INVALID");
    expectError(
      await staff(clinic, "GET", `/api/documents/${sent.documentId}/link`),
      "NOT_FOUND",
      SIGNING_MESSAGES.tokenMissing,
    );
    expect((await documentRow(sent.documentId)).status).toBe("sent");
    // Reenviar gives it a new deadline (tests/integration/send-traps.test.ts).
  });

  it("answers 410 once the document is cancelled", async () => {
    const sent = await sentDocument();
    expect((await openPage(sent.token)).statusCode).toBe(200);
    const cancel = await staff(clinic, "POST", `/api/documents/${sent.documentId}/cancel`, {
      motivo: "Procedimento remarcado",
    });
    expect(cancel.statusCode, cancel.body).toBe(204);
    expectError(await openPage(sent.token), "SIGNING_LINK_INVALID", SIGNING_MESSAGES.invalidLink);
  });
});

describe("the server is the judge of a signature", () => {
  let sent: Sent;
  let hash: string;
  beforeAll(async () => {
    sent = await sentDocument();
    hash = await pageHash(sent.token);
  });

  it("requires nome, CPF and e-mail with the spec's message", async () => {
    for (const missing of [
      { nome: "" },
      { cpf: "" },
      { email: "" },
      { nome: undefined, cpf: undefined, email: undefined },
    ]) {
      const response = await sign(sent.token, signerInput(sent.patient, hash, missing));
      expectError(response, "VALIDATION", SIGNING_MESSAGES.required);
    }
  });

  it("refuses a name not contained in the patient's", async () => {
    for (const nome of ["Maria Souza", "Ana Luíza Conceição da Silva", "luiza ana"]) {
      expectError(
        await sign(sent.token, signerInput(sent.patient, hash, { nome })),
        "SIGNING_NAME_MISMATCH",
        SIGNING_MESSAGES.nameMismatch,
      );
    }
  });

  it("refuses a different (valid) CPF", async () => {
    let cpf = validCpf();
    while (cpf === sent.patient.cpf) cpf = validCpf();
    expectError(
      await sign(sent.token, signerInput(sent.patient, hash, { cpf })),
      "SIGNING_CPF_MISMATCH",
      SIGNING_MESSAGES.cpfMismatch,
    );
  });

  it("refuses anything but a real PNG drawing of sane size", async () => {
    const notPng = pngDataUrl(Buffer.from("GIF89a".padEnd(400, "x")));
    const tiny = pngDataUrl(signaturePng(1, 1));
    const hugeDimensions = pngDataUrl(signaturePng(5000, 60));
    const truncated = pngDataUrl(signaturePng().subarray(0, 300));
    for (const assinatura of [notPng, tiny, hugeDimensions, truncated]) {
      expectError(
        await sign(sent.token, signerInput(sent.patient, hash, { assinatura })),
        "SIGNING_SIGNATURE_REQUIRED",
        SIGNING_MESSAGES.signatureRequired,
      );
    }
    for (const assinatura of [
      "",
      "data:image/jpeg;base64,AAAA",
      `data:image/png;base64,${"A".repeat(Math.ceil((MAX_SIGNATURE_BYTES * 4) / 3) + 100)}`,
    ]) {
      expectError(
        await sign(sent.token, signerInput(sent.patient, hash, { assinatura })),
        "VALIDATION",
        SIGNING_MESSAGES.signatureRequired,
      );
    }
  });

  it("refuses a stale copy of the content", async () => {
    expectError(await sign(sent.token, signerInput(sent.patient, "f".repeat(64))), "SIGNING_CONTENT_CHANGED");
  });

  it("recorded nothing for the refused attempts", async () => {
    expect(await partiesOf(sent.documentId)).toHaveLength(0);
    expect((await documentRow(sent.documentId)).status).toBe("viewed");
  });

  it("signs (name contained, case- and accent-insensitive): party with its evidence, status signed, code, audit and final-PDF job", async () => {
    const response = await sign(sent.token, signerInput(sent.patient, hash));
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers["referrer-policy"]).toBe("no-referrer");
    const { estado, assinou_em } = response.json();
    expect(estado).toBe("signed");
    expect(Math.abs(Date.parse(assinou_em) - Date.now())).toBeLessThan(60_000);

    const row = await documentRow(sent.documentId);
    expect(row.status).toBe("signed");
    expect(row.signed_at?.toISOString()).toBe(assinou_em);
    expect(row.verification_code).toMatch(/^[0-9A-HJKMNP-TV-Z]{10}$/);

    const parties = await partiesOf(sent.documentId);
    expect(parties).toHaveLength(1);
    const party = parties[0];
    expect(party).toMatchObject({
      tenant_id: clinic.tenantId,
      papel: "paciente",
      // Stored with the registered spelling (what was typed matched it after normalising).
      nome: "Ana Luíza Conceição",
      cpf: sent.patient.cpf,
      email: "ana.paciente@exemplo.com.br",
      telefone: "(11) 98888-7777",
      metodo_assinatura: "eletronica",
      ip_address: PHONE_IP,
      user_agent: PHONE_UA,
      conteudo_sha256: hash,
      otp_verificado: false,
    });
    expect(party?.assinou_em.toISOString()).toBe(assinou_em);
    const [file] = await ctx.database.db
      .select()
      .from(files)
      .where(eq(files.id, party?.assinatura_file_id ?? ""));
    const png = signaturePng();
    expect(file).toMatchObject({
      tenant_id: clinic.tenantId,
      content_type: "image/png",
      size: png.length,
      sha256: createHash("sha256").update(png).digest("hex"),
    });
    expect((await ctx.app.services.storage.get(file?.sha256 ?? ""))?.equals(png)).toBe(true);

    // The signer's evidence is its own event; completion is "document.signed" with the code and parties.
    const completed = (await eventsOf(sent.documentId)).find((e) => e.action === "document.signed");
    expect(completed?.data).toEqual({
      verification_code: row.verification_code,
      partes: expect.arrayContaining(["paciente", "profissional"]),
      // Who signed when, first to last (decision 050): here the professional signed before sending.
      ordem: [
        { papel: "profissional", ordem: 1, assinou_em: expect.any(String) },
        { papel: "paciente", ordem: 1, assinou_em: expect.any(String) },
      ],
    });
    const signedEvent = (await eventsOf(sent.documentId)).find(
      (e) => e.action === "document.party_signed" && (e.data as { papel: string }).papel === "paciente",
    );
    expect(signedEvent).toMatchObject({ actor_profile_id: null, ip_address: PHONE_IP, user_agent: PHONE_UA });
    expect(signedEvent?.data).toMatchObject({ conteudo_sha256: hash, parte_id: party?.id, otp_verificado: false });
    const finalize = (await ctx.database.db.select().from(jobs).where(eq(jobs.kind, "document.finalize"))).filter(
      (j) => (j.payload as { contratoId?: string }).contratoId === sent.documentId,
    );
    expect(finalize).toHaveLength(1);
    expect(finalize[0]).toMatchObject({ tenant_id: clinic.tenantId, dedupe_key: `finalize:${sent.documentId}` });
  });

  it("still opens read-only after signing, with the signatures (CPF and e-mail masked, no phone, IP or user agent)", async () => {
    const response = await openPage(sent.token);
    expect(response.statusCode, response.body).toBe(200);
    const page = response.json();
    expect(page.estado).toBe("signed");
    expect(page.documento.status).toBe("signed");
    // The professional signed before sending; then the patient.
    expect(page.assinaturas.map((a: { papel: string }) => a.papel)).toEqual(["profissional", "paciente"]);
    expect(page.assinaturas[1]).toMatchObject({
      // Stored with the registered spelling (what was typed matched it after normalising).
      nome: "Ana Luíza Conceição",
      cpf: `***.${sent.patient.cpf.slice(3, 6)}.${sent.patient.cpf.slice(6, 9)}-**`,
      email: "an***@exemplo.com.br",
      telefone: null,
      ip_address: null,
      user_agent: null,
      metodo_assinatura: "eletronica",
      assinatura: signatureDataUrl(),
    });
    expect(response.body).not.toContain(sent.patient.cpf);
    expect(response.body).not.toContain(PHONE_IP);
    expect(response.body).not.toContain("ana.paciente@");
  });

  it("refuses a replay, and staff can neither send nor resend a signed document", async () => {
    expectError(await sign(sent.token, signerInput(sent.patient, hash)), "SIGNING_ALREADY_SIGNED");
    expectError(await staff(clinic, "POST", `/api/documents/${sent.documentId}/send`, {}), "DOCUMENT_LOCKED");
    expectError(await staff(clinic, "POST", `/api/documents/${sent.documentId}/resend`, {}), "DOCUMENT_NOT_RESENDABLE");
    expect(await partiesOf(sent.documentId)).toHaveLength(1);
  });

  it("gives staff the Signatures block with the full evidence", async () => {
    const response = await staff(clinic, "GET", `/api/documents/${sent.documentId}/signatures`);
    expect(response.statusCode, response.body).toBe(200);
    const cpf = sent.patient.cpf;
    expect(response.json().items.filter((item: { papel: string }) => item.papel === "paciente")).toEqual([
      {
        // Stored with the registered spelling (what was typed matched it after normalising).
        nome: "Ana Luíza Conceição",
        papel: "paciente",
        qualidade: null,
        cpf: `${cpf.slice(0, 3)}.${cpf.slice(3, 6)}.${cpf.slice(6, 9)}-${cpf.slice(9)}`,
        email: "ana.paciente@exemplo.com.br",
        telefone: "(11) 98888-7777",
        assinou_em: (await documentRow(sent.documentId)).signed_at?.toISOString(),
        metodo_assinatura: "eletronica",
        ip_address: PHONE_IP,
        user_agent: PHONE_UA,
        // The TCP source port of the request (light-my-request's fake socket has none).
        porta_origem: null,
        dispositivo: "Safari · iOS 17.4 · Apple iPhone (celular)",
        nivel_assinatura: "simples",
        otp_verificado: false,
        tipo_assinatura: "desenhada",
        assinatura: signatureDataUrl(),
        // No reading batch was sent (decision 052).
        leitura: null,
        // The template has no comprehension questions (decision 061).
        compreensao: null,
        // The document did not ask for the agreement in audio (decision 069).
        audio: null,
        parte_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      },
    ]);
  });

  it("lists only the professional's signature on a document the patient has not signed", async () => {
    const unsigned = await sentDocument();
    const response = await staff(clinic, "GET", `/api/documents/${unsigned.documentId}/signatures`);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().items).toEqual([
      // Signed with the password alone (the test helper asks no code): login and password, simple (decision 042).
      expect.objectContaining({
        papel: "profissional",
        tipo_assinatura: "senha",
        nivel_assinatura: "simples",
        otp_verificado: false,
        assinatura: null,
        qualidade: "profissional responsável — CRM-SP 123456",
      }),
    ]);
  });
});

describe("two simultaneous submissions", () => {
  it("give exactly one signature: one 200 and one 409", async () => {
    const sent = await sentDocument();
    const hash = await pageHash(sent.token);
    const responses = await Promise.all([
      sign(sent.token, signerInput(sent.patient, hash)),
      sign(sent.token, signerInput(sent.patient, hash)),
    ]);
    expect(responses.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    const refused = responses.find((r) => r.statusCode === 409);
    expect(refused?.json().code).toBe("SIGNING_ALREADY_SIGNED");
    expect(await partiesOf(sent.documentId)).toHaveLength(1);
    expect((await eventsOf(sent.documentId)).filter((e) => e.action === "document.signed")).toHaveLength(1);
  });
});

describe("the e-mail one-time code", () => {
  let otpClinic: SignedIn;
  let otpVersion: string;
  const latestCodeTo = async (email: string) => {
    const mails = await outboxMails(ctx, email);
    const last = mails.at(-1);
    const code = last?.text.match(/\b(\d{6})\b/)?.[1];
    if (!code) throw new Error(`no code e-mailed to ${email}`);
    return { code, count: mails.length };
  };
  const sendOtp = async (who: SignedIn) => {
    const { documentId, patient } = await signableDocument(ctx.app, who, { versionId: otpVersion });
    const response = await staff(who, "POST", `/api/documents/${documentId}/send`, {});
    expect(response.statusCode, response.body).toBe(200);
    return { documentId, patient, token: tokenOf(response.json().link) };
  };

  beforeAll(async () => {
    otpClinic = await newClinic(ctx.app);
    otpVersion = await publishedTemplateVersion(ctx.app, otpClinic);
  });

  it("is a clinic setting only owners and administrators change (audited)", async () => {
    // On by default; this server can deliver codes (development outbox) but has no SMTP.
    expect((await staff(otpClinic, "GET", "/api/settings/signing")).json()).toEqual({
      codigo_email: true,
      ordem_profissional: "qualquer_ordem",
      // No SMTP: the professional's code is not required by default (decision 078).
      codigo_profissional: false,
      email_configurado: false,
      email_entregavel: true,
      codigo_disponivel: true,
      sms_configurado: false,
    });
    const professional = await newStaff(ctx.app, ctx.database, otpClinic.tenantId, "profissional");
    expectError(await staff(professional, "PUT", "/api/settings/signing", { codigo_email: true }), "FORBIDDEN");
    const admin = await newStaff(ctx.app, ctx.database, otpClinic.tenantId, "admin");
    const saved = await staff(admin, "PUT", "/api/settings/signing", { codigo_email: false });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toMatchObject({ codigo_email: false });
    expect((await staff(professional, "GET", "/api/settings/signing")).json()).toMatchObject({ codigo_email: false });
    expect((await staff(other, "GET", "/api/settings/signing")).json()).toMatchObject({ codigo_email: true });
    expect((await staff(admin, "PUT", "/api/settings/signing", { codigo_email: true })).statusCode).toBe(200);
    const events = await ctx.database.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.tenant_id, otpClinic.tenantId), eq(auditEvents.action, "settings.signing_updated")));
    expect(events).toHaveLength(2);
    expect(events[0]?.actor_profile_id).toBe(admin.profileId);
    expectError(await staff(otpClinic, "PUT", "/api/settings/signing", { codigo_email: "sim" }), "VALIDATION");
  });

  it("is required, goes only to the registered e-mail, counts wrong attempts, and the right code signs", async () => {
    const { documentId, patient, token } = await sendOtp(otpClinic);
    const page = (await openPage(token)).json();
    expect(page.codigo_obrigatorio).toBe(true);
    expect(page.codigo_email).toBe(`${(patient.email ?? "").slice(0, 2)}***@exemplo.com.br`);
    const hash = page.documento.conteudo_sha256 as string;

    expectError(await sign(token, signerInput(patient, hash)), "SIGNING_OTP_REQUIRED", SIGNING_MESSAGES.otpRequired);

    const asked = await publicCall("POST", `/api/public/sign/${token}/code`, { email: "intruso@exemplo.com" });
    expect(asked.statusCode, asked.body).toBe(200);
    expect(asked.json()).toEqual({
      enviado: true,
      canal: "email",
      destino: page.codigo_email,
      email: page.codigo_email,
    });
    expect(
      await ctx.database.db.select().from(emailOutbox).where(eq(emailOutbox.to_address, "intruso@exemplo.com")),
    ).toHaveLength(0);
    const { code } = await latestCodeTo(patient.email ?? "");
    const [otp] = await ctx.database.db.select().from(signingOtps).where(eq(signingOtps.contrato_id, documentId));
    expect(otp?.code_hash).toMatch(/^h1:[0-9a-f]{64}$/);
    expect(otp?.code_hash).not.toContain(code);

    const wrong = code === "000000" ? "111111" : "000000";
    expectError(
      await sign(token, signerInput(patient, hash, { codigo: wrong })),
      "SIGNING_OTP_INVALID",
      SIGNING_MESSAGES.otpInvalid,
    );
    expect(
      (await ctx.database.db.select().from(signingOtps).where(eq(signingOtps.contrato_id, documentId)))[0]?.attempts,
    ).toBe(1);

    const signed = await sign(token, signerInput(patient, hash, { codigo: code }));
    expect(signed.statusCode, signed.body).toBe(200);
    const [party] = await partiesOf(documentId);
    expect(party?.otp_verificado).toBe(true);
    expect(
      (await ctx.database.db.select().from(signingOtps).where(eq(signingOtps.contrato_id, documentId)))[0]?.consumed_at,
    ).toBeInstanceOf(Date);
    expect((await eventsOf(documentId)).map((e) => e.action)).toEqual(
      expect.arrayContaining(["document.otp_email_outbox", "document.signed"]),
    );
  });

  it("is refused once the link has expired: a code verified too late, a signature after a timely verification, a code asked too late", async () => {
    const expire = (documentId: string) =>
      ctx.database.db
        .update(contratos)
        .set({ expiracao_at: new Date(Date.now() - 1000) })
        .where(eq(contratos.id, documentId));

    // The code arrives while the link lives; the deadline passes before it is typed.
    const late = await sendOtp(otpClinic);
    const hash = await pageHash(late.token);
    expect((await publicCall("POST", `/api/public/sign/${late.token}/code`)).statusCode).toBe(200);
    const { code } = await latestCodeTo(late.patient.email ?? "");
    await expire(late.documentId);
    expectError(
      await publicCall("POST", `/api/public/sign/${late.token}/verify-code`, { codigo: code }),
      "SIGNING_LINK_INVALID",
      SIGNING_MESSAGES.invalidLink,
    );
    expectError(
      await sign(late.token, signerInput(late.patient, hash, { codigo: code })),
      "SIGNING_LINK_INVALID",
      SIGNING_MESSAGES.invalidLink,
    );
    expectError(
      await publicCall("POST", `/api/public/sign/${late.token}/code`),
      "SIGNING_LINK_INVALID",
      SIGNING_MESSAGES.invalidLink,
    );
    const [unused] = await ctx.database.db
      .select()
      .from(signingOtps)
      .where(eq(signingOtps.contrato_id, late.documentId));
    expect(unused?.consumed_at).toBeNull();
    expect(unused?.attempts).toBe(0);

    // The code is verified in time (the term unmasked); the deadline passes before the signature.
    const slow = await sendOtp(otpClinic);
    const slowHash = await pageHash(slow.token);
    expect((await publicCall("POST", `/api/public/sign/${slow.token}/code`)).statusCode).toBe(200);
    const slowCode = (await latestCodeTo(slow.patient.email ?? "")).code;
    const verified = await publicCall("POST", `/api/public/sign/${slow.token}/verify-code`, { codigo: slowCode });
    expect(verified.statusCode, verified.body).toBe(200);
    expect(verified.json().codigo_verificado).toBe(true);
    await expire(slow.documentId);
    expectError(
      await sign(slow.token, signerInput(slow.patient, slowHash, { codigo: slowCode })),
      "SIGNING_LINK_INVALID",
      SIGNING_MESSAGES.invalidLink,
    );

    for (const documentId of [late.documentId, slow.documentId]) {
      expect(await partiesOf(documentId)).toEqual([]);
      const row = await documentRow(documentId);
      expect(row.status).not.toBe("signed");
      expect(row.verification_code).toBeNull();
      expect((await eventsOf(documentId)).map((e) => e.action)).not.toContain("document.signed");
    }
  });

  it(`dies after ${OTP_MAX_ATTEMPTS} wrong attempts, and a new code replaces the old`, async () => {
    const { patient, token } = await sendOtp(otpClinic);
    const hash = await pageHash(token);
    expect((await publicCall("POST", `/api/public/sign/${token}/code`)).statusCode).toBe(200);
    const first = await latestCodeTo(patient.email ?? "");
    expect((await publicCall("POST", `/api/public/sign/${token}/code`)).statusCode).toBe(200);
    const second = await latestCodeTo(patient.email ?? "");
    expect(second.count).toBe(first.count + 1);
    if (first.code !== second.code) {
      expectError(await sign(token, signerInput(patient, hash, { codigo: first.code })), "SIGNING_OTP_INVALID");
    }
    const wrong = second.code === "000000" ? "111111" : "000000";
    for (let i = 0; i < OTP_MAX_ATTEMPTS; i++) {
      expectError(await sign(token, signerInput(patient, hash, { codigo: wrong })), "SIGNING_OTP_INVALID");
    }
    expectError(await sign(token, signerInput(patient, hash, { codigo: second.code })), "SIGNING_OTP_INVALID");
  });

  it("limits code requests per link harder (5 per quarter hour)", async () => {
    const { token } = await sendOtp(otpClinic);
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await publicCall("POST", `/api/public/sign/${token}/code`)).statusCode);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
  });

  it("is refused when the clinic does not ask for it", async () => {
    const sent = await sentDocument();
    expectError(
      await publicCall("POST", `/api/public/sign/${sent.token}/code`),
      "BAD_REQUEST",
      "Este documento não pede código de verificação.",
    );
  });
});

describe("staff routes guard the clinic and the input", () => {
  it("answer 404 for another clinic's document id on send, resend, link and signatures", async () => {
    const theirs = await sentDocument(other);
    const { documentId: theirDraft } = await signableDocument(ctx.app, other, { versionId: otherVersionId });
    expectError(
      await staff(clinic, "POST", `/api/documents/${theirDraft}/send`, {}),
      "NOT_FOUND",
      SIGNING_MESSAGES.notFound,
    );
    expectError(
      await staff(clinic, "POST", `/api/documents/${theirs.documentId}/resend`, {}),
      "NOT_FOUND",
      SIGNING_MESSAGES.notFound,
    );
    expectError(
      await staff(clinic, "GET", `/api/documents/${theirs.documentId}/link`),
      "NOT_FOUND",
      SIGNING_MESSAGES.notFound,
    );
    expectError(
      await staff(clinic, "GET", `/api/documents/${theirs.documentId}/signatures`),
      "NOT_FOUND",
      SIGNING_MESSAGES.notFound,
    );
    expect((await documentRow(theirDraft)).status).toBe("draft");
    expect((await openPage(theirs.token)).statusCode).toBe(200);
  });

  it("let an auditor read but not send or resend", async () => {
    const auditor = await newStaff(ctx.app, ctx.database, clinic.tenantId, "auditor");
    const { documentId } = await signableDocument(ctx.app, clinic, { versionId });
    expectError(await staff(auditor, "POST", `/api/documents/${documentId}/send`, {}), "FORBIDDEN");
    const sent = await sentDocument();
    expectError(await staff(auditor, "POST", `/api/documents/${sent.documentId}/resend`, {}), "FORBIDDEN");
    expect((await staff(auditor, "GET", `/api/documents/${sent.documentId}/link`)).statusCode).toBe(200);
    expectError(await staff(auditor, "PUT", "/api/settings/signing", { codigo_email: true }), "FORBIDDEN");
  });

  it("need a session", async () => {
    const sent = await sentDocument();
    const anonymous = await ctx.app.inject({
      method: "POST",
      url: `/api/documents/${sent.documentId}/resend`,
      payload: {},
    });
    expectError(anonymous, "UNAUTHENTICATED");
    expectError(await ctx.app.inject({ method: "GET", url: "/api/settings/signing" }), "UNAUTHENTICATED");
  });

  it("answer 400 to malformed bodies and ids", async () => {
    const { documentId } = await signableDocument(ctx.app, clinic, { versionId });
    expectError(await staff(clinic, "POST", `/api/documents/${documentId}/send`, { email: "sim" }), "VALIDATION");
    expectError(await staff(clinic, "POST", "/api/documents/nao-e-um-id/send", {}), "VALIDATION");
    const brokenJson = await ctx.app.inject({
      method: "POST",
      url: `/api/documents/${documentId}/send`,
      payload: "{email:",
      headers: { cookie: clinic.cookie, "content-type": "application/json" },
    });
    expect(brokenJson.statusCode).toBe(400);
    expect((await documentRow(documentId)).status).toBe("draft");
    // No body at all is the same as {email: false}.
    const bare = await ctx.app.inject({
      method: "POST",
      url: `/api/documents/${documentId}/send`,
      headers: { cookie: clinic.cookie },
    });
    expect(bare.statusCode, bare.body).toBe(200);

    const sent = await sentDocument();
    const hash = await pageHash(sent.token);
    expectError(await sign(sent.token, { ...signerInput(sent.patient, hash), conteudo_sha256: "xyz" }), "VALIDATION");
    expectError(
      await sign(sent.token, signerInput(sent.patient, hash, { codigo: "12ab" })),
      "VALIDATION",
      SIGNING_MESSAGES.otpInvalid,
    );
    expectError(
      await sign(sent.token, signerInput(sent.patient, hash, { cpf: "123.456.789-00" })),
      "VALIDATION",
      "CPF inválido",
    );
    const notJson = await publicCall("POST", `/api/public/sign/${sent.token}`, "nome=ana");
    expect(notJson.statusCode).toBe(400);
    expect(await partiesOf(sent.documentId)).toHaveLength(0);
  });
});

describe("rate limits on the public routes", () => {
  let limited: TestContext;
  beforeAll(async () => {
    limited = await createTestApp({ env: { RATE_LIMIT_PUBLIC_PER_MINUTE: "3" }, database: ctx.database });
  });
  afterAll(async () => {
    await limited?.close();
  });
  const get = (token: string, ip: string) =>
    limited.app.inject({
      method: "GET",
      url: `/api/public/sign/${token}`,
      remoteAddress: ip,
      headers: { "user-agent": PHONE_UA },
    });

  it("per IP: a fourth request in the minute from one address is refused with the pt-BR message", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) statuses.push((await get(`${"B".repeat(42)}${i}`, "198.51.100.1")).statusCode);
    expect(statuses).toEqual([410, 410, 410]);
    const refused = await get(`${"B".repeat(42)}9`, "198.51.100.1");
    expectError(refused, "RATE_LIMITED", "Muitas tentativas. Aguarde alguns minutos antes de tentar novamente.");
    expect(refused.headers["referrer-policy"]).toBe("no-referrer");
    expect(refused.headers["cache-control"]).toBe("no-store");
    // Another address is not affected.
    expect((await get(`${"B".repeat(42)}9`, "198.51.100.2")).statusCode).toBe(410);
  });

  it("per token: a fourth request for one link from many addresses is refused", async () => {
    const sent = await sentDocument();
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await get(sent.token, `192.0.2.${10 + i}`)).statusCode);
    expect(statuses).toEqual([200, 200, 200, 429]);
    const post = await limited.app.inject({
      method: "POST",
      url: `/api/public/sign/${sent.token}`,
      remoteAddress: "192.0.2.99",
      payload: {},
    });
    expectError(post, "RATE_LIMITED");
  });

  it("hold across two app instances on one database (one count per link, whichever process answers)", async () => {
    const twin = await createTestApp({ env: { RATE_LIMIT_PUBLIC_PER_MINUTE: "3" }, database: ctx.database });
    try {
      const sent = await sentDocument();
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) {
        const app = i % 2 === 0 ? limited : twin;
        statuses.push(
          (
            await app.app.inject({
              method: "GET",
              url: `/api/public/sign/${sent.token}`,
              remoteAddress: `192.0.2.${120 + i}`,
              headers: { "user-agent": PHONE_UA },
            })
          ).statusCode,
        );
      }
      expect(statuses).toEqual([200, 200, 200, 429]);
      // Per address too: the twin refuses an address the first app has used up.
      for (let i = 0; i < 3; i++) expect((await get(`${"D".repeat(42)}${i}`, "198.51.100.60")).statusCode).toBe(410);
      const refused = await twin.app.inject({
        method: "GET",
        url: `/api/public/sign/${"D".repeat(42)}9`,
        remoteAddress: "198.51.100.60",
      });
      expectError(refused, "RATE_LIMITED");
      expect(Number(refused.headers["retry-after"])).toBeGreaterThan(0);
    } finally {
      await twin.close();
    }
  });

  it("count a request refused per address against nothing after it (the link's own count is untouched)", async () => {
    const sent = await sentDocument();
    for (let i = 0; i < 3; i++) expect((await get(`${"E".repeat(42)}${i}`, "198.51.100.70")).statusCode).toBe(410);
    expectError(await get(sent.token, "198.51.100.70"), "RATE_LIMITED");
    // The link still has its three requests in this minute.
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await get(sent.token, `192.0.2.${140 + i}`)).statusCode);
    expect(statuses).toEqual([200, 200, 200, 429]);
  });
});
