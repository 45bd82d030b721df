import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditEvents, jobs } from "../../src/db/schema.js";
import type { JobPayloads } from "../../src/server/jobs/enqueue-job.js";
import { sendReminder } from "../../src/server/services/reminders/send-reminder.js";
import type { FakeZenviaServer } from "../fakes/zenvia-server.js";
import { jobContextOf, pendingJobsOf } from "../helpers/jobs.js";
import type { SignedIn } from "../helpers/sessions.js";
import { publishedTemplateVersion, tokenOf } from "../helpers/signing.js";
import { as, draftForSmsPatient, smsWorld } from "../helpers/sms.js";
import type { TestContext } from "../helpers/test-app.js";

/** Decision 066, "Link por SMS": staff tick SMS and the signing link goes to the patient's mobile. */
let ctx: TestContext;
let bare: TestContext;
let zenvia: FakeZenviaServer;
let clinic: SignedIn;
let other: SignedIn;
let bareClinic: SignedIn;
let versionId: string;

let world: Awaited<ReturnType<typeof smsWorld>>;

beforeAll(async () => {
  world = await smsWorld();
  ({ ctx, bare, zenvia, clinic, other, bareClinic, versionId } = world);
});
afterAll(async () => {
  await world?.close();
});

async function draftFor(app: TestContext, who: SignedIn, patientData: Record<string, unknown>, version = versionId) {
  return (await draftForSmsPatient(app.app, who, version, patientData)).documentId;
}

const smsJobs = (app: TestContext, documentId: string) =>
  app.database.db
    .select()
    .from(jobs)
    .where(and(eq(jobs.kind, "sms.send"), sql`${jobs.payload} ->> 'contratoId' = ${documentId}`));

/** Runs the queued SMS of one document now and answers what the fake received for that mobile. */
async function deliver(documentId: string, to: string) {
  await ctx.database.db
    .update(jobs)
    .set({ run_at: new Date() })
    .where(
      and(eq(jobs.kind, "sms.send"), eq(jobs.status, "pending"), sql`${jobs.payload} ->> 'contratoId' = ${documentId}`),
    );
  for (let i = 0; i < 10 && (await smsJobs(ctx, documentId)).some((j) => j.status === "pending"); i++)
    await ctx.app.worker.tick({ sweep: false });
  return zenvia.received.filter((m) => m.to === to);
}

describe("signing link by SMS", () => {
  it("sends one SMS with the link (clinic and first name, no title), audits the masked mobile, says sms_enviado", async () => {
    const documentId = await draftFor(ctx, clinic, { telefone: "(11) 98765-4001" });
    const sent = await as(ctx, clinic)("POST", `/api/documents/${documentId}/send`, { sms: true });
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sent.json()).toMatchObject({ sms_enviado: true, sms_motivo: null });
    const token = tokenOf(sent.json().link);
    // The text is sealed in the job: the link's token is not readable there.
    const [job] = await smsJobs(ctx, documentId);
    expect(JSON.stringify(job?.payload)).not.toContain(token);

    const received = await deliver(documentId, "5511987654001");
    expect(received).toHaveLength(1);
    expect(received[0]!.text).toContain(sent.json().link);
    expect(received[0]!.text).toMatch(/^.+: Carla, há um documento para você assinar\. Link pessoal: https:/);
    expect(received[0]!.text).not.toContain("Blefaroplastia");

    const events = await ctx.database.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.entity_id, documentId), eq(auditEvents.action, "document.link_sms_sent")));
    expect(events.map((e) => e.data)).toEqual([{ canal: "sms", telefone: "(**) *****-4001" }]);
    const detail = (await as(ctx, clinic)("GET", `/api/documents/${documentId}`)).json();
    expect(detail.audit.map((e: { label: string }) => e.label)).toContain(
      "Link de assinatura enviado por SMS ao paciente",
    );

    // Reenviar by SMS: the new link, once more.
    const resent = await as(ctx, clinic)("POST", `/api/documents/${documentId}/resend`, { sms: true });
    expect(resent.statusCode, resent.body).toBe(200);
    expect(resent.json()).toMatchObject({ sms_enviado: true });
    const again = await deliver(documentId, "5511987654001");
    expect(again).toHaveLength(2);
    expect(again[1]!.text).toContain(resent.json().link);
  });

  it("sends nothing by SMS unless asked", async () => {
    const documentId = await draftFor(ctx, clinic, { telefone: "(11) 98765-4002" });
    const sent = await as(ctx, clinic)("POST", `/api/documents/${documentId}/send`, {});
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sent.json().sms_enviado).toBeUndefined();
    expect(await smsJobs(ctx, documentId)).toHaveLength(0);
  });

  it("still sends without a mobile, and says why the SMS did not go", async () => {
    const documentId = await draftFor(ctx, clinic, { telefone: "(11) 3456-7890" });
    const check = (await as(ctx, clinic)("GET", `/api/documents/${documentId}/send-check`)).json();
    expect(check).toMatchObject({ celular_possivel: false });
    const sent = await as(ctx, clinic)("POST", `/api/documents/${documentId}/send`, { sms: true });
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sent.json()).toMatchObject({
      sms_enviado: false,
      sms_motivo: "O paciente não tem celular cadastrado: o link não foi enviado por SMS.",
    });
    expect(await smsJobs(ctx, documentId)).toHaveLength(0);
  });

  it("on a server without SMS, still sends and says the server sends no SMS", async () => {
    const version = await publishedTemplateVersion(bare.app, bareClinic);
    const documentId = await draftFor(bare, bareClinic, { telefone: "(11) 98765-4003" }, version);
    const sent = await as(bare, bareClinic)("POST", `/api/documents/${documentId}/send`, { sms: true });
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sent.json()).toMatchObject({
      sms_enviado: false,
      sms_motivo: "Este servidor não envia SMS: o link não foi enviado por SMS.",
    });
    expect(await smsJobs(bare, documentId)).toHaveLength(0);
  });

  it("answers 404 for another clinic's document and 400 in Portuguese for a malformed body", async () => {
    const documentId = await draftFor(ctx, clinic, { telefone: "(11) 98765-4004" });
    const foreign = await as(ctx, other)("POST", `/api/documents/${documentId}/send`, { sms: true });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().message).toBe("Documento não encontrado");
    const bad = await as(ctx, clinic)("POST", `/api/documents/${documentId}/send`, { sms: "sim" });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/Valor inválido/);
    const badFix = await as(ctx, clinic)("POST", `/api/documents/${documentId}/contact`, {
      telefone: "(11) 98765-4999",
      sms: "sim",
    });
    expect(badFix.statusCode).toBe(400);
    expect(await smsJobs(ctx, documentId)).toHaveLength(0);
  });

  it("sends the new link by SMS to the corrected mobile on 'Corrigir contato'", async () => {
    const documentId = await draftFor(ctx, clinic, { telefone: "(11) 98765-4005" });
    expect((await as(ctx, clinic)("POST", `/api/documents/${documentId}/send`, {})).statusCode).toBe(200);
    const fixed = await as(ctx, clinic)("POST", `/api/documents/${documentId}/contact`, {
      telefone: "(11) 98765-4006",
      sms: true,
    });
    expect(fixed.statusCode, fixed.body).toBe(200);
    expect(fixed.json()).toMatchObject({ sms_enviado: true });
    const received = await deliver(documentId, "5511987654006");
    expect(received).toHaveLength(1);
    expect(received[0]!.text).toContain(fixed.json().link);
  });

  it("reminds by SMS when the link went by SMS", async () => {
    const documentId = await draftFor(ctx, clinic, { telefone: "(11) 98765-4007" });
    const sent = await as(ctx, clinic)("POST", `/api/documents/${documentId}/send`, { sms: true });
    expect(sent.statusCode, sent.body).toBe(200);
    await deliver(documentId, "5511987654007");
    const [remind] = await pendingJobsOf(ctx.database, "document.remind", documentId);
    const payload = remind!.payload as JobPayloads["document.remind"];
    expect(payload.canais).toEqual(["sms"]);
    const jobContext = jobContextOf(ctx, "https://consentir.exemplo.com.br");
    expect(await sendReminder(jobContext, payload, clinic.tenantId, remind!.run_at)).toBe("sent");
    const received = await deliver(documentId, "5511987654007");
    expect(received).toHaveLength(2);
    expect(received[1]!.text).toContain("lembrete");
    expect(received[1]!.text).toContain(sent.json().link);
  });
});
