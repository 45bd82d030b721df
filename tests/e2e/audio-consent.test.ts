/**
 * Audio consent (decision 069) on a 390 px phone, with Chromium's fake microphone: the clinic asks
 * for it on the document; the patient records the agreement sentence, listens, sends it, signs;
 * the sealed registry carries the recording's SHA-256; the staff document page plays it, and the
 * play is in the trail.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Browser } from "playwright-core";
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
} from "./signing-helpers.js";

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser(["--use-fake-ui-for-media-stream", "--use-fake-device-for-media-stream"]);
});
afterAll(async () => {
  await browser?.close();
});

const PATIENT = "Teresa Voz Andrade";
const EMAIL = "teresa.voz@exemplo.com.br";

describe("audio consent on a phone", () => {
  it("records, sends, signs; the registry has its hash; staff play it and the play is audited", async () => {
    const account = await registerProfessional();
    const staff = await newPage(browser, DESKTOP);
    await signIn(staff.page, account.email, account.password);
    const cpf = validCpf();
    const documentId = await seedSignableDocument(
      staff.page,
      account,
      { nome: PATIENT, cpf, email: EMAIL },
      "TCLE para teleconsulta - Voz",
      undefined,
      { pedir_audio: true },
    );
    const sent = await json<{ link: string }>(
      await staff.page.request.post(`/api/documents/${documentId}/send`, { data: {} }),
      200,
    );

    const phone = await patientPhone(browser);
    const p = phone.page;
    await p.goto(sent.link);
    // After the code, beside the signature form: the sentence to read, in the patient's voice.
    await p.getByTestId("go-to-signature").click();
    await confirmSigningCode(p, staff.page, EMAIL);
    const panel = p.getByTestId("audio-consent");
    await panel.waitFor();
    await panel.getByTestId("audio-sentence").waitFor();
    await panel.getByTestId("audio-record").click();
    const recording = panel.getByTestId("audio-recording");
    await recording.waitFor();
    // At least two seconds on the page's own clock (the server refuses under one).
    await expect
      .poll(async () => (await recording.textContent()) ?? "", { timeout: 20_000 })
      .toMatch(/0 min ([2-9]|\d\d) s/);
    await snap(p, "audio-recording-phone", { fullPage: false });
    await panel.getByTestId("audio-stop").click();
    await panel.getByTestId("audio-preview").waitFor();
    await panel.getByTestId("audio-send").click();
    await panel.getByTestId("audio-saved").waitFor();
    expect(await p.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await snap(p, "audio-saved-phone");

    await p.getByLabel("Nome completo").fill(PATIENT);
    await p.getByLabel("CPF").pressSequentially(cpf);
    await p.getByLabel("E-mail").fill(EMAIL);
    await drawSignature(p);
    await p.getByTestId("consent").click();
    await p.getByRole("button", { name: "Assinar Documento" }).click();
    await p.getByTestId("signing-success").waitFor();
    expect(phone.errors).toEqual([]);

    const file = path.join(mkdtempSync(path.join(os.tmpdir(), "audio-consent-")), "assinado.pdf");
    const pdf = await sealedPdf(staff.page, documentId);
    writeFileSync(file, pdf);
    const text = execFileSync("pdftotext", [file, "-"]).toString("utf8").replace(/\s+/g, " ");
    const hash = /Áudio do aceite: SHA-256 ([0-9a-f]{64})/.exec(text)?.[1];
    expect(hash).toMatch(/^[0-9a-f]{64}$/);

    // /verificar/:code, on the phone: the dropped PDF's audio checked against its chain and listed with
    // the same hash, then the reading record the page sent, as the device's word.
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
    expect(shown).toContain(`O áudio do aceite de ${PATIENT} é o da sua assinatura registrada na cadeia de eventos`);
    expect(shown).toContain(`${PATIENT} — Áudio do aceite: SHA-256 ${hash}, 0 min `);
    expect(shown).toMatch(new RegExp(`${PATIENT} — Gravação: formato audio/(webm|ogg|mp4)`));
    expect(shown).toContain(`O registro de leitura de ${PATIENT} cita as`);
    expect(shown).toContain(`${PATIENT} — Registrado pelo aparelho do signatário (não conferido):`);
    expect(await p.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await report.getByText("Áudio do aceite: SHA-256").first().scrollIntoViewIfNeeded();
    await snap(p, "audio-verificar-phone", { fullPage: false });

    // The staff page plays it; the play is an event of the trail.
    await staff.page.goto(`/documents/${documentId}`);
    const audio = staff.page.getByTestId("document-audio");
    await audio.getByTestId("audio-play").click();
    await audio.getByTestId("staff-audio-player").waitFor();
    await snap(staff.page, "audio-staff-player");
    const detail = await json<{ audit: { label: string }[] }>(
      await staff.page.request.get(`/api/documents/${documentId}`),
      200,
    );
    expect(detail.audit.map((e) => e.label)).toContain("Áudio do aceite reproduzido");
    expect(staff.errors).toEqual([]);
    await phone.context.close();
    await staff.context.close();
  });
});
