/**
 * Informed consent, proven (decisions 052 and 061) on a 390 px phone: the patient reads the start
 * of the term, listens to a section ("Ouvir", the browser's speech synthesis — stubbed at the
 * browser's edge, since headless Chromium has no voice), answers a question wrongly (the section is
 * shown again) then rightly, answers the next, signs; the sealed PDF's registry shows the reading,
 * every answer and the read-aloud use, and the staff page shows the answers.
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
  stubSpeech,
} from "./signing-helpers.js";

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const PATIENT = "Carla Compreensão Duarte";
const EMAIL = "carla.compreensao@exemplo.com.br";
const LONG = Array.from(
  { length: 12 },
  (_, i) => `Parágrafo ${i + 1}: hematoma, inchaço e assimetria podem ocorrer e costumam regredir em semanas.`,
).join("\n\n");

describe("comprehension questions and read-aloud on a phone", () => {
  it("a wrong then right answer, 'Ouvir' and the reading reach the sealed registry", async () => {
    const account = await registerProfessional();
    const staff = await newPage(browser, DESKTOP);
    await signIn(staff.page, account.email, account.password);
    const cpf = validCpf();
    const documentId = await seedSignableDocument(
      staff.page,
      account,
      { nome: PATIENT, cpf, email: EMAIL },
      "Termo de Consentimento - Compreensão",
      {
        title: "Termo — {{procedimento}}",
        introduction: "Eu, {{paciente_nome}}, autorizo {{procedimento}}.",
        sections: [
          {
            id: "resultado",
            type: "paragraph",
            title: "Resultado esperado",
            content: "Nenhum resultado estético é garantido: depende também do seu organismo.",
          },
          { id: "riscos", type: "paragraph", title: "Riscos", content: LONG },
          {
            id: "cuidados",
            type: "paragraph",
            title: "Cuidados depois",
            content: "Febre, dor forte ou sangramento: avise a clínica na hora.",
          },
        ],
        comprehension: [
          {
            id: "garantia",
            section_id: "resultado",
            text: "O resultado é garantido?",
            options: ["Sim, é garantido", "Não: depende também do meu organismo"],
            correct: 1,
          },
          {
            id: "febre",
            section_id: "cuidados",
            text: "Com febre depois do procedimento, o que fazer?",
            options: ["Esperar a consulta de retorno", "Avisar a clínica na hora", "Nada"],
            correct: 1,
          },
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
    await p.emulateMedia({ reducedMotion: "reduce" });
    await p.goto(sent.link);

    // Reads the start and listens to it.
    const start = p.locator('[data-section-id="resultado"]');
    await start.waitFor();
    await start.scrollIntoViewIfNeeded();
    await pageTasksDone(p);
    await start.getByTestId("listen").click();
    await start.getByTestId("listen").getByText("Parar").waitFor();
    const spoken = await p.evaluate(() => (window as unknown as { __spoken: string[] }).__spoken);
    expect(spoken).toHaveLength(1);
    // The title, then the text — never the button's own label.
    expect(spoken[0]).toBe(
      "pt-BR: Resultado esperado. Nenhum resultado estético é garantido: depende também do seu organismo.",
    );
    await snap(p, "comprehension-listen-phone", { fullPage: false });
    await start.getByTestId("listen").click();
    await start.getByTestId("listen").getByText("Ouvir").waitFor();

    // The questions come before the code and the form.
    const quiz = p.getByTestId("comprehension-quiz");
    await quiz.scrollIntoViewIfNeeded();
    await quiz.getByText("Pergunta 1 de 2").waitFor();
    expect(await p.getByTestId("otp-step").count()).toBe(0);
    expect(await p.getByRole("button", { name: "Assinar Documento" }).count()).toBe(0);
    await snap(p, "comprehension-question-phone", { fullPage: false });

    // Wrong: the section is shown again, outlined, with "Quero falar com o profissional".
    await quiz.getByText("Sim, é garantido").click();
    await quiz.getByTestId("comprehension-answer").click();
    await quiz.getByTestId("comprehension-wrong").waitFor();
    const again = p.locator('[data-section-id="resultado"][data-quiz-highlight="true"]');
    await again.waitFor();
    // Shown whole: the outline (4 px ring, 4 px offset) and the title below the screen's top edge.
    expect((await again.boundingBox())!.y).toBeGreaterThanOrEqual(8);
    expect(await quiz.getByTestId("comprehension-talk").textContent()).toContain("Quero falar com o profissional");
    await snap(p, "comprehension-wrong-section-again-phone", { fullPage: false });
    await quiz.scrollIntoViewIfNeeded();
    await snap(p, "comprehension-wrong-phone", { fullPage: false });

    // Right on the second try, then the next question.
    await quiz.getByText("Não: depende também do meu organismo").click();
    await quiz.getByRole("button", { name: "Tentar de novo" }).click();
    await quiz.getByText("Pergunta 2 de 2").waitFor();
    await quiz.getByText("Resposta certa.").waitFor();
    await quiz.getByText("Avisar a clínica na hora").click();
    await quiz.getByTestId("comprehension-answer").click();
    await p.getByTestId("comprehension-done").waitFor();
    expect(await p.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

    await confirmSigningCode(p, staff.page, EMAIL);
    await p.getByLabel("Nome completo").fill(PATIENT);
    await p.getByLabel("CPF").pressSequentially(cpf);
    await p.getByLabel("E-mail").fill(EMAIL);
    await drawSignature(p);
    await p.getByTestId("consent").click();
    await snap(p, "comprehension-sign-form-phone");
    await p.getByRole("button", { name: "Assinar Documento" }).click();
    await p.getByTestId("signing-success").waitFor();

    const pdf = await sealedPdf(staff.page, documentId);
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), "comprehension-")), "assinado.pdf");
    writeFileSync(file, pdf);
    const text = execFileSync("pdftotext", [file, "-"]).toString("utf8").replace(/\s+/g, " ");
    expect(text).toContain("Perguntas de compreensão (respostas conferidas pelo servidor)");
    expect(text).toContain("Compreensão verificada: 2 de 2, 1 nova tentativa na pergunta 1.");
    expect(text).toContain(
      "Pergunta 1: “O resultado é garantido?” — respostas: “Sim, é garantido” (errada), “Não: depende também do meu organismo” (certa).",
    );
    expect(text).toContain(
      "Pergunta 2: “Com febre depois do procedimento, o que fazer?” — respostas: “Avisar a clínica na hora” (certa).",
    );
    expect(text).toContain("Registrado pelo aparelho do signatário (não conferido)");
    expect(text).toMatch(/Seção “Resultado esperado”: na tela por (menos de 1 s|\d+ (s|min))/);
    expect(text).toContain("“Ouvir” (leitura em voz alta no aparelho) usado em: Resultado esperado.");
    expect(text).toContain("Atalho “Ir para a assinatura”: não usado.");

    // The staff's document page shows every answer.
    await staff.page.goto(`/documents/${documentId}`);
    const answers = staff.page.getByTestId("document-comprehension");
    await answers.getByTestId("comprehension-line").first().waitFor();
    expect(await answers.textContent()).toContain("1 nova tentativa na pergunta 1");
    await answers.scrollIntoViewIfNeeded();
    await snap(staff.page, "comprehension-staff-desktop");

    // /verificar/:code, on the phone: the dropped PDF's answers and reading record, checked and listed.
    // The document's page: the server's full report (the code-less page checks in the browser, decision 077).
    const signedDetail = await json<{ audit: { action: string; data: Record<string, unknown> }[] }>(
      await staff.page.request.get(`/api/documents/${documentId}`),
      200,
    );
    const code = signedDetail.audit.find((event) => event.action === "document.signed")?.data.verification_code;
    await p.goto(`/verificar/${String(code)}`);
    await p.getByTestId("sealed-hash").waitFor();
    await p.getByLabel("Arquivo PDF para verificar").setInputFiles({
      name: "termo-assinado.pdf",
      mimeType: "application/pdf",
      buffer: pdf,
    });
    const report = p.getByTestId("evidence-report");
    await report.waitFor();
    expect(await p.getByTestId("evidence-verdict").getAttribute("data-ok")).toBe("true");
    const shown = (await report.textContent())!.replace(/\s+/g, " ");
    expect(shown).toContain(
      `As respostas de ${PATIENT} às perguntas de compreensão são das perguntas do conteúdo congelado`,
    );
    expect(shown).toContain(`${PATIENT} — Compreensão verificada: 2 de 2, 1 nova tentativa na pergunta 1.`);
    expect(shown).toContain(`O registro de leitura de ${PATIENT} cita as 3 seções do conteúdo congelado`);
    expect(shown).toContain(`${PATIENT} — “Ouvir” (leitura em voz alta no aparelho) usado em: Resultado esperado.`);
    expect(await p.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await report.getByText("Compreensão verificada").scrollIntoViewIfNeeded();
    await snap(p, "comprehension-verificar-phone", { fullPage: false });

    expect(phone.errors).toEqual([]);
    await phone.context.close();
    await staff.context.close();
  }, 180_000);
});
