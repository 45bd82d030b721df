import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { registerProfessional, validCpf, signIn } from "./accounts.js";
import { DESKTOP, launchBrowser, newPage, PHONE, snap } from "./browser.js";
import { json } from "./signing-helpers.js";

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** Registers a patient through the API with the page's session (for tests about the list). */
async function createPatientByApi(page: Page, body: Record<string, unknown>): Promise<{ id: string; nome: string }> {
  const response = await page.request.post("/api/patients", { data: body });
  if (response.status() !== 201)
    throw new Error(`create patient failed: ${response.status()} ${await response.text()}`);
  return (await response.json()) as { id: string; nome: string };
}

const masked = (cpf: string) => `${cpf.slice(0, 3)}.${cpf.slice(3, 6)}.${cpf.slice(6, 9)}-${cpf.slice(9)}`;

describe("patients", () => {
  it("creates a patient with the CEP lookup, finds it by a masked CPF fragment, edits the phone and shows it", async () => {
    const account = await registerProfessional();
    const { context, page, errors } = await newPage(browser, DESKTOP);
    await signIn(page, account.email, account.password);
    await page.getByRole("link", { name: "Pacientes", exact: true }).click();
    await page.getByRole("heading", { name: "Pacientes", exact: true }).waitFor();
    await page.getByText("Nenhum paciente cadastrado", { exact: true }).waitFor();
    await snap(page, "patients-empty-desktop");

    // Someone else in the clinic, so that the search has something to leave out.
    await createPatientByApi(page, { nome: "Roberto Nogueira", cpf: validCpf(), telefone: "(31) 3456-7890" });

    await page.getByRole("link", { name: "Novo Paciente" }).first().click();
    await page.waitForURL("**/patients/create");
    const cpf = validCpf();
    await page.getByLabel(/^Nome\*?$/).fill("Juliana Ferreira Prado");
    await page.getByLabel(/^CPF$/).pressSequentially(cpf);
    expect(await page.getByLabel(/^CPF$/).inputValue()).toBe(masked(cpf));
    await page.getByLabel("Data de nascimento").fill("1988-07-14");
    await page.getByLabel("Sexo").selectOption("feminino");
    await page.getByLabel("Telefone").pressSequentially("11987654321");
    expect(await page.getByLabel("Telefone").inputValue()).toBe("(11) 98765-4321");
    await page.getByLabel("E-mail").fill("juliana.prado@example.com");

    await page.getByLabel("CEP").pressSequentially("01310100");
    expect(await page.getByLabel("CEP").inputValue()).toBe("01310-100");
    await expect.poll(() => page.getByLabel("Logradouro").inputValue()).toBe("Avenida Paulista");
    expect(await page.getByLabel("Bairro").inputValue()).toBe("Bela Vista");
    expect(await page.getByLabel("Cidade").inputValue()).toBe("São Paulo");
    expect(await page.locator("#uf").inputValue()).toBe("SP");
    await page.getByLabel("Número").fill("1578");
    await snap(page, "patient-create-desktop");

    await page.getByRole("button", { name: "Cadastrar paciente" }).click();
    await page.getByText("Paciente cadastrado com sucesso").waitFor();
    await page.waitForURL(/\/patients\/[0-9a-f-]{36}$/);
    await page.getByRole("heading", { name: "Juliana Ferreira Prado" }).waitFor();

    // The list finds her by the first six CPF digits typed with the mask.
    await page.getByRole("link", { name: "Pacientes", exact: true }).click();
    await page.getByText("Mostrando 2 de 2 pacientes").waitFor();
    await page
      .getByRole("searchbox", { name: "Buscar pacientes" })
      .pressSequentially(`${cpf.slice(0, 3)}.${cpf.slice(3, 6)}`);
    await page.getByText("Mostrando 1 de 1 pacientes").waitFor();
    const row = page.getByTestId("patient-row");
    expect(await row.count()).toBe(1);
    const text = (await row.textContent()) ?? "";
    expect(text).toContain("Juliana Ferreira Prado");
    expect(text).toContain(masked(cpf));
    expect(text).toContain("(11) 98765-4321");
    expect(text).toContain("juliana.prado@example.com");
    expect(text).toMatch(/\d+ anos/);
    expect(text).toContain("0 documentos");
    await snap(page, "patients-search-desktop");

    // Editar Paciente: a new phone.
    await page.getByRole("button", { name: "Ações de Juliana Ferreira Prado" }).click();
    await page.getByRole("menuitem", { name: "Editar Paciente" }).click();
    await page.waitForURL(/\/patients\/[0-9a-f-]{36}\/edit$/);
    const phone = page.getByLabel("Telefone");
    await expect.poll(() => phone.inputValue()).toBe("(11) 98765-4321");
    expect(await page.getByLabel("Logradouro").inputValue()).toBe("Avenida Paulista");
    await phone.fill("");
    await phone.pressSequentially("21998765432");
    await page.getByRole("button", { name: "Salvar alterações" }).click();
    await page.getByText("Paciente atualizado com sucesso").waitFor();
    await page.waitForURL(/\/patients\/[0-9a-f-]{36}$/);

    // Back on the list, Ver Detalhes shows the new phone.
    await page.getByRole("link", { name: "Pacientes", exact: true }).click();
    await page.getByRole("searchbox", { name: "Buscar pacientes" }).fill("juliana");
    await page.getByText("Mostrando 1 de 1 pacientes").waitFor();
    await page.getByRole("button", { name: "Ações de Juliana Ferreira Prado" }).click();
    await page.getByRole("menuitem", { name: "Ver Detalhes" }).click();
    await page.getByRole("heading", { name: "Juliana Ferreira Prado" }).waitFor();
    await page.getByRole("link", { name: "(21) 99876-5432" }).waitFor();
    expect(await page.getByTestId("patient-address").textContent()).toContain("Avenida Paulista, 1578");
    await page.getByText("Nenhum documento para este paciente").waitFor();
    await snap(page, "patient-detail-desktop");
    expect(errors).toEqual([]);
    await context.close();
  });

  it("refuses a CPF already in the clinic and links to that patient", async () => {
    const account = await registerProfessional();
    const { context, page, errors } = await newPage(browser, DESKTOP);
    await signIn(page, account.email, account.password);
    const cpf = validCpf();
    const existing = await createPatientByApi(page, { nome: "Carla Menezes", cpf });

    await page.goto("/patients/create");
    await page.getByLabel(/^Nome\*?$/).fill("Carla M.");
    await page.getByLabel(/^CPF$/).pressSequentially(cpf);
    await page.getByRole("button", { name: "Cadastrar paciente" }).click();
    await page.getByText("Erro ao cadastrar paciente").waitFor();
    await page.locator("#cpf-error").getByText("Já existe um paciente com este CPF nesta clínica.").waitFor();
    await snap(page, "patient-create-cpf-taken");
    await page.getByRole("link", { name: "Ver paciente Carla Menezes" }).click();
    await page.waitForURL(`**/patients/${existing.id}`);
    await page.getByRole("heading", { name: "Carla Menezes" }).waitFor();
    expect(errors.filter((e) => !e.includes("409"))).toEqual([]);
    await context.close();
  });

  it("pages with Próxima/Anterior, filters minors and answers unknown ids with Paciente não encontrado", async () => {
    const account = await registerProfessional();
    const { context, page, errors } = await newPage(browser, DESKTOP);
    await signIn(page, account.email, account.password);
    for (let i = 1; i <= 21; i++) {
      await createPatientByApi(page, { nome: `Paciente ${String(i).padStart(2, "0")}`, data_nascimento: "1980-01-01" });
    }
    await createPatientByApi(page, {
      nome: "Pedro Criança",
      data_nascimento: "2018-03-10",
      responsavel_nome: "Ana Criança",
    });

    await page.goto("/patients");
    await page.getByText("Mostrando 20 de 22 pacientes").waitFor();
    await page.getByRole("button", { name: "Próxima" }).click();
    await page.getByText("Mostrando 22 de 22 pacientes").waitFor();
    expect(await page.getByRole("button", { name: "Próxima" }).isDisabled()).toBe(true);
    await page.getByRole("button", { name: "Anterior" }).click();
    await page.getByText("Mostrando 20 de 22 pacientes").waitFor();

    // At a tablet's width, with the sidebar open, the table still fits.
    await page.setViewportSize({ width: 820, height: 1000 });
    expect(await page.getByTestId("patients-table").isVisible()).toBe(true);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(820);
    await snap(page, "patients-list-tablet");
    await page.setViewportSize(DESKTOP);

    await page.getByRole("button", { name: "Filtros" }).click();
    await page.getByLabel("Menores de idade").selectOption("sim");
    await page.getByText("Mostrando 1 de 1 pacientes").waitFor();
    expect(await page.getByRole("button", { name: "Filtros (1 ativos)" }).isVisible()).toBe(true);
    await snap(page, "patients-filters-desktop");
    await page.keyboard.press("Escape");
    await page.getByRole("dialog", { name: "Filtros de pacientes" }).waitFor({ state: "detached" });
    expect(await page.getByTestId("patient-row").textContent()).toContain("Pedro Criança");
    await page.getByRole("button", { name: "Limpar filtros" }).click();
    await page.getByText("Mostrando 20 de 22 pacientes").waitFor();

    await page.getByRole("searchbox", { name: "Buscar pacientes" }).fill("ninguém com este nome");
    await page.getByText('Nenhum paciente encontrado para "ninguém com este nome"').waitFor();

    await page.goto("/patients/00000000-0000-4000-8000-000000000000");
    await page.getByText("Paciente não encontrado").waitFor();
    await page.getByRole("link", { name: "Voltar para Pacientes" }).click();
    await page.getByRole("heading", { name: "Pacientes", exact: true }).waitFor();
    expect(errors.filter((e) => !e.includes("404"))).toEqual([]);
    await context.close();
  });

  it("shows the list as cards at 390×844, with the form and details usable on the phone", async () => {
    const account = await registerProfessional();
    const { context, page, errors } = await newPage(browser, PHONE);
    await signIn(page, account.email, account.password);
    const cpf = validCpf();
    const minor = await createPatientByApi(page, {
      nome: "Beatriz Santos de Oliveira Albuquerque",
      cpf,
      data_nascimento: "2015-09-02",
      telefone: "(11) 91234-5678",
      email: "familia.albuquerque.santos@example.com",
      cep: "01310-100",
      logradouro: "Avenida Paulista",
      numero: "900",
      bairro: "Bela Vista",
      cidade: "São Paulo",
      uf: "SP",
      responsavel_nome: "Marcos de Oliveira Albuquerque",
      responsavel_cpf: validCpf(),
    });
    await createPatientByApi(page, { nome: "Otávio Lins", sexo: "masculino" });

    await page.goto("/patients");
    await page.getByText("Mostrando 2 de 2 pacientes").waitFor();
    expect(await page.getByTestId("patients-cards").isVisible()).toBe(true);
    expect(await page.getByTestId("patients-table").count()).toBe(0);
    expect(await page.getByTestId("patient-card").count()).toBe(2);
    const card = page.getByTestId("patient-card").filter({ hasText: "Beatriz Santos de Oliveira Albuquerque" });
    expect(await card.textContent()).toContain(masked(cpf));
    expect(await card.textContent()).toContain("(11) 91234-5678");
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await snap(page, "patients-list-phone");

    await page.getByRole("button", { name: "Ações de Beatriz Santos de Oliveira Albuquerque" }).click();
    await page.getByRole("menuitem", { name: "Ver Contratos" }).click();
    // The documents list, filtered by this patient.
    await page.waitForURL(`**/documents?paciente=${minor.id}`);
    await page.getByText("Nenhum documento corresponde aos filtros").waitFor();
    await page.goto(`/patients/${minor.id}`);
    await page.getByText("Nenhum documento para este paciente").waitFor();
    expect(await page.getByText("Menor de idade").isVisible()).toBe(true);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await snap(page, "patient-detail-phone");

    await page.getByRole("link", { name: "Editar Paciente" }).click();
    await page.waitForURL(`**/patients/${minor.id}/edit`);
    // A minor: the guardian section is open with its hint.
    await page.getByText("Paciente menor de idade: informe o nome e o CPF do responsável legal.").waitFor();
    expect(await page.getByLabel("Nome do responsável").inputValue()).toBe("Marcos de Oliveira Albuquerque");
    // The guardian's own contacts: a malformed e-mail and a landline are refused in pt-BR.
    await page.getByLabel("E-mail do responsável").fill("marcos@");
    await page.getByLabel("Celular do responsável").pressSequentially("1134567890");
    await page.getByRole("button", { name: "Salvar alterações" }).click();
    await page.getByText("E-mail do responsável inválido").waitFor();
    await page.getByText("Celular do responsável inválido").waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await snap(page, "patient-edit-guardian-contacts-invalid-phone");
    await page.getByLabel("E-mail do responsável").fill("marcos.albuquerque@example.com");
    await page.getByLabel("Celular do responsável").fill("");
    await page.getByLabel("Celular do responsável").pressSequentially("11987651234");
    expect(await page.getByLabel("Celular do responsável").inputValue()).toBe("(11) 98765-1234");
    await snap(page, "patient-edit-phone");
    await page.getByRole("button", { name: "Salvar alterações" }).click();
    await page.waitForURL(new RegExp(`/patients/${minor.id}(#documentos)?$`));
    await page.getByText("(11) 98765-1234").waitFor();
    expect(await page.getByText("marcos.albuquerque@example.com").isVisible()).toBe(true);
    await snap(page, "patient-detail-guardian-contacts-phone");
    const saved = await json<{ responsavel_email: string; responsavel_telefone: string }>(
      await page.request.get(`/api/patients/${minor.id}`),
      200,
    );
    expect(saved).toMatchObject({
      responsavel_email: "marcos.albuquerque@example.com",
      responsavel_telefone: "11987651234",
    });

    const bar = page.getByTestId("mobile-bottom-bar");
    const box = await bar.boundingBox();
    expect(Math.round((box?.y ?? 0) + (box?.height ?? 0))).toBe(844);
    expect(errors).toEqual([]);
    await context.close();
  });
});
