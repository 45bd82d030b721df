import type { FastifyInstance } from "fastify";
import type { Browser, Page } from "playwright-core";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Database, openDatabase } from "../../src/db/client.js";
import { contratos, pacientes, whatsappMessages } from "../../src/db/schema.js";
import { buildApp } from "../../src/server/app.js";
import { hubSignature, startFakeWhatsapp, statusWebhook, type FakeWhatsappServer } from "../fakes/whatsapp-server.js";
import { validCpf } from "../helpers/factories.js";
import { freePort } from "../helpers/server-process.js";
import { testEnv, uniqueEmail } from "../helpers/test-env.js";
import { signIn } from "./accounts.js";
import { animationsFinished, launchBrowser, PHONE, snap } from "./browser.js";
import { json, latestSigningCode, seedSignableDocument } from "./signing-helpers.js";

/**
 * WhatsApp (decision 059) in the browser: the patient, on a phone, chooses to get the code by
 * WhatsApp; WhatsApp cannot deliver it, the page says the new code went by e-mail and the patient
 * confirms that one; staff see the message's delivery status on the document page after
 * Meta's webhook. Its own app, configured for a local Cloud API fake.
 */
const PHONE_NUMBER_ID = "106540352242922";
const TOKEN = "EAAGtesttoken0123456789";
const APP_SECRET = "segredo-do-app-123";
let browser: Browser;
let app: FastifyInstance;
let database: Database;
let fake: FakeWhatsappServer;
let base: string;
let staff: Page;
const account = { email: uniqueEmail("e2e-whatsapp"), password: "segredo123" };

beforeAll(async () => {
  fake = await startFakeWhatsapp({ phoneNumberId: PHONE_NUMBER_ID, token: TOKEN });
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  database = await openDatabase({ kind: "pglite-memory" });
  app = await buildApp({
    env: testEnv({
      PORT: String(port),
      PUBLIC_URL: base,
      WHATSAPP_API_URL: fake.url,
      WHATSAPP_PHONE_NUMBER_ID: PHONE_NUMBER_ID,
      WHATSAPP_ACCESS_TOKEN: TOKEN,
      WHATSAPP_APP_SECRET: APP_SECRET,
      OUTBOUND_ALLOW_PRIVATE_NETWORK: "true",
    }),
    database,
    logger: false,
  });
  await app.listen({ port, host: "127.0.0.1" });
  browser = await launchBrowser();
  const response = await fetch(`${base}/api/auth/sign-up`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      profile_type: "profissional_independente",
      nome: "Dra. Helena Duarte",
      cpf: validCpf(),
      email: account.email,
      password: account.password,
      confirmPassword: account.password,
      conselho_tipo: "CRO",
      conselho_numero: "43210",
      conselho_uf: "SP",
      especialidades: [{ especialidade: "implantodontia", areas_atuacao: [], rqe: null }],
    }),
  });
  expect(response.status, await response.clone().text()).toBe(201);
  const context = await browser.newContext({
    viewport: { width: 1366, height: 900 },
    baseURL: base,
    locale: "pt-BR",
    timezoneId: "America/Sao_Paulo",
  });
  staff = await context.newPage();
  await signIn(staff, account.email, account.password);
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await app?.close();
  await database?.close();
  await fake?.close();
});

/** Runs the queued jobs (the WhatsApp sends) until `done` holds. */
async function workUntil(done: () => boolean): Promise<void> {
  for (let round = 0; round < 20 && !done(); round += 1) await app.worker.tick({ sweep: false });
  expect(done()).toBe(true);
}

describe("WhatsApp in the browser", () => {
  it("the patient gets the code by WhatsApp on a phone; staff see the delivery status on the document page", async () => {
    const patientEmail = uniqueEmail("paciente-wa");
    const documentId = await seedSignableDocument(staff, account, {
      nome: "Carla Mendes Rocha",
      cpf: validCpf(),
      email: patientEmail,
    });
    const [doc] = await database.db.select().from(contratos).where(eq(contratos.id, documentId));
    await database.db.update(pacientes).set({ telefone: "(11) 98765-4321" }).where(eq(pacientes.id, doc!.paciente_id));
    const sent = await json<{ link: string; whatsapp_enviado?: boolean }>(
      await staff.request.post(`/api/documents/${documentId}/send`, { data: { email: true } }),
      200,
    );
    expect(sent.whatsapp_enviado).toBe(true);
    await workUntil(() => fake.received.some((m) => m.body.template.name === "consentir_link_assinatura"));

    const phoneContext = await browser.newContext({
      viewport: PHONE,
      deviceScaleFactor: 2,
      hasTouch: true,
      isMobile: true,
      locale: "pt-BR",
      timezoneId: "America/Sao_Paulo",
    });
    const patient = await phoneContext.newPage();
    const errors: string[] = [];
    patient.on("pageerror", (error) => errors.push(error.message));
    await patient.goto(sent.link);
    const step = patient.getByTestId("otp-step");
    await step.getByText("WhatsApp para (**) *****-4321").click();
    await snap(patient, "whatsapp-code-choice", { fullPage: false });
    await step.getByRole("button", { name: "Enviar código" }).click();
    // Where it went, once: "…, final 4321." — never "((**) *****-4321)".
    await patient
      .getByText("Enviamos um código de 6 dígitos por WhatsApp para o seu celular cadastrado, final 4321.")
      .waitFor();
    await workUntil(() => fake.received.some((m) => m.body.template.name === "consentir_codigo"));

    // Meta reports the code message undeliverable before the patient typed it: a new code goes by
    // e-mail (decision 066), and the page says where it went instead.
    const [codeMessage] = await database.db
      .select()
      .from(whatsappMessages)
      .where(and(eq(whatsappMessages.contrato_id, documentId), eq(whatsappMessages.tipo, "codigo")));
    const failed = statusWebhook(codeMessage!.wamid!, "failed");
    const failedHook = await fetch(`${base}/api/webhooks/whatsapp`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-hub-signature-256": hubSignature(failed, APP_SECRET) },
      body: failed,
    });
    expect(failedHook.status).toBe(200);
    let fellBack: string | null = null;
    for (let round = 0; round < 20 && !fellBack; round += 1) {
      await app.worker.tick({ sweep: false });
      const [row] = await database.db.select().from(whatsappMessages).where(eq(whatsappMessages.id, codeMessage!.id));
      fellBack = row!.fallback;
    }
    expect(fellBack).toBe("email");
    await patient.getByTestId("otp-fallback").waitFor({ timeout: 20_000 });
    expect(await step.textContent()).toMatch(
      /Não conseguimos entregar o código pelo WhatsApp\. Enviamos um novo código de 6 dígitos para o seu e-mail cadastrado \(.+\)\./,
    );
    expect(await patient.getByTestId("otp-fallback").textContent()).toBe(
      "O código do WhatsApp não vale mais: use o novo.",
    );
    await snap(patient, "whatsapp-code-fell-back-to-email", { fullPage: false });
    const code = await latestSigningCode(staff, patientEmail);
    await patient.getByLabel("Código de 6 dígitos").fill(code);
    await patient.getByRole("button", { name: "Confirmar código" }).click();
    await patient.getByTestId("otp-verified").waitFor();
    expect(errors).toEqual([]);

    // Meta reports the link as read.
    const [linkMessage] = await database.db
      .select()
      .from(whatsappMessages)
      .where(and(eq(whatsappMessages.contrato_id, documentId), eq(whatsappMessages.tipo, "link")));
    const body = statusWebhook(linkMessage!.wamid!, "read");
    const hook = await fetch(`${base}/api/webhooks/whatsapp`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-hub-signature-256": hubSignature(body, APP_SECRET) },
      body,
    });
    expect(hook.status).toBe(200);
    await staff.goto(`/documents/${documentId}`);
    const lines = staff.getByTestId("whatsapp-line");
    await lines.first().waitFor();
    expect(await lines.first().textContent()).toContain("Link de assinatura para (**) *****-4321: lida");
    expect(await lines.nth(1).textContent()).toContain("Código de verificação");
    expect(await lines.nth(1).getByTestId("whatsapp-fallback").textContent()).toBe("Reenviado por e-mail");
    await staff.getByTestId("document-messages").scrollIntoViewIfNeeded();
    await snap(staff, "whatsapp-document-page", { fullPage: false });
  });

  it("on a server that sends no e-mail, the send dialog says so once, first, and leaves the e-mail box off", async () => {
    const documentId = await seedSignableDocument(staff, account, {
      nome: "Rui Tavares Moura",
      cpf: validCpf(),
      email: uniqueEmail("paciente-sem-smtp"),
    });
    const [doc] = await database.db.select().from(contratos).where(eq(contratos.id, documentId));
    await database.db.update(pacientes).set({ telefone: "(11) 98765-1234" }).where(eq(pacientes.id, doc!.paciente_id));
    // Production without SMTP (decision 067) cannot run here (production refuses a localhost
    // PUBLIC_URL); the server's own answer, with the e-mail flags such a server gives.
    await staff.route("**/api/settings/signing", async (route) => {
      const response = await route.fetch();
      const body = (await response.json()) as Record<string, unknown>;
      await route.fulfill({
        response,
        // A server that sends SMS (decision 066): the dialog offers it first. This app has no SMS,
        // so its answer to the send says why the SMS did not go.
        json: {
          ...body,
          email_configurado: false,
          email_entregavel: false,
          codigo_disponivel: false,
          sms_configurado: true,
        },
      });
    });
    await staff.goto(`/documents/${documentId}`);
    await staff.getByTestId("signing-panel").getByRole("button", { name: "Enviar para Assinatura" }).click();
    const dialog = staff.getByTestId("send-for-signature-dialog");
    const hint = dialog.getByTestId("send-email-undeliverable");
    await hint.waitFor();
    expect(await hint.textContent()).toBe(
      "Este servidor não envia e-mails: envie o link por SMS, pelo WhatsApp ou copie-o.",
    );
    const box = dialog.getByTestId("send-email-checkbox");
    const smsBox = dialog.getByTestId("send-sms-checkbox");
    expect(await smsBox.isDisabled()).toBe(false);
    expect(await smsBox.getAttribute("aria-checked")).toBe("false");
    expect((await smsBox.boundingBox())!.y).toBeLessThan((await box.boundingBox())!.y);
    await smsBox.click();
    expect(await box.isDisabled()).toBe(true);
    expect(await box.getAttribute("aria-checked")).toBe("false");
    expect(await box.getAttribute("aria-describedby")).toBe(await hint.getAttribute("id"));
    // The ways that work come first; the e-mail is not spoken of again below.
    expect((await hint.boundingBox())!.y).toBeLessThan((await box.boundingBox())!.y);
    expect(await dialog.getByTestId("send-level-notice").textContent()).not.toMatch(/e-mail/i);
    await animationsFinished(staff);
    await snap(staff, "send-dialog-no-email-server", { fullPage: false });
    const sendRequest = staff.waitForRequest((request) => request.url().endsWith(`/api/documents/${documentId}/send`));
    await dialog.getByRole("button", { name: "Enviar para Assinatura" }).click();
    expect((await sendRequest).postDataJSON()).toEqual({ email: false, sms: true });
    await dialog.getByTestId("signing-link").waitFor();
    expect(await dialog.getByTestId("send-sms-result").textContent()).toBe(
      "Este servidor não envia SMS: o link não foi enviado por SMS.",
    );
    await animationsFinished(staff);
    await snap(staff, "send-dialog-sms-not-sent", { fullPage: false });
    await dialog.getByRole("button", { name: "WhatsApp" }).waitFor();
    await dialog.getByRole("button", { name: "Copiar Link" }).waitFor();
    expect(await dialog.getByRole("button", { name: "Email", exact: true }).count()).toBe(0);
    await staff.unrouteAll({ behavior: "ignoreErrors" });
  });
});
