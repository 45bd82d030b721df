/**
 * The patient revokes a signed consent on their own link, on a 390 px phone (decision 056): the
 * signed page explains what revoking means, asks for the code e-mailed for revoking (a wrong one
 * leads back to the code step, not to a dead end), name, CPF, an optional reason and a
 * confirmation, then says "Revogado em …" with the record's code. Reopened, it shows that state
 * and no button; the clinic's document page shows the revocation.
 */
import { readFileSync } from "node:fs";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signatureDataUrl } from "../helpers/signing.js";
import { registerProfessional, signIn, validCpf } from "./accounts.js";
import { DESKTOP, launchBrowser, newPage, snap } from "./browser.js";
import { json, latestRevocationCode, patientPhone, seedSignableDocument, signThroughApi } from "./signing-helpers.js";

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const REASON = "Quero conversar de novo com o médico antes";

describe("revocation by the patient on the signed page", () => {
  it("the patient revokes the whole consent from the signed page", async () => {
    const account = await registerProfessional();
    const staff = await newPage(browser, DESKTOP);
    await signIn(staff.page, account.email, account.password);
    const patient = { nome: "Elisa Revoga Campos", cpf: validCpf(), email: "elisa.revoga@exemplo.com.br" };
    const documentId = await seedSignableDocument(staff.page, account, patient, "Termo de Consentimento - Rinoplastia");
    const sent = await json<{ link: string }>(
      await staff.page.request.post(`/api/documents/${documentId}/send`, { data: {} }),
      200,
    );
    await signThroughApi(staff.page, sent.link, patient, signatureDataUrl());

    const phone = await patientPhone(browser);
    const p = phone.page;
    // A second tab left open on the offer, for after the revocation.
    const stale = await phone.context.newPage();
    await stale.goto(sent.link);
    await stale.getByTestId("revoke-offer").waitFor();
    await p.goto(sent.link);
    await p.getByTestId("signed-revisit").waitFor();
    const offer = p.getByTestId("revoke-offer");
    await offer.getByText("É gratuito (Lei Geral de Proteção de Dados, art. 8º, § 5º)", { exact: false }).waitFor();
    await offer.getByText("O documento que você assinou não é alterado", { exact: false }).waitFor();
    await offer.getByText("“Registro de revogação” selado", { exact: false }).waitFor();
    await offer.scrollIntoViewIfNeeded();
    await snap(p, "revocation-offer-phone");
    await offer.getByRole("button", { name: "Revogar consentimento" }).click();

    // The code, sent for revoking (its e-mail says so); a wrong one first.
    const codeStep = p.getByTestId("revoke-code");
    await codeStep.getByText("Para revogar, confirme que é você", { exact: false }).waitFor();
    await codeStep.getByRole("button", { name: "Enviar código" }).click();
    await codeStep
      .getByText("Enviamos um código de 6 dígitos para o seu e-mail cadastrado", { exact: false })
      .waitFor();
    const right = await latestRevocationCode(staff.page, patient.email);
    const wrong = right === "000000" ? "111111" : "000000";
    await codeStep.getByLabel("Código de 6 dígitos").fill(wrong);
    await codeStep.getByRole("button", { name: "Confirmar código" }).click();

    const fillForm = async () => {
      const form = p.getByTestId("choice-revogacao");
      await form.getByRole("heading", { name: "Revogar meu consentimento" }).waitFor();
      await form.getByLabel("Nome completo").fill(patient.nome);
      await form.getByLabel("CPF").fill(patient.cpf);
      await form.getByLabel("Motivo (opcional)").fill(REASON);
      await form.getByRole("button", { name: "Continuar" }).click();
      await form.getByTestId("choice-confirm").getByText("Confirma a revogação?").waitFor();
      return form;
    };
    let form = await fillForm();
    await form.getByRole("button", { name: "Sim, revogar" }).click();
    // Refused: back to the code step with the reason, nothing recorded.
    await codeStep.getByTestId("otp-error").getByText("Código inválido ou expirado", { exact: false }).waitFor();
    expect(await p.getByTestId("revoked-state").count()).toBe(0);
    await codeStep.getByLabel("Código de 6 dígitos").fill(right);
    await codeStep.getByRole("button", { name: "Confirmar código" }).click();
    // What was typed is still there.
    form = p.getByTestId("choice-revogacao");
    expect(await form.getByLabel("Nome completo").inputValue()).toBe(patient.nome);
    expect(await form.getByLabel("Motivo (opcional)").inputValue()).toBe(REASON);
    form = await fillForm();
    await snap(p, "revocation-confirm-phone");
    await form.getByRole("button", { name: "Sim, revogar" }).click();

    const done = p.getByTestId("revoked-state");
    await done.getByText("Sua revogação foi registrada").waitFor();
    await done.getByText(/^Revogado em \d{2}\/\d{2}\/\d{4}/).waitFor();
    // Without e-mail on this server, nothing is promised by e-mail.
    await done.getByText("O registro selado da revogação fica guardado pela clínica", { exact: false }).waitFor();
    expect(await done.getByText("por e-mail", { exact: false }).count()).toBe(0);
    const code = (await done.getByTestId("revocation-code").textContent())?.trim();
    expect(code).toMatch(/^[0-9A-Z]{6,32}$/);
    await p.getByTestId("signing-status").getByText("Consentimento revogado").waitFor();
    expect(await p.getByTestId("revoke-offer").count()).toBe(0);
    expect(await p.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await snap(p, "revocation-done-phone");

    // Reopened: the same state, the same code, no button; the signed copy is still offered.
    await p.reload();
    const again = p.getByTestId("revoked-state");
    await again
      .getByText(/^Revogado em /)
      .first()
      .waitFor();
    expect((await again.getByTestId("revocation-code").textContent())?.trim()).toBe(code);
    await p.getByTestId("signed-pdf-panel").waitFor();
    expect(await p.getByRole("button", { name: "Revogar consentimento" }).count()).toBe(0);
    expect(phone.errors).toEqual([]);
    // The tab left open: asking for a code now shows the revoked state, not an error.
    await stale.getByTestId("revoke-offer").getByRole("button", { name: "Revogar consentimento" }).click();
    await stale.getByTestId("revoke-code").getByRole("button", { name: "Enviar código" }).click();
    await stale
      .getByTestId("revoked-state")
      .getByText(/^Revogado em /)
      .waitFor();
    expect(await stale.getByText("Sua revogação foi registrada").count()).toBe(0);
    expect(await stale.getByTestId("revocation-code").textContent()).toBe(code);
    await stale.close();

    // Its code opens the public check, which tells the revocation.
    await again.getByTestId("revocation-check").click();
    await p.waitForURL(`**/verificar/${code}`);
    await p.getByTestId("verification-revoked").waitFor();
    await p.getByTestId("verification-records").getByText("Registro de revogação").waitFor();
    await snap(p, "revocation-verify-phone");

    await staff.page.goto(`/documents/${documentId}`);
    const records = staff.page.getByTestId("choice-records");
    await records.getByText(/^Revogado em /).waitFor();
    await records.getByText(`Motivo: ${REASON}`).waitFor();
    // Its sealed record, once the job has made it, is downloaded from the document page.
    const recordButton = records.getByRole("button", { name: "Baixar Registro de revogação" });
    await expect
      .poll(
        async () => {
          if ((await recordButton.count()) > 0) return true;
          await staff.page.reload();
          await records.waitFor();
          return false;
        },
        { timeout: 60_000, interval: 500 },
      )
      .toBe(true);
    const downloading = staff.page.waitForEvent("download");
    await recordButton.click();
    const saved = await downloading;
    expect(saved.suggestedFilename()).toMatch(/\.pdf$/);
    expect(
      readFileSync((await saved.path())!)
        .subarray(0, 5)
        .toString("latin1"),
    ).toBe("%PDF-");
    await phone.context.close();
    await staff.context.close();
  });
});
