import { randomUUID } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditEvents, contratos, emailOutbox, jobs, whatsappMessages } from "../../src/db/schema.js";
import { formatDate } from "../../src/shared/format/index.js";
import { SIGNED_LINK_DAYS } from "../../src/shared/signing-rules.js";
import type { Env } from "../../src/server/env.js";
import { jobHandlers } from "../../src/server/jobs/handlers.js";
import type { JobContext } from "../../src/server/jobs/job-context.js";
import { runDueJobs } from "../../src/server/jobs/run-due-jobs.js";
import { finalizeSignedDocument } from "../../src/server/services/finalize/finalize-signed-document.js";
import { startFakeWhatsapp, type FakeWhatsappServer, type ReceivedWhatsapp } from "../fakes/whatsapp-server.js";
import { startFakeZenvia, type FakeZenviaServer } from "../fakes/zenvia-server.js";
import { validCpf } from "../helpers/factories.js";
import { outboxMails } from "../helpers/outbox.js";
import { newClinic, type SignedIn } from "../helpers/sessions.js";
import { draftDocument, publishedTemplateVersion, signatureDataUrl, tokenOf } from "../helpers/signing.js";
import { createTestApp, type TestContext } from "../helpers/test-app.js";

/**
 * The signed copy by message (decision 074): a signer without e-mail on record, or whose link went
 * by WhatsApp, gets their link to the signed copy on the mobile on record — WhatsApp template, or
 * SMS — queued in the finalize transaction, once, retried; against the local Cloud API and Zenvia fakes.
 */
const PHONE_NUMBER_ID = "106540352242922";
const TOKEN = "EAAGtesttoken0123456789";
const SIGNED_COPY_TEMPLATE = "consentir_via_assinada";
const DAY_MS = 24 * 60 * 60 * 1000;
let ctx: TestContext;
let whatsapp: FakeWhatsappServer;
let zenvia: FakeZenviaServer;
let clinic: SignedIn;
let other: SignedIn;
let versionId: string;
let otherVersionId: string;

beforeAll(async () => {
  whatsapp = await startFakeWhatsapp({ phoneNumberId: PHONE_NUMBER_ID, token: TOKEN });
  zenvia = await startFakeZenvia();
  ctx = await createTestApp({
    env: {
      WHATSAPP_API_URL: whatsapp.url,
      WHATSAPP_PHONE_NUMBER_ID: PHONE_NUMBER_ID,
      WHATSAPP_ACCESS_TOKEN: TOKEN,
      SMS_PROVIDER_URL: zenvia.url,
      SMS_API_TOKEN: "token-de-teste",
      SMS_FROM: "clinica",
      TSA_URL: "none",
    },
  });
  await ctx.database.db.execute(sql`update jobs set status = 'done' where status in ('pending', 'running')`);
  clinic = await newClinic(ctx.app);
  other = await newClinic(ctx.app);
  versionId = await publishedTemplateVersion(ctx.app, clinic);
  otherVersionId = await publishedTemplateVersion(ctx.app, other);
});
afterAll(async () => {
  await ctx.close();
  await whatsapp.close();
  await zenvia.close();
});

const jobContext = (env: Env = ctx.env): JobContext => ({
  db: ctx.database.db,
  storage: ctx.app.services.storage,
  secretBox: ctx.app.services.secretBox,
  env,
  origin: "http://localhost:3000",
  log: { info() {}, warn() {}, error() {} },
});
const runJobs = (env?: Env, now?: Date) =>
  runDueJobs({ ctx: jobContext(env), handlers: jobHandlers, limit: 50, now: now ? () => now : undefined });
const staff = (who: SignedIn, method: "GET" | "POST", url: string, payload?: unknown) =>
  ctx.app.inject({ method, url, payload: payload as object, headers: { cookie: who.cookie } });
const pub = (method: "GET" | "POST" | "HEAD", url: string, payload?: unknown) =>
  ctx.app.inject({ method, url, payload: payload as object });

/** Addresses unique to this run: a reused PostgreSQL database keeps earlier runs' outbox. */
const RUN = randomUUID().slice(0, 8);
let seq = 0;
/** A mobile no other test of this file uses: the fakes' received lists are told apart by number. */
function uniqueMobile(): string {
  seq += 1;
  const tail = `${process.pid % 1000}${String(seq).padStart(4, "0")}`.padStart(8, "0").slice(-8);
  return `119${tail}`;
}

interface Sent {
  documentId: string;
  token: string;
  nome: string;
  cpf: string;
  email: string | null;
  /** The signer's mobile on record, 11 digits. */
  mobile: string;
  /** The patient's own mobile. */
  patientMobile: string;
  who: SignedIn;
}

/** A patient with a mobile (and an e-mail only when given), a draft, and Enviar (WhatsApp unless `whatsapp: false`). */
const masked = (mobile: string) => `(${mobile.slice(0, 2)}) ${mobile.slice(2, 7)}-${mobile.slice(7)}`;

async function sentTo(
  who: SignedIn,
  options: { email?: string; whatsapp?: boolean; guardianMobile?: string } = {},
): Promise<Sent> {
  const mobile = uniqueMobile();
  const guardianCpf = validCpf();
  const created = await staff(who, "POST", "/api/patients", {
    nome: "Carla Mendes Rocha",
    cpf: validCpf(),
    data_nascimento: options.guardianMobile ? "2014-03-09" : "1980-02-02",
    telefone: masked(mobile),
    ...(options.email ? { email: options.email } : {}),
    // A minor whose guardian has only a mobile of their own (decision 068).
    ...(options.guardianMobile
      ? {
          responsavel_nome: "Marta Souza Lima",
          responsavel_cpf: guardianCpf,
          responsavel_telefone: masked(options.guardianMobile),
        }
      : {}),
  });
  expect(created.statusCode, created.body).toBe(201);
  const nome = options.guardianMobile ? "Marta Souza Lima" : "Carla Mendes Rocha";
  const documentId = await draftDocument(ctx.app, who, who === clinic ? versionId : otherVersionId, created.json().id);
  const sent = await staff(who, "POST", `/api/documents/${documentId}/send`, {
    email: Boolean(options.email) && !options.guardianMobile,
    ...(options.whatsapp === false ? { whatsapp: false } : {}),
  });
  expect(sent.statusCode, sent.body).toBe(200);
  return {
    documentId,
    token: tokenOf(sent.json().link),
    nome,
    cpf: options.guardianMobile ? guardianCpf : (created.json().cpf as string),
    email: options.guardianMobile ? null : (options.email ?? null),
    // The signer's mobile: the guardian's when they sign with their own contacts.
    mobile: options.guardianMobile ?? mobile,
    patientMobile: mobile,
    who,
  };
}

const to = (mobile: string) => (m: ReceivedWhatsapp) => m.body.to === `55${mobile}`;
const params = (m: ReceivedWhatsapp) => m.body.template.components[0]!.parameters.map((p) => p.text);
const copiesTo = (mobile: string) =>
  whatsapp.received.filter(to(mobile)).filter((m) => m.body.template.name === SIGNED_COPY_TEMPLATE);

/** Signs as the patient: the code by WhatsApp (read from the fake, as the patient reads the phone), then the signature. */
async function sign(doc: Sent): Promise<void> {
  const page = (await pub("GET", `/api/public/sign/${doc.token}`)).json();
  expect(page.codigo_obrigatorio).toBe(true);
  const asked = await pub("POST", `/api/public/sign/${doc.token}/code`, { canal: "whatsapp" });
  expect(asked.statusCode, asked.body).toBe(200);
  await runJobs();
  const message = whatsapp.received
    .filter(to(doc.mobile))
    .filter((m) => m.body.template.name === "consentir_codigo")
    .at(-1);
  const codigo = message ? params(message)[0] : undefined;
  expect(codigo).toMatch(/^\d{6}$/);
  const verified = await pub("POST", `/api/public/sign/${doc.token}/verify-code`, { codigo });
  expect(verified.statusCode, verified.body).toBe(200);
  const signed = await pub("POST", `/api/public/sign/${doc.token}`, {
    nome: doc.nome,
    cpf: doc.cpf,
    // The page asks for an e-mail even when the record has none (decision 047): it is only typed.
    email: doc.email ?? `digitado.${RUN}.${doc.mobile}@exemplo.com.br`,
    assinatura: signatureDataUrl(),
    conteudo_sha256: verified.json().documento.conteudo_sha256,
    aceite_eletronico: true,
    codigo,
  });
  expect(signed.statusCode, signed.body).toBe(200);
}

async function trail(doc: Sent) {
  return ctx.database.db
    .select({ data: auditEvents.data })
    .from(auditEvents)
    .where(
      and(
        eq(auditEvents.tenant_id, doc.who.tenantId),
        eq(auditEvents.entity_id, doc.documentId),
        eq(auditEvents.action, "document.signed_copy_message"),
      ),
    );
}
const copyRows = (doc: Sent) =>
  ctx.database.db
    .select()
    .from(whatsappMessages)
    .where(and(eq(whatsappMessages.contrato_id, doc.documentId), eq(whatsappMessages.tipo, "via_assinada")));
const signedAt = async (doc: Sent) =>
  (
    await ctx.database.db
      .select({ signed_at: contratos.signed_at })
      .from(contratos)
      .where(eq(contratos.id, doc.documentId))
  )[0]!.signed_at!;
const smsTo = (mobile: string) => zenvia.received.filter((s) => s.to === `55${mobile}`);

describe("the signed copy by message (decision 074)", () => {
  it("a patient with only a mobile gets one WhatsApp with the link that opens their signed copy; each clinic its own", async () => {
    const a = await sentTo(clinic);
    const b = await sentTo(other);
    await sign(a);
    await sign(b);
    await runJobs(); // finalize both, then the messages it queued

    for (const doc of [a, b]) {
      const copies = copiesTo(doc.mobile);
      expect(copies).toHaveLength(1);
      const [first, clinica, titulo, link, ate] = params(copies[0]!);
      expect(first).toBe("Carla");
      expect(titulo).toBe("TCLE - Blefaroplastia");
      expect(ate).toBe(formatDate(new Date((await signedAt(doc)).getTime() + SIGNED_LINK_DAYS * DAY_MS)));
      // The link is the signer's own, and it shows the signed copy.
      expect(tokenOf(link!)).toBe(doc.token);
      expect((await pub("GET", `/api/public/sign/${doc.token}`)).json().estado).toBe("signed");
      const pdf = await pub("GET", `/api/public/sign/${doc.token}/signed-pdf`);
      expect(pdf.statusCode).toBe(200);
      expect(pdf.rawPayload.subarray(0, 5).toString()).toBe("%PDF-");
      // The clinic named is the one that sent the link (its name in the link message's {{2}}).
      const linkMessage = whatsapp.received
        .filter(to(doc.mobile))
        .find((m) => m.body.template.name === "consentir_link_assinatura");
      expect(clinica).toBe(params(linkMessage!)[1]);
      // Audited, masked; shown on the document page with its status.
      const events = await trail(doc);
      expect(events).toHaveLength(1);
      expect(events[0]!.data).toMatchObject({
        canal: "whatsapp",
        telefone: `(**) *****-${doc.mobile.slice(-4)}`,
        email_cadastrado: false,
      });
      const shown = (await staff(doc.who, "GET", `/api/documents/${doc.documentId}/messages`)).json().whatsapp;
      expect(shown.filter((m: { tipo: string }) => m.tipo === "via_assinada")).toMatchObject([
        { status: "accepted", destino: `(**) *****-${doc.mobile.slice(-4)}` },
      ]);
      // No SMS as well: WhatsApp carried it.
      expect(smsTo(doc.mobile)).toHaveLength(0);
    }
    // Not mixed: each message is its clinic's row, and another clinic cannot see it.
    expect((await copyRows(a))[0]!.tenant_id).toBe(clinic.tenantId);
    expect((await copyRows(b))[0]!.tenant_id).toBe(other.tenantId);
    expect((await staff(other, "GET", `/api/documents/${a.documentId}/messages`)).statusCode).toBe(404);

    // Finalize again (a retried job, a second worker): still one message, one row, one event.
    await finalizeSignedDocument(jobContext(), { contratoId: a.documentId }, clinic.tenantId);
    await finalizeSignedDocument(jobContext(), { contratoId: a.documentId }, clinic.tenantId);
    await runJobs();
    expect(copiesTo(a.mobile)).toHaveLength(1);
    expect(await copyRows(a)).toHaveLength(1);
    expect(await trail(a)).toHaveLength(1);
  });

  it("a patient with an e-mail gets the e-mail only, unless their link went by WhatsApp: then the WhatsApp too", async () => {
    const byEmail = await sentTo(clinic, { email: `ana.${RUN}@exemplo.com.br`, whatsapp: false });
    const both = await sentTo(clinic, { email: `bia.${RUN}@exemplo.com.br` });
    await sign(byEmail);
    await sign(both);
    await runJobs();

    for (const doc of [byEmail, both]) {
      const mails = await outboxMails(
        { app: ctx.app, database: ctx.database },
        doc.email,
        sql`${emailOutbox.subject} like 'Documento assinado:%'`,
      );
      expect(mails).toHaveLength(1);
      expect(mails[0]!.text).toContain(`/assinar/${doc.token}`);
    }
    expect(copiesTo(byEmail.mobile)).toHaveLength(0);
    expect(await trail(byEmail)).toHaveLength(0);
    expect(copiesTo(both.mobile)).toHaveLength(1);
    expect((await trail(both))[0]!.data).toMatchObject({ canal: "whatsapp", email_cadastrado: true });
    expect(smsTo(byEmail.mobile)).toHaveLength(0);
    expect(smsTo(both.mobile)).toHaveLength(0);
  });

  it("a guardian with only a mobile of their own gets it there, never at the minor's contacts", async () => {
    const doc = await sentTo(clinic, { email: `minor.${RUN}@exemplo.com.br`, guardianMobile: uniqueMobile() });
    await sign(doc);
    await runJobs();
    const copies = copiesTo(doc.mobile);
    expect(copies).toHaveLength(1);
    expect(params(copies[0]!)[0]).toBe("Marta");
    expect(tokenOf(params(copies[0]!)[3]!)).toBe(doc.token);
    expect(copiesTo(doc.patientMobile)).toHaveLength(0);
    expect((await trail(doc))[0]!.data).toMatchObject({ canal: "whatsapp", contato_de: "responsavel" });
    expect(await outboxMails({ app: ctx.app, database: ctx.database }, `minor.${RUN}@exemplo.com.br`)).toHaveLength(0);
  });

  it("with the provider down the message waits in the queue and goes on a retry, once", async () => {
    const doc = await sentTo(clinic);
    await sign(doc);
    whatsapp.mode = "down";
    try {
      await runJobs();
    } finally {
      whatsapp.mode = "ok";
    }
    expect(copiesTo(doc.mobile)).toHaveLength(0);
    const [row] = await copyRows(doc);
    expect(row).toMatchObject({ status: "queued" });
    expect(row!.erro).toMatch(/sem resposta/);
    const [retry] = await ctx.database.db
      .select()
      .from(jobs)
      .where(and(eq(jobs.kind, "whatsapp.send"), sql`${jobs.payload} ->> 'messageId' = ${row!.id}`));
    expect(retry).toMatchObject({ status: "pending", attempts: 1 });

    // The provider is back: the next round at the retry's time sends it.
    await runJobs(undefined, retry!.run_at);
    expect(copiesTo(doc.mobile)).toHaveLength(1);
    expect((await copyRows(doc))[0]).toMatchObject({ status: "accepted", erro: null });
    await runJobs(undefined, new Date(retry!.run_at.getTime() + 60 * 60_000));
    expect(copiesTo(doc.mobile)).toHaveLength(1);
  });

  it("a WhatsApp that fails for good goes by SMS, with the link and how to revoke", async () => {
    const doc = await sentTo(clinic);
    await sign(doc);
    whatsapp.mode = "reject";
    try {
      await runJobs();
      const [row] = await copyRows(doc);
      // Every attempt refused: the clock moves to each retry until the job gives up.
      for (let i = 0; i < 10; i += 1) {
        const [job] = await ctx.database.db
          .select()
          .from(jobs)
          .where(and(eq(jobs.kind, "whatsapp.send"), sql`${jobs.payload} ->> 'messageId' = ${row!.id}`));
        if (job!.status !== "pending") break;
        await runJobs(undefined, job!.run_at);
      }
    } finally {
      whatsapp.mode = "ok";
    }
    expect((await copyRows(doc))[0]).toMatchObject({ status: "failed", fallback: "sms" });
    const sms = smsTo(doc.mobile);
    expect(sms).toHaveLength(1);
    expect(sms[0]!.text).toContain(`/assinar/${doc.token}`);
    expect(sms[0]!.text).toMatch(/revogar o consentimento, sem custo/);
    expect(copiesTo(doc.mobile)).toHaveLength(0);
  });

  it("without WhatsApp on the server, the patient with only a mobile gets one SMS", async () => {
    const doc = await sentTo(clinic, { whatsapp: false });
    await sign(doc);
    const smsOnly = { ...ctx.env, WHATSAPP_PHONE_NUMBER_ID: undefined, WHATSAPP_ACCESS_TOKEN: undefined };
    await runJobs(smsOnly);
    await finalizeSignedDocument(jobContext(smsOnly), { contratoId: doc.documentId }, clinic.tenantId);
    await runJobs(smsOnly);
    const sms = smsTo(doc.mobile);
    expect(sms).toHaveLength(1);
    expect(sms[0]!.text).toContain(`/assinar/${doc.token}`);
    expect(sms[0]!.text).toContain("Carla, sua via assinada está em");
    // A locked screen shows the SMS: no document title (decision 066).
    expect(sms[0]!.text).not.toContain("Blefaroplastia");
    expect(sms[0]!.text.length).toBeLessThanOrEqual(320);
    expect((await trail(doc))[0]!.data).toMatchObject({ canal: "sms" });
    expect(copiesTo(doc.mobile)).toHaveLength(0);
  });
});

describe("a refusal's or revocation's record by message (decision 074)", () => {
  const recordMessagesTo = (mobile: string) =>
    whatsapp.received.filter(to(mobile)).filter((m) => m.body.template.name === "consentir_registro");
  const recordTrail = (doc: Sent) =>
    ctx.database.db
      .select({ data: auditEvents.data })
      .from(auditEvents)
      .where(
        and(
          eq(auditEvents.tenant_id, doc.who.tenantId),
          eq(auditEvents.entity_id, doc.documentId),
          eq(auditEvents.action, "document.choice_record_message"),
        ),
      );

  it("a patient with only a mobile hears of the refusal staff recorded: one WhatsApp with the record's /verificar link", async () => {
    const doc = await sentTo(clinic);
    const refused = await staff(clinic, "POST", `/api/documents/${doc.documentId}/refusal`, {
      meio: "presencial",
      motivo: "Prefere pensar mais",
    });
    expect(refused.statusCode, refused.body).toBe(201);
    const code = refused.json().codigo_verificacao as string;
    await runJobs(); // seals the record, then sends what it queued
    await runJobs();
    const messages = recordMessagesTo(doc.mobile);
    expect(messages).toHaveLength(1);
    const [first, , what, titulo, link, codigo] = params(messages[0]!);
    expect([first, what, titulo, codigo]).toEqual(["Carla", "a sua recusa", "TCLE - Blefaroplastia", code]);
    expect(new URL(link!).pathname).toBe(`/verificar/${code}`);
    expect((await pub("GET", `/api/public/verify/${code}`)).statusCode).toBe(200);
    const [event] = await recordTrail(doc);
    expect(event!.data).toMatchObject({ tipo: "recusa", canal: "whatsapp", telefone: expect.stringMatching(/\*/) });
    // Once: running the jobs again sends nothing more; the other clinic sees none of it.
    await runJobs();
    expect(recordMessagesTo(doc.mobile)).toHaveLength(1);
    expect((await staff(other, "GET", `/api/documents/${doc.documentId}`)).statusCode).toBe(404);
  });

  it("a patient with an e-mail on record gets the sealed record by e-mail only", async () => {
    const email = `registro.${RUN}@exemplo.com.br`;
    const doc = await sentTo(clinic, { email });
    expect(
      (await staff(clinic, "POST", `/api/documents/${doc.documentId}/refusal`, { meio: "telefone" })).statusCode,
    ).toBe(201);
    await runJobs();
    await runJobs();
    expect(recordMessagesTo(doc.mobile)).toHaveLength(0);
    expect(await recordTrail(doc)).toEqual([]);
    expect((await outboxMails(ctx, email)).some((mail) => mail.subject.startsWith("Registro de recusa"))).toBe(true);
  });

  it("without WhatsApp on the server, a revocation reaches a phone-only patient by one SMS, short and named", async () => {
    const doc = await sentTo(clinic, { whatsapp: false });
    await sign(doc);
    const smsOnly = { ...ctx.env, WHATSAPP_PHONE_NUMBER_ID: undefined, WHATSAPP_ACCESS_TOKEN: undefined };
    await runJobs(smsOnly);
    const revoked = await staff(clinic, "POST", `/api/documents/${doc.documentId}/revocation`, { meio: "telefone" });
    expect(revoked.statusCode, revoked.body).toBe(201);
    await runJobs(smsOnly);
    await runJobs(smsOnly);
    const sms = smsTo(doc.mobile).filter((m) => m.text.includes("registramos"));
    expect(sms).toHaveLength(1);
    expect(sms[0]!.text).toContain("Carla, registramos a revogação do seu consentimento em");
    expect(sms[0]!.text).not.toContain("Blefaroplastia");
    expect(sms[0]!.text).toContain(`/verificar/${revoked.json().codigo_verificacao as string}`);
    expect(sms[0]!.text.length).toBeLessThanOrEqual(320);
    expect((await recordTrail(doc))[0]!.data).toMatchObject({ tipo: "revogacao", canal: "sms" });
  });
});
