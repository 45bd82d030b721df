import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { registerProfessional, signIn } from "./accounts.js";
import { DESKTOP, launchBrowser, newPage, PHONE, snap } from "./browser.js";

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** Opens the tab's "Novo ..." dialog, fills it and waits for the success toast. */
async function createItem(
  page: Page,
  tab: string,
  fields: { titulo: string; descricao: string; extra?: [string, string] },
) {
  await page.getByRole("tab", { name: tab }).click();
  const panel = page.getByRole("tabpanel", { name: tab });
  await panel
    .getByRole("button", { name: /^Novo / })
    .first()
    .click();
  const dialog = page.getByRole("dialog");
  await dialog.getByLabel(/^Título/).fill(fields.titulo);
  await dialog.getByLabel(/^Descrição/).fill(fields.descricao);
  if (fields.extra) await dialog.getByLabel(fields.extra[0]).fill(fields.extra[1]);
  await dialog.getByRole("button", { name: "Criar item" }).click();
  await page.getByText("Item criado com sucesso").last().waitFor();
  await dialog.waitFor({ state: "detached" });
  await panel.getByText(fields.titulo, { exact: true }).waitFor();
}

const checkbox = (page: Page, list: string, name: string) =>
  page.getByRole("group", { name: list }).getByRole("checkbox", { name });

describe("procedures and content", () => {
  it("creates content and a procedure, associates them and keeps the associations after a reload", async () => {
    const account = await registerProfessional();
    const { context, page, errors } = await newPage(browser, DESKTOP);
    await signIn(page, account.email, account.password);

    await page.goto("/content-management");
    await page.getByRole("heading", { name: "Gestão de Conteúdo" }).waitFor();
    await page.getByText("Nenhum item cadastrado").first().waitFor();
    await snap(page, "content-empty-desktop");

    // Title and description are required.
    await page.getByRole("button", { name: "Novo risco" }).first().click();
    await page.getByRole("dialog").getByRole("button", { name: "Criar item" }).click();
    await page.getByText("Informe o título").waitFor();
    await page.getByText("Informe a descrição").waitFor();
    await snap(page, "content-dialog-errors-desktop");
    await page.getByRole("dialog").getByRole("button", { name: "Cancelar" }).click();

    await createItem(page, "Riscos", {
      titulo: "Hematoma",
      descricao: "Acúmulo de sangue sob a pele.",
      extra: ["Categoria", "Comum"],
    });
    await createItem(page, "Riscos", {
      titulo: "Infecção",
      descricao: "Infecção no local da incisão.",
      extra: ["Categoria", "Raro"],
    });
    await createItem(page, "Benefícios", { titulo: "Melhora respiratória", descricao: "Respiração nasal mais fácil." });
    await createItem(page, "Cuidados Pós-op", {
      titulo: "Repouso relativo",
      descricao: "Evitar esforço físico.",
      extra: ["Período", "7 dias"],
    });
    await page.getByRole("tab", { name: "Riscos" }).click();
    await snap(page, "content-riscos-desktop");

    await page.goto("/procedures");
    await page.getByRole("heading", { name: "Procedimentos" }).waitFor();
    await page.getByText("Nenhum procedimento cadastrado").waitFor();
    await page.getByRole("button", { name: "Novo Procedimento" }).first().click();
    const dialog = page.getByRole("dialog");
    await expect.poll(() => dialog.getByRole("switch", { name: "Procedimento privado" }).isEnabled()).toBe(true);
    await dialog.getByLabel(/^Nome/).fill("Rinoplastia");
    await dialog.getByLabel("Descrição").fill("Cirurgia de remodelação do nariz.");
    // The specialty is chosen from the reference list (a select), not typed.
    expect(await dialog.getByLabel("Especialidade").evaluate((element) => element.tagName)).toBe("SELECT");
    await dialog.getByLabel("Especialidade").selectOption({ label: "Cirurgia Plástica" });
    // The price is a currency field typed the Brazilian way: a dot groups thousands.
    await dialog.getByLabel("Valor (R$)").fill("12.500");
    expect(await dialog.getByLabel("Valor (R$)").inputValue()).toBe("R$ 12.500");
    await snap(page, "procedure-dialog-desktop");
    await dialog.getByRole("button", { name: "Criar procedimento" }).click();
    await page.getByText("Procedimento criado com sucesso").waitFor();
    await dialog.waitFor({ state: "detached" });
    const row = page.getByTestId("procedure-row");
    await row.getByText("Rinoplastia").waitFor();
    expect(await row.textContent()).toContain("Compartilhado");
    expect(await row.getByTestId("procedure-price").textContent()).toBe("R$ 12.500,00");
    // Shown by its name, never the stored slug.
    expect(await row.textContent()).toContain("Cirurgia Plástica");
    expect(await row.textContent()).not.toContain("cirurgia_plastica");
    // Searched by its name too.
    await page.getByRole("searchbox", { name: "Buscar procedimentos" }).fill("cirurgia plás");
    await expect.poll(() => page.getByTestId("procedure-row").count()).toBe(1);
    await page.getByRole("searchbox", { name: "Buscar procedimentos" }).fill("");
    await snap(page, "procedures-desktop");

    await row.getByRole("link", { name: "Associar conteúdo" }).click();
    await page.waitForURL(/\/procedures\/associations\?procedimento=[0-9a-f-]{36}$/);
    await page.getByRole("heading", { name: "Associar Conteúdo" }).waitFor();
    expect(await page.getByLabel("Procedimento", { exact: true }).locator("option:checked").textContent()).toContain(
      "Rinoplastia — Cirurgia Plástica",
    );
    await checkbox(page, "Riscos", "Hematoma").check();
    await checkbox(page, "Riscos", "Infecção").check();
    await checkbox(page, "Benefícios", "Melhora respiratória").check();
    await checkbox(page, "Cuidados Pós-op", "Repouso relativo").check();
    await page.getByRole("group", { name: "Riscos" }).getByText("2 selecionados").waitFor();
    await page.getByRole("group", { name: "Benefícios" }).getByText("1 selecionado").waitFor();

    // The search inside a list narrows it without losing the choices.
    await page.getByRole("searchbox", { name: "Buscar em Riscos" }).fill("hemat");
    await expect.poll(() => page.getByRole("group", { name: "Riscos" }).getByRole("checkbox").count()).toBe(1);
    await page.getByRole("group", { name: "Riscos" }).getByText("2 selecionados").waitFor();
    await page.getByRole("searchbox", { name: "Buscar em Riscos" }).fill("");

    await page.getByRole("button", { name: "Salvar Associações" }).click();
    await page.getByText("Associações salvas com sucesso!").waitFor();
    await snap(page, "associations-desktop");

    await page.reload();
    await page.getByRole("heading", { name: "Associar Conteúdo" }).waitFor();
    for (const [list, name] of [
      ["Riscos", "Hematoma"],
      ["Riscos", "Infecção"],
      ["Benefícios", "Melhora respiratória"],
      ["Cuidados Pós-op", "Repouso relativo"],
    ] as const) {
      await expect.poll(() => checkbox(page, list, name).isChecked()).toBe(true);
    }
    await page.getByRole("group", { name: "Riscos" }).getByText("2 selecionados").waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });

  it("edits and deletes on a phone", async () => {
    const account = await registerProfessional();
    const { context, page, errors } = await newPage(browser, PHONE);
    await signIn(page, account.email, account.password);
    for (const [kind, titulo] of [
      ["riscos", "Edema"],
      ["beneficios", "Harmonia facial"],
      ["cuidados", "Compressa fria"],
    ] as const) {
      const response = await page.request.post(`/api/content/${kind}`, {
        data: { titulo, descricao: `Descrição de ${titulo}.` },
      });
      expect(response.status()).toBe(201);
    }
    for (const nome of ["Blefaroplastia", "Otoplastia"]) {
      const response = await page.request.post("/api/procedures", {
        data: { nome, especialidade: "cirurgia_plastica", is_private: nome === "Otoplastia" },
      });
      expect(response.status()).toBe(201);
    }

    await page.goto("/procedures");
    await page.getByTestId("procedure-card").first().waitFor();
    expect(await page.getByTestId("procedure-card").count()).toBe(2);
    await snap(page, "procedures-phone");

    await page.getByRole("button", { name: "Editar Blefaroplastia" }).click();
    await page.getByRole("dialog").getByLabel(/^Nome/).fill("Blefaroplastia superior");
    await snap(page, "procedure-dialog-phone");
    await page.getByRole("dialog").getByRole("button", { name: "Salvar alterações" }).click();
    await page.getByText("Procedimento salvo com sucesso").waitFor();
    await page.getByText("Blefaroplastia superior").waitFor();

    await page.getByRole("searchbox", { name: "Buscar procedimentos" }).fill("oto");
    await expect.poll(() => page.getByTestId("procedure-card").count()).toBe(1);
    await page.getByRole("button", { name: "Excluir Otoplastia" }).click();
    await page.getByText("Tem certeza que deseja excluir este procedimento?").waitFor();
    await page.getByRole("alertdialog").getByRole("button", { name: "Excluir" }).click();
    await page.getByText("Procedimento excluído").waitFor();
    await page.getByText('Nenhum procedimento encontrado para "oto"').waitFor();

    await page.goto("/content-management?aba=beneficios");
    await page.getByText("Harmonia facial", { exact: true }).waitFor();
    await snap(page, "content-beneficios-phone");
    await page.getByRole("button", { name: "Excluir Harmonia facial" }).click();
    await page.getByText("Tem certeza que deseja excluir este item?").waitFor();
    await page.getByRole("alertdialog").getByRole("button", { name: "Excluir" }).click();
    await page.getByText("Item excluído").waitFor();
    await page.getByRole("tabpanel", { name: "Benefícios" }).getByText("Nenhum item cadastrado").waitFor();

    await page.goto("/procedures/associations");
    await page
      .getByLabel("Procedimento", { exact: true })
      .selectOption({ label: "Blefaroplastia superior — Cirurgia Plástica" });
    await checkbox(page, "Riscos", "Edema").check();
    await page.getByRole("group", { name: "Riscos" }).getByText("1 selecionado").waitFor();
    await snap(page, "associations-phone");
    await page.getByRole("button", { name: "Salvar Associações" }).click();
    await page.getByText("Associações salvas com sucesso!").waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });
});
