import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { registerProfessional, signIn, validCpf } from "./accounts.js";
import { animationsFinished, launchBrowser, newPage, snap } from "./browser.js";
import { confirmSigningCode, drawSignature, json, seedSignableDocument } from "./signing-helpers.js";

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const TABLET = { width: 768, height: 1024 } as const;
/** Laptop, small laptop, landscape and portrait tablets: where the preview and the signatures must fit. */
const LAYOUTS = [
  { name: "laptop-1366", width: 1366, height: 768 },
  { name: "laptop-1280", width: 1280, height: 800 },
  { name: "tablet-1024", width: 1024, height: 768 },
  { name: "tablet-820", width: 820, height: 1180 },
] as const;

/**
 * Boxes of `selector`'s visible descendants that stick out of it sideways (clipped or overflowing),
 * signature images over the staff sidebar, and signature boxes over their signer's data.
 */
async function layoutProblems(page: Page, selector: string): Promise<string[]> {
  return page.evaluate((sel) => {
    const problems: string[] = [];
    const root = document.querySelector(sel);
    if (!root) return [`${sel} missing`];
    const box = root.getBoundingClientRect();
    if (box.left < -1 || box.right > window.innerWidth + 1) problems.push(`${sel} outside the window`);
    for (const element of root.querySelectorAll<HTMLElement>("*")) {
      const rect = element.getBoundingClientRect();
      if (rect.width <= 1 || rect.height <= 1 || getComputedStyle(element).visibility === "hidden") continue;
      if (rect.left < box.left - 1 || rect.right > box.right + 1)
        problems.push(
          `${element.tagName.toLowerCase()} "${(element.textContent ?? "").trim().slice(0, 40)}" sticks out`,
        );
    }
    const sidebar = document.querySelector('[data-slot="sidebar-container"]');
    const side = sidebar && getComputedStyle(sidebar).display !== "none" ? sidebar.getBoundingClientRect() : null;
    const dialogOpen = document.querySelector('[role="dialog"]') !== null;
    if (side && side.width > 0 && !dialogOpen) {
      for (const image of document.querySelectorAll('[data-testid="document-signatures"] img')) {
        const rect = image.getBoundingClientRect();
        if (rect.width > 0 && rect.left < side.right - 1) problems.push("signature image under the sidebar");
      }
    }
    // Each signature's data and its image box side by side or stacked, never on top of each other.
    for (const item of root.querySelectorAll('[data-testid="signature-item"]')) {
      const [data, image] = [...item.children].map((child) => child.getBoundingClientRect());
      if (!data || !image) continue;
      const apart = data.right <= image.left + 1 || image.top >= data.bottom - 1;
      if (!apart) problems.push(`signature box over its data (${Math.round(data.right)} > ${Math.round(image.left)})`);
      for (const line of item.firstElementChild?.querySelectorAll("*") ?? []) {
        const rect = line.getBoundingClientRect();
        if (rect.width > 1 && rect.right > data.right + 1) problems.push("signature data wider than its column");
      }
    }
    return problems;
  }, selector);
}

describe("front-desk signing on a tablet", () => {
  it("lists what waits, shows a QR code, hands the tablet to the patient locked, and unlocks only with the staff password", async () => {
    const account = await registerProfessional();
    const { context, page, errors } = await newPage(browser, TABLET);
    await signIn(page, account.email, account.password);
    const patient = { nome: "Helena Braga Quintela", cpf: validCpf(), email: "helena.quintela@exemplo.com.br" };
    const other = { nome: "Otávio Ramos Leite", cpf: validCpf(), email: "otavio.leite@exemplo.com.br" };
    const documentId = await seedSignableDocument(
      page,
      account,
      patient,
      "Termo de Consentimento - Lente de contato dental",
    );
    const otherId = await seedSignableDocument(page, account, other, "Termo de Consentimento - Faceta");
    for (const id of [documentId, otherId])
      await json(await page.request.post(`/api/documents/${id}/send`, { data: {} }), 200);

    // "Assinar" (the phone bar's entry; on a tablet, the address): both documents wait.
    await page.goto("/sign");
    await page.getByRole("heading", { name: "Assinar" }).waitFor();
    await expect.poll(() => page.getByTestId("front-desk-row").count()).toBe(2);

    // A QR code of the other patient's link, for their own phone.
    const otherRow = page.getByTestId("front-desk-row").filter({ hasText: other.nome });
    await otherRow.getByRole("button", { name: "QR code" }).click();
    await page.getByTestId("signing-qr").waitFor();
    expect(await page.getByRole("dialog").textContent()).toContain("/assinar/");
    await page.keyboard.press("Escape");
    await page.getByRole("dialog").waitFor({ state: "detached" });
    await animationsFinished(page);
    await snap(page, "front-desk-list-tablet");

    // Hand the tablet over for Helena's document.
    const row = page.getByTestId("front-desk-row").filter({ hasText: patient.nome });
    await row.getByRole("button", { name: "Assinar neste aparelho" }).click();
    const dialog = page.getByRole("alertdialog");
    await dialog.getByText("O sistema fica bloqueado neste aparelho", { exact: false }).waitFor();
    await dialog.getByRole("button", { name: "Entregar ao paciente" }).click();
    await page.waitForURL(/\/assinar\/[A-Za-z0-9_-]{43}\?balcao=1$/);
    await page.getByTestId("front-desk-notice").waitFor();

    // The staff session answers nothing while the patient holds the tablet.
    expect((await page.request.get("/api/patients")).status()).toBe(423);

    await confirmSigningCode(page, page, patient.email);
    await page.getByLabel("Nome completo").fill(patient.nome);
    await page.getByLabel("CPF").pressSequentially(patient.cpf);
    await page.getByLabel("E-mail").fill(patient.email);
    await drawSignature(page);
    await page.getByTestId("consent").click();
    await page.getByRole("button", { name: "Assinar Documento" }).click();
    await page.getByTestId("front-desk-done").waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(TABLET.width);
    await animationsFinished(page);
    await snap(page, "front-desk-signed-tablet");

    // Typing an app address leads to the lock screen, not to the clinic's data.
    await page.goto("/patients");
    await page.waitForURL(/\/desbloquear$/);
    await page.getByRole("heading", { name: "Aparelho bloqueado" }).waitFor();
    await snap(page, "front-desk-unlock-tablet");
    await page.getByLabel("Sua senha").fill("nao-e-a-senha");
    await page.getByRole("button", { name: "Desbloquear" }).click();
    await page.getByText("Senha atual incorreta.").waitFor();
    expect((await page.request.get("/api/patients")).status()).toBe(423);
    await page.getByLabel("Sua senha").fill(account.password);
    await page.getByRole("button", { name: "Desbloquear" }).click();
    await page.waitForURL(/\/sign$/);
    // Only the other document still waits; the signature was recorded as presencial.
    await expect.poll(() => page.getByTestId("front-desk-row").count()).toBe(1);
    expect(await page.getByTestId("front-desk-row").textContent()).toContain(other.nome);
    const detail = await json<{ audit: { action: string; data: Record<string, unknown> | null }[] }>(
      await page.request.get(`/api/documents/${documentId}`),
      200,
    );
    expect(detail.audit.map((event) => event.action)).toEqual(
      expect.arrayContaining(["document.front_desk_started", "document.front_desk_ended"]),
    );
    // The browser sent the locked session with the signature: the event names the staff member.
    const signedEvent = detail.audit.find(
      (event) => event.action === "document.party_signed" && event.data?.papel === "paciente",
    );
    expect(signedEvent?.data).toMatchObject({ presencial: { atendente_nome: account.nome } });

    // The signed document, staff sidebar open: its page and its full-screen preview fit a laptop
    // (1366, 1280) and a tablet (1024, 820) — nothing clipped, the signature never under the sidebar.
    for (const layout of LAYOUTS) {
      await page.setViewportSize({ width: layout.width, height: layout.height });
      await page.goto(`/documents/${documentId}`);
      await page.getByTestId("document-signatures").locator("img").first().waitFor();
      await animationsFinished(page);
      await snap(page, `front-desk-signed-document-${layout.name}`, { fullPage: false });
      expect(await layoutProblems(page, "main"), `${layout.name} page`).toEqual([]);
      expect(await page.evaluate(() => document.documentElement.scrollWidth), layout.name).toBeLessThanOrEqual(
        layout.width,
      );
      await page.goto("/documents");
      const listed = page.getByTestId("document-row").filter({ hasText: patient.nome });
      await listed.getByRole("button", { name: /Ações do documento/ }).click();
      await page.getByRole("menuitem", { name: "Gerar e Visualizar PDF" }).click();
      const preview = page.getByTestId("document-preview-dialog");
      await preview.getByTestId("document-signatures").locator("img").first().waitFor();
      await animationsFinished(page);
      await snap(page, `front-desk-preview-${layout.name}`, { fullPage: false });
      expect(await layoutProblems(page, '[aria-label="Informações do documento"]'), `${layout.name} panel`).toEqual([]);
      expect(await layoutProblems(page, '[data-testid="document-signatures"]'), `${layout.name} signatures`).toEqual(
        [],
      );
      await page.keyboard.press("Escape");
      await preview.waitFor({ state: "detached" });
    }

    // The expected refusals (423 while locked, the wrong password's 400) are the only console errors.
    expect(errors.filter((line) => !/status of (423|400)/.test(line))).toEqual([]);
    await context.close();
  });
});
