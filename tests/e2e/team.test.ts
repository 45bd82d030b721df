import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { uniqueEmail } from "../helpers/test-env.js";
import { registerEstablishment, signIn, validCnpj, validCpf } from "./accounts.js";
import { animationsFinished, DESKTOP, launchBrowser, newPage, pageWidth, PHONE, snap } from "./browser.js";

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const PLACEHOLDER = "Esta tela está sendo preparada";
/** Entries whose screens other work replaces (left to that work): hidden by permission only. */
const IN_PROGRESS = new Set<string>();

/** The owner adds a user with a password through the API (the session of `page`). */
async function addUser(page: Page, role: string, extra: Record<string, unknown> = {}) {
  const user = {
    nome: `Equipe ${role}`,
    email: uniqueEmail(`e2e-${role}`),
    cpf: validCpf(),
    role,
    acesso: "senha",
    password: "jardim-azul-42",
    ...extra,
  };
  const response = await page.request.post("/api/users", { data: user });
  expect(response.status(), await response.text()).toBe(201);
  return { ...user, id: ((await response.json()) as { id: string }).id };
}

async function sidebarLinks(page: Page): Promise<{ label: string; href: string }[]> {
  const nav = page.locator('[data-slot="sidebar-content"]').first();
  await nav.getByRole("link").first().waitFor();
  return nav
    .getByRole("link")
    .evaluateAll((links) =>
      links.map((a) => ({ label: (a.textContent ?? "").trim(), href: a.getAttribute("href") ?? "" })),
    );
}

/** Opens every entry and checks none is a placeholder (except the screens other work is replacing). */
async function expectNoPlaceholders(page: Page, links: { href: string }[]) {
  for (const { href } of links) {
    if (IN_PROGRESS.has(href)) continue;
    await page.goto(href);
    await page.locator("h1").first().waitFor();
    expect(await page.getByText(PLACEHOLDER).count(), href).toBe(0);
  }
}

describe("the team", () => {
  it("a user edits their profile (council, specialties, e-mail with the password) and changes the password, then signs in with the new one", async () => {
    const owner = await registerEstablishment();
    const { context, page, errors } = await newPage(browser, DESKTOP);
    await signIn(page, owner.email, owner.password);
    await page.getByRole("link", { name: "Meu perfil" }).click();
    await page.getByRole("heading", { name: "Perfil", exact: true }).waitFor();
    const form = page.getByRole("form", { name: "Dados pessoais" });
    expect(await form.getByLabel(/^Nome completo/).inputValue()).toBe(owner.nome);

    await form.getByLabel(/^Nome completo/).fill("Dr. Ricardo Almeida Souza Neto");
    await form.getByLabel(/^Telefone/).fill("");
    await form.getByLabel(/^Telefone/).pressSequentially("11987654321");
    await form.getByRole("button", { name: "Adicionar especialidade" }).click();
    await form.getByLabel("Especialidade 2", { exact: true }).selectOption({ label: "Dermatologia" });
    await form.getByRole("button", { name: "Salvar alterações" }).click();
    // Sign-up's rule, on the new specialty.
    await form.getByText("RQE é obrigatório para cada especialidade do CRM", { exact: true }).waitFor();
    await form.getByLabel(/^RQE/).nth(1).fill("5566");
    // A new e-mail asks for the current password.
    const newEmail = uniqueEmail("e2e-perfil");
    expect(await form.getByLabel(/^Senha atual/).count()).toBe(0);
    await form.getByLabel(/^E-mail/).fill(newEmail);
    await form.getByLabel(/^Senha atual/).waitFor();
    await form.getByRole("button", { name: "Salvar alterações" }).click();
    await form.getByText("Informe sua senha atual para alterar o e-mail ou o CPF.").waitFor();
    await form.getByLabel(/^Senha atual/).fill("nao-e-esta-1");
    await form.getByRole("button", { name: "Salvar alterações" }).click();
    await form.getByText("Senha atual incorreta.").waitFor();
    await form.getByLabel(/^Senha atual/).fill(owner.password);
    await form.getByRole("button", { name: "Salvar alterações" }).click();
    await page.getByText("Perfil atualizado").waitFor();
    await expect.poll(() => page.getByTestId("sidebar-user-email").textContent()).toBe(newEmail);
    expect(await form.getByLabel(/^Telefone/).inputValue()).toBe("(11) 98765-4321");
    await page.evaluate(() => window.scrollTo(0, 0));
    await snap(page, "profile-desktop");

    // The password: a wrong current one is the field's error; then the new one.
    const card = page.getByRole("form", { name: "Alteração de senha" });
    await card.getByLabel(/^Senha atual/).fill("nao-e-esta-2");
    await card.getByLabel(/^Nova senha/).fill("jardim-azul-42");
    await card.getByLabel(/^Confirmar nova senha/).fill("jardim-azul-42");
    await card.getByRole("button", { name: "Alterar senha" }).click();
    await card.getByText("Senha atual incorreta.").waitFor();
    await card.getByLabel(/^Senha atual/).fill(owner.password);
    await card.getByRole("button", { name: "Alterar senha" }).click();
    await page.getByText("Senha alterada", { exact: true }).waitFor();
    expect(await card.getByLabel(/^Senha atual/).inputValue()).toBe("");
    await page.getByRole("button", { name: "Sair" }).click();
    await page.waitForURL("**/auth");
    await signIn(page, newEmail, "jardim-azul-42");
    // The two wrong current passwords were 400s; nothing else went wrong.
    expect(errors.filter((line) => !/status of 400/.test(line))).toHaveLength(0);
    expect(errors).toHaveLength(2);
    await context.close();

    const phone = await newPage(browser, PHONE);
    await signIn(phone.page, newEmail, "jardim-azul-42");
    await phone.page.getByTestId("mobile-bottom-bar").getByRole("link", { name: "Perfil" }).click();
    await phone.page.getByRole("heading", { name: "Perfil", exact: true }).waitFor();
    expect(
      await phone.page
        .getByRole("form", { name: "Dados pessoais" })
        .getByLabel(/^Nome completo/)
        .inputValue(),
    ).toBe("Dr. Ricardo Almeida Souza Neto");
    expect(await pageWidth(phone.page)).toBeLessThanOrEqual(PHONE.width);
    await snap(phone.page, "profile-phone-edit");
    expect(phone.errors).toEqual([]);
    await phone.context.close();
  });

  it("the owner saves the clinic's data (CEP lookup, CNPJ rule) and the document validity in Configurações", async () => {
    const owner = await registerEstablishment();
    const { context, page, errors } = await newPage(browser, DESKTOP);
    await signIn(page, owner.email, owner.password);
    await page.getByRole("link", { name: "Configurações", exact: true }).click();
    const form = page.getByRole("form", { name: "Dados da clínica" });
    await expect.poll(() => form.getByLabel(/^Razão social/).inputValue()).toBe("Clínica Bem Viver Ltda");
    expect(await form.getByLabel(/^Prazo para assinatura/).inputValue()).toBe("7");

    await form.getByLabel(/^Nome fantasia/).fill("Clínica Bem Viver Jardins");
    await form.getByLabel(/^CNPJ/).fill("");
    await form.getByLabel(/^CNPJ/).pressSequentially("11222333000182");
    await form.getByLabel(/^CEP/).fill("");
    await form.getByLabel(/^CEP/).pressSequentially("20040002");
    await expect.poll(() => form.getByLabel(/^Logradouro/).inputValue()).toBe("Rua da Assembleia");
    expect(await form.getByLabel(/^UF/).inputValue()).toBe("RJ");
    await form.getByLabel(/^Número/).fill("45");
    await form.getByLabel(/^Prazo para assinatura/).fill("15");
    await form.getByRole("button", { name: "Salvar dados" }).click();
    await form.getByText("CNPJ inválido").waitFor();
    const cnpj = validCnpj();
    await form.getByLabel(/^CNPJ/).fill("");
    await form.getByLabel(/^CNPJ/).pressSequentially(cnpj);
    await form.getByRole("button", { name: "Salvar dados" }).click();
    await page.getByText("Configurações atualizadas").waitFor();
    // The name shown in the header follows the nome fantasia.
    await expect.poll(() => page.locator("header").textContent()).toContain("Clínica Bem Viver Jardins");
    // The logo: chosen from the computer, previewed as the server re-encoded it.
    const logoCard = page.getByTestId("clinic-logo");
    await logoCard.getByText("Nenhum logo enviado").waitFor();
    await logoCard.getByTestId("clinic-logo-input").setInputFiles({
      name: "logo.svg",
      mimeType: "image/svg+xml",
      buffer: Buffer.from(
        '<svg xmlns="http://www.w3.org/2000/svg" width="120" height="40"><circle cx="20" cy="20" r="16" fill="#0a7"/><rect x="44" y="12" width="70" height="16" fill="#064"/></svg>',
      ),
    });
    await page.getByText("Logo atualizado").first().waitFor();
    await expect
      .poll(() => logoCard.getByTestId("clinic-logo-preview").evaluate((img) => (img as HTMLImageElement).naturalWidth))
      .toBe(600);
    await logoCard
      .getByTestId("clinic-logo-input")
      .setInputFiles({ name: "foto.gif", mimeType: "image/gif", buffer: Buffer.from("GIF89a") });
    await logoCard.getByRole("alert").getByText("Envie o logo em PNG, JPEG ou SVG.").waitFor();
    await page.evaluate(() => window.scrollTo(0, 0));
    await snap(page, "settings-desktop");

    await page.reload();
    await expect.poll(() => form.getByLabel(/^Prazo para assinatura/).inputValue()).toBe("15");
    expect(await form.getByLabel(/^Cidade/).inputValue()).toBe("Rio de Janeiro");
    expect(await form.getByLabel(/^Número/).inputValue()).toBe("45");
    expect(errors).toEqual([]);
    await context.close();

    const phone = await newPage(browser, PHONE);
    await signIn(phone.page, owner.email, owner.password);
    await phone.page.goto("/settings");
    await expect
      .poll(() =>
        phone.page
          .getByRole("form", { name: "Dados da clínica" })
          .getByLabel(/^Prazo para assinatura/)
          .inputValue(),
      )
      .toBe("15");
    expect(await pageWidth(phone.page)).toBeLessThanOrEqual(PHONE.width);
    await snap(phone.page, "settings-phone");
    expect(phone.errors).toEqual([]);
    await phone.context.close();
  });

  it("menus follow the role: an attendant sees only its menus and 'Acesso negado' on an owner's page; the owner sees everything", async () => {
    const owner = await registerEstablishment();
    const ownerPage = await newPage(browser, DESKTOP);
    await signIn(ownerPage.page, owner.email, owner.password);
    const ownerLinks = await sidebarLinks(ownerPage.page);
    expect(ownerLinks.map((l) => l.label)).toEqual([
      "Dashboard",
      "Pacientes",
      "Documentos",
      "Procedimentos",
      "Gestão de Conteúdo",
      "Templates",
      "Config. Templates",
      "Associar Conteúdo",
      "Usuários",
      "Integração",
      "Certificado Digital",
      "Configurações",
    ]);
    await expectNoPlaceholders(ownerPage.page, ownerLinks);
    const atendente = await addUser(ownerPage.page, "atendente");
    const auditor = await addUser(ownerPage.page, "auditor");
    expect(ownerPage.errors).toEqual([]);
    await ownerPage.context.close();

    const { context, page, errors } = await newPage(browser, DESKTOP);
    await signIn(page, atendente.email, atendente.password);
    const links = await sidebarLinks(page);
    expect(links.map((l) => l.label)).toEqual([
      "Dashboard",
      "Pacientes",
      "Documentos",
      "Procedimentos",
      "Gestão de Conteúdo",
      "Templates",
      "Config. Templates",
      "Associar Conteúdo",
    ]);
    await snap(page, "menus-atendente-desktop");
    await expectNoPlaceholders(page, links);
    for (const path of ["/settings", "/users"]) {
      await page.goto(path);
      await page.getByText("Acesso negado", { exact: true }).waitFor();
    }
    await snap(page, "settings-denied-desktop");
    expect(errors).toEqual([]);
    await context.close();

    const phone = await newPage(browser, PHONE);
    await signIn(phone.page, auditor.email, auditor.password);
    const bar = phone.page.getByTestId("mobile-bottom-bar");
    // An auditor reads only: no 'Novo', and no 'Assinar' (front-desk signing hands the device over in a writer's name).
    expect(await bar.getByRole("link").allTextContents()).toEqual(["Avisos", "Perfil"]);
    await phone.page.getByRole("button", { name: "Alternar menu lateral" }).click();
    const sheet = phone.page.getByRole("dialog", { name: "Menu" });
    await sheet.waitFor();
    await animationsFinished(phone.page);
    const sheetLinks = await sheet.getByRole("link").allTextContents();
    for (const hidden of ["Usuários", "Integração", "Configurações", "Associar Conteúdo", "Config. Templates"])
      expect(sheetLinks, hidden).not.toContain(hidden);
    await snap(phone.page, "menus-auditor-phone");
    expect(phone.errors).toEqual([]);
    await phone.context.close();
  });

  it("the owner edits a user's council and specialties from /users; the owner's own role stays", async () => {
    const owner = await registerEstablishment();
    const { context, page, errors } = await newPage(browser, DESKTOP);
    await signIn(page, owner.email, owner.password);
    const user = await addUser(page, "profissional", {
      nome: "Dra. Camila Ribeiro Torres",
      conselho_tipo: "CRM",
      conselho_numero: "112233",
      conselho_uf: "SP",
      especialidades: [{ especialidade: "dermatologia", areas_atuacao: [], rqe: "7788" }],
    });
    await page.getByRole("link", { name: "Usuários", exact: true }).click();
    const row = page.getByTestId("user-row").filter({ hasText: user.email });
    await row.waitFor();
    await row.getByRole("button", { name: `Editar ${user.nome}` }).click();
    const dialog = page.getByRole("dialog", { name: "Editar usuário" });
    await dialog.waitFor();
    await animationsFinished(page);
    expect(await dialog.getByLabel(/^Nome completo/).inputValue()).toBe(user.nome);
    await dialog.getByLabel(/^Conselho/).selectOption("CRO");
    await dialog.getByLabel(/^Número do conselho/).fill("445566");
    await dialog.getByLabel(/^UF do conselho/).selectOption("MG");
    await dialog.getByRole("button", { name: "Salvar alterações" }).click();
    await dialog.getByText("Selecione pelo menos uma especialidade").waitFor();
    await dialog.getByLabel("Especialidade 1", { exact: true }).selectOption({ label: "Implantodontia" });
    await snap(page, "users-edit-dialog");
    await dialog.getByRole("button", { name: "Salvar alterações" }).click();
    await page.getByText("Dados do usuário atualizados").waitFor();
    await dialog.waitFor({ state: "hidden" });
    await expect.poll(() => row.textContent()).toContain("CRO 445566/MG");
    expect(await row.textContent()).toContain("Implantodontia");

    const ownerRow = page.getByTestId("user-row").filter({ hasText: owner.email });
    await ownerRow.getByRole("button", { name: `Editar ${owner.nome}` }).click();
    await dialog.waitFor();
    expect(await dialog.getByLabel(/^Função/).isDisabled()).toBe(true);
    await dialog.getByRole("button", { name: "Cancelar" }).click();
    expect(errors).toEqual([]);
    await context.close();
  });
});
