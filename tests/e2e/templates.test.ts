import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SAMPLE_TEMPLATE } from "../../src/shared/document-model/sample-template.js";
import { SAMPLE_TELECONSULT_TEMPLATE } from "../../src/shared/document-model/sample-teleconsult-template.js";
import { registerProfessional, signIn } from "./accounts.js";
import { animationsFinished, DESKTOP, launchBrowser, newPage, PHONE, snap } from "./browser.js";

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const sectionCards = (page: Page) => page.getByTestId("template-section");
const sectionTitle = (page: Page, index: number) => sectionCards(page).nth(index).getByLabel("Título da seção");
const sectionContent = (page: Page, index: number) => sectionCards(page).nth(index).getByLabel("Conteúdo");

/** The specialty a saved template was given. */
async function specialtyOf(page: Page, templateId: string): Promise<string> {
  const detail = await page.request.get(`/api/templates/${templateId}`);
  expect(detail.status()).toBe(200);
  return ((await detail.json()) as { especialidade: string }).especialidade;
}

/** Picks the first specialty offered (the list comes from the server) and a category. */
async function chooseSpecialtyAndCategory(page: Page, categoria: string): Promise<string> {
  const especialidade = page.getByLabel(/^Especialidade/);
  await expect.poll(() => especialidade.locator("option").count()).toBeGreaterThan(1);
  const value = await especialidade.locator("option").nth(1).getAttribute("value");
  await especialidade.selectOption(value ?? "");
  await page.getByLabel(/^Categoria/).selectOption(categoria);
  return value ?? "";
}

describe("templates", () => {
  it("creates from the sample, edits into a new version, publishes, duplicates and deletes", async () => {
    const account = await registerProfessional();
    const { context, page, errors } = await newPage(browser, DESKTOP);
    await signIn(page, account.email, account.password);

    await page.goto("/templates");
    await page.getByRole("heading", { name: "Templates", exact: true }).waitFor();
    await page.getByText("Nenhum template encontrado", { exact: true }).waitFor();
    await page.getByText("Crie seu primeiro template para começar").waitFor();
    await page.getByText("Mostrando 0 de 0 templates").waitFor();
    await snap(page, "templates-empty-desktop");

    await page.getByRole("link", { name: "Novo Template" }).first().click();
    await page.waitForURL(/\/templates\/create$/);
    await page.getByRole("heading", { name: "Novo Template" }).waitFor();

    // Saving without a specialty is refused with the spec's message.
    await page.getByRole("button", { name: "Criar Template" }).click();
    await page.getByText("Por favor, selecione uma especialidade").first().waitFor();

    const especialidade = await chooseSpecialtyAndCategory(page, "Contratos");
    await page.getByRole("button", { name: "Carregar modelo de exemplo" }).click();
    await expect.poll(() => page.getByLabel(/^Título do Template/).inputValue()).toBe(SAMPLE_TEMPLATE.titulo);
    expect(await page.getByLabel(/^Categoria/).inputValue()).toBe(SAMPLE_TEMPLATE.categoria);
    expect(await sectionCards(page).count()).toBe(SAMPLE_TEMPLATE.estrutura.sections.length);
    const [first, second] = SAMPLE_TEMPLATE.estrutura.sections;

    // The first section cannot go up, the last cannot go down.
    expect(await page.getByRole("button", { name: "Mover seção 1 para cima" }).isDisabled()).toBe(true);
    expect(
      await page
        .getByRole("button", { name: `Mover seção ${SAMPLE_TEMPLATE.estrutura.sections.length} para baixo` })
        .isDisabled(),
    ).toBe(true);
    await page.getByRole("button", { name: "Mover seção 2 para cima" }).click();
    await expect.poll(() => sectionTitle(page, 0).inputValue()).toBe(second!.title);
    expect(await sectionTitle(page, 1).inputValue()).toBe(first!.title);

    // Loading the sample over content asks first.
    await page.getByRole("button", { name: "Carregar modelo de exemplo" }).click();
    await page.getByRole("alertdialog").getByText("Substituir o conteúdo atual?").waitFor();
    await page.getByRole("alertdialog").getByRole("button", { name: "Cancelar" }).click();
    expect(await sectionTitle(page, 0).inputValue()).toBe(second!.title);
    // The dialog gives the focus back to its button when its closing animation ends: on a busy
    // machine that came between the arrow keys below and took one of them (CI, caret at 3, not 4).
    await page.getByRole("alertdialog").waitFor({ state: "detached" });
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.textContent?.trim() ?? null))
      .toBe("Carregar modelo de exemplo");

    // A variable goes in at the caret and the caret stays right after it.
    const content = sectionContent(page, 0);
    await content.fill("Eu,  declaro estar ciente.");
    await content.press("Control+Home");
    for (let i = 0; i < 4; i += 1) await content.press("ArrowRight");
    await page.getByRole("searchbox", { name: "Buscar variável" }).fill("PACIENTE_N");
    expect(await page.getByTestId("variable-inserter").getByRole("button").count()).toBe(1);
    await page.getByRole("button", { name: /Inserir \{\{paciente_nome\}\}/ }).click();
    await expect.poll(() => content.inputValue()).toBe("Eu, {{paciente_nome}} declaro estar ciente.");
    const caret = await content.evaluate((el) => ({
      focused: document.activeElement === el,
      start: (el as HTMLTextAreaElement).selectionStart,
    }));
    expect(caret).toEqual({ focused: true, start: "Eu, {{paciente_nome}}".length });
    await page.keyboard.type("X");
    expect(await content.inputValue()).toBe("Eu, {{paciente_nome}}X declaro estar ciente.");
    await page.keyboard.press("Backspace");
    await page.getByRole("searchbox", { name: "Buscar variável" }).fill("");

    // An unknown placeholder is reported in the preview, never blanked.
    const introduction = page.getByLabel("Introdução");
    const originalIntroduction = await introduction.inputValue();
    await introduction.fill(`${originalIntroduction} {{campo_inexistente}}`);
    await snap(page, "template-editor-desktop");

    await page.getByRole("tab", { name: "Pré-visualização" }).click();
    const preview = page.getByTestId("template-preview");
    await preview.getByText("Eu, Maria Aparecida da Silva declaro estar ciente.").waitFor();
    await preview
      .getByRole("heading", { name: "Termo de Consentimento Livre e Esclarecido - Blefaroplastia superior" })
      .waitFor();
    await preview.getByText("Variáveis não reconhecidas: {{campo_inexistente}}").waitFor();
    const chip = preview.locator('mark[title="Variável sem valor"]');
    expect(await chip.count()).toBe(1);
    expect(await chip.textContent()).toBe("{{campo_inexistente}}");
    // Lists become real lists with the sample values, one item per line.
    expect(await preview.locator("ul li").filter({ hasText: "Infecção no local da incisão" }).count()).toBe(1);
    await snap(page, "template-preview-desktop");

    await page.getByRole("tab", { name: "Editor" }).click();
    await page.getByLabel("Introdução").fill(originalIntroduction);
    await page.getByRole("tab", { name: "Pré-visualização" }).click();
    await preview.getByText("Eu, Maria Aparecida da Silva declaro estar ciente.").waitFor();
    expect(await preview.locator('mark[title="Variável sem valor"]').count()).toBe(0);

    await page.getByRole("button", { name: "Criar Template" }).click();
    await page.getByText("Template criado com sucesso").waitFor();
    await page.waitForURL(/\/templates\/[0-9a-f-]{36}\/preview$/);
    const id = /\/templates\/([0-9a-f-]{36})\/preview$/.exec(page.url())![1]!;
    await page.getByRole("heading", { name: SAMPLE_TEMPLATE.titulo, level: 1 }).waitFor();
    expect(await page.getByTestId("template-status").textContent()).toBe("Rascunho");
    await page.getByText(especialidade, { exact: true }).first().waitFor();
    await page.getByText("Eu, Maria Aparecida da Silva declaro estar ciente.").waitFor();
    await page.getByText("Novos documentos usam apenas templates publicados.", { exact: false }).waitFor();
    await snap(page, "template-view-draft-desktop");

    // Edit → a new version.
    await page.getByRole("link", { name: "Editar" }).click();
    await page.waitForURL(`**/templates/${id}/edit`);
    const titulo = page.getByLabel(/^Título do Template/);
    await expect.poll(() => titulo.inputValue()).toBe(SAMPLE_TEMPLATE.titulo);
    await expect.poll(() => sectionTitle(page, 0).inputValue()).toBe(second!.title);
    await titulo.fill("   ");
    expect(await page.getByRole("button", { name: "Salvar Alterações" }).isDisabled()).toBe(true);
    await titulo.fill("TCLE - Blefaroplastia");
    await page.getByText("Ao salvar, uma nova versão do template é criada", { exact: false }).waitFor();
    await snap(page, "template-edit-desktop");
    await page.getByRole("button", { name: "Salvar Alterações" }).click();
    await page.getByText("Template atualizado com sucesso.").waitFor();
    await page.getByRole("heading", { name: "TCLE - Blefaroplastia", level: 1 }).waitFor();

    await page.goto(`/templates/${id}/versions`);
    await page.getByRole("heading", { name: "Histórico de Versões" }).waitFor();
    await page.getByText("2 versões").waitFor();
    const newest = page.getByTestId("template-version").first();
    await newest.getByRole("heading", { name: "Versão 2" }).waitFor();
    await newest.getByText("Atual", { exact: true }).waitFor();
    await newest.getByText("Template atualizado").waitFor();
    const oldest = page.getByTestId("template-version").nth(1);
    await oldest.getByRole("heading", { name: "Versão 1" }).waitFor();
    expect(await oldest.getByText("Atual", { exact: true }).count()).toBe(0);
    await snap(page, "template-versions-desktop");

    // Publish from the view.
    await page.goto(`/templates/${id}/preview`);
    await page.getByRole("button", { name: "Publicar" }).click();
    await page.getByText("Status do template atualizado").waitFor();
    await expect.poll(() => page.getByTestId("template-status").textContent()).toBe("Publicado");
    await page.getByRole("button", { name: "Voltar para rascunho" }).waitFor();
    expect(await page.getByRole("button", { name: "Publicar" }).count()).toBe(0);

    await page.goto(`/templates/${id}/versions`);
    const published = page.getByTestId("template-version").first();
    await published.getByText("Publicado", { exact: true }).waitFor();
    await published.getByText("Publicado em").waitFor();
    await published.getByText(account.nome).waitFor();
    await snap(page, "template-versions-published-desktop");

    await page.goto(`/templates/${id}/statistics`);
    await page.getByRole("heading", { name: "Estatísticas de Uso" }).waitFor();
    await page.getByText("Nunca usado").first().waitFor();
    await page.getByText("Nenhum uso nos últimos 6 meses").waitFor();
    await page.getByText("Nenhum contrato encontrado").waitFor();
    await snap(page, "template-statistics-desktop");

    // The list: v2, Usado: 0 vezes, the counters.
    await page.goto("/templates");
    const row = page.getByTestId("template-row").filter({ hasText: "TCLE - Blefaroplastia" });
    await row.waitFor();
    expect(await row.textContent()).toContain("v2");
    expect(await row.textContent()).toContain("Usado: 0 vezes");
    expect(await row.textContent()).toContain("Publicado");
    expect(await row.textContent()).toContain(account.nome);
    await page.getByText("Mostrando 1 de 1 templates").waitFor();
    const publicados = page.locator('[data-slot="stat-card"]').filter({ hasText: "Templates Publicados" });
    await expect.poll(() => publicados.locator('[data-slot="stat-card-value"]').textContent()).toBe("1");

    // Duplicate.
    await page.getByRole("button", { name: "Ações de TCLE - Blefaroplastia" }).click();
    await page.getByRole("menuitem", { name: "Duplicar" }).click();
    await page.getByText("Template duplicado com sucesso.").waitFor();
    const copy = page.getByTestId("template-row").filter({ hasText: "TCLE - Blefaroplastia (Cópia)" });
    await copy.waitFor();
    expect(await copy.textContent()).toContain("Rascunho");
    expect(await copy.textContent()).toContain("v1");
    await page.getByText("Mostrando 2 de 2 templates").waitFor();
    await snap(page, "templates-list-desktop");

    // Server-side search (case-insensitive, title/specialty/category).
    const search = page.getByRole("searchbox", { name: "Buscar templates" });
    await search.fill("CÓPIA");
    await page.getByText("Mostrando 1 de 1 templates").waitFor();
    expect(await page.getByTestId("template-row").count()).toBe(1);
    await search.fill("");
    await page.getByText("Mostrando 2 de 2 templates").waitFor();

    // Delete the copy.
    await page.getByRole("button", { name: "Ações de TCLE - Blefaroplastia (Cópia)" }).click();
    await page.getByRole("menuitem", { name: "Excluir" }).click();
    const confirm = page.getByRole("alertdialog");
    await confirm.getByRole("heading", { name: "Confirmar Exclusão" }).waitFor();
    await confirm.getByRole("button", { name: "Excluir" }).click();
    await page.getByText("Template excluído com sucesso.").waitFor();
    await copy.waitFor({ state: "detached" });
    await expect.poll(() => page.getByTestId("template-row").count()).toBe(1);

    await page.getByRole("searchbox", { name: "Buscar templates" }).fill("xyz inexistente");
    await page.getByText('Nenhum template encontrado para "xyz inexistente"').waitFor();

    // Once a document uses a version, the template cannot be deleted: the spec's dialog says why.
    const me = (await (await page.request.get("/api/auth/me")).json()) as { profile: { id: string } };
    const patient = await page.request.post("/api/patients", { data: { nome: "Paciente Do Termo" } });
    expect(patient.status()).toBe(201);
    const current = (await (await page.request.get(`/api/templates/${id}`)).json()) as { versao_atual_id: string };
    const used = await page.request.post("/api/documents", {
      data: {
        paciente_id: ((await patient.json()) as { id: string }).id,
        template_version_id: current.versao_atual_id,
        titulo: "Termo em uso",
        procedimento: "Blefaroplastia",
        medico_responsavel_id: me.profile.id,
        permitir_pendencias: true,
      },
    });
    expect(used.status(), await used.text()).toBe(201);
    await page.goto("/templates");
    const original = page.getByTestId("template-row").filter({ hasText: "TCLE - Blefaroplastia" });
    await expect.poll(() => original.textContent()).toContain("Usado: 1 vez");
    await page.getByRole("button", { name: "Ações de TCLE - Blefaroplastia" }).click();
    await page.getByRole("menuitem", { name: "Excluir" }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: "Excluir" }).click();
    const blocked = page.getByRole("alertdialog").filter({ hasText: "Não é possível excluir" });
    await blocked.getByText("Este template está sendo usado em 1 contrato(s). Não é possível excluí-lo.").waitFor();
    await expect.poll(() => page.getByRole("alertdialog").count()).toBe(1);
    await animationsFinished(page); // the confirm dialog's exit, before the screenshot
    await snap(page, "template-delete-blocked-desktop");
    await page.keyboard.press("Escape");
    await expect.poll(() => page.getByTestId("template-row").count()).toBe(1);

    // An unknown id.
    await page.goto("/templates/00000000-0000-4000-8000-000000000000/preview");
    await page.getByText("Template não encontrado").waitFor();
    await page.getByRole("link", { name: "Voltar para Templates" }).waitFor();

    // The only console errors allowed are the browser's notes of the expected 404 and 409.
    expect(errors.filter((e) => !e.includes("404") && !e.includes("409"))).toEqual([]);
    await context.close();

    // On a phone: cards instead of the table, and the editor.
    const phone = await newPage(browser, PHONE);
    await signIn(phone.page, account.email, account.password);
    await phone.page.goto("/templates");
    await phone.page.getByTestId("template-card").first().waitFor();
    expect(await phone.page.getByTestId("templates-table").count()).toBe(0);
    expect(await phone.page.getByTestId("template-card").first().textContent()).toContain("Usado: 1 vez");
    await snap(phone.page, "templates-list-phone");
    await phone.page.goto(`/templates/${id}/edit`);
    await expect.poll(() => phone.page.getByLabel(/^Título do Template/).inputValue()).toBe("TCLE - Blefaroplastia");
    await snap(phone.page, "template-editor-phone");
    await phone.page.goto(`/templates/${id}/preview`);
    await phone.page.getByRole("heading", { name: "TCLE - Blefaroplastia", level: 1 }).waitFor();
    await snap(phone.page, "template-view-phone");
    const overflow = await phone.page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    expect(phone.errors).toEqual([]);
    await phone.context.close();
  });

  it("creates a teleconsultation TCLE from its sample, with its optional consents and questions, on a phone", async () => {
    const account = await registerProfessional();
    const { context, page, errors } = await newPage(browser, PHONE);
    await signIn(page, account.email, account.password);
    await page.goto("/templates/create");
    await page.getByRole("heading", { name: "Novo Template" }).waitFor();
    await chooseSpecialtyAndCategory(page, "Contratos");
    await page.getByRole("button", { name: "Modelo para teleconsulta" }).click();
    await expect
      .poll(() => page.getByLabel(/^Título do Template/).inputValue())
      .toBe(SAMPLE_TELECONSULT_TEMPLATE.titulo);
    expect(await page.getByLabel(/^Categoria/).inputValue()).toBe("Consentimento");
    expect(await sectionCards(page).count()).toBe(SAMPLE_TELECONSULT_TEMPLATE.estrutura.sections.length);
    expect(await page.getByTestId("optional-consents-editor").getByTestId("optional-consent-item").count()).toBe(
      SAMPLE_TELECONSULT_TEMPLATE.estrutura.optional_consents!.length,
    );
    // Its documents ask for the audio of the agreement by default (decision 069): ticked here.
    const templateAudio = page.getByTestId("template-ask-audio");
    expect(await templateAudio.getAttribute("aria-checked")).toBe("true");
    // Over content, the other sample asks first, and "Cancelar" keeps the teleconsultation.
    await page.getByRole("button", { name: "Carregar modelo de exemplo" }).click();
    await page.getByRole("alertdialog").getByText("Substituir o conteúdo atual?").waitFor();
    await page.getByRole("alertdialog").getByRole("button", { name: "Cancelar" }).click();
    await page.getByRole("alertdialog").waitFor({ state: "detached" });
    expect(await page.getByLabel(/^Título do Template/).inputValue()).toBe(SAMPLE_TELECONSULT_TEMPLATE.titulo);
    await snap(page, "template-teleconsult-phone", { fullPage: false });
    await page.getByRole("button", { name: "Criar Template" }).click();
    await page.getByText("Template criado com sucesso").waitFor();
    await page.waitForURL(/\/templates\/[0-9a-f-]{36}\/preview$/);
    await page.getByRole("heading", { name: SAMPLE_TELECONSULT_TEMPLATE.titulo, level: 1 }).waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);

    // Published, it makes the new-document form come with "Pedir … áudio" ticked; it can be unticked,
    // and a template without the default shows the box unticked.
    const templateId = /\/templates\/([0-9a-f-]{36})\/preview$/.exec(page.url())![1]!;
    expect(
      (await page.request.post(`/api/templates/${templateId}/status`, { data: { status: "published" } })).status(),
    ).toBe(200);
    const plain = await page.request.post("/api/templates", {
      data: {
        titulo: "TCLE sem áudio",
        especialidade: await specialtyOf(page, templateId),
        categoria: SAMPLE_TEMPLATE.categoria,
        estrutura: SAMPLE_TEMPLATE.estrutura,
      },
    });
    expect(plain.status()).toBe(201);
    expect(
      (
        await page.request.post(`/api/templates/${(await plain.json()).id}/status`, { data: { status: "published" } })
      ).status(),
    ).toBe(200);
    await page.goto("/documents/create");
    await page.getByRole("heading", { name: "Novo Documento" }).waitFor();
    const askAudio = page.getByTestId("ask-audio");
    expect(await askAudio.getAttribute("aria-checked")).toBe("false");
    await page.getByLabel(/^Template/).selectOption({ label: `${SAMPLE_TELECONSULT_TEMPLATE.titulo} (v1)` });
    await expect.poll(() => askAudio.getAttribute("aria-checked")).toBe("true");
    await askAudio.scrollIntoViewIfNeeded();
    await snap(page, "document-create-teleconsult-audio-phone", { fullPage: false });
    await askAudio.click();
    await expect.poll(() => askAudio.getAttribute("aria-checked")).toBe("false");
    await page.getByLabel(/^Template/).selectOption({ label: "TCLE sem áudio (v1)" });
    expect(await askAudio.getAttribute("aria-checked")).toBe("false");
    await askAudio.click();
    await expect.poll(() => askAudio.getAttribute("aria-checked")).toBe("true");
    expect(errors).toEqual([]);
    await context.close();
  });
});
