/**
 * Enviar em lote (decision 076) from the front desk's screen: a template, patients ticked in the
 * list and a pasted CPF; the sent rows link to their documents, an invalid CPF and a patient
 * without a channel are reported on their own rows, and the result reads on a phone too.
 */
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { registerProfessional, signIn } from "./accounts.js";
import { DESKTOP, PHONE, launchBrowser, newPage, pageWidth, snap } from "./browser.js";
import { clareamentoTemplateAndPatients, json } from "./signing-helpers.js";

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe("bulk send", () => {
  it("sends one document per patient and reports the rows that could not be sent", async () => {
    const account = await registerProfessional();
    const staff = await newPage(browser, DESKTOP);
    await signIn(staff.page, account.email, account.password);
    const request = staff.page.request;
    await clareamentoTemplateAndPatients(request, "TCLE Clareamento", [
      { nome: "Ana Lote Ribeiro", email: "ana.lote@exemplo.com.br" },
      { nome: "Bruno Lote Dias", email: "bruno.lote@exemplo.com.br" },
      { nome: "Caio Sem Contato", email: null },
    ]);

    // From the documents list, as the front desk finds it.
    await staff.page.goto("/documents");
    await staff.page.getByRole("link", { name: "Enviar em lote" }).click();
    await staff.page.getByRole("heading", { name: "Enviar em lote" }).waitFor();
    expect(await staff.page.getByLabel("Título dos documentos").inputValue()).toBe("TCLE Clareamento");
    await staff.page.getByLabel("Profissional responsável").selectOption({ label: account.nome });
    const picker = staff.page.getByTestId("bulk-patient-picker");
    for (const nome of ["Ana Lote Ribeiro", "Bruno Lote Dias", "Caio Sem Contato"]) {
      await picker.getByLabel(new RegExp(nome)).check();
    }
    await staff.page.getByRole("tab", { name: "Colar ou importar CPFs" }).click();
    await staff.page.getByLabel("CPFs, um por linha").fill("123.456.789-00");
    await staff.page.getByTestId("bulk-submit").getByText("Enviar 4 documentos").waitFor();
    await snap(staff.page, "bulk-send-form");
    await staff.page.getByTestId("bulk-submit").click();
    await staff.page.getByTestId("bulk-confirm").click();

    const results = staff.page.getByTestId("bulk-results");
    await results.getByTestId("bulk-sent-count").getByText("2 enviados").waitFor();
    await results.getByTestId("bulk-failed-count").getByText("2 não enviados").waitFor();
    const rows = results.getByTestId("bulk-result-row");
    expect(await rows.count()).toBe(4);
    await rows.filter({ hasText: "Ana Lote Ribeiro" }).getByText("Enviado por e-mail").waitFor();
    await rows
      .filter({ hasText: "Caio Sem Contato" })
      .getByText(/Sem canal de envio/)
      .waitFor();
    await rows.filter({ hasText: "CPF 123.456.789-00" }).getByText("CPF inválido").waitFor();
    await staff.page.getByTestId("bulk-retry").getByText("Tentar novamente as falhas (2)").waitFor();
    await snap(staff.page, "bulk-send-results");

    // The result reads on a phone (cards, no sideways scroll) and links to the sent document.
    await staff.page.setViewportSize(PHONE);
    await results.locator("li").first().waitFor();
    expect(await pageWidth(staff.page)).toBeLessThanOrEqual(PHONE.width);
    await snap(staff.page, "bulk-send-results-phone");
    const link = rows.filter({ hasText: "Bruno Lote Dias" }).getByRole("link", { name: "Abrir documento" });
    const href = (await link.getAttribute("href")) ?? "";
    expect(href).toMatch(/^\/documents\/[0-9a-f-]{36}$/);
    // In a new tab: the result table stays while a document or a record is looked at.
    expect(await link.getAttribute("target")).toBe("_blank");
    const opened = await json<{ status: string; paciente: { nome: string } }>(
      await request.get(`/api/${href.slice(1)}`),
      200,
    );
    expect(opened).toMatchObject({ status: "sent", paciente: { nome: "Bruno Lote Dias" } });
    expect(staff.errors).toEqual([]);
    await staff.context.close();
  });
});
