import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeZenvia, type FakeZenviaServer } from "../fakes/zenvia-server.js";
import { validCpf } from "../helpers/factories.js";
import { registerProfessional, signIn } from "./accounts.js";
import { PHONE, pageWidth, snap } from "./browser.js";
import { OWN_APP_DESKTOP, type OwnApp, startOwnApp } from "./own-app.js";
import { clareamentoTemplateAndPatients, json, seedSignableDocument } from "./signing-helpers.js";

/**
 * The link by SMS (decision 066) from the front desk's two other screens: "Corrigir contato e
 * reenviar" with the corrected mobile, and Enviar em lote (decision 076) with "SMS" as a channel.
 * Its own app, configured for the local Zenvia fake, whose inbox is what the patients received.
 */
let own: OwnApp;
let zenvia: FakeZenviaServer;
let staff: Page;
let account: { email: string; password: string; nome: string };

beforeAll(async () => {
  zenvia = await startFakeZenvia();
  own = await startOwnApp({
    env: { SMS_PROVIDER_URL: zenvia.url, SMS_API_TOKEN: "token-de-teste", SMS_FROM: "clinica" },
  });
  staff = own.staff;
  account = await registerProfessional(own.base);
  await signIn(staff, account.email, account.password);
}, 120_000);
afterAll(async () => {
  await own?.close();
  await zenvia?.close();
});

const smsTo = (to: string) => zenvia.received.filter((message) => message.to === to);

describe("the link by SMS from the front desk", () => {
  it("Corrigir contato: the corrected mobile gets the new link by SMS", async () => {
    await staff.setViewportSize(OWN_APP_DESKTOP);
    const cpf = validCpf();
    const email = `lia.${cpf}@exemplo.com.br`;
    const documentId = await seedSignableDocument(staff, account, { nome: "Lia Celular Trocado", cpf, email });
    const sent = await json<{ link: string }>(
      await staff.request.post(`/api/documents/${documentId}/send`, { data: { email: true } }),
      200,
    );

    await staff.goto(`/documents/${documentId}`);
    await staff.getByTestId("contact-fix-open").click();
    const dialog = staff.getByTestId("contact-fix-dialog");
    const smsBox = dialog.getByTestId("contact-fix-sms-checkbox");
    // No mobile on the record yet: SMS waits for one in the field.
    expect(await smsBox.isDisabled()).toBe(true);
    await dialog.getByText("Informe um celular com DDD para enviar o novo link por SMS.").waitFor();
    await dialog.getByLabel("Celular", { exact: true }).fill("(11) 98765-7001");
    await staff.waitForFunction(
      () => !document.querySelector<HTMLButtonElement>('[data-testid="contact-fix-sms-checkbox"]')?.disabled,
    );
    await smsBox.click();
    expect(await smsBox.getAttribute("aria-checked")).toBe("true");
    await snap(staff, "contact-fix-sms", { fullPage: false });
    // On a phone, the dialog with the SMS box fits the screen.
    await staff.setViewportSize(PHONE);
    expect(await pageWidth(staff)).toBeLessThanOrEqual(PHONE.width);
    await snap(staff, "contact-fix-sms-phone", { fullPage: false });
    await staff.setViewportSize(OWN_APP_DESKTOP);
    const fixRequest = staff.waitForRequest((request) =>
      request.url().endsWith(`/api/documents/${documentId}/contact`),
    );
    await dialog.getByRole("button", { name: "Corrigir e reenviar" }).click();
    expect((await fixRequest).postDataJSON()).toMatchObject({ telefone: "(11) 98765-7001", sms: true });
    await dialog
      .getByTestId("contact-fix-sms-result")
      .getByText("Novo link enviado por SMS ao celular do paciente.")
      .waitFor();
    const newLink = await dialog.getByTestId("signing-link").inputValue();
    expect(newLink).not.toBe(sent.link);
    await snap(staff, "contact-fix-sms-done", { fullPage: false });

    await own.workUntil(() => smsTo("5511987657001").length > 0);
    const [received] = smsTo("5511987657001");
    expect(received!.text).toBe(
      `${received!.text.split(":")[0]}: Lia, há um documento para você assinar. Link pessoal: ${newLink}`,
    );
    expect(received!.text).not.toContain("Clareamento");

    expect(own.errors).toEqual([]);
  });

  it("Enviar em lote by SMS: each mobile gets its link; a patient without one is told on their row", async () => {
    await staff.setViewportSize(OWN_APP_DESKTOP);
    const request = staff.request;
    await clareamentoTemplateAndPatients(request, "TCLE Clareamento Lote", [
      { nome: "Ana Lote Ribeiro", telefone: "(11) 98765-7101" },
      { nome: "Bruno Lote Dias", telefone: "(21) 99876-7102" },
      { nome: "Caio Sem Celular", telefone: null },
    ]);

    await staff.goto("/documents/bulk");
    await staff.getByRole("heading", { name: "Enviar em lote" }).waitFor();
    await staff.getByLabel("Título dos documentos").fill("TCLE Clareamento Lote");
    await staff.getByLabel("Profissional responsável").selectOption({ label: account.nome });
    // SMS is offered (this server sends SMS), off until chosen; e-mail is left out of this batch.
    const sms = staff.getByRole("checkbox", { name: "SMS (celular do cadastro)" });
    expect(await sms.getAttribute("aria-checked")).toBe("false");
    await sms.click();
    await staff.getByRole("checkbox", { name: "E-mail", exact: true }).click();
    await staff.getByText("Quem não tem celular cadastrado não recebe o SMS", { exact: false }).waitFor();
    const picker = staff.getByTestId("bulk-patient-picker");
    for (const nome of ["Ana Lote Ribeiro", "Bruno Lote Dias", "Caio Sem Celular"]) {
      await picker.getByLabel(new RegExp(nome)).check();
    }
    await staff.getByTestId("bulk-submit").getByText("Enviar 3 documentos").waitFor();
    await snap(staff, "bulk-send-sms-form");
    await staff.setViewportSize(PHONE);
    expect(await pageWidth(staff)).toBeLessThanOrEqual(PHONE.width);
    await snap(staff, "bulk-send-sms-form-phone");
    await staff.setViewportSize(OWN_APP_DESKTOP);
    const bulkRequest = staff.waitForRequest((r) => r.url().endsWith("/api/documents/bulk") && r.method() === "POST");
    await staff.getByTestId("bulk-submit").click();
    await staff.getByRole("alertdialog").getByText("por SMS.", { exact: false }).waitFor();
    await staff.getByTestId("bulk-confirm").click();
    expect((await bulkRequest).postDataJSON()).toMatchObject({ email: false, sms: true });

    const results = staff.getByTestId("bulk-results");
    await results.getByTestId("bulk-sent-count").getByText("2 enviados").waitFor();
    await results.getByTestId("bulk-failed-count").getByText("1 não enviado").waitFor();
    const rows = results.getByTestId("bulk-result-row");
    await rows.filter({ hasText: "Ana Lote Ribeiro" }).getByText("Enviado por SMS").waitFor();
    await rows.filter({ hasText: "Bruno Lote Dias" }).getByText("Enviado por SMS").waitFor();
    await rows
      .filter({ hasText: "Caio Sem Celular" })
      .getByText(/^Sem celular cadastrado para os canais escolhidos/)
      .waitFor();
    await snap(staff, "bulk-send-sms-results");
    await staff.setViewportSize(PHONE);
    await results.locator("li").first().waitFor();
    expect(await pageWidth(staff)).toBeLessThanOrEqual(PHONE.width);
    await snap(staff, "bulk-send-sms-results-phone");
    await staff.setViewportSize(OWN_APP_DESKTOP);

    // What the patients' phones received: their own link, their first name, no title.
    await own.workUntil(() => smsTo("5511987657101").length > 0 && smsTo("5521998767102").length > 0);
    for (const [to, nome] of [
      ["5511987657101", "Ana"],
      ["5521998767102", "Bruno"],
    ] as const) {
      const theirs = smsTo(to);
      expect(theirs, to).toHaveLength(1);
      expect(theirs[0]!.text).toMatch(
        new RegExp(`: ${nome}, há um documento para você assinar\\. Link pessoal: ${own.base}/assinar/`),
      );
      expect(theirs[0]!.text).not.toContain("Clareamento");
    }
    expect(zenvia.received.filter((message) => /Caio/.test(message.text))).toEqual([]);

    // E-mail and SMS: a patient with an e-mail and no mobile is sent by e-mail, and their row says
    // the SMS did not go.
    await json(
      await request.post("/api/patients", {
        data: {
          nome: "Dora Só E-mail",
          cpf: validCpf(),
          data_nascimento: "1985-07-21",
          email: `dora.${validCpf()}@exemplo.com.br`,
        },
      }),
      201,
    );
    await staff.getByRole("button", { name: "Novo lote" }).click();
    await staff.getByRole("checkbox", { name: "E-mail", exact: true }).click();
    expect(await sms.getAttribute("aria-checked")).toBe("true");
    await picker.getByLabel(/Dora Só E-mail/).check();
    await staff.getByTestId("bulk-submit").click();
    await staff.getByRole("alertdialog").getByText("por e-mail e SMS.", { exact: false }).waitFor();
    await staff.getByTestId("bulk-confirm").click();
    const dora = results.getByTestId("bulk-result-row").filter({ hasText: "Dora Só E-mail" });
    await dora.getByText("Enviado por e-mail", { exact: true }).waitFor();
    expect(await dora.getByTestId("bulk-row-sms-motivo").textContent()).toBe(
      "O paciente não tem celular cadastrado: o link não foi enviado por SMS.",
    );
    await snap(staff, "bulk-send-sms-no-mobile", { fullPage: false });
    expect(own.errors).toEqual([]);
  });
});
