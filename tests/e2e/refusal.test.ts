/**
 * Informed refusal on a 390 px phone (decision 056): the patient reads, confirms the code, taps
 * "Não concordo / Recusar", gives a reason and refuses; the link no longer signs; the document page
 * shows "Recusado em …" with the reason.
 */
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signatureDataUrl } from "../helpers/signing.js";
import { registerProfessional, signIn, validCpf } from "./accounts.js";
import { DESKTOP, launchBrowser, newPage, PHONE, snap } from "./browser.js";
import { confirmSigningCode, json, patientPhone, seedSignableDocument, signThroughApi } from "./signing-helpers.js";

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const PATIENT = "Carla Recusa Menezes";
const EMAIL = "carla.recusa@exemplo.com.br";
const REASON = "Prefiro tentar o tratamento com fisioterapia antes";

describe("informed refusal on a phone", () => {
  it("the patient refuses with a reason; the clinic sees it on the document", async () => {
    const account = await registerProfessional();
    const staff = await newPage(browser, DESKTOP);
    await signIn(staff.page, account.email, account.password);
    const cpf = validCpf();
    const documentId = await seedSignableDocument(
      staff.page,
      account,
      { nome: PATIENT, cpf, email: EMAIL },
      "Termo de Consentimento - Artroscopia",
    );
    const sent = await json<{ link: string }>(
      await staff.page.request.post(`/api/documents/${documentId}/send`, { data: {} }),
      200,
    );

    const phone = await patientPhone(browser);
    const p = phone.page;
    await p.goto(sent.link);
    await confirmSigningCode(p, staff.page, EMAIL);
    const choice = p.getByTestId("choice-recusa");
    await choice.getByRole("button", { name: "Não concordo / Recusar" }).click();
    await choice.getByLabel("Nome completo").fill(PATIENT);
    await choice.getByLabel("CPF").fill(cpf);
    await choice.getByLabel("Motivo (opcional)").fill(REASON);
    // A wrong CPF is refused in pt-BR and nothing is recorded.
    await choice.getByLabel("CPF").fill("11144477735");
    await choice.getByRole("button", { name: "Recusar o documento" }).click();
    await choice.getByText("CPF não confere com os dados do paciente").waitFor();
    await choice.getByLabel("CPF").fill(cpf);
    await snap(p, "refusal-form-phone");
    await choice.getByRole("button", { name: "Recusar o documento" }).click();
    const done = p.getByTestId("refusal-done");
    await done.getByText("Sua recusa foi registrada").waitFor();
    // No SMTP on this server: the record is not promised by e-mail.
    expect(await done.getByTestId("refusal-copy").textContent()).toBe(
      "O registro selado da recusa fica guardado pela clínica; você pode pedir uma cópia a ela.",
    );
    expect(await p.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    const code = (await done.getByTestId("refusal-code").textContent())?.trim();
    expect(code).toMatch(/^[0-9A-Z]{6,32}$/);
    await snap(p, "refusal-done-phone");

    // The link no longer opens for signing.
    await p.reload();
    await p.getByTestId("signing-invalid").waitFor();

    await staff.page.goto(`/documents/${documentId}`);
    const records = staff.page.getByTestId("choice-records");
    await records.getByText(/^Recusado em /).waitFor();
    await records.getByText(`Motivo: ${REASON}`).waitFor();
    await staff.page.getByText("Recusado", { exact: true }).first().waitFor();
    // The refused term is not offered as a printable draft: the sealed refusal record is the paper.
    await staff.page.getByRole("button", { name: "Visualizar" }).waitFor();
    expect(await staff.page.getByRole("button", { name: /Baixar rascunho/ }).count()).toBe(0);
    await snap(staff.page, "refusal-document-page");
    await phone.context.close();
    await staff.context.close();
  });
});

describe("revocation recorded by staff", () => {
  it("staff record an in-person revocation of a signed consent on a phone; the page says Revogado em …", async () => {
    const account = await registerProfessional();
    const staff = await newPage(browser, PHONE);
    await signIn(staff.page, account.email, account.password);
    const patient = { nome: "Davi Revoga Nunes", cpf: validCpf(), email: "davi.revoga@exemplo.com.br" };
    const documentId = await seedSignableDocument(
      staff.page,
      account,
      patient,
      "Termo de Consentimento - Uso de imagem",
    );
    const sent = await json<{ link: string }>(
      await staff.page.request.post(`/api/documents/${documentId}/send`, { data: {} }),
      200,
    );
    await signThroughApi(staff.page, sent.link, patient, signatureDataUrl());

    await staff.page.goto(`/documents/${documentId}`);
    await staff.page.getByTestId("record-choice-open").click();
    const form = staff.page.getByTestId("record-choice");
    await form.getByLabel("Como o paciente comunicou").selectOption("presencial");
    await form.getByLabel("Motivo (opcional)").fill("Não quer mais o uso das fotos");
    await form.getByRole("button", { name: "Registrar revogação" }).click();
    const records = staff.page.getByTestId("choice-records");
    await records.getByText(/^Revogado em /).waitFor();
    await records.getByText("Motivo: Não quer mais o uso das fotos").waitFor();
    await records.getByText(/registrado por/).waitFor();
    // Revoked once: the button is gone; the document stays signed, but reads "Revogado" (decision 056).
    expect(await staff.page.getByTestId("record-choice-open").count()).toBe(0);
    await staff.page.getByTestId("document-status").first().getByText("Revogado", { exact: true }).waitFor();
    expect(await staff.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await snap(staff.page, "revocation-document-page-phone");
    await staff.context.close();
  });
});
