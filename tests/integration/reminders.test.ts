import { and, eq, like, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditEvents, contratos, documentReminders, emailOutbox } from "../../src/db/schema.js";
import { jobHandlers } from "../../src/server/jobs/handlers.js";
import type { JobContext } from "../../src/server/jobs/job-context.js";
import { runDueJobs } from "../../src/server/jobs/run-due-jobs.js";
import { sendReminder } from "../../src/server/services/reminders/send-reminder.js";
import { isReminderHour } from "../../src/shared/reminders/reminder-schedule.js";
import { validCpf } from "../helpers/factories.js";
import { pendingJobsOf } from "../helpers/jobs.js";
import { outboxMails } from "../helpers/outbox.js";
import { newClinic, type SignedIn } from "../helpers/sessions.js";
import { signableDocument, signAsPatient, tokenOf } from "../helpers/signing.js";
import { createTestApp, type TestContext } from "../helpers/test-app.js";

/** Automatic reminders (decision 059): schedule on the queue's clock, stop rules, exactly once, night rule. */
let ctx: TestContext;
let clinic: SignedIn;
let other: SignedIn;
let versionId: string;

const HOUR = 60 * 60 * 1000;
const spHour = (d: Date) =>
  Number(
    new Intl.DateTimeFormat("en-GB", { timeZone: "America/Sao_Paulo", hour: "2-digit", hourCycle: "h23" }).format(d),
  );
const spMinute = (d: Date) =>
  Number(new Intl.DateTimeFormat("en-GB", { timeZone: "America/Sao_Paulo", minute: "2-digit" }).format(d));

beforeAll(async () => {
  ctx = await createTestApp();
  // On PostgreSQL every file shares one database: others' queued work is closed so the moved
  // clock below runs only this file's jobs.
  await ctx.database.db.execute(sql`update jobs set status = 'done' where status in ('pending', 'running')`);
  clinic = await newClinic(ctx.app);
  other = await newClinic(ctx.app);
  const first = await signableDocument(ctx.app, clinic);
  versionId = first.versionId;
});
afterAll(async () => {
  await ctx.close();
});

const jobContext = (): JobContext => ({
  db: ctx.database.db,
  storage: ctx.app.services.storage,
  secretBox: ctx.app.services.secretBox,
  env: ctx.env,
  origin: "http://localhost:3000",
  log: { info() {}, warn() {}, error() {} },
});
const at = (instant: Date) => () => instant;
const call = (who: SignedIn, method: "GET" | "PUT" | "POST", url: string, payload?: unknown) =>
  ctx.app.inject({ method, url, payload: payload as object, headers: { cookie: who.cookie } });

async function sentDocument(email = true) {
  const doc = await signableDocument(ctx.app, clinic, { versionId });
  const sent = await call(clinic, "POST", `/api/documents/${doc.documentId}/send`, { email });
  expect(sent.statusCode, sent.body).toBe(200);
  const [row] = await ctx.database.db.select().from(contratos).where(eq(contratos.id, doc.documentId));
  return { ...doc, link: sent.json().link as string, sentAt: row!.sent_at!, expiresAt: row!.expiracao_at };
}

const pendingReminderJobs = (documentId: string) => pendingJobsOf(ctx.database, "document.remind", documentId);
const reminderMails = (to: string) =>
  outboxMails({ app: ctx.app, database: ctx.database }, to, like(emailOutbox.subject, "%lembrete%"));
const reminderRows = (documentId: string) =>
  ctx.database.db.select().from(documentReminders).where(eq(documentReminders.contrato_id, documentId));

describe("automatic reminders", () => {
  it("are on by default in Configurações and are changed by owners only, with a 400 for bad input", async () => {
    const got = await call(clinic, "GET", "/api/settings/reminders");
    expect(got.statusCode, got.body).toBe(200);
    expect(got.json()).toEqual({ ativo: true, maximo: 3, whatsapp_configurado: false });
    const bad = await call(clinic, "PUT", "/api/settings/reminders", { maximo: 7 });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message ?? bad.body).toMatch(/[Nn]o máximo 3|Dados inválidos/);
    expect((await call(clinic, "PUT", "/api/settings/reminders", { ativo: "sim" })).statusCode).toBe(400);
    const saved = await call(other, "PUT", "/api/settings/reminders", { ativo: false, maximo: 1 });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toMatchObject({ ativo: false, maximo: 1 });
    // One clinic's choice is its own.
    expect((await call(clinic, "GET", "/api/settings/reminders")).json()).toMatchObject({ ativo: true, maximo: 3 });
    expect((await call(other, "GET", "/api/settings/reminders")).json()).toMatchObject({ ativo: false, maximo: 1 });
  });

  it("re-send the same link after 24 h (daytime only), once per reminder even with two workers, and stop when signed", async () => {
    const doc = await sentDocument();
    const [job] = await pendingReminderJobs(doc.documentId);
    expect(job).toBeDefined();
    const firstAt = job!.run_at;
    expect(firstAt.getTime()).toBeGreaterThanOrEqual(doc.sentAt.getTime() + 24 * HOUR);
    expect(firstAt.getTime()).toBeLessThan(doc.sentAt.getTime() + 36 * HOUR);
    expect(isReminderHour(firstAt)).toBe(true);

    // A minute early: nothing.
    await runDueJobs({
      ctx: jobContext(),
      handlers: jobHandlers,
      limit: 20,
      now: at(new Date(firstAt.getTime() - 60_000)),
    });
    expect(await reminderMails(doc.patient.email!)).toHaveLength(0);

    // On time: the reminder, with the link the patient already has.
    await runDueJobs({ ctx: jobContext(), handlers: jobHandlers, limit: 20, now: at(firstAt) });
    const mails = await reminderMails(doc.patient.email!);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.text).toContain(tokenOf(doc.link));
    expect(await reminderRows(doc.documentId)).toMatchObject([{ ordem: 1, canais: ["e-mail"] }]);
    const events = await ctx.database.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.entity_id, doc.documentId), eq(auditEvents.action, "document.reminder_sent")));
    expect(events).toHaveLength(1);
    expect(events[0]!.data).toMatchObject({ ordem: 1, canais: ["e-mail"] });

    // The document page shows it.
    const messages = await call(clinic, "GET", `/api/documents/${doc.documentId}/messages`);
    expect(messages.statusCode).toBe(200);
    expect(messages.json().lembretes).toEqual([{ ordem: 1, canais: ["e-mail"], enviado_em: firstAt.toISOString() }]);
    const detail = (await call(clinic, "GET", `/api/documents/${doc.documentId}`)).json();
    expect(detail.audit.map((e: { label: string }) => e.label)).toContain("Lembrete automático enviado");

    // The second, at about 72 h: two workers at once write it once.
    const [second] = await pendingReminderJobs(doc.documentId);
    expect(second!.payload).toMatchObject({ ordem: 2 });
    expect(second!.run_at.getTime()).toBeGreaterThanOrEqual(doc.sentAt.getTime() + 72 * HOUR);
    const clock = at(second!.run_at);
    await Promise.all([
      runDueJobs({ ctx: jobContext(), handlers: jobHandlers, limit: 20, now: clock }),
      runDueJobs({ ctx: jobContext(), handlers: jobHandlers, limit: 20, now: clock }),
    ]);
    expect(await reminderMails(doc.patient.email!)).toHaveLength(2);
    expect((await reminderRows(doc.documentId)).map((r) => r.ordem).sort()).toEqual([1, 2]);

    // The patient signs: the third (24 h before the deadline) never goes.
    const signed = await signAsPatient(ctx.app, ctx.database, tokenOf(doc.link), doc.patient);
    expect(signed.response.statusCode, signed.response.body).toBe(200);
    const [third] = await pendingReminderJobs(doc.documentId);
    expect(third!.payload).toMatchObject({ ordem: 3 });
    await runDueJobs({ ctx: jobContext(), handlers: jobHandlers, limit: 20, now: at(third!.run_at) });
    expect(await reminderMails(doc.patient.email!)).toHaveLength(2);
    expect(await reminderRows(doc.documentId)).toHaveLength(2);
    expect(await pendingReminderJobs(doc.documentId)).toHaveLength(0);
  });

  it("wait for 8 h in São Paulo when due at night, and never go after the deadline", async () => {
    const doc = await sentDocument();
    const [job] = await pendingReminderJobs(doc.documentId);
    // The worker was down and comes back at night: the reminder waits for the morning.
    let night = job!.run_at.getTime();
    while (isReminderHour(new Date(night))) night += 30 * 60_000;
    await runDueJobs({ ctx: jobContext(), handlers: jobHandlers, limit: 20, now: at(new Date(night)) });
    expect(await reminderMails(doc.patient.email!)).toHaveLength(0);
    const [morning] = await pendingReminderJobs(doc.documentId);
    expect(morning!.payload).toMatchObject({ ordem: 1 });
    expect(spHour(morning!.run_at)).toBe(8);
    expect(spMinute(morning!.run_at)).toBe(0);
    expect(morning!.run_at.getTime()).toBeGreaterThan(night);
    await runDueJobs({ ctx: jobContext(), handlers: jobHandlers, limit: 20, now: at(morning!.run_at) });
    const mails = await reminderMails(doc.patient.email!);
    expect(mails).toHaveLength(1);
    expect((await reminderRows(doc.documentId))[0]!.enviado_em.toISOString()).toBe(morning!.run_at.toISOString());

    // Past the deadline the next one stops, even though its job comes due.
    const [next] = await pendingReminderJobs(doc.documentId);
    await runDueJobs({
      ctx: jobContext(),
      handlers: jobHandlers,
      limit: 20,
      now: at(new Date(doc.expiresAt.getTime() + HOUR)),
    });
    expect(await reminderMails(doc.patient.email!)).toHaveLength(1);
    expect(next).toBeDefined();
    expect(await pendingReminderJobs(doc.documentId)).toHaveLength(0);
  });

  it("stop when cancelled or when the clinic turns them off, and follow the channels of the send", async () => {
    const cancelled = await sentDocument();
    const cancel = await call(clinic, "POST", `/api/documents/${cancelled.documentId}/cancel`, {
      motivo: "Paciente desistiu",
    });
    expect(cancel.statusCode, cancel.body).toBe(204);
    const [job] = await pendingReminderJobs(cancelled.documentId);
    await runDueJobs({ ctx: jobContext(), handlers: jobHandlers, limit: 20, now: at(job!.run_at) });
    expect(await reminderMails(cancelled.patient.email!)).toHaveLength(0);
    expect(await pendingReminderJobs(cancelled.documentId)).toHaveLength(0);

    // Sent without e-mail (link copied by staff): no channel to remind by, nothing queued.
    const copied = await sentDocument(false);
    expect(await pendingReminderJobs(copied.documentId)).toHaveLength(0);

    const off = await sentDocument();
    expect((await call(clinic, "PUT", "/api/settings/reminders", { ativo: false })).statusCode).toBe(200);
    const [offJob] = await pendingReminderJobs(off.documentId);
    await runDueJobs({ ctx: jobContext(), handlers: jobHandlers, limit: 20, now: at(offJob!.run_at) });
    expect(await reminderMails(off.patient.email!)).toHaveLength(0);
    expect((await call(clinic, "PUT", "/api/settings/reminders", { ativo: true })).statusCode).toBe(200);
    const later = await sentDocument();
    expect(await pendingReminderJobs(later.documentId)).toHaveLength(1);
  });

  it("reach a witness who has not signed, by e-mail, with their own link", async () => {
    const doc = await signableDocument(ctx.app, clinic, { versionId });
    const witnessEmail = `testemunha.${Date.now()}@exemplo.com.br`;
    const added = await call(clinic, "POST", `/api/documents/${doc.documentId}/witnesses`, {
      nome: "Bruno Testemunha Alves",
      cpf: validCpf(),
      email: witnessEmail,
    });
    expect(added.statusCode, added.body).toBe(201);
    const sent = await call(clinic, "POST", `/api/documents/${doc.documentId}/send`, { email: true });
    expect(sent.statusCode, sent.body).toBe(200);
    const witnessLink = (sent.json().testemunhas as { link: string }[])[0]!.link;
    const [job] = await pendingReminderJobs(doc.documentId);
    await runDueJobs({ ctx: jobContext(), handlers: jobHandlers, limit: 20, now: at(job!.run_at) });
    const mails = await reminderMails(witnessEmail);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.text).toContain(tokenOf(witnessLink));
    expect(mails[0]!.text).toContain("testemunha");
    expect((await reminderRows(doc.documentId))[0]!.canais).toEqual(["e-mail", "e-mail (testemunha 1)"]);
  });

  it("reach a witness by e-mail even when the patient's link was copied by staff (decision 066)", async () => {
    const doc = await signableDocument(ctx.app, clinic, { versionId });
    const witnessEmail = `testemunha.copiado.${Date.now()}@exemplo.com.br`;
    const added = await call(clinic, "POST", `/api/documents/${doc.documentId}/witnesses`, {
      nome: "Célia Testemunha Prado",
      cpf: validCpf(),
      email: witnessEmail,
    });
    expect(added.statusCode, added.body).toBe(201);
    const sent = await call(clinic, "POST", `/api/documents/${doc.documentId}/send`, { email: false });
    expect(sent.statusCode, sent.body).toBe(200);
    const [job] = await pendingReminderJobs(doc.documentId);
    expect(job!.payload).toMatchObject({ canais: [] });
    await runDueJobs({ ctx: jobContext(), handlers: jobHandlers, limit: 20, now: at(job!.run_at) });
    expect(await reminderMails(witnessEmail)).toHaveLength(1);
    expect(await reminderMails(doc.patient.email!)).toHaveLength(0);
    expect((await reminderRows(doc.documentId))[0]!.canais).toEqual(["e-mail (testemunha 1)"]);
  });

  it("start again from a manual Reenviar: the old chain stops, the new one counts on and uses the new link (decision 066)", async () => {
    const doc = await sentDocument();
    const [first] = await pendingReminderJobs(doc.documentId);
    await runDueJobs({ ctx: jobContext(), handlers: jobHandlers, limit: 20, now: at(first!.run_at) });
    expect(await reminderRows(doc.documentId)).toHaveLength(1);
    const [oldSecond] = await pendingReminderJobs(doc.documentId);
    expect(oldSecond!.payload).toMatchObject({ ordem: 2 });

    // Staff press Reenviar.
    const resent = await call(clinic, "POST", `/api/documents/${doc.documentId}/resend`, { email: true });
    expect(resent.statusCode, resent.body).toBe(200);
    const newLink = resent.json().link as string;
    const [row] = await ctx.database.db.select().from(contratos).where(eq(contratos.id, doc.documentId));
    expect(row!.lembretes_desde).not.toBeNull();
    const restarted = (await pendingReminderJobs(doc.documentId)).find((j) => (j.payload as { desde?: string }).desde);
    expect(restarted!.payload).toMatchObject({ ordem: 2, base: 1, canais: ["email"] });
    // Counted from the Reenviar, not from the first send.
    expect(restarted!.run_at.getTime()).toBeGreaterThanOrEqual(row!.lembretes_desde!.getTime() + 24 * HOUR);

    // The new chain's reminder carries the new link.
    const before = (await reminderMails(doc.patient.email!)).length;
    await runDueJobs({ ctx: jobContext(), handlers: jobHandlers, limit: 20, now: at(restarted!.run_at) });
    const mails = await reminderMails(doc.patient.email!);
    expect(mails.length).toBe(before + 1);
    expect(mails.filter((m) => m.text.includes(tokenOf(newLink)))).toHaveLength(1);
    expect((await reminderRows(doc.documentId)).map((r) => r.ordem).sort()).toEqual([1, 2]);
    // The old chain's job, when its time comes, stops and sends nothing.
    expect(await sendReminder(jobContext(), oldSecond!.payload as never, clinic.tenantId, oldSecond!.run_at)).toBe(
      "stopped",
    );
    expect(await reminderMails(doc.patient.email!)).toHaveLength(before + 1);
  });

  it("answer 404 for another clinic's document and 400 for a malformed id", async () => {
    const doc = await sentDocument();
    expect((await call(other, "GET", `/api/documents/${doc.documentId}/messages`)).statusCode).toBe(404);
    expect((await call(clinic, "GET", `/api/documents/nao-e-um-id/messages`)).statusCode).toBe(400);
    expect((await ctx.app.inject({ method: "GET", url: "/api/settings/reminders" })).statusCode).toBe(401);
  });
});
