/**
 * "Ouvir o termo inteiro" (decision 052) on a 390 px phone: the browser's voice (stubbed at the
 * browser's edge — headless Chromium has none) reads the title and introduction, then section after section, each only once the one
 * before ended; "Parar a leitura" stops it; the sealed registry names only the sections whose
 * reading began.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { registerProfessional, signIn, validCpf } from "./accounts.js";
import { DESKTOP, launchBrowser, newPage, snap } from "./browser.js";
import {
  confirmSigningCode,
  drawSignature,
  json,
  patientPhone,
  sealedPdf,
  seedSignableDocument,
  stubSpeech,
} from "./signing-helpers.js";

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const PATIENT = "Rita Escuta Moreira";
const EMAIL = "rita.escuta@exemplo.com.br";
const spokenOf = (p: Page) => p.evaluate(() => (window as unknown as { __spoken: string[] }).__spoken.slice());

describe("the whole term read aloud on a phone", () => {
  it("reads section after section, stops on request, and the registry names only what began", async () => {
    const account = await registerProfessional();
    const staff = await newPage(browser, DESKTOP);
    await signIn(staff.page, account.email, account.password);
    const cpf = validCpf();
    const documentId = await seedSignableDocument(
      staff.page,
      account,
      { nome: PATIENT, cpf, email: EMAIL },
      "Termo de Consentimento - Escuta",
      {
        title: "Termo — {{procedimento}}",
        introduction: "Eu, {{paciente_nome}}, autorizo {{procedimento}}.",
        sections: [
          { id: "sobre", type: "paragraph", title: "Sobre o procedimento", content: "O que será feito" },
          { id: "riscos", type: "paragraph", title: "Riscos", content: "Inchaço passageiro" },
          { id: "cuidados", type: "paragraph", title: "Cuidados", content: "Repouso por dois dias" },
        ],
      },
    );
    const sent = await json<{ link: string }>(
      await staff.page.request.post(`/api/documents/${documentId}/send`, { data: {} }),
      200,
    );

    const phone = await patientPhone(browser);
    const p = phone.page;
    await phone.context.addInitScript(stubSpeech);
    await p.goto(sent.link);
    const all = p.getByTestId("listen-all");
    await all.getByText("Ouvir o termo inteiro").click();
    await all.getByText("Parar a leitura").waitFor();
    // The title and the introduction first, then each section only once the one before ended.
    expect(await spokenOf(p)).toEqual([
      "pt-BR: Termo — Clareamento dental. Eu, Rita Escuta Moreira, autorizo Clareamento dental.",
    ]);
    expect((await all.boundingBox())!.height).toBeGreaterThanOrEqual(44);
    await snap(p, "read-aloud-phone", { fullPage: false });
    const finish = () => p.evaluate(() => (window as unknown as { __finishSpeech: () => void }).__finishSpeech());
    await finish();
    await expect.poll(() => spokenOf(p)).toHaveLength(2);
    expect((await spokenOf(p))[1]).toBe("pt-BR: Sobre o procedimento. O que será feito.");
    await finish();
    await expect.poll(() => spokenOf(p)).toHaveLength(3);
    expect((await spokenOf(p))[2]).toBe("pt-BR: Riscos. Inchaço passageiro.");
    // Stopping ends the chain: the third section is never spoken.
    await all.getByText("Parar a leitura").click();
    await all.getByText("Ouvir o termo inteiro").waitFor();
    expect(await spokenOf(p)).toHaveLength(3);

    await p.getByTestId("go-to-signature").click();
    await confirmSigningCode(p, staff.page, EMAIL);
    await p.getByLabel("Nome completo").fill(PATIENT);
    await p.getByLabel("CPF").pressSequentially(cpf);
    await p.getByLabel("E-mail").fill(EMAIL);
    await drawSignature(p);
    await p.getByTestId("consent").click();
    await p.getByRole("button", { name: "Assinar Documento" }).click();
    await p.getByTestId("signing-success").waitFor();

    const file = path.join(mkdtempSync(path.join(os.tmpdir(), "read-aloud-")), "assinado.pdf");
    writeFileSync(file, await sealedPdf(staff.page, documentId));
    const text = execFileSync("pdftotext", [file, "-"]).toString("utf8").replace(/\s+/g, " ");
    expect(text).toContain("“Ouvir” (leitura em voz alta no aparelho) usado em: Sobre o procedimento, Riscos.");
    expect(phone.errors).toEqual([]);
    await phone.context.close();
    await staff.context.close();
  });
});
