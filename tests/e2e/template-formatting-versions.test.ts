/**
 * Decision 034 in the browser: a section formatted with the toolbar and Ctrl+I shows bold, italic
 * and a list in the preview; Histórico de Versões compares two versions and restores an old one
 * as a new version.
 */
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { registerProfessional, signIn } from "./accounts.js";
import { launchBrowser, newPage, PHONE, snap } from "./browser.js";

const LAPTOP = { width: 1366, height: 768 } as const;

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe("template section formatting and version history", () => {
  it("formats a section with the toolbar, then compares versions and restores the first", async () => {
    const account = await registerProfessional();
    const { context, page, errors } = await newPage(browser, LAPTOP);
    await signIn(page, account.email, account.password);

    await page.goto("/templates/create");
    await page.getByRole("heading", { name: "Novo Template" }).waitFor();
    await page.getByLabel(/^Título do Template/).fill("Orientações pós-procedimento");
    const especialidade = page.getByLabel(/^Especialidade/);
    await expect.poll(() => especialidade.locator("option").count()).toBeGreaterThan(1);
    await especialidade.selectOption((await especialidade.locator("option").nth(1).getAttribute("value")) ?? "");
    await page.getByLabel(/^Categoria/).selectOption("Consentimento");
    await page.getByRole("button", { name: "Adicionar Seção" }).click();

    const section = page.getByTestId("template-section").first();
    await section.getByLabel("Título da seção").fill("Cuidados");
    const content = section.getByLabel("Conteúdo");
    await content.fill("Use protetor solar diariamente.\nGelo nas primeiras horas\nRepouso relativo");
    const toolbar = page.getByRole("toolbar", { name: "Formatação da seção 1" });

    // Negrito from the toolbar wraps the selection and keeps it selected.
    const contentId = (await content.getAttribute("id"))!;
    const label = `#${contentId}`;
    await page.locator(label).evaluate((el) => {
      const area = el as HTMLTextAreaElement;
      const start = area.value.indexOf("protetor solar");
      area.focus();
      area.setSelectionRange(start, start + "protetor solar".length);
    });
    await toolbar.getByRole("button", { name: "Negrito" }).click();
    await expect
      .poll(() => content.inputValue())
      .toBe("Use **protetor solar** diariamente.\nGelo nas primeiras horas\nRepouso relativo");
    expect(
      await content.evaluate((el) =>
        (el as HTMLTextAreaElement).value.slice(
          (el as HTMLTextAreaElement).selectionStart,
          (el as HTMLTextAreaElement).selectionEnd,
        ),
      ),
    ).toBe("protetor solar");

    // Ctrl+I on the textarea.
    await page.locator(label).evaluate((el) => {
      const area = el as HTMLTextAreaElement;
      const start = area.value.indexOf("diariamente");
      area.setSelectionRange(start, start + "diariamente".length);
    });
    await content.press("Control+i");
    await expect.poll(() => content.inputValue()).toContain("*diariamente*.");

    // Lista over the last two lines.
    await page.locator(label).evaluate((el) => {
      const area = el as HTMLTextAreaElement;
      area.setSelectionRange(area.value.indexOf("Gelo"), area.value.length);
    });
    await toolbar.getByRole("button", { name: "Lista", exact: true }).click();
    await expect
      .poll(() => content.inputValue())
      .toBe("Use **protetor solar** *diariamente*.\n- Gelo nas primeiras horas\n- Repouso relativo");
    await snap(page, "template-formatting-editor-1366");

    await page.getByRole("tab", { name: "Pré-visualização" }).click();
    const preview = page.getByTestId("template-preview");
    await preview.locator("strong", { hasText: "protetor solar" }).waitFor();
    await preview.locator("em", { hasText: "diariamente" }).waitFor();
    expect(await preview.locator("ul li").allTextContents()).toEqual(["Gelo nas primeiras horas", "Repouso relativo"]);
    expect(await preview.getByText("**").count()).toBe(0);
    await snap(page, "template-formatting-preview-1366");

    await page.getByRole("button", { name: "Criar Template" }).click();
    await page.waitForURL(/\/templates\/[0-9a-f-]{36}\/preview$/);
    const id = /\/templates\/([0-9a-f-]{36})\/preview$/.exec(page.url())![1]!;
    await page.locator("strong", { hasText: "protetor solar" }).first().waitFor();

    // Version 2: one word changed, a section added.
    await page.goto(`/templates/${id}/edit`);
    const edited = page.getByTestId("template-section").first().getByLabel("Conteúdo");
    await expect.poll(() => edited.inputValue()).toContain("protetor solar");
    await edited.fill("Use **protetor solar** *sempre*.\n- Gelo nas primeiras horas\n- Repouso relativo");
    await page.getByRole("button", { name: "Adicionar Seção" }).click();
    await page.getByTestId("template-section").nth(1).getByLabel("Título da seção").fill("Retorno");
    await page.getByTestId("template-section").nth(1).getByLabel("Conteúdo").fill("Retorno em 7 dias.");
    await page.getByRole("button", { name: "Salvar Alterações" }).click();
    await page.getByText("Template atualizado com sucesso.").waitFor();

    await page.goto(`/templates/${id}/versions`);
    await page.getByText("2 versões").waitFor();
    const compare = page.getByTestId("version-compare");
    await compare.getByText("1 seção alterada, 1 adicionada").waitFor();
    const changed = compare.locator('[data-testid="section-diff"][data-status="changed"]');
    expect(await changed.locator("del").textContent()).toContain("diariamente");
    expect(await changed.locator("ins").textContent()).toContain("sempre");
    await compare
      .locator('[data-testid="section-diff"][data-status="added"]')
      .getByText("Retorno em 7 dias.")
      .waitFor();
    await snap(page, "template-versions-compare-1366");

    // Restaurar a versão 1: a confirmation, then a third version equal to the first.
    const oldest = page.getByTestId("template-version").nth(1);
    await oldest.getByRole("button", { name: "Restaurar esta versão" }).click();
    const dialog = page.getByRole("alertdialog");
    await dialog.getByText("Restaurar a versão 1?").waitFor();
    await dialog.getByRole("button", { name: "Restaurar" }).click();
    await page.getByText("Versão 1 restaurada como nova versão.").waitFor();
    await page.getByText("3 versões").waitFor();
    const newest = page.getByTestId("template-version").first();
    await newest.getByRole("heading", { name: "Versão 3" }).waitFor();
    await newest.getByText("Restaurado da versão 1").waitFor();
    // The current (3) against 2 shows the restore undid version 2's changes.
    await compare.getByText("1 seção alterada, 1 removida").waitFor();
    // Version 1 against the current one: the same content.
    await page.getByTestId("template-version").nth(2).getByRole("button", { name: "Comparar com a atual" }).click();
    await compare.getByText("As duas versões têm o mesmo conteúdo.").waitFor();

    await page.goto(`/templates/${id}/preview`);
    await page.locator("em", { hasText: "diariamente" }).first().waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });

  it("fits a phone: the toolbar and the comparison at 390 px", async () => {
    const account = await registerProfessional();
    const { context, page, errors } = await newPage(browser, PHONE);
    await signIn(page, account.email, account.password);
    const create = await page.evaluate(async () => {
      const body = (content: string) => ({
        titulo: "Cuidados",
        especialidade: "Dermatologia",
        categoria: "Consentimento",
        estrutura: {
          title: "",
          introduction: "",
          sections: [{ id: "s1", type: "paragraph", title: "Cuidados", content }],
        },
      });
      const specialties = (await (await fetch("/api/templates/specialties")).json()) as { items: string[] };
      const first = body("Use **protetor solar** *diariamente*.\n- Gelo\n- Repouso");
      first.especialidade = specialties.items[0] ?? "Dermatologia";
      const created = (await (
        await fetch("/api/templates", {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify(first),
        })
      ).json()) as { id: string };
      const second = {
        ...body("Use **protetor solar** *sempre*.\n- Gelo\n- Repouso absoluto"),
        especialidade: first.especialidade,
      };
      await fetch(`/api/templates/${created.id}`, {
        method: "PUT",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(second),
      });
      return created.id;
    });
    await page.goto(`/templates/${create}/edit`);
    const toolbar = page.getByRole("toolbar", { name: "Formatação da seção 1" });
    await toolbar.getByRole("button", { name: "Lista numerada" }).waitFor();
    const box = await toolbar.boundingBox();
    expect(box!.x + box!.width).toBeLessThanOrEqual(390);
    await snap(page, "template-formatting-editor-390");

    await page.goto(`/templates/${create}/versions`);
    await page.getByTestId("version-compare").getByText("1 seção alterada").waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await snap(page, "template-versions-compare-390");
    expect(errors).toEqual([]);
    await context.close();
  });
});
