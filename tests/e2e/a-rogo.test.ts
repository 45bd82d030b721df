import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signatureDataUrl } from "../helpers/signing.js";
import { registerProfessional, signIn, validCpf } from "./accounts.js";
import { animationsFinished, launchBrowser, newPage, snap } from "./browser.js";
import {
  confirmSigningCode,
  drawSignature,
  json,
  sealedPdf,
  seedSignableDocument,
  signThroughApi,
} from "./signing-helpers.js";

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const TABLET = { width: 768, height: 1024 } as const;
const formatted = (cpf: string) => `${cpf.slice(0, 3)}.${cpf.slice(3, 6)}.${cpf.slice(6, 9)}-${cpf.slice(9)}`;

describe("signature a rogo at the front desk (decision 070)", () => {
  it("staff name who signs a rogo; the term is read aloud and that person signs on the handed-over tablet", async () => {
    const account = await registerProfessional();
    const { context, page, errors } = await newPage(browser, TABLET);
    await signIn(page, account.email, account.password);
    const patient = { nome: "Sebastiana Rocha Lima", cpf: validCpf(), email: "sebastiana.lima@exemplo.com.br" };
    const rogado = { nome: "Raimundo Nonato Lima", cpf: validCpf(), email: "raimundo.lima@exemplo.com.br" };
    const documentId = await seedSignableDocument(page, account, patient, "Termo de Consentimento - Extração dentária");

    // On the draft: "O paciente não sabe ler ou não pode assinar".
    await page.goto(`/documents/${documentId}`);
    const card = page.getByTestId("a-rogo-card");
    await card.getByRole("button", { name: "O paciente não sabe ler ou não pode assinar" }).click();
    await card.getByRole("button", { name: "Definir assinatura a rogo" }).click();
    await card.getByText("Escolha por que o paciente não assina").waitFor();
    await card.getByLabel("não sabe ler", { exact: true }).click();
    await card.getByLabel("Nome de quem assina a rogo").fill(rogado.nome);
    await card.getByLabel("CPF de quem assina a rogo").pressSequentially(rogado.cpf);
    await card.getByRole("button", { name: "Definir assinatura a rogo" }).click();
    await card.getByText(`Assina a rogo: ${rogado.nome}`).waitFor();
    await card.getByTestId("a-rogo-witnesses-missing").getByText("Faltam cadastrar 2 testemunhas.").waitFor();
    await animationsFinished(page);
    await snap(page, "a-rogo-card-tablet");

    // Two witnesses, then Enviar: the dialog says the link does not go to the patient.
    for (const nome of ["Antônia Vieira Testemunha", "Benedito Souza Testemunha"]) {
      const cpf = validCpf();
      await json(
        await page.request.post(`/api/documents/${documentId}/witnesses`, {
          data: { nome, cpf: formatted(cpf), email: `${cpf}@exemplo.com.br` },
        }),
        201,
      );
    }
    await page.reload();
    await page.getByTestId("a-rogo-card").getByText(`Assina a rogo: ${rogado.nome}`).waitFor();
    expect(await page.getByTestId("a-rogo-witnesses-missing").count()).toBe(0);
    await page.getByRole("button", { name: "Enviar para Assinatura" }).first().click();
    const dialog = page.getByTestId("send-for-signature-dialog");
    await dialog.getByTestId("send-a-rogo").waitFor();
    expect(await dialog.getByTestId("send-email-checkbox").count()).toBe(0);
    await snap(page, "a-rogo-send-dialog-tablet");
    await dialog.getByRole("button", { name: "Enviar para Assinatura" }).click();
    await dialog.getByText("Assinatura a rogo: com o paciente na clínica", { exact: false }).waitFor();
    await page.keyboard.press("Escape");

    // Hand the tablet over from "Assinar".
    await page.goto("/sign");
    const row = page.getByTestId("front-desk-row").filter({ hasText: patient.nome });
    await row.getByRole("button", { name: "Assinar neste aparelho" }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: "Entregar ao paciente" }).click();
    await page.waitForURL(/\/assinar\/[A-Za-z0-9_-]{43}\?balcao=1$/);

    await confirmSigningCode(page, page, patient.email);
    await page.getByTestId("signer-heading").getByText("Dados de quem assina a rogo").waitFor();
    const reading = page.getByTestId("a-rogo-reading");
    await page.getByLabel("Nome completo").fill(rogado.nome);
    await page.getByLabel("CPF").pressSequentially(rogado.cpf);
    await page.getByLabel("E-mail").fill(rogado.email);
    await drawSignature(page);
    await page.getByTestId("consent").click();
    // The reading aloud is asked before anything is sent.
    await page.getByRole("button", { name: "Assinar Documento" }).click();
    await page.getByTestId("sign-error").getByText("Informe quem leu o termo em voz alta").waitFor();
    await reading.getByLabel("Quem leu o termo em voz alta").fill("Cláudia Recepção Alves");
    await reading.getByText(`O termo foi lido em voz alta para ${patient.nome}`, { exact: false }).click();
    await reading.scrollIntoViewIfNeeded();
    await snap(page, "a-rogo-signing-tablet");
    await page.getByRole("button", { name: "Assinar Documento" }).click();
    await page.getByTestId("front-desk-done").waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(TABLET.width);

    // Back to the staff: unlock; the signature is presencial and a rogo, the reading declared.
    await page.goto("/desbloquear");
    await page.getByLabel("Sua senha").fill(account.password);
    await page.getByRole("button", { name: "Desbloquear" }).click();
    await page.waitForURL(/\/sign$/);
    const detail = await json<{
      audit: { action: string; data: Record<string, unknown> | null }[];
      status: string;
    }>(await page.request.get(`/api/documents/${documentId}`), 200);
    const signed = detail.audit.find(
      (event) => event.action === "document.party_signed" && event.data?.papel === "paciente",
    );
    expect(signed?.data).toMatchObject({
      nome_digitado: rogado.nome,
      presencial: { atendente_nome: account.nome },
      a_rogo: {
        a_pedido_de: patient.nome,
        motivo: "nao_sabe_ler",
        leitura_em_voz_alta: { lido_por: "Cláudia Recepção Alves", declarada: true },
      },
    });
    expect(detail.status).not.toBe("signed");

    // The two witnesses sign by their own links; the document is sealed with the capacity printed.
    const witnesses = await json<{ items: { id: string; nome: string; cpf: string; email: string }[] }>(
      await page.request.get(`/api/documents/${documentId}/witnesses`),
      200,
    );
    for (const witness of witnesses.items) {
      const { link } = await json<{ link: string }>(
        await page.request.get(`/api/documents/${documentId}/witnesses/${witness.id}/link`),
        200,
      );
      await signThroughApi(
        page,
        link,
        { nome: witness.nome, cpf: witness.cpf, email: witness.email },
        signatureDataUrl(),
      );
    }
    const pdf = await sealedPdf(page, documentId);
    expect(pdf.subarray(0, 5).toString()).toBe("%PDF-");
    await page.goto(`/documents/${documentId}`);
    await page.getByText(`a rogo de ${patient.nome}`, { exact: false }).first().waitFor();

    expect(errors.filter((line) => !/status of (423|400)/.test(line))).toEqual([]);
    await context.close();
  });
});
