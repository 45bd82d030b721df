import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { registerProfessional, signIn, validCpf } from "./accounts.js";
import { animationsFinished, launchBrowser, newPage, snap } from "./browser.js";
import { confirmSigningCode, drawSignature, json, patientPhone, seedSignableDocument } from "./signing-helpers.js";

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** A long term: a dozen sections, several screens of text on a phone before the signature step. */
const LONG_TERM = {
  title: "Termo de Consentimento — {{procedimento}}",
  introduction: "Eu, {{paciente_nome}}, CPF {{cpf_paciente}}, autorizo {{procedimento}}.",
  sections: Array.from({ length: 12 }, (_, index) => ({
    id: `s${index + 1}`,
    type: "paragraph",
    title: `Cláusula ${index + 1}`,
    content:
      "Declaro que fui informado(a) de forma clara sobre o procedimento, suas alternativas, os riscos previsíveis e os cuidados necessários antes e depois da sua realização, e que pude fazer perguntas e tive todas as minhas dúvidas respondidas.",
  })),
};

/** Where an element is on the screen, in CSS px (null when not rendered). */
const box = (page: Page, testId: string) => page.getByTestId(testId).boundingBox();

/** The element that has focus is inside the signature step. */
const focusInSignatureStep = (page: Page) =>
  page.evaluate(() => Boolean(document.activeElement?.closest('[data-testid="signature-step"]')));

describe("signing page", () => {
  it("Ir para a assinatura, a wider field on a phone, the success once and a neutral signed state after", async () => {
    const account = await registerProfessional();
    const staff = await newPage(browser);
    await signIn(staff.page, account.email, account.password);
    const signer = { nome: "Beatriz Moura Campos", cpf: validCpf(), email: `beatriz.${Date.now()}@exemplo.com.br` };
    const documentId = await seedSignableDocument(
      staff.page,
      account,
      signer,
      "Termo de Consentimento - Rinoplastia",
      LONG_TERM,
    );
    const { link } = await json<{ link: string }>(
      await staff.page.request.post(`/api/documents/${documentId}/send`, { data: {} }),
      200,
    );

    const patient = await patientPhone(browser);
    const p = patient.page;
    await p.goto(link);
    await p.getByTestId("signing-status").getByText("Aguardando assinatura").waitFor();

    // The shortcut is on the first screen; the signature step is far below it.
    const shortcut = p.getByRole("link", { name: "Ir para a assinatura" });
    await shortcut.waitFor();
    const shortcutBox = (await shortcut.boundingBox())!;
    expect(shortcutBox.y + shortcutBox.height).toBeLessThanOrEqual(844);
    expect(shortcutBox.height).toBeGreaterThanOrEqual(44);
    expect((await box(p, "signature-step"))!.y).toBeGreaterThan(844 * 2);
    expect(await focusInSignatureStep(p)).toBe(false);
    await snap(p, "signing-page-start-phone");
    await snap(p, "signing-page-start-phone-top", { fullPage: false });

    // A tap: the step comes into view and takes the focus (keyboard and screen readers follow).
    await shortcut.click();
    await expect.poll(() => focusInSignatureStep(p)).toBe(true);
    expect(await p.evaluate(() => document.activeElement?.id)).toBe("etapa-assinatura");
    // In view: its top on the screen (at the top, or higher up when the page ends below it), not the document's.
    await expect.poll(async () => Math.round((await box(p, "signature-step"))!.y)).toBeLessThan(844 - 200);
    expect((await box(p, "signature-step"))!.y).toBeGreaterThanOrEqual(0);
    expect(await p.evaluate(() => window.scrollY)).toBeGreaterThan(844 * 2);
    // The page's address stays the link itself (no #fragment added to what may be copied).
    expect(p.url()).toBe(link);
    await p.getByTestId("otp-step").waitFor();
    await snap(p, "signing-page-after-shortcut-phone", { fullPage: false });
    // The code step's buttons are large enough for a finger.
    expect(
      (await p.getByTestId("otp-step").getByRole("button", { name: "Enviar código" }).boundingBox())!.height,
    ).toBeGreaterThanOrEqual(44);

    // After the code, the drawing field fills the phone's width: larger than 280×120, same proportion.
    await confirmSigningCode(p, staff.page, signer.email);
    const field = await p.getByTestId("signature-canvas").evaluate((node) => {
      const canvas = node as HTMLCanvasElement;
      const rect = canvas.getBoundingClientRect();
      return { css: [rect.width, rect.height], store: [canvas.width, canvas.height] };
    });
    expect(field.css[0]).toBeGreaterThan(280);
    expect(field.css[1]).toBeGreaterThan(120);
    expect(field).toEqual({ css: [328, 141], store: [984, 423] });
    expect(await p.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await p.getByTestId("signature-canvas").scrollIntoViewIfNeeded();
    await snap(p, "signing-page-form-phone", { fullPage: false });
    for (const name of ["Desenhar", "Digitar", "Limpar", "Assinar Documento"]) {
      expect((await p.getByRole("button", { name, exact: true }).boundingBox())!.height, name).toBeGreaterThanOrEqual(
        44,
      );
    }
    expect((await p.getByTestId("consent").boundingBox())!.height).toBeGreaterThanOrEqual(44);
    // One line to tick; the full text opens under "Saiba mais" (decision 067).
    expect(await p.getByTestId("consent-detail").isVisible()).toBe(false);
    await p.getByRole("button", { name: "Saiba mais" }).click();
    await p.getByTestId("consent-detail").getByText("art. 10, § 2º", { exact: false }).waitFor();
    expect((await p.getByTestId("consent-more").boundingBox())!.height).toBeGreaterThanOrEqual(44);
    await snap(p, "signing-page-consent-detail-phone", { fullPage: false });

    // The shortcut again, now to the form: focus lands on the step, not lost at the top.
    await p.evaluate(() => window.scrollTo(0, 0));
    await p.getByRole("link", { name: "Ir para a assinatura" }).click();
    await expect.poll(() => focusInSignatureStep(p)).toBe(true);
    await p.getByTestId("sign-form").waitFor();

    // The page says where the copy goes: the address on record, masked; nothing to type twice (decision 047).
    expect(await p.getByTestId("copy-destination").textContent()).toBe(
      "A cópia do documento assinado vai para be***@exemplo.com.br, o e-mail registrado na clínica.",
    );
    expect(await p.getByLabel("Confirme o e-mail").count()).toBe(0);

    // Signing: this visitor sees the success, once.
    await p.getByLabel("Nome completo").fill(signer.nome);
    await p.getByLabel("CPF").pressSequentially(signer.cpf);
    await p.getByLabel("E-mail").fill(signer.email);
    await drawSignature(p);
    await p.getByTestId("consent").click();
    await p.getByRole("button", { name: "Assinar Documento" }).click();
    await p.getByTestId("signing-success").getByText("Documento assinado com sucesso!").waitFor();
    expect(await p.getByTestId("signed-revisit").count()).toBe(0);
    expect(await p.getByRole("link", { name: "Ir para a assinatura" }).count()).toBe(0);
    await p.getByRole("link", { name: "Baixar documento assinado" }).waitFor({ timeout: 30_000 });
    await p.evaluate(() => window.scrollTo(0, 0));
    await snap(p, "signing-page-just-signed-phone-top", { fullPage: false });

    // Reopening the signed link: the state, plainly, and the copy to download; no success banner.
    await p.reload();
    await p.getByTestId("signing-status").getByText("Documento assinado").waitFor();
    await p.getByTestId("signed-revisit").getByRole("heading", { name: "Documento assinado" }).waitFor();
    expect(await p.getByTestId("signing-success").count()).toBe(0);
    expect(await p.getByText("Documento assinado com sucesso!").count()).toBe(0);
    expect(await p.getByText("Sua assinatura foi registrada com segurança").count()).toBe(0);
    await p.getByRole("link", { name: "Baixar documento assinado" }).waitFor({ timeout: 30_000 });
    await p.getByTestId("signatures-block").getByText(signer.nome, { exact: false }).first().waitFor();
    expect(await p.getByRole("link", { name: "Ir para a assinatura" }).count()).toBe(0);
    await animationsFinished(p);
    await snap(p, "signing-page-signed-revisit-phone");
    await p.evaluate(() => window.scrollTo(0, 0));
    await snap(p, "signing-page-signed-revisit-phone-top", { fullPage: false });

    // Another visitor with the same link (a forwarded message) sees the same neutral state.
    const other = await patientPhone(browser);
    await other.page.goto(link);
    await other.page.getByTestId("signed-revisit").waitFor();
    expect(await other.page.getByTestId("signing-success").count()).toBe(0);
    await other.page.getByRole("link", { name: "Baixar documento assinado" }).waitFor();
    expect(other.errors).toEqual([]);
    await other.context.close();

    expect(patient.errors).toEqual([]);
    expect(staff.errors).toEqual([]);
    await patient.context.close();
    await staff.context.close();
  });

  it("a patient with no e-mail on record types it twice: a typo is caught before the copy goes to a stranger", async () => {
    const account = await registerProfessional();
    const staff = await newPage(browser);
    await signIn(staff.page, account.email, account.password);
    const signer = { nome: "Caio Brandão Lins", cpf: validCpf(), email: null };
    const documentId = await seedSignableDocument(staff.page, account, signer, "Termo de Consentimento - Otoplastia");
    const { link } = await json<{ link: string }>(
      await staff.page.request.post(`/api/documents/${documentId}/send`, { data: {} }),
      200,
    );

    const patient = await patientPhone(browser);
    const p = patient.page;
    await p.goto(link);
    await p.getByTestId("sign-form").waitFor();
    expect(await p.getByTestId("copy-destination").textContent()).toBe(
      "A cópia do documento assinado vai para este e-mail: digite-o de novo abaixo para conferir.",
    );
    await p.getByLabel("Nome completo").fill(signer.nome);
    await p.getByLabel("CPF").pressSequentially(signer.cpf);
    await p.getByLabel(/^E-mail/).fill("caio.lins@exemplo.com.br");
    await p.getByLabel("Confirme o e-mail").fill("caio.lins@exenplo.com.br");
    await p.getByLabel("Confirme o e-mail").scrollIntoViewIfNeeded();
    await snap(p, "signing-page-email-twice-phone", { fullPage: false });
    await drawSignature(p);
    await p.getByTestId("consent").click();
    await p.getByRole("button", { name: "Assinar Documento" }).click();
    const error = p.getByTestId("sign-error");
    await error.waitFor();
    expect(await error.textContent()).toContain("Os e-mails não conferem. Digite o mesmo e-mail nos dois campos.");
    expect(await p.getByLabel("Confirme o e-mail").getAttribute("aria-invalid")).toBe("true");
    await snap(p, "signing-page-email-mismatch-phone", { fullPage: false });

    await p.getByLabel("Confirme o e-mail").fill("Caio.Lins@exemplo.com.br");
    expect(await error.count()).toBe(0);
    await p.getByRole("button", { name: "Assinar Documento" }).click();
    await p.getByTestId("signing-success").waitFor();
    // No address on record: the page does not name one for the copy.
    await p.getByTestId("signed-notice").waitFor();
    expect(await p.getByTestId("signed-notice").textContent()).not.toContain("A sua vai para");
    expect(await p.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    expect(patient.errors).toEqual([]);
    expect(staff.errors).toEqual([]);
    await patient.context.close();
    await staff.context.close();
  });

  it("on a laptop the field stays the spec's 280×120 and the shortcut leads to it", async () => {
    const account = await registerProfessional();
    const staff = await newPage(browser);
    await signIn(staff.page, account.email, account.password);
    const signer = { nome: "Caio Ferraz Duarte", cpf: validCpf(), email: `caio.${Date.now()}@exemplo.com.br` };
    const documentId = await seedSignableDocument(
      staff.page,
      account,
      signer,
      "Termo de Consentimento - Implante",
      LONG_TERM,
    );
    const { link } = await json<{ link: string }>(
      await staff.page.request.post(`/api/documents/${documentId}/send`, { data: {} }),
      200,
    );

    const laptop = await newPage(browser, { width: 1366, height: 768 });
    const p = laptop.page;
    await p.goto(link);
    await p.getByTestId("signing-status").getByText("Aguardando assinatura").waitFor();
    await snap(p, "signing-page-start-desktop");
    // Keyboard: Tab to the shortcut and Enter.
    await p.getByRole("link", { name: "Ir para a assinatura" }).focus();
    await p.keyboard.press("Enter");
    await expect.poll(() => focusInSignatureStep(p)).toBe(true);
    await confirmSigningCode(p, staff.page, signer.email);
    const size = await p.getByTestId("signature-canvas").evaluate((node) => {
      const rect = node.getBoundingClientRect();
      return [rect.width, rect.height];
    });
    expect(size).toEqual([280, 120]);
    await p.getByTestId("sign-form").scrollIntoViewIfNeeded();
    await snap(p, "signing-page-form-desktop", { fullPage: false });
    expect(laptop.errors).toEqual([]);
    expect(staff.errors).toEqual([]);
    await laptop.context.close();
    await staff.context.close();
  });
});
