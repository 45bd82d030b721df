import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { issueEndEntity, testPki } from "../fixtures/icp-brasil.js";
import { registerEstablishment, signIn } from "./accounts.js";
import { animationsFinished, DESKTOP, launchBrowser, newPage, PHONE, pageWidth, snap } from "./browser.js";

let browser: Browser;
let dir: string;
beforeAll(async () => {
  browser = await launchBrowser();
  dir = mkdtempSync(path.join(tmpdir(), "consentir-cert-e2e-"));
});
afterAll(async () => {
  await browser?.close();
  rmSync(dir, { recursive: true, force: true });
});

function fileOf(name: string, bytes: Buffer | string): string {
  const file = path.join(dir, name);
  writeFileSync(file, bytes);
  return file;
}

describe("certificates (/certificates)", () => {
  it("the owner uploads the clinic's A1 (.pfx): required fields, wrong file type, wrong password, success with its badge; removes it → Inativo; an expiring one shows on the dashboard", async () => {
    const pki = testPki();
    const owner = await registerEstablishment();
    const { context, page, errors } = await newPage(browser, DESKTOP);
    await signIn(page, owner.email, owner.password);
    await page.getByRole("link", { name: "Certificado Digital", exact: true }).click();
    await page.getByRole("heading", { name: "Certificado Digital", exact: true }).waitFor();
    await page.getByTestId("certificates-empty").getByText("Nenhum certificado cadastrado").waitFor();

    await page.getByRole("tab", { name: "Novo Certificado" }).click();
    const form = page.getByRole("form", { name: "Novo certificado" });
    await form.getByRole("button", { name: "Enviar certificado" }).click();
    await page.getByText("Campos obrigatórios", { exact: true }).waitFor();
    await page.getByText("Preencha todos os campos obrigatórios.", { exact: true }).waitFor();

    await page.getByTestId("certificate-file").setInputFiles(fileOf("contrato.docx", "não é um certificado"));
    await page.getByText("Tipo de arquivo inválido", { exact: true }).waitFor();
    expect(await form.getByText("Apenas arquivos .p12 ou .pfx são aceitos.").count()).toBeGreaterThan(0);

    await page.getByTestId("certificate-file").setInputFiles(fileOf("clinica-teste.pfx", pki.ecnpj.pfx3des));
    expect(await form.getByLabel(/^Nome do certificado/).inputValue()).toBe("clinica-teste");
    await form.getByLabel(/^Senha do certificado/).fill("senha-errada");
    await form.getByRole("button", { name: "Enviar certificado" }).click();
    await page.getByText("Erro no upload do certificado", { exact: true }).waitFor();
    await form.getByText("Senha do certificado incorreta.").first().waitFor();

    await form.getByLabel(/^Senha do certificado/).fill(pki.ecnpj.password);
    await form.getByLabel(/^Descrição/).fill("e-CNPJ da clínica");
    await form.getByRole("button", { name: "Enviar certificado" }).click();
    const done = page.getByTestId("certificate-upload-done");
    await done.waitFor();
    await page.getByText("Certificado enviado com sucesso", { exact: true }).first().waitFor();
    // The test e-CNPJ's CNPJ is not this clinic's: said, not refused.
    expect(await done.getByTestId("certificate-upload-warnings").textContent()).toContain(
      "não é o CNPJ cadastrado da clínica",
    );
    await snap(page, "certificates-upload-done");

    await done.getByRole("button", { name: "Ver meus certificados" }).click();
    const card = page.getByTestId("certificate-card").first();
    await card.waitFor();
    expect(await card.getByTestId("certificate-badge").textContent()).toBe("Válido");
    expect(await card.getByTestId("certificate-icp").textContent()).toContain("ICP-Brasil");
    expect(await card.textContent()).toContain("e-CNPJ");
    expect(await card.textContent()).toContain("AC Teste Consentir v1");
    // The e2e server has no official roots: the card says the chain was not checked (decision 047).
    expect(await card.getByTestId("certificate-root").textContent()).toBe(
      "Não conferida: este servidor não recebeu as raízes oficiais do ITI",
    );
    expect(await card.textContent()).toContain("e-CNPJ da clínica");
    await snap(page, "certificates-list-desktop");

    await card.getByRole("button", { name: /^Remover o certificado/ }).click();
    const confirm = page.getByRole("alertdialog");
    await confirm.waitFor();
    await animationsFinished(page);
    await confirm.getByRole("button", { name: "Remover", exact: true }).click();
    await page.getByText("Certificado removido", { exact: true }).waitFor();
    await expect.poll(() => card.getByTestId("certificate-badge").textContent()).toBe("Inativo");
    expect(await card.getByRole("button", { name: /^Remover o certificado/ }).isDisabled()).toBe(true);

    // A second one, 10 days from expiry: 'Expira em 10 dias', and the dashboard says so.
    const soon = issueEndEntity(pki, {
      name: "CLINICA TESTE LTDA",
      kind: "PJ",
      cpf: pki.cpf,
      cnpj: pki.cnpj,
      notAfter: new Date(Date.now() + 10 * 86_400_000 - 3_600_000),
    });
    // Coming back to the tab starts a new, empty form.
    await page.getByRole("tab", { name: "Novo Certificado" }).click();
    expect(await form.getByLabel(/^Nome do certificado/).inputValue()).toBe("");
    await page.getByTestId("certificate-file").setInputFiles(fileOf("renovado.p12", soon.pfx));
    await form.getByLabel(/^Senha do certificado/).fill(soon.password);
    await form.getByRole("button", { name: "Enviar certificado" }).click();
    await done.waitFor();
    await page.getByRole("tab", { name: "Meus Certificados" }).click();
    await expect.poll(() => page.getByTestId("certificate-card").count()).toBe(2);
    expect(await page.getByTestId("certificate-card").first().getByTestId("certificate-badge").textContent()).toBe(
      "Expira em 10 dias",
    );

    await page.getByRole("link", { name: "Dashboard", exact: true }).click();
    const notice = page.getByTestId("certificate-expiry-notice");
    await notice.waitFor();
    expect(await notice.textContent()).toContain("renovado — expira em 10 dias");
    await snap(page, "certificates-dashboard-notice");
    // The one expected failure: the wrong password's 400, which the browser logs.
    expect(errors.filter((e) => !e.includes("status of 400"))).toEqual([]);
    expect(errors).toHaveLength(1);
    await context.close();

    // Phone: the list and the form fit the width.
    const phone = await newPage(browser, PHONE);
    await signIn(phone.page, owner.email, owner.password);
    await phone.page.goto("/certificates");
    await phone.page.getByTestId("certificate-card").first().waitFor();
    expect(await pageWidth(phone.page)).toBeLessThanOrEqual(PHONE.width);
    await snap(phone.page, "certificates-list-phone");
    await phone.page.getByRole("tab", { name: "Novo Certificado" }).click();
    await phone.page.getByRole("form", { name: "Novo certificado" }).waitFor();
    expect(await pageWidth(phone.page)).toBeLessThanOrEqual(PHONE.width);
    await snap(phone.page, "certificates-form-phone");
    expect(phone.errors).toEqual([]);
    await phone.context.close();
  });
});
