import { execFileSync } from "node:child_process";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { registerProfessional, signIn, validCpf } from "./accounts.js";
import { animationsFinished, DESKTOP, launchBrowser, newPage, snap } from "./browser.js";

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

async function json<T>(
  response: { status(): number; json(): Promise<unknown>; text(): Promise<string> },
  status: number,
): Promise<T> {
  if (response.status() !== status)
    throw new Error(`expected ${status}, got ${response.status()}: ${await response.text()}`);
  return (await response.json()) as T;
}

const caret = (page: Page, label: string) =>
  page
    .getByLabel(label, { exact: true })
    .evaluate((element) => [(element as HTMLInputElement).selectionStart, (element as HTMLInputElement).selectionEnd]);

describe("inputs that behave", () => {
  it("keeps the caret on a middle CPF digit, and warns before leaving a patient form with unsaved changes", async () => {
    const account = await registerProfessional();
    const { context, page, errors } = await newPage(browser, DESKTOP);
    await signIn(page, account.email, account.password);
    await page.goto("/patients/create");
    await page.getByLabel(/^Nome\*?$/).fill("Helena Duarte Ramos");
    const cpf = page.getByLabel("CPF", { exact: true });
    await cpf.pressSequentially("52998224725");
    expect(await cpf.inputValue()).toBe("529.982.247-25");

    // Replace the 5th digit ("8", after "529.98"): the caret stays where the user edits.
    await cpf.evaluate((element) => (element as HTMLInputElement).setSelectionRange(6, 6));
    await page.keyboard.press("Backspace");
    expect(await cpf.inputValue()).toBe("529.922.472-5");
    expect(await caret(page, "CPF")).toEqual([5, 5]);
    await page.keyboard.type("8");
    expect(await cpf.inputValue()).toBe("529.982.247-25");
    expect(await caret(page, "CPF")).toEqual([6, 6]);

    // Leaving the dirty form asks first; staying keeps what was typed.
    await page.getByRole("link", { name: "Pacientes", exact: true }).click();
    const dialog = page.getByRole("alertdialog", { name: "Sair sem salvar?" });
    await dialog.waitFor();
    await animationsFinished(page);
    await snap(page, "unsaved-changes-dialog-desktop");
    await dialog.getByRole("button", { name: "Continuar editando" }).click();
    await dialog.waitFor({ state: "detached" });
    expect(page.url()).toMatch(/\/patients\/create$/);
    expect(await cpf.inputValue()).toBe("529.982.247-25");

    // A successful save leaves without asking; the CPF was stored as typed.
    await page.getByRole("button", { name: "Cadastrar paciente" }).click();
    await page.waitForURL(/\/patients\/[0-9a-f-]{36}$/);
    await page.getByText("529.982.247-25").first().waitFor();
    expect(await page.getByRole("alertdialog").count()).toBe(0);

    // Leaving a changed edit form for another screen, confirmed, does leave.
    await page.goto(`${page.url()}/edit`);
    await page.getByLabel("Telefone", { exact: true }).pressSequentially("11987654321");
    expect(await page.getByLabel("Telefone", { exact: true }).inputValue()).toBe("(11) 98765-4321");
    await page.getByRole("link", { name: "Pacientes", exact: true }).click();
    await dialog.getByRole("button", { name: "Sair sem salvar" }).click();
    await page.waitForURL(/\/patients$/);

    expect(errors).toEqual([]);
    await context.close();
  });

  it("explains a cut or used password-reset link and offers a new one", async () => {
    const { context, page, errors } = await newPage(browser, DESKTOP);
    // Cut when copied from the e-mail: said before any password is typed.
    await page.goto("/auth/redefinir-senha?token=q3Vt0mZ8kR1x_yP-4bN7");
    await page.getByText("Este link de redefinição de senha está incompleto.", { exact: false }).waitFor();
    expect(await page.getByLabel("Nova senha").count()).toBe(0);
    await snap(page, "reset-password-cut-link-desktop");
    await page.getByRole("button", { name: "Pedir novo link" }).click();
    await page.getByRole("dialog", { name: "Redefinir senha" }).getByLabel("E-mail").waitFor();
    await page.keyboard.press("Escape");

    // Whole but unknown (used or expired): the server's refusal replaces the form with the same way out.
    await page.goto("/auth/redefinir-senha?token=q3Vt0mZ8kR1x_yP-4bN7cL2dE5fG6hJ9aS0wQ1eR2tY");
    await page.getByLabel(/^Nova senha/).fill("outra-senha-boa-42");
    await page.getByLabel("Confirmar nova senha").fill("outra-senha-boa-42");
    await page.getByRole("button", { name: "Salvar nova senha" }).click();
    await page.getByText("já foi usado ou expirou", { exact: false }).waitFor();
    await page.getByRole("button", { name: "Pedir novo link" }).waitFor();

    expect(errors.filter((e) => !e.includes("400"))).toEqual([]);
    await context.close();
  });

  it("types a price as R$ 1.250,00 on /procedures and prints it so in the term and its PDF", async () => {
    const account = await registerProfessional();
    const { context, page, errors } = await newPage(browser, DESKTOP);
    await signIn(page, account.email, account.password);
    const specialties = (await json<{ items: string[] }>(await page.request.get("/api/templates/specialties"), 200))
      .items;
    const estrutura = {
      title: "Termo — {{procedimento}}",
      introduction: "Eu, {{paciente_nome}}, autorizo {{profissional_nome}}.",
      sections: [
        {
          id: "custos",
          type: "paragraph",
          title: "Custos",
          content: "O valor do procedimento é de {{valor_procedimento}}.",
        },
      ],
    };
    const template = await json<{ id: string }>(
      await page.request.post("/api/templates", {
        data: { titulo: "TCLE Valor", especialidade: specialties[0], categoria: "Consentimento", estrutura },
      }),
      201,
    );
    await json(await page.request.post(`/api/templates/${template.id}/status`, { data: { status: "published" } }), 200);
    const patient = await json<{ id: string }>(
      await page.request.post("/api/patients", { data: { nome: "Otávio Reis", cpf: validCpf() } }),
      201,
    );

    await page.goto("/procedures");
    await page.getByRole("button", { name: "Novo Procedimento" }).first().click();
    const form = page.getByRole("dialog");
    await form.getByLabel(/^Nome/).fill("Clareamento");
    const price = form.getByLabel("Valor (R$)");
    await price.pressSequentially("1250");
    expect(await price.inputValue()).toBe("R$ 1.250");
    await price.blur();
    expect(await price.inputValue()).toBe("R$ 1.250,00");
    await form.getByRole("button", { name: "Criar procedimento" }).click();
    await page.getByText("Procedimento criado com sucesso").waitFor();
    expect(await page.getByTestId("procedure-price").textContent()).toBe("R$ 1.250,00");

    await page.goto(`/documents/create?paciente=${patient.id}`);
    await page.getByLabel(/^Template/).selectOption({ label: "TCLE Valor (v1)" });
    await page.getByLabel("Procedimento", { exact: true }).selectOption({ label: "Clareamento" });
    const valor = page.getByLabel("Valor do procedimento", { exact: true });
    await expect.poll(() => valor.inputValue()).toBe("R$ 1.250,00");
    const preview = page.getByTestId("document-live-preview");
    await preview.getByText("O valor do procedimento é de R$ 1.250,00.").waitFor();
    await snap(page, "document-create-currency-desktop");
    await page.getByLabel(/^Médico responsável/).selectOption({ index: 1 });
    await page.getByRole("button", { name: "Criar Documento" }).click();
    await page.waitForURL(/\/documents\/[0-9a-f-]{36}$/);
    await page.getByRole("article").getByText("O valor do procedimento é de R$ 1.250,00.").waitFor();
    // And so in the PDF.
    const downloadPromise = page.waitForEvent("download");
    await page.getByRole("button", { name: "Baixar rascunho (sem validade)" }).click();
    const pdf = await (await downloadPromise).path();
    expect(execFileSync("pdftotext", [pdf, "-"]).toString("utf8").replace(/\s+/g, " ")).toContain(
      "O valor do procedimento é de R$ 1.250,00.",
    );

    expect(errors).toEqual([]);
    await context.close();
  });
});
