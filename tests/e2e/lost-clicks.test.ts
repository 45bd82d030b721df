import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { registerProfessional, signIn, validCnpj } from "./accounts.js";
import { DESKTOP, holdRequests, launchBrowser, newPage, pageTasksDone } from "./browser.js";

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe("clicks that must not get lost", () => {
  it("a sidebar link clicked right after typing in a list search is not undone by the search's address-bar write", async () => {
    const account = await registerProfessional();
    const { context, page, errors } = await newPage(browser, DESKTOP);
    await page.clock.install();
    await signIn(page, account.email, account.password);
    await page.goto("/patients");
    await page.getByRole("heading", { name: "Pacientes", exact: true }).waitFor();
    await page.getByText("Nenhum paciente cadastrado", { exact: true }).waitFor();

    // Time stands still: the search's debounce fires only when the test says so, while the
    // Templates screen's code is still downloading.
    const templatesCode = await holdRequests(page, /\/assets\/templates-list-page-[\w-]+\.js$/);
    await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 1_000);
    await page.getByRole("searchbox", { name: "Buscar pacientes" }).fill("Joana");
    await page.getByRole("link", { name: "Templates", exact: true }).click();
    await page.clock.runFor(1_000);
    await pageTasksDone(page);
    expect(new URL(page.url()).search).toBe("");

    templatesCode.release();
    await page.clock.resume();
    await page.getByRole("heading", { name: "Templates", exact: true }).waitFor();
    expect(new URL(page.url()).pathname).toBe("/templates");

    // The search still works where nobody leaves: the typed term reaches the address bar.
    await page.getByRole("link", { name: "Pacientes", exact: true }).click();
    await page.getByRole("searchbox", { name: "Buscar pacientes" }).fill("Joana");
    await page.waitForURL(/\/patients\?q=Joana$/);
    await page.getByText('Nenhum paciente encontrado para "Joana"', { exact: false }).waitFor();

    expect(errors).toEqual([]);
    await context.close();
  });

  it("the wizard's 'Próximo' works when pressed right after correcting a field that showed an error", async () => {
    const { context, page, errors } = await newPage(browser, DESKTOP);
    await page.goto("/auth");
    await page.getByRole("tab", { name: "Cadastrar" }).click();
    await page.getByRole("button", { name: /Estabelecimento de saúde/ }).click();

    // Step 1 with the company name missing: 'Próximo' shows the error under the field.
    await page.getByLabel("Tipo de estabelecimento").selectOption("clinica");
    await page.getByLabel("CNPJ").pressSequentially(validCnpj());
    const next = page.getByRole("button", { name: "Próximo" });
    await next.click();
    const error = page.getByText("Informe a razão social", { exact: true });
    await error.waitFor();

    // Correct it and press 'Próximo' as a finger does: down where the button is now, up a
    // moment later at the same spot, after the page reacted to the press (the field's blur).
    await page.getByLabel("Razão social").fill("Clínica Sorriso Pleno Ltda");
    await next.click({ trial: true });
    const box = await next.boundingBox();
    if (!box) throw new Error("the 'Próximo' button has no box");
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    await error.waitFor({ state: "detached" });
    await pageTasksDone(page);
    await page.mouse.up();

    // The press was a click: step 2 (address) is showing.
    await page.getByLabel("CEP").waitFor();
    expect(await page.getByLabel("Razão social").isVisible()).toBe(false);

    expect(errors).toEqual([]);
    await context.close();
  });
});
