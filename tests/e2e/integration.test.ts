import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FAKE_FEEGOW_TOKEN } from "../fakes/feegow-server.js";
import { registerProfessional, signIn, validCpf } from "./accounts.js";
import { animationsFinished, DESKTOP, launchBrowser, newPage, PHONE, snap } from "./browser.js";

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe("clinic-system integration (Feegow, against the local fake)", () => {
  it("saves the token, tests the connection, turns on patients, and fills a new patient from Feegow", async () => {
    const account = await registerProfessional();
    const { context, page, errors } = await newPage(browser, DESKTOP);
    await signIn(page, account.email, account.password);

    await page.getByRole("link", { name: "Integração", exact: true }).click();
    await page.waitForURL("**/integration");
    await page.getByRole("heading", { name: "Integração", exact: true }).waitFor();
    const connection = page.getByTestId("feegow-connection");
    await expect.poll(() => connection.getByTestId("feegow-status").textContent()).toContain("Desconectado");
    expect(await connection.getByTestId("feegow-last-sync").textContent()).toBe("Nunca");
    const switches = page.getByTestId("feegow-features").getByRole("switch");
    expect(await switches.count()).toBe(4);
    for (let i = 0; i < 4; i += 1) expect(await switches.nth(i).isDisabled()).toBe(true);
    await page
      .getByText("A gestão de usuários com importação de profissionais do Feegow é exclusiva para estabelecimentos.")
      .waitFor();
    await snap(page, "integration-initial-desktop");

    // Testing before any token, and saving an empty one.
    await connection.getByRole("button", { name: "Testar conexão" }).click();
    await page.getByText("Token não configurado", { exact: true }).waitFor();
    await connection.getByRole("button", { name: "Salvar token" }).click();
    await connection.getByText("Digite o token do Feegow").waitFor();

    const tokenInput = connection.getByLabel("Token de acesso à API do Feegow");
    expect(await tokenInput.getAttribute("type")).toBe("password");
    await tokenInput.fill(FAKE_FEEGOW_TOKEN);
    await connection.getByRole("button", { name: "Salvar token" }).click();
    await page.getByText("Configurações atualizadas", { exact: true }).first().waitFor();
    await expect.poll(() => connection.getByTestId("feegow-token-saved").textContent()).toBe("••••1234");
    expect(await tokenInput.inputValue()).toBe("");
    expect(await tokenInput.getAttribute("placeholder")).toBe("••••1234 (salvo)");
    await connection.getByRole("button", { name: "Atualizar token" }).waitFor();
    expect(await page.content()).not.toContain(FAKE_FEEGOW_TOKEN);

    await connection.getByRole("button", { name: "Testar conexão" }).click();
    await page.getByText("Conexão estabelecida", { exact: true }).waitFor();
    await page.getByText("Token Feegow validado com sucesso").waitFor();
    await expect.poll(() => connection.getByTestId("feegow-status").textContent()).toContain("Conectado");
    expect(await connection.getByTestId("feegow-last-sync").textContent()).toMatch(
      /^\d{2}\/\d{2}\/\d{4},? \d{2}:\d{2}$/,
    );

    const patients = page.getByTestId("feegow-features").getByRole("switch", { name: "Pacientes", exact: true });
    await expect.poll(() => patients.isEnabled()).toBe(true);
    await patients.click();
    await expect.poll(() => patients.getAttribute("aria-checked")).toBe("true");
    await snap(page, "integration-connected-desktop");

    // The same screen on a phone.
    const phone = await newPage(browser, PHONE);
    await signIn(phone.page, account.email, account.password);
    await phone.page.goto("/integration");
    await expect.poll(() => phone.page.getByTestId("feegow-status").textContent()).toContain("Conectado");
    expect(await phone.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await snap(phone.page, "integration-connected-phone");
    await phone.context.close();

    // New patient: "Buscar no Feegow" next to the CPF.
    await page.goto("/patients/create");
    await page.getByRole("heading", { name: "Novo Paciente" }).waitFor();
    await page.getByRole("button", { name: "Buscar no Feegow" }).click();
    const dialog = page.getByRole("dialog", { name: "Buscar paciente no Feegow" });
    await dialog.waitFor();
    await dialog.getByLabel("CPF do paciente").pressSequentially(validCpf());
    await dialog.getByRole("button", { name: "Buscar", exact: true }).click();
    await dialog.getByText("Paciente não encontrado").waitFor();
    expect(await dialog.getByRole("button", { name: "Preencher formulário" }).isDisabled()).toBe(true);

    await dialog.getByLabel("CPF do paciente").fill("");
    await dialog.getByLabel("CPF do paciente").pressSequentially("52998224725");
    await dialog.getByRole("button", { name: "Buscar", exact: true }).click();
    const result = dialog.getByTestId("feegow-patient-result");
    await result.getByText("Helena Duarte Vasconcelos").waitFor();
    expect(await result.textContent()).toContain("529.982.247-25");
    expect(await result.textContent()).toContain("23/09/1979");
    await animationsFinished(page);
    await snap(page, "integration-feegow-search-dialog");
    await dialog.getByRole("button", { name: "Preencher formulário" }).click();
    await dialog.waitFor({ state: "hidden" });

    expect(await page.getByLabel(/^Nome\*?$/).inputValue()).toBe("Helena Duarte Vasconcelos");
    expect(await page.getByLabel(/^CPF$/).inputValue()).toBe("529.982.247-25");
    expect(await page.getByLabel("Data de nascimento").inputValue()).toBe("1979-09-23");
    expect(await page.getByLabel("Sexo").inputValue()).toBe("feminino");
    expect(await page.getByLabel("Telefone").inputValue()).toBe("(11) 99876-5432");
    expect(await page.getByLabel("E-mail").inputValue()).toBe("helena.vasconcelos@example.com");
    expect(await page.getByLabel("CEP").inputValue()).toBe("01310-100");
    expect(await page.getByLabel("Logradouro").inputValue()).toBe("Avenida Paulista");
    expect(await page.getByLabel("Número").inputValue()).toBe("900");
    expect(await page.getByLabel("Bairro").inputValue()).toBe("Bela Vista");
    expect(await page.getByLabel("Cidade").inputValue()).toBe("São Paulo");
    expect(await page.locator("#uf").inputValue()).toBe("SP");
    await snap(page, "integration-patient-filled-desktop");

    // Saved with the Feegow id.
    const posted = page.waitForRequest(
      (request) => request.url().endsWith("/api/patients") && request.method() === "POST",
    );
    await page.getByRole("button", { name: "Cadastrar paciente" }).click();
    expect((await posted).postDataJSON()).toMatchObject({ nome: "Helena Duarte Vasconcelos", feegow_patient_id: 4817 });
    await page.getByText("Paciente cadastrado com sucesso").waitFor();
    await page.getByRole("heading", { name: "Helena Duarte Vasconcelos" }).waitFor();

    // The not-found answer (404) is the only failed request the browser saw.
    expect(errors.filter((e) => !e.includes("404"))).toEqual([]);
    await context.close();
  });

  it("shows no 'Buscar no Feegow' while the clinic's patients switch is off", async () => {
    const account = await registerProfessional();
    const { context, page, errors } = await newPage(browser, DESKTOP);
    await signIn(page, account.email, account.password);
    const features = page.waitForResponse((response) => response.url().endsWith("/api/integration/feegow/features"));
    await page.goto("/patients/create");
    expect(await (await features).json()).toEqual({
      patients: false,
      professionals: false,
      procedures: false,
      file_upload: false,
    });
    await page.getByRole("heading", { name: "Novo Paciente" }).waitFor();
    await page.getByLabel(/^CPF$/).waitFor();
    expect(await page.getByRole("button", { name: "Buscar no Feegow" }).count()).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });
});
