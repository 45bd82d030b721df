import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditEvents, contratoPartes, jobs } from "../../src/db/schema.js";
import { zenviaSmsSender } from "../../src/server/services/messaging/zenvia-sms.js";
import { startFakeZenvia, type FakeZenviaServer } from "../fakes/zenvia-server.js";
import { newClinic, type SignedIn } from "../helpers/sessions.js";
import { publishedTemplateVersion, signatureDataUrl, tokenOf } from "../helpers/signing.js";
import { validCpf } from "../helpers/factories.js";
import { draftForSmsPatient, smsTestApp } from "../helpers/sms.js";
import type { TestContext } from "../helpers/test-app.js";

/** the code can go by SMS (Zenvia API v2) to a mobile on the patient's record. */
let ctx: TestContext;
let zenvia: FakeZenviaServer;
let clinic: SignedIn;
let versionId: string;

beforeAll(async () => {
  zenvia = await startFakeZenvia();
  // Production without SMTP: e-mail cannot carry the code, SMS can.
  ctx = await smsTestApp(zenvia);
  clinic = await newClinic(ctx.app);
  versionId = await publishedTemplateVersion(ctx.app, clinic);
});
afterAll(async () => {
  await ctx.close();
  await zenvia.close();
});

const staff = (method: "GET" | "POST", url: string, payload?: unknown) =>
  ctx.app.inject({ method, url, payload: payload as object, headers: { cookie: clinic.cookie } });
const pub = (method: "GET" | "POST", url: string, payload?: unknown) =>
  ctx.app.inject({ method, url, payload: payload as object });

async function sentTo(patientData: Record<string, unknown>) {
  const { documentId, patient } = await draftForSmsPatient(ctx.app, clinic, versionId, patientData);
  const sent = await staff("POST", `/api/documents/${documentId}/send`, {});
  expect(sent.statusCode, sent.body).toBe(200);
  return { documentId, cpf: patient.cpf, token: tokenOf(sent.json().link), link: sent.json() };
}

describe("signing code by SMS", () => {
  it("reaches 'avançada' through a code sent by SMS to the mobile on record, the text sealed in the job", async () => {
    const { documentId, cpf, token, link } = await sentTo({ telefone: "(11) 98765-4321" });
    expect(link).toMatchObject({ nivel: "avancada" });
    const page = (await pub("GET", `/api/public/sign/${token}`)).json();
    expect(page).toMatchObject({
      codigo_obrigatorio: true,
      codigo_canais: [{ canal: "sms", destino: "(**) *****-4321" }],
      conteudo_mascarado: true,
    });

    const asked = await pub("POST", `/api/public/sign/${token}/code`, {});
    expect(asked.statusCode, asked.body).toBe(200);
    expect(asked.json()).toEqual({ enviado: true, canal: "sms", destino: "(**) *****-4321", email: null });
    // Nothing in the jobs table gives the code away.
    const [job] = await ctx.database.db
      .select()
      .from(jobs)
      .where(and(eq(jobs.kind, "sms.send"), eq(jobs.tenant_id, clinic.tenantId)));
    expect(JSON.stringify(job?.payload)).not.toMatch(/\b\d{6}\b/);

    expect((await ctx.app.worker.tick({ sweep: false })).jobs).toBeGreaterThanOrEqual(1);
    const sms = zenvia.received.at(-1)!;
    expect(sms).toMatchObject({ token: "token-de-teste", from: "clinica", to: "5511987654321" });
    const code = /\b(\d{6})\b/.exec(sms.text)?.[1];
    expect(code).toBeDefined();
    // The clinic's name and the code, never the document's title (decision 066: a locked screen shows it).
    expect(sms.text).toMatch(/^.+: seu código para assinar o seu documento é \d{6}\. Vale 10 min\. Não compartilhe\.$/);
    expect(sms.text).not.toContain("Blefaroplastia");

    const verified = await pub("POST", `/api/public/sign/${token}/verify-code`, { codigo: code });
    expect(verified.statusCode, verified.body).toBe(200);
    const signed = await pub("POST", `/api/public/sign/${token}`, {
      nome: "Carla Mendes Rocha",
      cpf,
      email: "carla@exemplo.com.br",
      assinatura: signatureDataUrl(),
      conteudo_sha256: page.documento.conteudo_sha256,
      aceite_eletronico: true,
      codigo: code,
    });
    expect(signed.statusCode, signed.body).toBe(200);
    const [party] = await ctx.database.db
      .select()
      .from(contratoPartes)
      .where(and(eq(contratoPartes.contrato_id, documentId), eq(contratoPartes.papel, "paciente")));
    expect(party).toMatchObject({ otp_verificado: true, nivel_assinatura: "avancada" });
  });

  it("refuses a channel the record cannot reach, and a landline falls back to 'simples'", async () => {
    const mobile = await sentTo({ telefone: "(11) 98765-4321" });
    const byEmail = await pub("POST", `/api/public/sign/${mobile.token}/code`, { canal: "email" });
    expect(byEmail.statusCode).toBe(400);
    expect(byEmail.json().message).toBe("Não há e-mail cadastrado para receber o código.");
    const landline = await sentTo({ telefone: "(11) 3456-7890" });
    expect(landline.link).toMatchObject({
      nivel: "simples",
      motivo_simples: "O paciente não tem e-mail nem celular cadastrado para receber o código.",
    });
  });

  it("keeps a refused or unanswered SMS as a job error and retries, losing nothing", async () => {
    const sender = zenviaSmsSender({ baseUrl: zenvia.url, token: "token-de-teste", from: "clinica", timeoutMs: 2000 });
    zenvia.mode = "reject";
    await expect(sender.send("5511987654321", "teste")).rejects.toThrow(
      "SMS recusado pelo provedor (HTTP 400): Invalid recipient",
    );
    zenvia.mode = "down";
    await expect(sender.send("5511987654321", "teste")).rejects.toThrow("SMS: sem resposta do provedor");
    const { token } = await sentTo({ telefone: "(21) 99876-5432" });
    expect((await pub("POST", `/api/public/sign/${token}/code`, {})).statusCode).toBe(200);
    zenvia.mode = "reject";
    await ctx.app.worker.tick({ sweep: false });
    const pending = await ctx.database.db
      .select()
      .from(jobs)
      .where(and(eq(jobs.kind, "sms.send"), eq(jobs.status, "pending")));
    expect(pending.some((j) => (j.last_error ?? "").includes("HTTP 400"))).toBe(true);
    zenvia.mode = "ok";
  });

  it("sends a minor's guardian the code on the guardian's own mobile, never the minor's, and says so in the trail", async () => {
    const guardianCpf = validCpf();
    const { documentId, token } = await sentTo({
      nome: "Lia Mendes Rocha",
      data_nascimento: "2016-06-06",
      telefone: "(11) 98765-0001",
      responsavel_nome: "Carla Mendes Rocha",
      responsavel_cpf: guardianCpf,
      responsavel_telefone: "(11) 91234-9876",
    });
    const page = (await pub("GET", `/api/public/sign/${token}`)).json();
    expect(page.codigo_canais).toEqual([{ canal: "sms", destino: "(**) *****-9876" }]);
    const before = zenvia.received.length;
    const asked = await pub("POST", `/api/public/sign/${token}/code`, { canal: "sms" });
    expect(asked.statusCode, asked.body).toBe(200);
    expect(asked.json()).toMatchObject({ canal: "sms", destino: "(**) *****-9876" });
    await ctx.app.worker.tick({ sweep: false });
    const delivered = zenvia.received.slice(before);
    // (An earlier test's retried SMS may go out in the same tick: only these two numbers matter.)
    const to = delivered.map((m) => m.to);
    expect(to).toContain("5511912349876");
    expect(to).not.toContain("5511987650001");
    const [event] = await ctx.database.db
      .select({ data: auditEvents.data })
      .from(auditEvents)
      .where(and(eq(auditEvents.entity_id, documentId), eq(auditEvents.action, "document.otp_sent")));
    expect(event?.data).toMatchObject({ canal: "sms", telefone: "(**) *****-9876", contato_de: "responsavel" });
  });
});
