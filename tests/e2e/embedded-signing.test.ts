/**
 * Embedded signing (decision 071), with the repository's example page (examples/embed/index.html)
 * served from a second local origin: the clinic allows http://localhost:<port>, the example page
 * frames the signing link, the patient signs inside the frame and the parent receives
 * consentir:loaded and consentir:signed. The same page from http://127.0.0.1:<port> (not allowed)
 * gets no frame (CSP frame-ancestors) and no event.
 */
import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import type { Browser, FrameLocator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { projectRoot } from "../../src/db/paths.js";
import { registerProfessional, signIn, validCpf } from "./accounts.js";
import { DESKTOP, launchBrowser, newPage, snap } from "./browser.js";
import { json, latestSigningCode, seedSignableDocument } from "./signing-helpers.js";

let browser: Browser;
let site: Server;
let port: number;
const EXAMPLE = readFileSync(path.join(projectRoot, "examples", "embed", "index.html"));

beforeAll(async () => {
  browser = await launchBrowser();
  // The clinic's system: any path answers the example page.
  site = createServer((_request, response) => {
    response.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(EXAMPLE);
  });
  await new Promise<void>((resolve) => site.listen(0, "127.0.0.1", resolve));
  port = (site.address() as AddressInfo).port;
});
afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => site?.close(resolve));
});

/** Draws a signature with the mouse on the canvas inside the frame. */
async function drawIn(page: Page, frame: FrameLocator): Promise<void> {
  const canvas = frame.getByTestId("signature-canvas");
  await canvas.scrollIntoViewIfNeeded();
  const box = (await canvas.boundingBox())!;
  await page.mouse.move(box.x + 30, box.y + 80);
  await page.mouse.down();
  for (let step = 1; step <= 24; step++) {
    await page.mouse.move(box.x + 30 + step * 9, box.y + 60 + Math.sin(step / 2) * 30, { steps: 2 });
  }
  await page.mouse.up();
}

const events = (page: Page) =>
  page
    .getByTestId("eventos")
    .locator("li")
    .evaluateAll((items) => items.map((item) => (item as HTMLElement).dataset.event));

describe("the signing page inside a clinic's own page", () => {
  it("signs inside the frame of an allowed site; the parent gets loaded and signed; another site is refused the frame", async () => {
    const allowed = `http://localhost:${port}`;
    const account = await registerProfessional();
    const staff = await newPage(browser, DESKTOP);
    await signIn(staff.page, account.email, account.password);

    // Configurações: the example site is added by the owner.
    await staff.page.goto("/settings");
    const card = staff.page.getByTestId("embed-settings");
    await card.getByTestId("embed-origins-empty").waitFor();
    await card.getByLabel("Adicionar site").fill(`${allowed}/pagina`);
    await card.getByRole("button", { name: "Adicionar" }).click();
    await card
      .getByText("Use só o início do endereço (protocolo, domínio e porta), sem caminho, parâmetros ou #")
      .waitFor();
    await card.getByLabel("Adicionar site").fill(allowed);
    await card.getByRole("button", { name: "Adicionar" }).click();
    await card.getByTestId("embed-origins").getByText(allowed, { exact: true }).waitFor();
    await card.scrollIntoViewIfNeeded();
    await snap(staff.page, "embed-settings", { fullPage: false });

    const patient = { nome: "Helena Incorporada Dias", cpf: validCpf(), email: "helena.incorporada@exemplo.com.br" };
    const documentId = await seedSignableDocument(staff.page, account, patient, "Termo de Consentimento - Implante");
    const sent = await json<{ link: string }>(
      await staff.page.request.post(`/api/documents/${documentId}/send`, { data: {} }),
      200,
    );

    const clinicSystem = await newPage(browser, DESKTOP);
    const parent = clinicSystem.page;
    await parent.goto(`${allowed}/atendimento?link=${encodeURIComponent(sent.link)}`);
    await parent.getByTestId("eventos").locator('[data-event="consentir:loaded"]').waitFor();
    expect(await parent.getByTestId("situacao").textContent()).toBe("Página de assinatura aberta.");
    const frame = parent.frameLocator("#assinatura");
    await frame.getByTestId("signing-status").getByText("Aguardando assinatura").waitFor();
    await snap(parent, "embed-example-loaded", { fullPage: false });

    // The code, the form and the signature, all inside the frame.
    await frame.getByTestId("otp-step").getByRole("button", { name: "Enviar código" }).click();
    await frame.getByText("Enviamos um código de 6 dígitos para o seu e-mail cadastrado", { exact: false }).waitFor();
    await frame.getByLabel("Código de 6 dígitos").fill(await latestSigningCode(staff.page, patient.email));
    await frame.getByRole("button", { name: "Confirmar código" }).click();
    await frame.getByTestId("otp-verified").waitFor();
    await frame.getByLabel("Nome completo").fill(patient.nome);
    await frame.getByLabel("CPF").pressSequentially(patient.cpf);
    await frame.getByLabel("E-mail").fill(patient.email);
    await drawIn(parent, frame);
    await frame.getByTestId("consent").click();
    await frame.getByRole("button", { name: "Assinar Documento" }).click();
    await frame.getByTestId("signing-success").getByText("Documento assinado com sucesso!").waitFor();
    await parent.getByTestId("eventos").locator('[data-event="consentir:signed"]').waitFor();
    expect(await events(parent)).toEqual(["consentir:loaded", "consentir:signed"]);
    const signedText = await parent.locator('[data-event="consentir:signed"]').textContent();
    expect(signedText).toContain(documentId);
    expect(signedText).not.toContain(patient.nome);
    await snap(parent, "embed-example-signed", { fullPage: false });
    expect(clinicSystem.errors).toEqual([]);

    // The same example page from a site the clinic did not allow: the browser refuses the frame.
    const outsider = await newPage(browser, DESKTOP);
    const refused = outsider.page.waitForEvent("console", (message) => message.text().includes("frame-ancestors"));
    await outsider.page.goto(`http://127.0.0.1:${port}/atendimento?link=${encodeURIComponent(sent.link)}`);
    const message = await refused;
    expect(message.text()).toContain(`frame-ancestors 'self' ${allowed}`);
    const child = outsider.page.frames().find((f) => f !== outsider.page.mainFrame());
    expect(child).toBeDefined();
    expect(await child!.locator("[data-testid=signing-status]").count()).toBe(0);
    expect(await events(outsider.page)).toEqual([]);
    expect(await outsider.page.getByTestId("situacao").textContent()).toBe("Carregando a página de assinatura…");
    await snap(outsider.page, "embed-example-refused", { fullPage: false });
    await outsider.context.close();
    await clinicSystem.context.close();
    await staff.context.close();
  });

  it("a refusal inside the frame posts consentir:refused to the parent", async () => {
    const allowed = `http://localhost:${port}`;
    const account = await registerProfessional();
    const staff = await newPage(browser, DESKTOP);
    await signIn(staff.page, account.email, account.password);
    await json(await staff.page.request.put("/api/settings/embedding", { data: { origens: [allowed] } }), 200);
    const patient = { nome: "Otávio Recusa Incorporada", cpf: validCpf(), email: "otavio.incorporada@exemplo.com.br" };
    const documentId = await seedSignableDocument(staff.page, account, patient, "Termo de Consentimento - Sedação");
    const sent = await json<{ link: string }>(
      await staff.page.request.post(`/api/documents/${documentId}/send`, { data: {} }),
      200,
    );
    const clinicSystem = await newPage(browser, DESKTOP);
    const parent = clinicSystem.page;
    await parent.goto(`${allowed}/atendimento?link=${encodeURIComponent(sent.link)}`);
    await parent.getByTestId("eventos").locator('[data-event="consentir:loaded"]').waitFor();
    const frame = parent.frameLocator("#assinatura");
    await frame.getByTestId("otp-step").getByRole("button", { name: "Enviar código" }).click();
    await frame.getByText("Enviamos um código de 6 dígitos para o seu e-mail cadastrado", { exact: false }).waitFor();
    await frame.getByLabel("Código de 6 dígitos").fill(await latestSigningCode(staff.page, patient.email));
    await frame.getByRole("button", { name: "Confirmar código" }).click();
    await frame.getByTestId("otp-verified").waitFor();
    const choice = frame.getByTestId("choice-recusa");
    await choice.getByRole("button", { name: "Não concordo / Recusar" }).click();
    await choice.getByLabel("Nome completo").fill(patient.nome);
    await choice.getByLabel("CPF").fill(patient.cpf);
    await choice.getByRole("button", { name: "Recusar o documento" }).click();
    await frame.getByTestId("refusal-done").getByText("Sua recusa foi registrada").waitFor();
    await parent.getByTestId("eventos").locator('[data-event="consentir:refused"]').waitFor();
    expect(await events(parent)).toEqual(["consentir:loaded", "consentir:refused"]);
    expect(await parent.getByTestId("situacao").textContent()).toBe("O paciente recusou o termo.");
    expect(await parent.locator('[data-event="consentir:refused"]').textContent()).toBe(
      `consentir:refused · recusado · ${documentId}`,
    );
    await snap(parent, "embed-example-refusal", { fullPage: false });
    expect(clinicSystem.errors).toEqual([]);
    await clinicSystem.context.close();
    await staff.context.close();
  });
});
