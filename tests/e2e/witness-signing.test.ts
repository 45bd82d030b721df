import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signatureDataUrl } from "../helpers/signing.js";
import { registerProfessional, signIn, validCpf } from "./accounts.js";
import { animationsFinished, DESKTOP, launchBrowser, newPage, snap } from "./browser.js";
import {
  confirmSigningCode,
  drawSignature,
  json,
  patientPhone,
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

const formatted = (cpf: string) => `${cpf.slice(0, 3)}.${cpf.slice(3, 6)}.${cpf.slice(6, 9)}-${cpf.slice(9)}`;

describe("a witness (decision 021)", () => {
  it("signs on a phone by their own link, as 'testemunha'; the document waits for the patient, then is signed", async () => {
    const account = await registerProfessional();
    const staff = await newPage(browser, DESKTOP);
    await signIn(staff.page, account.email, account.password);
    const patient = { nome: "Rafael Moura Teixeira", cpf: validCpf(), email: `rafael.${Date.now()}@exemplo.com.br` };
    const documentId = await seedSignableDocument(staff.page, account, patient, "Termo financeiro - Parcelamento");
    const witness = { nome: "Sílvia Andrade Rocha", cpf: validCpf(), email: `silvia.${Date.now()}@exemplo.com.br` };
    // Staff name the witness on the draft's page ("Testemunhas" card); a second one is added and removed.
    await staff.page.goto(`/documents/${documentId}`);
    const card = staff.page.getByTestId("witnesses-card");
    const addWitness = async (who: { nome: string; cpf: string; email: string }) => {
      await card.getByLabel("Nome da testemunha").fill(who.nome);
      await card.getByLabel("CPF").pressSequentially(who.cpf);
      await card.getByLabel("E-mail").fill(who.email);
      await card.getByRole("button", { name: "Adicionar testemunha" }).click();
      await card.getByTestId("witness-row").filter({ hasText: who.nome }).waitFor();
    };
    // The form is closed until asked for; the help speaks of a consent term, not of debts.
    expect(await card.getByLabel("Nome da testemunha").count()).toBe(0);
    expect(await card.textContent()).not.toMatch(/devedor|título executivo/);
    await card.getByRole("button", { name: "Adicionar testemunha (opcional)" }).click();
    // A witness nobody can reach is refused on the form, in Portuguese, before any request.
    await card.getByLabel("Nome da testemunha").fill("Sem Contato Nenhum");
    await card.getByLabel("CPF").pressSequentially(validCpf());
    await card.getByRole("button", { name: "Adicionar testemunha" }).click();
    await card.getByText("Informe o e-mail ou o celular da testemunha").first().waitFor();
    await card.getByLabel("Nome da testemunha").fill("");
    await card.getByLabel("CPF").fill("");
    await addWitness(witness);
    expect(await card.getByTestId("witness-row").first().textContent()).toContain(`CPF ${formatted(witness.cpf)}`);
    const extra = { nome: "Otávio Lima Campos", cpf: validCpf(), email: `otavio.${Date.now()}@exemplo.com.br` };
    await addWitness(extra);
    // Two is the most: the form goes away.
    expect(await card.getByRole("button", { name: "Adicionar testemunha" }).count()).toBe(0);
    await card.getByRole("button", { name: `Remover ${extra.nome}` }).click();
    await staff.page.getByText("Testemunha removida").first().waitFor();
    await card.getByRole("button", { name: "Adicionar testemunha" }).waitFor();
    expect(await card.getByTestId("witness-row").count()).toBe(1);
    await snap(staff.page, "document-witnesses-card-desktop");
    const sent = await json<{ link: string; testemunhas: { link: string; nome: string }[] }>(
      await staff.page.request.post(`/api/documents/${documentId}/send`, { data: {} }),
      200,
    );
    expect(sent.testemunhas.map((w) => w.nome)).toEqual([witness.nome]);

    const phone = await patientPhone(browser);
    const p = phone.page;
    await p.goto(sent.testemunhas[0]!.link);
    await p.getByTestId("masked-notice").waitFor();
    await confirmSigningCode(p, staff.page, witness.email);
    const heading = p.getByTestId("signer-heading");
    await heading.getByText("Dados da testemunha").waitFor();
    expect(await heading.textContent()).toContain(`Você assina como testemunha deste documento de ${patient.nome}`);

    // The patient's name does not sign on the witness's link.
    await p.getByLabel("Nome completo").fill(patient.nome);
    await p.getByLabel("CPF").pressSequentially(witness.cpf);
    await p.getByLabel("E-mail").fill(witness.email);
    await drawSignature(p);
    await p.getByTestId("consent").click();
    await p.getByRole("button", { name: "Assinar Documento" }).click();
    await p.getByTestId("sign-error").getByText("Nome não confere com o da testemunha cadastrada").waitFor();

    await p.getByLabel("Nome completo").fill("silvia andrade rocha");
    await p.getByRole("button", { name: "Assinar Documento" }).click();
    await p.getByTestId("waiting-others").waitFor();
    await p.getByTestId("signing-status").getByText("Aguardando as demais assinaturas").waitFor();
    const block = p.getByTestId("signatures-block");
    await block.getByText(witness.nome).first().waitFor();
    expect(await block.textContent()).toContain("Qualidade: testemunha");
    expect(await p.getByTestId("signed-pdf-download").count()).toBe(0);
    expect(await p.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await animationsFinished(p);
    await snap(p, "signing-witness-waiting-phone");

    // The patient signs: the document is complete, and the witness's link now offers the signed copy.
    await signThroughApi(staff.page, sent.link, patient, signatureDataUrl());
    await p.reload();
    await p.getByTestId("signing-status").getByText("Documento assinado").waitFor();
    await p.getByTestId("signed-pdf-panel").waitFor();
    expect(await p.getByTestId("waiting-others").count()).toBe(0);

    const witnesses = await json<{ items: { nome: string; assinou_em: string | null }[] }>(
      await staff.page.request.get(`/api/documents/${documentId}/witnesses`),
      200,
    );
    expect(witnesses.items[0]?.assinou_em).not.toBeNull();
    expect(phone.errors).toEqual([]);
    expect(staff.errors).toEqual([]);
    await phone.context.close();
    await staff.context.close();
  });
});
