/**
 * The reading record (decision 052) on a 390 px phone: the patient reads the start of a long term,
 * jumps to the signature, signs; the sealed PDF's registry says "na tela por …" for what was on
 * screen and "não exibida" for a section never shown.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { registerProfessional, signIn, validCpf } from "./accounts.js";
import { DESKTOP, launchBrowser, newPage, pageTasksDone, snap } from "./browser.js";
import {
  confirmSigningCode,
  drawSignature,
  json,
  patientPhone,
  sealedPdf,
  seedSignableDocument,
} from "./signing-helpers.js";

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const PATIENT = "Beatriz Leitura Campos";
const EMAIL = "beatriz.leitura@exemplo.com.br";
const LONG = Array.from(
  { length: 40 },
  (_, i) =>
    `Parágrafo ${i + 1}: texto longo do termo, que ocupa várias telas de um celular para que esta seção fique longe das outras.`,
).join("\n\n");

describe("reading record on a phone", () => {
  it("prints 'na tela por' for the sections read and 'não exibida' for one never shown", async () => {
    const account = await registerProfessional();
    const staff = await newPage(browser, DESKTOP);
    await signIn(staff.page, account.email, account.password);
    const cpf = validCpf();
    const documentId = await seedSignableDocument(
      staff.page,
      account,
      { nome: PATIENT, cpf, email: EMAIL },
      "Termo de Consentimento - Leitura",
      {
        title: "Termo — {{procedimento}}",
        introduction: "Eu, {{paciente_nome}}, autorizo {{procedimento}}.",
        sections: [
          { id: "inicio", type: "paragraph", title: "Sobre o procedimento", content: "O que será feito." },
          { id: "meio-1", type: "paragraph", title: "Riscos frequentes", content: LONG },
          { id: "meio-2", type: "paragraph", title: "Riscos raros", content: LONG },
          { id: "fim", type: "paragraph", title: "Declaração", content: "Li e entendi." },
        ],
      },
    );
    const sent = await json<{ link: string }>(
      await staff.page.request.post(`/api/documents/${documentId}/send`, { data: {} }),
      200,
    );

    const phone = await patientPhone(browser);
    const p = phone.page;
    // Instant scrolling: the jump passes over the middle sections without drawing them.
    await p.emulateMedia({ reducedMotion: "reduce" });
    await p.goto(sent.link);
    const start = p.locator('[data-section-id="inicio"]');
    await start.waitFor();
    await start.scrollIntoViewIfNeeded();
    await start.getByTestId("listen").waitFor();
    await pageTasksDone(p);
    await p.getByTestId("large-text").click();
    await p.getByTestId("large-text").getByText("Texto normal").waitFor();
    await p.getByTestId("large-text").click();
    expect(await p.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await snap(p, "reading-record-start-phone", { fullPage: false });

    await p.getByTestId("go-to-signature").click();
    await confirmSigningCode(p, staff.page, EMAIL);
    await p.getByLabel("Nome completo").fill(PATIENT);
    await p.getByLabel("CPF").pressSequentially(cpf);
    await p.getByLabel("E-mail").fill(EMAIL);
    await drawSignature(p);
    await p.getByTestId("consent").click();
    await p.getByRole("button", { name: "Assinar Documento" }).click();
    await p.getByTestId("signing-success").waitFor();

    const pdf = await sealedPdf(staff.page, documentId);
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), "reading-")), "assinado.pdf");
    writeFileSync(file, pdf);
    const text = execFileSync("pdftotext", [file, "-"]).toString("utf8").replace(/\s+/g, " ");
    expect(text).toContain("Registrado pelo aparelho do signatário (não conferido)");
    expect(text).toMatch(/Seção “Sobre o procedimento”: na tela por (menos de 1 s|\d+ (s|min))/);
    // The first long section lies wholly between the start and the end the jump landed near.
    expect(text).toContain("Seção “Riscos frequentes”: não exibida.");
    expect(text).toMatch(/Seção “Declaração”: na tela por/);
    expect(text).toContain("Atalho “Ir para a assinatura”: usado.");
    expect(text).toContain("Texto grande ativado.");

    // The staff's document page shows the same record.
    await staff.page.goto(`/documents/${documentId}`);
    const record = staff.page.getByTestId("document-reading");
    await record.getByText("Riscos frequentes").waitFor();
    expect(await record.textContent()).toContain("não exibida");
    await snap(staff.page, "reading-record-staff-desktop");

    expect(phone.errors).toEqual([]);
    await phone.context.close();
    await staff.context.close();
  }, 180_000);
});
