import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditEvents, jobs, whatsappMessages } from "../../src/db/schema.js";
import { levelText } from "../../src/pdf/signature-registry.js";
import { jobHandlers } from "../../src/server/jobs/handlers.js";
import type { JobContext } from "../../src/server/jobs/job-context.js";
import { runDueJobs } from "../../src/server/jobs/run-due-jobs.js";
import { getSigningSettings } from "../../src/server/services/signing/get-signing-settings.js";
import { emailChannelOf } from "../../src/server/services/signing/signing-settings.js";
import { whatsappCloudClient } from "../../src/server/services/whatsapp/whatsapp-cloud.js";
import { hubSignature, startFakeWhatsapp, statusWebhook, type FakeWhatsappServer } from "../fakes/whatsapp-server.js";
import { validCpf } from "../helpers/factories.js";
import { newClinic, type SignedIn } from "../helpers/sessions.js";
import { outboxMails } from "../helpers/outbox.js";
import { draftDocument, latestSigningCode, publishedTemplateVersion, tokenOf } from "../helpers/signing.js";
import { createTestApp, type TestContext } from "../helpers/test-app.js";

/** WhatsApp Business Cloud API (decision 059): template messages against a local fake, and the status webhook. */
const PHONE_NUMBER_ID = "106540352242922";
const TOKEN = "EAAGtesttoken0123456789";
const APP_SECRET = "segredo-do-app-123";
const VERIFY_TOKEN = "verificacao-123";
let ctx: TestContext;
let fake: FakeWhatsappServer;
let clinic: SignedIn;
let other: SignedIn;
let versionId: string;

beforeAll(async () => {
  fake = await startFakeWhatsapp({ phoneNumberId: PHONE_NUMBER_ID, token: TOKEN });
  ctx = await createTestApp({
    env: {
      WHATSAPP_API_URL: fake.url,
      WHATSAPP_PHONE_NUMBER_ID: PHONE_NUMBER_ID,
      WHATSAPP_ACCESS_TOKEN: TOKEN,
      WHATSAPP_APP_SECRET: APP_SECRET,
      WHATSAPP_VERIFY_TOKEN: VERIFY_TOKEN,
      // The fake listens on 127.0.0.1 (decision 053's rule applies to this configurable URL).
      OUTBOUND_ALLOW_PRIVATE_NETWORK: "true",
    },
  });
  await ctx.database.db.execute(sql`update jobs set status = 'done' where status in ('pending', 'running')`);
  clinic = await newClinic(ctx.app);
  other = await newClinic(ctx.app);
  versionId = await publishedTemplateVersion(ctx.app, clinic);
});
afterAll(async () => {
  await ctx.close();
  await fake.close();
});

const jobContext = (): JobContext => ({
  db: ctx.database.db,
  storage: ctx.app.services.storage,
  secretBox: ctx.app.services.secretBox,
  env: ctx.env,
  origin: "http://localhost:3000",
  log: { info() {}, warn() {}, error() {} },
});
const staff = (who: SignedIn, method: "GET" | "POST", url: string, payload?: unknown) =>
  ctx.app.inject({ method, url, payload: payload as object, headers: { cookie: who.cookie } });
const webhook = (body: string, signature: string | undefined) =>
  ctx.app.inject({
    method: "POST",
    url: "/api/webhooks/whatsapp",
    payload: body,
    headers: { "content-type": "application/json", ...(signature ? { "x-hub-signature-256": signature } : {}) },
  });
const messagesOf = async (who: SignedIn, documentId: string) =>
  (await staff(who, "GET", `/api/documents/${documentId}/messages`)).json().whatsapp as {
    tipo: string;
    status: string;
    destino: string;
    erro: string | null;
  }[];

async function sentWithMobile() {
  const patient = await staff(clinic, "POST", "/api/patients", {
    nome: "Carla Mendes Rocha",
    cpf: validCpf(),
    data_nascimento: "1980-02-02",
    telefone: "(11) 98765-4321",
    email: `carla.${Date.now()}@exemplo.com.br`,
  });
  expect(patient.statusCode, patient.body).toBe(201);
  const documentId = await draftDocument(ctx.app, clinic, versionId, patient.json().id);
  const sent = await staff(clinic, "POST", `/api/documents/${documentId}/send`, { email: true });
  expect(sent.statusCode, sent.body).toBe(200);
  return { documentId, link: sent.json().link as string, answer: sent.json(), email: patient.json().email as string };
}

async function rowOf(documentId: string, tipo: string) {
  const [row] = await ctx.database.db
    .select()
    .from(whatsappMessages)
    .where(and(eq(whatsappMessages.contrato_id, documentId), eq(whatsappMessages.tipo, tipo)));
  return row!;
}

describe("WhatsApp Cloud API", () => {
  it("sends the signing link as the approved template to the mobile on record, Bearer token, and keeps the wamid", async () => {
    const before = fake.received.length;
    const { documentId, link, answer } = await sentWithMobile();
    expect(answer.whatsapp_enviado).toBe(true);
    // The wa.me link stays for staff as it was.
    expect(answer.whatsapp_url).toMatch(/^https:\/\/wa\.me\//);
    // Queued in the send's transaction; the link in the job is sealed.
    const [job] = await ctx.database.db
      .select()
      .from(jobs)
      .where(and(eq(jobs.kind, "whatsapp.send"), sql`${jobs.payload} ->> 'tipo' = 'link'`, eq(jobs.status, "pending")));
    expect(JSON.stringify(job?.payload)).not.toContain(tokenOf(link));
    expect(await messagesOf(clinic, documentId)).toMatchObject([
      { tipo: "link", status: "queued", destino: "(**) *****-4321" },
    ]);

    await runDueJobs({ ctx: jobContext(), handlers: jobHandlers, limit: 20 });
    const got = fake.received.slice(before);
    expect(got).toHaveLength(1);
    expect(got[0]!.path).toBe(`/v21.0/${PHONE_NUMBER_ID}/messages`);
    expect(got[0]!.authorization).toBe(`Bearer ${TOKEN}`);
    expect(got[0]!.body).toMatchObject({
      messaging_product: "whatsapp",
      to: "5511987654321",
      type: "template",
      template: { name: "consentir_link_assinatura", language: { code: "pt_BR" } },
    });
    const params = got[0]!.body.template.components[0]!.parameters.map((p) => p.text);
    expect(params[0]).toBe("Carla");
    expect(params).toContain(link);
    const row = await rowOf(documentId, "link");
    expect(row).toMatchObject({ wamid: got[0]!.id, status: "accepted" });
  });

  it("records delivery statuses from a signed webhook, never backwards; bad or missing signatures are 401 and change nothing", async () => {
    const { documentId } = await sentWithMobile();
    await runDueJobs({ ctx: jobContext(), handlers: jobHandlers, limit: 20 });
    const { wamid } = await rowOf(documentId, "link");
    const delivered = statusWebhook(wamid!, "delivered");

    expect((await webhook(delivered, undefined)).statusCode).toBe(401);
    expect((await webhook(delivered, hubSignature(delivered, "outro-segredo"))).statusCode).toBe(401);
    expect((await webhook(delivered, "sha256=zz")).statusCode).toBe(401);
    // Signed for other bytes than those sent.
    expect((await webhook(delivered, hubSignature(`${delivered} `, APP_SECRET))).statusCode).toBe(401);
    expect((await rowOf(documentId, "link")).status).toBe("accepted");

    const ok = await webhook(delivered, hubSignature(delivered, APP_SECRET));
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toEqual({ atualizadas: 1 });
    expect((await messagesOf(clinic, documentId))[0]).toMatchObject({ status: "delivered" });
    // A late "sent" does not undo "delivered"; "read" moves on.
    const late = statusWebhook(wamid!, "sent");
    expect((await webhook(late, hubSignature(late, APP_SECRET))).json()).toEqual({ atualizadas: 0 });
    const read = statusWebhook(wamid!, "read");
    expect((await webhook(read, hubSignature(read, APP_SECRET))).json()).toEqual({ atualizadas: 1 });
    expect((await messagesOf(clinic, documentId))[0]).toMatchObject({ status: "read" });
    // A late "failed" does not turn a message the patient read into a failure.
    const failedLate = statusWebhook(wamid!, "failed");
    expect((await webhook(failedLate, hubSignature(failedLate, APP_SECRET))).json()).toEqual({ atualizadas: 0 });
    expect((await messagesOf(clinic, documentId))[0]).toMatchObject({ status: "read" });

    // Another clinic sees none of it.
    expect((await staff(other, "GET", `/api/documents/${documentId}/messages`)).statusCode).toBe(404);
  });

  it("answers 400 to a signed body that is not JSON or not a webhook, and ignores an unknown wamid", async () => {
    for (const body of ["{not json", JSON.stringify({ object: "whatsapp_business_account", entry: "x" }), "[]"]) {
      const answer = await webhook(body, hubSignature(body, APP_SECRET));
      expect(answer.statusCode, body).toBe(400);
      expect(answer.json().message).toMatch(/webhook/);
    }
    const unknown = statusWebhook("wamid.DESCONHECIDO", "delivered");
    const answer = await webhook(unknown, hubSignature(unknown, APP_SECRET));
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toEqual({ atualizadas: 0 });
  });

  it("answers Meta's verification with the challenge only for the right token", async () => {
    const good = await ctx.app.inject({
      method: "GET",
      url: `/api/webhooks/whatsapp?hub.mode=subscribe&hub.verify_token=${VERIFY_TOKEN}&hub.challenge=1158201444`,
    });
    expect(good.statusCode).toBe(200);
    expect(good.body).toBe("1158201444");
    const bad = await ctx.app.inject({
      method: "GET",
      url: "/api/webhooks/whatsapp?hub.mode=subscribe&hub.verify_token=errado&hub.challenge=1158201444",
    });
    expect(bad.statusCode).toBe(403);
    expect(bad.body).not.toContain("1158201444");
  });

  it("a refusal is kept on the message and the job retried; a failed status shows why; the reminder goes by WhatsApp too", async () => {
    fake.mode = "reject";
    const { documentId, link } = await sentWithMobile();
    await runDueJobs({ ctx: jobContext(), handlers: jobHandlers, limit: 20 });
    const refused = await rowOf(documentId, "link");
    expect(refused.status).toBe("queued");
    expect(refused.erro).toMatch(/131030/);
    const [retry] = await ctx.database.db
      .select()
      .from(jobs)
      .where(and(eq(jobs.kind, "whatsapp.send"), sql`${jobs.payload} ->> 'messageId' = ${refused.id}`));
    expect(retry).toMatchObject({ status: "pending", attempts: 1 });
    fake.mode = "ok";
    await runDueJobs({ ctx: jobContext(), handlers: jobHandlers, limit: 20, now: () => retry!.run_at });
    const accepted = await rowOf(documentId, "link");
    expect(accepted).toMatchObject({ status: "accepted", erro: null });
    const failed = statusWebhook(accepted.wamid!, "failed");
    await webhook(failed, hubSignature(failed, APP_SECRET));
    expect((await messagesOf(clinic, documentId))[0]).toMatchObject({ status: "failed" });
    expect((await messagesOf(clinic, documentId))[0]!.erro).toMatch(/131026/);

    // The first reminder goes by the channels of the send: e-mail and WhatsApp (reminder template).
    const [remind] = await ctx.database.db
      .select()
      .from(jobs)
      .where(
        and(
          eq(jobs.kind, "document.remind"),
          eq(jobs.status, "pending"),
          sql`${jobs.payload} ->> 'contratoId' = ${documentId}`,
        ),
      );
    expect(remind!.payload).toMatchObject({ canais: ["email", "whatsapp"] });
    const before = fake.received.length;
    await runDueJobs({ ctx: jobContext(), handlers: jobHandlers, limit: 20, now: () => remind!.run_at });
    // (The moved clock also runs earlier documents' reminders: only this document's link counts.)
    const sent = fake.received
      .slice(before)
      .filter((m) => m.body.template.components[0]!.parameters.some((p) => p.text === link));
    expect(sent.map((m) => m.body.template.name)).toEqual(["consentir_lembrete"]);
    const messages = (await staff(clinic, "GET", `/api/documents/${documentId}/messages`)).json();
    expect(messages.lembretes).toMatchObject([{ ordem: 1, canais: ["e-mail", "WhatsApp"] }]);
    expect(messages.whatsapp.map((m: { tipo: string }) => m.tipo)).toEqual(["link", "lembrete"]);
  });

  it("sends the one-time code by WhatsApp when the patient chooses it, verified; the registry names WhatsApp", async () => {
    const { documentId, link } = await sentWithMobile();
    const token = tokenOf(link);
    const page = (await ctx.app.inject({ method: "GET", url: `/api/public/sign/${token}` })).json();
    expect(page.codigo_canais).toEqual([
      { canal: "email", destino: expect.any(String) },
      { canal: "whatsapp", destino: "(**) *****-4321" },
    ]);
    const asked = await ctx.app.inject({
      method: "POST",
      url: `/api/public/sign/${token}/code`,
      payload: { canal: "whatsapp" },
    });
    expect(asked.statusCode, asked.body).toBe(200);
    expect(asked.json()).toEqual({ enviado: true, canal: "whatsapp", destino: "(**) *****-4321", email: null });
    const before = fake.received.length;
    await runDueJobs({ ctx: jobContext(), handlers: jobHandlers, limit: 20 });
    const codeMessage = fake.received.slice(before).find((m) => m.body.template.name === "consentir_codigo");
    expect(codeMessage).toBeDefined();
    const code = codeMessage!.body.template.components[0]!.parameters[0]!.text;
    expect(code).toMatch(/^\d{6}$/);
    // The authentication template's copy-code button carries the same code.
    expect(codeMessage!.body.template.components[1]).toMatchObject({
      type: "button",
      sub_type: "url",
      index: "0",
      parameters: [{ type: "text", text: code }],
    });
    // The jobs table never holds the code in clear.
    const codeJobs = await ctx.database.db
      .select()
      .from(jobs)
      .where(and(eq(jobs.kind, "whatsapp.send"), sql`${jobs.payload} ->> 'tipo' = 'codigo'`));
    expect(JSON.stringify(codeJobs.map((j) => j.payload))).not.toContain(code);

    const verified = await ctx.app.inject({
      method: "POST",
      url: `/api/public/sign/${token}/verify-code`,
      payload: { codigo: code },
    });
    expect(verified.statusCode, verified.body).toBe(200);
    const [event] = await ctx.database.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.entity_id, documentId), eq(auditEvents.action, "document.otp_sent")));
    expect(event!.data).toMatchObject({ canal: "whatsapp", telefone: "(**) *****-4321" });
    expect(
      levelText({
        nivel: "avancada",
        codigoCanal: "whatsapp",
        codigoEnviadoPara: "(**) *****-4321",
        motivoSimples: null,
        tipoAssinatura: "desenho",
        otpVerificado: true,
      }),
    ).toBe(
      "Assinatura eletrônica avançada — código de verificação enviado ao WhatsApp do celular cadastrado ((**) *****-4321) e confirmado pelo signatário",
    );
  });

  it("falls back to e-mail once when WhatsApp reports the link failed, and says so on the page and in the trail (decision 066)", async () => {
    const { documentId, link, email } = await sentWithMobile();
    await runDueJobs({ ctx: jobContext(), handlers: jobHandlers, limit: 20 });
    const accepted = await rowOf(documentId, "link");
    expect(accepted.status).toBe("accepted");
    const failed = statusWebhook(accepted.wamid!, "failed");
    expect((await webhook(failed, hubSignature(failed, APP_SECRET))).statusCode).toBe(200);
    // Twice: the second changes nothing (failed is final) and queues no second fallback.
    expect((await webhook(failed, hubSignature(failed, APP_SECRET))).statusCode).toBe(200);
    const mailsBefore = await outboxMails({ app: ctx.app, database: ctx.database }, email);
    await runDueJobs({ ctx: jobContext(), handlers: jobHandlers, limit: 20 });
    await runDueJobs({ ctx: jobContext(), handlers: jobHandlers, limit: 20 });
    const mails = await outboxMails({ app: ctx.app, database: ctx.database }, email);
    const fallbackMails = mails.slice(mailsBefore.length);
    expect(fallbackMails).toHaveLength(1);
    expect(fallbackMails[0]!.text).toContain(tokenOf(link));
    expect(fallbackMails[0]!.text).toContain("WhatsApp não pôde ser entregue");
    expect((await rowOf(documentId, "link")).fallback).toBe("email");
    expect((await messagesOf(clinic, documentId))[0]).toMatchObject({ status: "failed", fallback: "email" });
    const detail = (await staff(clinic, "GET", `/api/documents/${documentId}`)).json();
    expect(detail.audit.map((e: { label: string }) => e.label)).toContain(
      "WhatsApp não entregue: link enviado por e-mail",
    );
    // Another clinic does not see this document's messages.
    expect((await staff(other, "GET", `/api/documents/${documentId}/messages`)).statusCode).toBe(404);
  });

  it("after the last failed attempt, the code goes again by e-mail as a new code that signs; the trail names e-mail (decision 066)", async () => {
    const { documentId, link, email } = await sentWithMobile();
    await runDueJobs({ ctx: jobContext(), handlers: jobHandlers, limit: 20 });
    const token = tokenOf(link);
    await ctx.app.inject({ method: "GET", url: `/api/public/sign/${token}` });
    const asked = await ctx.app.inject({
      method: "POST",
      url: `/api/public/sign/${token}/code`,
      payload: { canal: "whatsapp" },
    });
    expect(asked.statusCode, asked.body).toBe(200);
    // Where the code went, as the signing page asks (decision 079): WhatsApp, no fallback yet.
    const where = () => ctx.app.inject({ method: "GET", url: `/api/public/sign/${token}/code` });
    expect((await where()).json()).toEqual({
      entrega: { canal: "whatsapp", destino: expect.stringMatching(/\d{4}$/), reenvio_whatsapp: false },
    });
    expect((await ctx.app.inject({ method: "GET", url: "/api/public/sign/nao-e-um-token/code" })).statusCode).toBe(410);
    const codeRow = await rowOf(documentId, "codigo");
    // One attempt left, and Meta refuses it.
    await ctx.database.db
      .update(jobs)
      .set({ max_attempts: 1 })
      .where(and(eq(jobs.kind, "whatsapp.send"), sql`${jobs.payload} ->> 'messageId' = ${codeRow.id}`));
    fake.mode = "reject";
    try {
      await runDueJobs({ ctx: jobContext(), handlers: jobHandlers, limit: 20 });
    } finally {
      fake.mode = "ok";
    }
    expect(await rowOf(documentId, "codigo")).toMatchObject({ status: "failed" });
    await runDueJobs({ ctx: jobContext(), handlers: jobHandlers, limit: 20 });
    expect((await rowOf(documentId, "codigo")).fallback).toBe("email");
    expect((await where()).json()).toEqual({
      entrega: { canal: "email", destino: expect.stringContaining("***@"), reenvio_whatsapp: true },
    });
    const code = await latestSigningCode({ app: ctx.app, database: ctx.database }, email);
    const verified = await ctx.app.inject({
      method: "POST",
      url: `/api/public/sign/${token}/verify-code`,
      payload: { codigo: code },
    });
    expect(verified.statusCode, verified.body).toBe(200);
    const sent = await ctx.database.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.entity_id, documentId), eq(auditEvents.action, "document.otp_email_outbox")));
    expect(sent.at(-1)!.data).toMatchObject({ canal: "email", reenvio_whatsapp: true });
    const labels = (await staff(clinic, "GET", `/api/documents/${documentId}`))
      .json()
      .audit.map((e: { label: string }) => e.label);
    expect(labels).toContain("WhatsApp não entregue: novo código enviado por e-mail");
  });

  it("refuses an API address on this machine unless OUTBOUND_ALLOW_PRIVATE_NETWORK is set (decision 053)", async () => {
    const before = fake.received.length;
    const client = whatsappCloudClient({
      baseUrl: fake.url,
      version: "v21.0",
      phoneNumberId: PHONE_NUMBER_ID,
      token: TOKEN,
      language: "pt_BR",
      timeoutMs: 5000,
      allowPrivateNetwork: false,
    });
    await expect(
      client.sendTemplate({ to: "5511987654321", template: "consentir_link_assinatura", body: ["x"] }),
    ).rejects.toThrow(/rede privada/);
    expect(fake.received.length).toBe(before);
  });

  it("without the Cloud API configured, nothing goes by WhatsApp and the webhook is not there", async () => {
    const bare = await createTestApp({ database: ctx.database });
    try {
      const body = statusWebhook("wamid.X", "delivered");
      expect(
        (
          await bare.app.inject({
            method: "POST",
            url: "/api/webhooks/whatsapp",
            payload: body,
            headers: { "content-type": "application/json", "x-hub-signature-256": hubSignature(body, APP_SECRET) },
          })
        ).statusCode,
      ).toBe(404);
      expect(
        (await bare.app.inject({ method: "GET", url: "/api/webhooks/whatsapp?hub.mode=subscribe" })).statusCode,
      ).toBe(404);
    } finally {
      await bare.app.close();
    }
  });

  it("a production server whose only channel is WhatsApp says a code can reach the patient", async () => {
    const actor = {
      profileId: clinic.profileId,
      tenantId: clinic.tenantId,
      role: "profissional" as const,
      isOwner: true,
    };
    const whatsappOnly = emailChannelOf({
      NODE_ENV: "production",
      WHATSAPP_PHONE_NUMBER_ID: PHONE_NUMBER_ID,
      WHATSAPP_ACCESS_TOKEN: TOKEN,
    });
    expect(whatsappOnly).toMatchObject({ smtp: false, usable: false, sms: false, whatsapp: true });
    expect(await getSigningSettings(ctx.database.db, actor, whatsappOnly)).toMatchObject({
      email_entregavel: false,
      codigo_disponivel: true,
    });
    const nothing = emailChannelOf({ NODE_ENV: "production" });
    expect((await getSigningSettings(ctx.database.db, actor, nothing)).codigo_disponivel).toBe(false);
  });
});
