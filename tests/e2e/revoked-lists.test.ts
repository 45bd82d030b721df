/**
 * A revoked consent stays signed but is never shown as plain "Assinado" (decision 056): on a
 * 390 px phone the documents list, the dashboard's recent documents and the status filter say
 * "Revogado"; a refused one says "Recusado"; the counters count both.
 */
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signatureDataUrl } from "../helpers/signing.js";
import { registerProfessional, signIn, validCpf } from "./accounts.js";
import { launchBrowser, newPage, pageWidth, PHONE, snap } from "./browser.js";
import { json, seedSignableDocument, signThroughApi } from "./signing-helpers.js";

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe("revoked and refused documents in the staff lists", () => {
  it("the list, the dashboard and the filter say Revogado and Recusado on a phone", async () => {
    const account = await registerProfessional();
    const staff = await newPage(browser, PHONE);
    const page = staff.page;
    await signIn(page, account.email, account.password);
    const revoked = { nome: "Rita Revogada Lopes", cpf: validCpf(), email: "rita.revogada@exemplo.com.br" };
    const revokedId = await seedSignableDocument(page, account, revoked, "Termo de Consentimento - Uso de imagem");
    const sent = await json<{ link: string }>(
      await page.request.post(`/api/documents/${revokedId}/send`, { data: {} }),
      200,
    );
    await signThroughApi(page, sent.link, revoked, signatureDataUrl());
    await json(await page.request.post(`/api/documents/${revokedId}/revocation`, { data: { meio: "telefone" } }), 201);
    const refused = { nome: "Otto Recusa Prado", cpf: validCpf(), email: "otto.recusa@exemplo.com.br" };
    const refusedId = await seedSignableDocument(page, account, refused, "Termo de Consentimento - Artroscopia");
    await json(await page.request.post(`/api/documents/${refusedId}/send`, { data: {} }), 200);
    await json(await page.request.post(`/api/documents/${refusedId}/refusal`, { data: { meio: "presencial" } }), 201);

    await page.goto("/documents");
    const card = (name: string) => page.getByTestId("document-card").filter({ hasText: name });
    await card(revoked.nome).getByTestId("document-status").getByText("Revogado", { exact: true }).waitFor();
    await card(refused.nome).getByTestId("document-status").getByText("Recusado", { exact: true }).waitFor();
    expect(await card(revoked.nome).getByText("Assinado", { exact: true }).count()).toBe(0);
    await page.getByTestId("counter-revogados").getByText("1", { exact: true }).waitFor();
    await page.getByTestId("counter-recusados").getByText("1", { exact: true }).waitFor();
    expect(await pageWidth(page)).toBeLessThanOrEqual(390);
    await snap(page, "revoked-list-phone");

    // The filter: "Revogado" lists only the revoked one, and its chip says so.
    await page.goto("/documents?revogado=1");
    await page.getByTestId("document-filter-chips").getByText("Status: Revogado").waitFor();
    await card(revoked.nome).waitFor();
    await expect.poll(() => page.getByTestId("document-card").count()).toBe(1);
    await page.goto("/documents?status=recusado");
    await card(refused.nome).waitFor();
    await expect.poll(() => page.getByTestId("document-card").count()).toBe(1);

    // The dashboard: the recent documents and the refusal/revocation line.
    await page.goto("/");
    const recent = page.getByTestId("recent-document");
    await recent.filter({ hasText: revoked.nome }).getByText("Revogado", { exact: true }).waitFor();
    await recent.filter({ hasText: refused.nome }).getByText("Recusado", { exact: true }).waitFor();
    await page
      .getByTestId("dashboard-choices")
      .getByRole("link", { name: /Revogados: 1/ })
      .waitFor();
    expect(await pageWidth(page)).toBeLessThanOrEqual(390);
    await snap(page, "revoked-dashboard-phone");
    await page
      .getByTestId("dashboard-choices")
      .getByRole("link", { name: /Revogados/ })
      .click();
    await page.waitForURL(/\/documents\?revogado=1$/);
    await card(revoked.nome).waitFor();

    // The document page: the badge says Revogado.
    await page.goto(`/documents/${revokedId}`);
    await page.getByTestId("document-status").first().getByText("Revogado", { exact: true }).waitFor();
    await staff.context.close();
  });
});
