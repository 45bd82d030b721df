import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { uniqueEmail } from "../helpers/test-env.js";
import { registerEstablishment, registerProfessional, signIn, validCpf } from "./accounts.js";
import { animationsFinished, baseUrl, DESKTOP, launchBrowser, newPage, snap } from "./browser.js";

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** The invitation link e-mailed to `to`, read from the development outbox. */
async function invitationLink(to: string): Promise<string> {
  for (let attempt = 0; attempt < 20; attempt++) {
    const outbox = (await (await fetch(`${baseUrl()}/api/dev/outbox?to=${encodeURIComponent(to)}`)).json()) as {
      items: { to: string; text: string }[];
    };
    const mail = outbox.items.find((item) => item.to === to);
    const link = mail ? /(http:\/\/127\.0\.0\.1:\d+\/convite\/[A-Za-z0-9_-]+)/.exec(mail.text)?.[1] : undefined;
    if (link) return link;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no invitation e-mail for ${to}`);
}

describe("users (/users)", () => {
  it("the owner adds a CRM professional with specialties and RQE, invites an attendant who sets a password and signs in, then deactivates them and their open session goes to /auth", async () => {
    const owner = await registerEstablishment();
    const { context, page, errors } = await newPage(browser, DESKTOP);
    await signIn(page, owner.email, owner.password);
    await page.getByRole("link", { name: "Usuários", exact: true }).click();
    await page.getByRole("heading", { name: "Usuários", exact: true }).waitFor();
    await page.getByTestId("user-row").first().waitFor();
    expect(await page.getByTestId("users-showing").textContent()).toBe("Mostrando 1 de 1 usuário");
    await expect.poll(() => page.getByTestId("user-row").first().textContent()).toContain("Proprietário");
    // The owner row has no switch.
    expect(await page.getByRole("switch").count()).toBe(0);

    // --- A CRM professional with two specialties, an area and RQEs, password typed by the owner.
    const medica = { nome: "Dra. Camila Ribeiro Torres", email: uniqueEmail("medica"), cpf: validCpf() };
    await page.getByRole("button", { name: "Adicionar usuário" }).click();
    const dialog = page.getByRole("dialog", { name: "Adicionar usuário" });
    await dialog.waitFor();
    await animationsFinished(page);
    // Empty form: the spec's message.
    await dialog.getByRole("button", { name: "Adicionar e enviar convite" }).click();
    await dialog.getByText("Preencha todos os campos obrigatórios").waitFor();
    await dialog.getByLabel(/^Nome completo/).fill(medica.nome);
    await dialog.getByLabel(/^E-mail/).fill(medica.email);
    await dialog.getByLabel(/^CPF/).pressSequentially(medica.cpf);
    await dialog.getByLabel(/^Função/).selectOption("profissional");
    await dialog.getByLabel("Definir a senha agora").check();
    await dialog.getByLabel(/^Senha/).fill("jardim-azul-42");
    await dialog.getByLabel(/^Conselho/).selectOption("CRM");
    await dialog.getByLabel(/^Número do conselho/).fill("112233");
    await dialog.getByLabel(/^UF do conselho/).selectOption("SP");
    await dialog.getByLabel("Especialidade 1", { exact: true }).selectOption("dermatologia");
    await dialog.getByLabel("Hansenologia").check();
    await dialog.getByRole("button", { name: "Adicionar especialidade" }).click();
    await dialog.getByLabel("Especialidade 2", { exact: true }).selectOption("cirurgia_plastica");
    await dialog.getByRole("button", { name: "Adicionar usuário" }).click();
    // No RQE yet: the sign-up rule, on each specialty.
    await expect
      .poll(() => dialog.getByText("RQE é obrigatório para cada especialidade do CRM", { exact: true }).count())
      .toBe(2);
    await dialog.getByLabel(/^RQE/).nth(0).fill("7788");
    await dialog.getByLabel(/^RQE/).nth(1).fill("9911");
    await snap(page, "users-add-professional-dialog");
    await dialog.getByRole("button", { name: "Adicionar usuário" }).click();
    await page.getByText("Usuário adicionado com sucesso").waitFor();
    await dialog.waitFor({ state: "hidden" });
    const medicaRow = page.getByTestId("user-row").filter({ hasText: medica.email });
    await medicaRow.waitFor();
    expect(await medicaRow.textContent()).toContain("CRM 112233/SP");
    expect(await medicaRow.textContent()).toContain("Dermatologia · RQE 7788");
    expect(await medicaRow.textContent()).toContain("Cirurgia Plástica · RQE 9911");

    // The same CPF again: the field says so.
    await page.getByRole("button", { name: "Adicionar usuário" }).click();
    await dialog.waitFor();
    await dialog.getByLabel(/^Nome completo/).fill("Outra Pessoa");
    await dialog.getByLabel(/^E-mail/).fill(uniqueEmail("outra"));
    await dialog.getByLabel(/^CPF/).pressSequentially(medica.cpf);
    await dialog.getByLabel(/^Função/).selectOption("auditor");
    await dialog.getByRole("button", { name: "Adicionar e enviar convite" }).click();
    await dialog.getByText("Já existe um usuário com este CPF nesta clínica.").first().waitFor();
    await page.getByText("Erro ao adicionar usuário").waitFor();
    await dialog.getByRole("button", { name: "Cancelar" }).click();
    await dialog.waitFor({ state: "hidden" });

    // --- An attendant invited by e-mail.
    const atendente = { nome: "Paulo Henrique Mendes", email: uniqueEmail("atendente"), cpf: validCpf() };
    await page.getByRole("button", { name: "Adicionar usuário" }).click();
    await dialog.waitFor();
    await dialog.getByLabel(/^Nome completo/).fill(atendente.nome);
    await dialog.getByLabel(/^E-mail/).fill(atendente.email);
    await dialog.getByLabel(/^CPF/).pressSequentially(atendente.cpf);
    await dialog.getByLabel(/^Função/).selectOption("atendente");
    expect(await dialog.getByLabel(/^Conselho/).count()).toBe(0);
    await dialog.getByRole("button", { name: "Adicionar e enviar convite" }).click();
    await page.getByText(`Convite enviado para ${atendente.email}`).waitFor();
    const atendenteRow = page.getByTestId("user-row").filter({ hasText: atendente.email });
    await atendenteRow.getByText("Convite pendente").waitFor();
    await animationsFinished(page);
    await snap(page, "users-list-desktop");

    // The attendant opens the link from the e-mail, chooses a password and is signed in.
    const link = await invitationLink(atendente.email);
    const invited = await newPage(browser, DESKTOP);
    await invited.page.goto(link);
    await invited.page.getByRole("heading", { name: `Olá, ${atendente.nome}` }).waitFor();
    await invited.page.getByText("Você foi convidado para a equipe de Clínica Bem Viver").waitFor();
    await invited.page.getByLabel(/^Senha/).fill("caneta-verde-77");
    await invited.page.getByLabel(/^Confirmar senha/).fill("caneta-verde-77");
    await snap(invited.page, "users-invitation-page");
    await invited.page.getByRole("button", { name: "Criar senha e entrar" }).click();
    await invited.page.getByRole("heading", { name: "Dashboard" }).waitFor();
    // Not the owner: /users says 'Acesso negado'.
    await invited.page.goto("/users");
    await invited.page.getByText("Acesso negado", { exact: true }).waitFor();
    await invited.page.getByText("Apenas proprietários podem gerenciar usuários").waitFor();
    await snap(invited.page, "users-access-denied");
    await invited.page.getByRole("link", { name: "Dashboard", exact: true }).click();
    await invited.page.getByRole("heading", { name: "Dashboard" }).waitFor();
    // The link is spent.
    const reused = await newPage(browser, DESKTOP);
    await reused.page.goto(link);
    await reused.page.getByText("Este convite é inválido, expirou ou já foi usado.", { exact: false }).waitFor();
    await reused.context.close();

    // The owner's list no longer shows the invitation as pending.
    await page.reload();
    await atendenteRow.waitFor();
    expect(await atendenteRow.getByText("Convite pendente").count()).toBe(0);

    // --- The owner deactivates the attendant.
    await atendenteRow.getByRole("switch", { name: `Desativar ${atendente.nome}` }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: "Desativar" }).click();
    await page.getByText("Usuário desativado. As sessões abertas dele foram encerradas.").waitFor();
    await atendenteRow.getByText("Inativo", { exact: true }).waitFor();

    // The attendant's open page lands on /auth by itself (the live-updates stream ends with the
    // session, decision 022), and signing in is refused.
    await invited.page.waitForURL("**/auth");
    await invited.page.getByLabel("E-mail").fill(atendente.email);
    await invited.page.getByLabel("Senha").fill("caneta-verde-77");
    await invited.page.getByRole("button", { name: "Entrar", exact: true }).click();
    await invited.page.getByText("Sua conta está desativada. Fale com o responsável pela clínica.").waitFor();
    await snap(invited.page, "users-deactivated-sign-in");

    // The 409 of the repeated CPF is the one expected failure on the owner's page.
    expect(errors.filter((line) => !/status of 409/.test(line))).toEqual([]);
    // The 401 of the ended session and the 403 of the refused sign-in are expected console noise.
    expect(invited.errors.filter((line) => !/status of (401|403)/.test(line))).toEqual([]);
    await invited.context.close();
    await context.close();
  });

  it("an independent professional's /users explains that it is for establishments", async () => {
    const account = await registerProfessional();
    const { context, page, errors } = await newPage(browser, DESKTOP);
    await signIn(page, account.email, account.password);
    await page.goto("/users");
    await page.getByText("A gestão de usuários é exclusiva de estabelecimentos", { exact: false }).waitFor();
    await snap(page, "users-independent");
    expect(errors).toEqual([]);
    await context.close();
  });
});
