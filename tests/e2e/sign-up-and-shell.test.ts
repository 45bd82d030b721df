import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { uniqueEmail } from "../helpers/test-env.js";
import { registerProfessional, validCnpj, validCpf, signIn } from "./accounts.js";
import { baseUrl, DESKTOP, launchBrowser, newPage, PHONE, snap } from "./browser.js";

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe("robots.txt", () => {
  it("is a text file that keeps crawlers out of the app and its signing links, not the app's HTML", async () => {
    const response = await fetch(`${baseUrl()}/robots.txt`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/plain/);
    expect(await response.text()).toBe("User-agent: *\nDisallow: /\n");
  });
});

describe("establishment sign-up, sign-in and the app shell", () => {
  it("signs up a clinic through the three steps, signs in and stays signed in after a reload", async () => {
    const { context, page, errors } = await newPage(browser, DESKTOP);
    const email = uniqueEmail("wizard");
    await page.goto("/");
    await page.waitForURL("**/auth");

    await page.getByRole("tab", { name: "Cadastrar" }).click();
    await page.getByRole("button", { name: /Estabelecimento de saúde/ }).click();

    // Step 1 cannot advance without an establishment type.
    await page.getByRole("button", { name: "Próximo" }).click();
    await expect(page.getByText("Selecione o tipo de estabelecimento").isVisible()).resolves.toBe(true);
    await page.getByLabel("Tipo de estabelecimento").selectOption("clinica");
    await page.getByLabel("Razão social").fill("Clínica Sorriso Pleno Ltda");
    await page.getByLabel("Nome fantasia").fill("Sorriso Pleno");
    const cnpj = validCnpj();
    await page.getByLabel("CNPJ").pressSequentially(cnpj);
    expect(await page.getByLabel("CNPJ").inputValue()).toBe(
      `${cnpj.slice(0, 2)}.${cnpj.slice(2, 5)}.${cnpj.slice(5, 8)}/${cnpj.slice(8, 12)}-${cnpj.slice(12)}`,
    );
    await page.getByRole("button", { name: "Próximo" }).click();

    // Step 2: the CEP fills the address through the server (fake ViaCEP).
    await page.getByLabel("CEP").pressSequentially("01310100");
    expect(await page.getByLabel("CEP").inputValue()).toBe("01310-100");
    await expect.poll(() => page.getByLabel("Logradouro").inputValue()).toBe("Avenida Paulista");
    expect(await page.getByLabel("Bairro").inputValue()).toBe("Bela Vista");
    expect(await page.getByLabel("Cidade").inputValue()).toBe("São Paulo");
    expect(await page.locator("#estado").inputValue()).toBe("SP");
    await page.locator("#numero").fill("1578");
    await snap(page, "signup-step2-address");

    // Back keeps what was typed.
    await page.getByRole("button", { name: "Voltar" }).last().click();
    expect(await page.getByLabel("Razão social").inputValue()).toBe("Clínica Sorriso Pleno Ltda");
    await page.getByRole("button", { name: "Próximo" }).click();
    await page.getByRole("button", { name: "Próximo" }).click();

    // Step 3: the owner, with council data.
    await page.getByLabel("Nome completo").fill("Dr. Paulo Henrique Teixeira");
    await page.getByLabel("CPF").pressSequentially(validCpf());
    await page.getByLabel("E-mail").fill(email);
    await page.getByLabel(/^Senha\*?$/).fill("segredo123");
    await page.getByLabel("Confirmar senha").fill("outra");
    await page.getByLabel(/^Conselho\*?$/).selectOption("CRM");
    await page.getByLabel("Número do conselho").fill("112233");
    await page.getByLabel("UF do conselho").selectOption("SP");
    await page.getByLabel("Especialidade 1").selectOption("dermatologia");
    await page.getByRole("button", { name: "Criar conta" }).click();
    await page.getByText("As senhas não coincidem", { exact: true }).waitFor();
    await page.getByText("RQE é obrigatório para cada especialidade do CRM", { exact: true }).waitFor();
    await page.getByLabel("Confirmar senha").fill("segredo123");
    await page.getByLabel(/^RQE\*?$/).fill("7788");
    await snap(page, "signup-step3-owner");
    await page.getByRole("button", { name: "Criar conta" }).click();

    await page.getByText("Conta criada com sucesso! Você já pode fazer login.").waitFor();
    expect(await page.getByLabel("E-mail").inputValue()).toBe(email);
    await page.getByLabel("Senha").fill("segredo123");
    await page.getByRole("button", { name: "Entrar", exact: true }).click();
    await page.getByRole("heading", { name: "Dashboard" }).waitFor();
    expect(await page.getByTestId("dashboard-greeting").textContent()).toContain("Sorriso Pleno");
    expect(await page.getByTestId("sidebar-user-email").textContent()).toBe(email);

    await page.reload();
    await page.getByRole("heading", { name: "Dashboard" }).waitFor();
    expect(new URL(page.url()).pathname).toBe("/");
    await snap(page, "dashboard-desktop");

    // Signed in, /auth sends home.
    await page.goto("/auth");
    await page.getByRole("heading", { name: "Dashboard" }).waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });

  it("shows the sidebar groups, toggles it with ctrl+b and remembers it after a reload", async () => {
    const account = await registerProfessional();
    const { context, page, errors } = await newPage(browser, DESKTOP);
    await signIn(page, account.email, account.password);
    for (const label of ["Principal", "Gestão de Conteúdo", "Administração"]) {
      await page.getByText(label, { exact: true }).first().waitFor();
    }
    for (const item of [
      "Pacientes",
      "Documentos",
      "Procedimentos",
      "Templates",
      "Config. Templates",
      "Associar Conteúdo",
      "Integração",
      "Certificado Digital",
      "Configurações",
      "Meu perfil",
    ]) {
      expect(await page.getByRole("link", { name: item, exact: true }).count(), item).toBe(1);
    }
    // An independent professional's account is one person: no Usuários (decision 017).
    expect(await page.getByRole("link", { name: "Usuários", exact: true }).count()).toBe(0);
    const sidebar = page.locator('[data-slot="sidebar"][data-state]').first();
    expect(await sidebar.getAttribute("data-state")).toBe("expanded");
    // Expanded, the labels are on screen: no tooltips (their code is not even loaded, decision 033).
    await page.getByRole("link", { name: "Pacientes", exact: true }).hover();
    await page.waitForTimeout(300);
    expect(await page.getByRole("tooltip").count()).toBe(0);
    await page.keyboard.press("Control+b");
    await expect.poll(() => sidebar.getAttribute("data-state")).toBe("collapsed");
    // Collapsed to icons, each icon names itself in a tooltip on hover.
    // (The tooltip's chunk arrives after the collapse: the pointer moves again until it is there.)
    let moves = 0;
    await expect
      .poll(async () => {
        await page.getByRole("link", { name: moves++ % 2 === 0 ? "Documentos" : "Pacientes", exact: true }).hover();
        await page.getByRole("link", { name: "Pacientes", exact: true }).hover();
        return (await page.getByRole("tooltip").count()) > 0 ? page.getByRole("tooltip").first().textContent() : null;
      })
      .toBe("Pacientes");
    const cookies = await context.cookies();
    const cookie = cookies.find((c) => c.name === "sidebar_state");
    expect(cookie?.value).toBe("false");
    expect(Math.round(((cookie?.expires ?? 0) * 1000 - Date.now()) / 86_400_000)).toBe(7);
    await page.reload();
    await page.getByRole("heading", { name: "Dashboard" }).waitFor();
    expect(await page.locator('[data-slot="sidebar"][data-state]').first().getAttribute("data-state")).toBe(
      "collapsed",
    );
    await page.keyboard.press("Control+b");
    await expect
      .poll(() => page.locator('[data-slot="sidebar"][data-state]').first().getAttribute("data-state"))
      .toBe("expanded");
    // Ctrl+B from the menu: the link that had the keyboard focus keeps it, collapsed (also once the
    // tooltip's chunk has arrived and the links are wrapped in it) and expanded again.
    const focusedName = () =>
      page.evaluate(() => (document.activeElement as HTMLElement | null)?.textContent?.trim() ?? null);
    await page.getByRole("link", { name: "Documentos", exact: true }).focus();
    expect(await focusedName()).toBe("Documentos");
    await page.keyboard.press("Control+b");
    await expect
      .poll(() => page.locator('[data-slot="sidebar"][data-state]').first().getAttribute("data-state"))
      .toBe("collapsed");
    await expect.poll(() => page.getByRole("tooltip").count()).toBeGreaterThan(0);
    expect(await focusedName()).toBe("Documentos");
    await page.keyboard.press("Control+b");
    await expect
      .poll(() => page.locator('[data-slot="sidebar"][data-state]').first().getAttribute("data-state"))
      .toBe("expanded");
    expect(await focusedName()).toBe("Documentos");
    expect(errors).toEqual([]);
    await context.close();
  });

  it("keeps the toast of the save that navigated and clears it on the next screen change", async () => {
    const account = await registerProfessional();
    const { context, page, errors } = await newPage(browser, DESKTOP);
    await signIn(page, account.email, account.password);
    await page.goto("/patients/create");
    await page.getByLabel(/^Nome\*?$/).fill("Teresa Avelar Campos");
    await page.getByRole("button", { name: "Cadastrar paciente" }).click();
    await page.waitForURL(/\/patients\/[0-9a-f-]{36}$/);
    // Raised by the save that opened this screen: it stays here.
    const toast = page.getByText("Paciente cadastrado com sucesso");
    await toast.waitFor();
    await page.waitForTimeout(1800);
    expect(await toast.isVisible()).toBe(true);
    // Cleared by the screen change, well before sonner's own 4 s would close it.
    const clickedAt = Date.now();
    await page.getByRole("link", { name: "Documentos", exact: true }).click();
    await expect.poll(() => toast.count(), { timeout: 1500 }).toBe(0);
    expect(Date.now() - clickedAt).toBeLessThan(1500);
    await page.getByRole("heading", { name: "Documentos" }).first().waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });

  it("signs out with Sair and then sends every app route to /auth", async () => {
    const account = await registerProfessional();
    const { context, page, errors } = await newPage(browser, DESKTOP);
    await signIn(page, account.email, account.password);
    await page.getByRole("button", { name: "Sair" }).click();
    await page.waitForURL("**/auth");
    await page.goto("/patients");
    await page.waitForURL("**/auth");
    await page.getByRole("tab", { name: "Entrar" }).waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });

  it("shows the not-found page with a link home for an unknown path", async () => {
    const account = await registerProfessional();
    const { context, page, errors } = await newPage(browser, DESKTOP);
    await signIn(page, account.email, account.password);
    await page.goto("/caminho/que/nao/existe");
    await page.getByRole("heading", { name: "Página não encontrada" }).waitFor();
    await page.getByRole("link", { name: "Voltar para o início" }).click();
    await page.getByRole("heading", { name: "Dashboard" }).waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });

  it("shows the bottom bar with Novo, Assinar, Avisos and Perfil at 390×844", async () => {
    const account = await registerProfessional();
    const { context, page, errors } = await newPage(browser, PHONE);
    await signIn(page, account.email, account.password);
    const bar = page.getByTestId("mobile-bottom-bar");
    expect(await bar.isVisible()).toBe(true);
    expect(await bar.getByRole("link").allTextContents()).toEqual(["Novo", "Assinar", "Avisos", "Perfil"]);
    // The desktop sidebar is not on screen; the trigger opens it as a sheet of 18rem.
    await page.getByRole("button", { name: "Alternar menu lateral" }).click();
    const sheet = page.getByRole("dialog", { name: "Menu" });
    await sheet.waitFor();
    expect(Math.round((await sheet.boundingBox())?.width ?? 0)).toBe(288);
    await sheet.getByRole("link", { name: "Pacientes" }).click();
    await page.waitForURL("**/patients");
    await expect.poll(() => sheet.isVisible()).toBe(false);
    await bar.getByRole("link", { name: "Perfil" }).click();
    await page.getByRole("heading", { name: "Perfil" }).waitFor();
    await snap(page, "profile-phone");
    const box = await bar.boundingBox();
    expect(Math.round((box?.y ?? 0) + (box?.height ?? 0))).toBe(844);
    expect(errors).toEqual([]);
    await context.close();
  });
});
