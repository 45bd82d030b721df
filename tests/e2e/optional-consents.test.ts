/**
 * Separate optional consents (decision 057) on a 390 px phone: the patient must answer each item,
 * answers Sim to the image in the record and Não to the photos for publicity, signs; the sealed
 * PDF prints both answers and the staff's document page shows them.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SAMPLE_OPTIONAL_CONSENTS, SAMPLE_TEMPLATE } from "../../src/shared/document-model/sample-template.js";
import { registerProfessional, signIn, validCpf } from "./accounts.js";
import { DESKTOP, launchBrowser, newPage, screenshotsWanted, snap } from "./browser.js";
import {
  confirmSigningCode,
  drawSignature,
  json,
  patientPhone,
  sealedPdf,
  seedSignableDocument,
} from "./signing-helpers.js";

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

/** Serious and critical axe violations (WCAG 2.1 AA) of the page as it is now, as "rule: target". */
async function axeViolations(page: Page): Promise<string[]> {
  // Through the DevTools protocol: the app's CSP (script-src 'self') refuses inline scripts.
  await page.evaluate(AXE_SOURCE);
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (d: Document, o: object) => Promise<any> } }).axe;
    const result = await axe.run(document, {
      runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"] },
      resultTypes: ["violations"],
    });
    return (result.violations as { id: string; impact: string; nodes: { target: unknown[] }[] }[])
      .filter((v) => v.impact === "serious" || v.impact === "critical")
      .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
  });
}

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const PATIENT = "Carla Opcional Mendes";
const EMAIL = "carla.opcional@exemplo.com.br";
const [PRONTUARIO, , DIVULGACAO] = SAMPLE_OPTIONAL_CONSENTS as [
  (typeof SAMPLE_OPTIONAL_CONSENTS)[number],
  unknown,
  (typeof SAMPLE_OPTIONAL_CONSENTS)[number],
];

describe("optional consents on a phone", () => {
  it("asks Sim/Não for each item, refuses to sign until all are answered, prints the answers in the sealed PDF", async () => {
    const account = await registerProfessional();
    const staff = await newPage(browser, DESKTOP);
    await signIn(staff.page, account.email, account.password);
    const cpf = validCpf();
    const documentId = await seedSignableDocument(
      staff.page,
      account,
      { nome: PATIENT, cpf, email: EMAIL },
      "Termo de Consentimento - Opcionais",
      {
        title: "Termo — {{procedimento}}",
        introduction: "Eu, {{paciente_nome}}, autorizo {{procedimento}}.",
        sections: [
          { id: "inicio", type: "paragraph", title: "Sobre o procedimento", content: "O que será feito." },
          { id: "assinaturas", type: "signature", title: "Assinaturas", content: "{{paciente_nome}}" },
        ],
        optional_consents: [PRONTUARIO, DIVULGACAO],
      },
    );
    const sent = await json<{ link: string }>(
      await staff.page.request.post(`/api/documents/${documentId}/send`, { data: {} }),
      200,
    );

    const phone = await patientPhone(browser);
    const p = phone.page;
    await p.goto(sent.link);
    await p.getByTestId("go-to-signature").click();
    await confirmSigningCode(p, staff.page, EMAIL);

    const items = p.getByTestId("optional-consents");
    await items.waitFor();
    const prontuario = items.getByRole("group", { name: PRONTUARIO.title });
    const divulgacao = items.getByRole("group", { name: DIVULGACAO.title });
    // None chosen beforehand.
    for (const group of [prontuario, divulgacao])
      for (const name of ["Sim", "Não"]) expect(await group.getByRole("radio", { name }).isChecked()).toBe(false);

    await p.getByLabel("Nome completo").fill(PATIENT);
    await p.getByLabel("CPF").pressSequentially(cpf);
    await p.getByLabel("E-mail").fill(EMAIL);
    await drawSignature(p);
    await p.getByTestId("consent").click();
    // Only one answered: the page asks for the other, nothing is sent.
    await prontuario.getByText("Sim").click();
    await p.getByRole("button", { name: "Assinar Documento" }).click();
    await p.getByTestId("sign-error").getByText("Responda Sim ou Não a cada consentimento opcional").waitFor();
    expect(await divulgacao.getAttribute("aria-invalid")).toBe("true");

    await divulgacao.getByText("Não").click();
    expect(await divulgacao.getByRole("radio", { name: "Não" }).isChecked()).toBe(true);
    expect(await p.getByTestId("sign-error").count()).toBe(0);
    expect(await p.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await items.scrollIntoViewIfNeeded();
    await snap(p, "optional-consents-phone", { fullPage: false });
    expect(await axeViolations(p)).toEqual([]);
    await p.getByRole("button", { name: "Assinar Documento" }).click();
    await p.getByTestId("signing-success").waitFor();
    // The signed page shows the patient their own answers.
    const mine = p.getByTestId("optional-consents-view");
    expect(
      await mine.locator(`[data-optional-id="${PRONTUARIO.id}"]`).getByTestId("optional-answer").textContent(),
    ).toBe("Sim");
    expect(
      await mine.locator(`[data-optional-id="${DIVULGACAO.id}"]`).getByTestId("optional-answer").textContent(),
    ).toBe("Não");

    const pdf = await sealedPdf(staff.page, documentId);
    const dir = mkdtempSync(path.join(os.tmpdir(), "optional-"));
    const file = path.join(dir, "assinado.pdf");
    writeFileSync(file, pdf);
    const text = execFileSync("pdftotext", [file, "-"]).toString("utf8").replace(/\s+/g, " ");
    expect(text).toContain("Consentimentos opcionais");
    expect(text).toMatch(new RegExp(`${PRONTUARIO.title} .*? Resposta: Sim`));
    expect(text).toMatch(new RegExp(`${DIVULGACAO.title} .*? Resposta: Não`));
    expect(text.indexOf("Resposta: Sim")).toBeLessThan(text.indexOf("Resposta: Não"));
    if (screenshotsWanted()) {
      const shots = path.join(process.cwd(), "test-results", "screenshots");
      execFileSync("pdftoppm", [
        "-png",
        "-r",
        "60",
        "-f",
        "1",
        "-l",
        "1",
        file,
        path.join(shots, "optional-consents-pdf"),
      ]);
    }

    // The staff's document page shows each answer.
    await staff.page.goto(`/documents/${documentId}`);
    const view = staff.page.getByTestId("optional-consents-view");
    await view.waitFor();
    expect(
      await view.locator(`[data-optional-id="${PRONTUARIO.id}"]`).getByTestId("optional-answer").textContent(),
    ).toBe("Sim");
    expect(
      await view.locator(`[data-optional-id="${DIVULGACAO.id}"]`).getByTestId("optional-answer").textContent(),
    ).toBe("Não");
    await view.scrollIntoViewIfNeeded();
    await snap(staff.page, "optional-consents-staff-desktop", { fullPage: false });

    expect(phone.errors).toEqual([]);
    await phone.context.close();
    await staff.context.close();
  }, 180_000);

  it("the template editor adds, edits, reorders and removes items, refuses a blank title in pt-BR, and saves them", async () => {
    const account = await registerProfessional();
    const { context, page, errors } = await newPage(browser, DESKTOP);
    await signIn(page, account.email, account.password);
    await page.goto("/templates/create");
    await page.getByRole("heading", { name: "Novo Template" }).waitFor();
    const especialidade = page.getByLabel(/^Especialidade/);
    await expect.poll(() => especialidade.locator("option").count()).toBeGreaterThan(1);
    await especialidade.selectOption((await especialidade.locator("option").nth(1).getAttribute("value")) ?? "");
    await page.getByRole("button", { name: "Carregar modelo de exemplo" }).click();
    const editor = page.getByTestId("optional-consents-editor");
    const items = editor.getByTestId("optional-consent-item");
    const title = (p: Page, n: number) =>
      p.getByTestId("optional-consents-editor").getByTestId("optional-consent-item").nth(n).getByLabel("Título");
    await expect.poll(() => items.count()).toBe(SAMPLE_OPTIONAL_CONSENTS.length);
    expect(await title(page, 0).inputValue()).toBe(SAMPLE_OPTIONAL_CONSENTS[0]!.title);

    // Reorder: the research contact goes up one place; remove the publicity item.
    await editor.getByRole("button", { name: "Mover consentimento opcional 4 para cima" }).click();
    await expect.poll(() => title(page, 2).inputValue()).toBe("Contato para pesquisas");
    await editor.getByRole("button", { name: "Remover consentimento opcional 4" }).click();
    await expect.poll(() => items.count()).toBe(3);

    // A new item with no title is refused on saving, with the pt-BR message.
    await editor.getByRole("button", { name: "Adicionar consentimento opcional" }).click();
    await items.nth(3).getByLabel("Texto").fill("Autorizo receber lembretes por mensagem.");
    await page.getByRole("button", { name: "Criar Template" }).click();
    await page.getByText("Informe o título do consentimento opcional").first().waitFor();
    await title(page, 3).fill("Lembretes por mensagem");
    await editor.scrollIntoViewIfNeeded();
    await snap(page, "optional-consents-editor-desktop", { fullPage: false });

    // The preview lists them as the patient will answer them.
    await page.getByRole("tab", { name: "Pré-visualização" }).click();
    await page.getByTestId("optional-consents-view").getByText("Lembretes por mensagem", { exact: true }).waitFor();
    await page.getByRole("tab", { name: "Editor" }).click();

    await page.getByRole("button", { name: "Criar Template" }).click();
    await page.waitForURL(/\/templates\/[0-9a-f-]{36}\/preview$/);
    const id = /\/templates\/([0-9a-f-]{36})\/preview$/.exec(page.url())![1]!;
    const saved = await json<{ estrutura: { optional_consents: { id: string; title: string }[] } }>(
      await page.request.get(`/api/templates/${id}`),
      200,
    );
    expect(saved.estrutura.optional_consents.map((i) => i.title)).toEqual([
      "Uso de imagem no prontuário",
      "Uso de imagem para ensino e publicações científicas",
      "Contato para pesquisas",
      "Lembretes por mensagem",
    ]);
    // The sample's ids are kept; the new item got one of its own.
    expect(saved.estrutura.optional_consents.slice(0, 3).map((i) => i.id)).toEqual([
      "imagem-prontuario",
      "imagem-ensino",
      "contato-pesquisas",
    ]);
    expect(saved.estrutura.optional_consents[3]!.id).toMatch(/^[a-z0-9-]+$/);
    expect(SAMPLE_TEMPLATE.estrutura.optional_consents).toHaveLength(4);
    expect(errors).toEqual([]);
    await context.close();
  }, 180_000);
});
