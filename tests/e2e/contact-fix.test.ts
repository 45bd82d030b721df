/**
 * "Corrigir contato e reenviar" from the staff document page: a wrong e-mail found after sending
 * is corrected there; the old link stops working on the patient's phone, the new one (sent to the
 * corrected address) signs. A malformed contact gets the pt-BR message in the dialog.
 */
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { registerProfessional, signIn, validCpf } from "./accounts.js";
import { DESKTOP, launchBrowser, newPage, snap } from "./browser.js";
import { confirmSigningCode, json, patientPhone, seedSignableDocument } from "./signing-helpers.js";

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe("fixing a contact keeps the document", () => {
  it("staff correct the e-mail on the document page; the old link dies and the new one reaches the patient", async () => {
    const account = await registerProfessional();
    const staff = await newPage(browser, DESKTOP);
    await signIn(staff.page, account.email, account.password);
    const cpf = validCpf();
    const wrong = `joana.erro.${cpf}@exemplo.com.br`;
    const right = `joana.certo.${cpf}@exemplo.com.br`;
    const documentId = await seedSignableDocument(staff.page, account, {
      nome: "Joana Contato Ribeiro",
      cpf,
      email: wrong,
    });
    const sent = await json<{ link: string }>(
      await staff.page.request.post(`/api/documents/${documentId}/send`, { data: { email: true } }),
      200,
    );

    await staff.page.goto(`/documents/${documentId}`);
    await staff.page.getByTestId("contact-fix-open").click();
    const dialog = staff.page.getByTestId("contact-fix-dialog");
    const email = dialog.getByLabel("E-mail", { exact: true });
    expect(await email.inputValue()).toBe(wrong);
    // Malformed: the pt-BR message under the field, nothing sent.
    await email.fill("joana@");
    await dialog.getByLabel("Celular").fill("(11) 1234");
    await dialog.getByRole("button", { name: "Corrigir e reenviar" }).click();
    await dialog.getByText("E-mail inválido").waitFor();
    await dialog.getByText(/Celular inválido: informe DDD e número/).waitFor();
    await snap(staff.page, "contact-fix-invalid", { fullPage: false });
    await dialog.getByLabel("Celular").fill("");
    await email.fill(right);
    await dialog.getByRole("button", { name: "Corrigir e reenviar" }).click();
    await staff.page
      .getByText("Contato corrigido; novo link enviado e o anterior deixou de funcionar")
      .first()
      .waitFor();
    const newLink = await dialog.getByTestId("signing-link").inputValue();
    expect(newLink).not.toBe(sent.link);
    await snap(staff.page, "contact-fix-done", { fullPage: false });
    await dialog.getByRole("button", { name: "Fechar" }).first().click();
    // The trail on the page names the change.
    await staff.page.reload();
    await staff.page.getByRole("tab", { name: "Trilha de Auditoria" }).click();
    await staff.page
      .getByTestId("audit-trail")
      .getByText("Contato do paciente alterado enquanto aguardava assinatura")
      .first()
      .waitFor();

    const phone = await patientPhone(browser);
    await phone.page.goto(sent.link);
    await phone.page.getByTestId("signing-invalid").waitFor();
    await phone.page.goto(newLink);
    await confirmSigningCode(phone.page, staff.page, right);
    expect(phone.errors).toEqual([]);
    await phone.context.close();
    await staff.context.close();
  });
});
