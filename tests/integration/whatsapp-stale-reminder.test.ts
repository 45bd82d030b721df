import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { jobs, whatsappMessages } from "../../src/db/schema.js";
import type { JobPayloads } from "../../src/server/jobs/enqueue-job.js";
import { jobHandlers } from "../../src/server/jobs/handlers.js";
import type { JobContext } from "../../src/server/jobs/job-context.js";
import { runDueJobs } from "../../src/server/jobs/run-due-jobs.js";
import { sendReminder } from "../../src/server/services/reminders/send-reminder.js";
import { isReminderHour, nextReminderHour } from "../../src/shared/reminders/reminder-schedule.js";
import { startFakeWhatsapp, type FakeWhatsappServer } from "../fakes/whatsapp-server.js";
import { validCpf } from "../helpers/factories.js";
import { newClinic, type SignedIn } from "../helpers/sessions.js";
import { draftDocument, publishedTemplateVersion } from "../helpers/signing.js";
import { createTestApp, type TestContext } from "../helpers/test-app.js";

/**
 * A WhatsApp reminder queued while the document waited, but sent only later (an outage, a retry),
 * goes only if it still makes sense when it runs (decision 059): never after a cancellation, never
 * at night. The reminder job and the send job are run apart here, as an outage would separate them.
 */
const PHONE_NUMBER_ID = "106540352242922";
const TOKEN = "EAAGtesttoken0123456789";
const HOUR = 60 * 60 * 1000;
let ctx: TestContext;
let fake: FakeWhatsappServer;
let clinic: SignedIn;
let versionId: string;

beforeAll(async () => {
  fake = await startFakeWhatsapp({ phoneNumberId: PHONE_NUMBER_ID, token: TOKEN });
  ctx = await createTestApp({
    env: {
      WHATSAPP_API_URL: fake.url,
      WHATSAPP_PHONE_NUMBER_ID: PHONE_NUMBER_ID,
      WHATSAPP_ACCESS_TOKEN: TOKEN,
      WHATSAPP_APP_SECRET: "segredo-do-app-123",
      WHATSAPP_VERIFY_TOKEN: "verificacao-123",
      OUTBOUND_ALLOW_PRIVATE_NETWORK: "true",
    },
  });
  // On PostgreSQL every file shares one database: others' queued work is closed first.
  await ctx.database.db.execute(sql`update jobs set status = 'done' where status in ('pending', 'running')`);
  clinic = await newClinic(ctx.app);
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
const staff = (method: "GET" | "POST", url: string, payload?: unknown) =>
  ctx.app.inject({ method, url, payload: payload as object, headers: { cookie: clinic.cookie } });
const spHour = (d: Date) =>
  Number(
    new Intl.DateTimeFormat("en-GB", { timeZone: "America/Sao_Paulo", hour: "2-digit", hourCycle: "h23" }).format(d),
  );

/** Sends a document to a patient with a mobile, delivers the link, and sends reminder 1 at a daytime instant without running its WhatsApp job. */
async function reminderQueued() {
  const patient = await staff("POST", "/api/patients", {
    nome: "Joana Prado Lima",
    cpf: validCpf(),
    data_nascimento: "1975-06-10",
    telefone: "(21) 99876-5432",
  });
  expect(patient.statusCode, patient.body).toBe(201);
  const documentId = await draftDocument(ctx.app, clinic, versionId, patient.json().id);
  const sent = await staff("POST", `/api/documents/${documentId}/send`, { email: false });
  expect(sent.statusCode, sent.body).toBe(200);
  await runDueJobs({ ctx: jobContext(), handlers: jobHandlers, limit: 20 });

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
  expect(remind, "a reminder is scheduled for a WhatsApp send").toBeDefined();
  const daytime = isReminderHour(remind!.run_at) ? remind!.run_at : nextReminderHour(remind!.run_at);
  const payload = remind!.payload as JobPayloads["document.remind"];
  expect(payload.canais).toContain("whatsapp");
  expect(await sendReminder(jobContext(), payload, clinic.tenantId, daytime)).toBe("sent");
  const row = async () => {
    const [message] = await ctx.database.db
      .select()
      .from(whatsappMessages)
      .where(and(eq(whatsappMessages.contrato_id, documentId), eq(whatsappMessages.tipo, "lembrete")));
    return message!;
  };
  expect((await row()).status).toBe("queued");
  return { documentId, daytime, row };
}

const remindersSentTo = (from: number) =>
  fake.received.slice(from).filter((m) => m.body.template.name === "consentir_lembrete").length;

describe("a WhatsApp reminder run late", () => {
  it("goes when the document still waits, in the day's hours", async () => {
    const { daytime, row } = await reminderQueued();
    const before = fake.received.length;
    await runDueJobs({ ctx: jobContext(), handlers: jobHandlers, limit: 20, now: () => daytime });
    expect(remindersSentTo(before)).toBe(1);
    expect(await row()).toMatchObject({ status: "accepted", erro: null });
  });

  it("does not go once the document was cancelled, and says why on the message", async () => {
    const { documentId, daytime, row } = await reminderQueued();
    const cancel = await staff("POST", `/api/documents/${documentId}/cancel`, { motivo: "Paciente desistiu" });
    expect(cancel.statusCode, cancel.body).toBe(204);
    const before = fake.received.length;
    await runDueJobs({ ctx: jobContext(), handlers: jobHandlers, limit: 20, now: () => daytime });
    expect(remindersSentTo(before)).toBe(0);
    const message = await row();
    expect(message.wamid).toBeNull();
    expect(message.erro).toMatch(/não aguarda mais a assinatura/);
  });

  it("does not go at night, even for a document that still waits", async () => {
    const { daytime, row } = await reminderQueued();
    let night = new Date(daytime.getTime() + HOUR);
    while (spHour(night) !== 23) night = new Date(night.getTime() + HOUR);
    expect(isReminderHour(night)).toBe(false);
    const before = fake.received.length;
    await runDueJobs({ ctx: jobContext(), handlers: jobHandlers, limit: 20, now: () => night });
    expect(remindersSentTo(before)).toBe(0);
    expect((await row()).wamid).toBeNull();
  });
});
