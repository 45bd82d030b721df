import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { verifySignedPdf } from "../../src/server/services/sealing/verify-signed-pdf.js";
import { signatureDataUrl } from "../helpers/signing.js";
import { registerProfessional, signIn, validCpf } from "./accounts.js";
import { DESKTOP, launchBrowser, newPage, snap } from "./browser.js";
import {
  json,
  patientPhone,
  sealedDocumentWithAudioAsked,
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

describe("/verificar shows the evidence the uploaded PDF carries", () => {
  it("every check ✓ for the sealed PDF; a flipped byte gives a ✗ line and a negative verdict, on a phone", async () => {
    const { account, staff, patient, documentId, sealed } = await sealedDocumentWithAudioAsked(
      browser,
      "Helena Castro Vieira",
    );
    const detail = await json<{ audit: { action: string; data: Record<string, unknown> }[] }>(
      await staff.page.request.get(`/api/documents/${documentId}`),
      200,
    );
    const code = detail.audit.find((event) => event.action === "document.signed")?.data.verification_code as string;

    const phone = await patientPhone(browser);
    const p = phone.page;
    await p.goto(`/verificar/${code}`);
    await p.getByTestId("sealed-hash").waitFor();
    const input = p.getByLabel("Arquivo PDF para verificar");

    await input.setInputFiles({ name: "termo-assinado.pdf", mimeType: "application/pdf", buffer: sealed });
    const report = p.getByTestId("evidence-report");
    await report.waitFor();
    expect(await p.getByTestId("evidence-verdict").getAttribute("data-ok")).toBe("true");
    expect(await p.getByTestId("evidence-verdict").textContent()).toContain("Resultado: tudo confere");
    const lines = report.getByTestId("evidence-line");
    const marks = await lines.evaluateAll((items) => items.map((item) => item.getAttribute("data-ok")));
    expect(marks.filter((mark) => mark === "true").length).toBeGreaterThanOrEqual(8);
    expect(marks).not.toContain("false");
    // Each line says in words what its mark means (not colour alone): ✓ lines read "Confere:".
    const first = lines.first();
    expect(await first.textContent()).toMatch(/^✓\s*Confere:\s*Selo digital \(PAdES\) válido/);
    expect(await report.textContent()).toContain("Cadeia de");
    // Each signer's audio of the agreement and reading record, said even when absent (decisions 069, 052).
    const texts = (await lines.allTextContents()).map((text) => text.replace(/\s+/g, " "));
    expect(texts).toContain(
      `✓Confere: A cadeia de eventos registra, na assinatura de ${patient.nome}, que o áudio do aceite foi pedido e não foi gravado.`,
    );
    expect(texts).toContain(
      `ℹInformação: ${patient.nome} — Áudio do aceite: pedido pela clínica, não gravado (o signatário assinou sem gravar).`,
    );
    expect(texts).toContain(
      `ℹInformação: ${patient.nome} — Registro de leitura: não enviado pelo aparelho do signatário (nenhum tempo de leitura por seção foi registrado).`,
    );
    // The parties with their level, and the seal certificate with its fingerprint.
    const parties = await p.getByTestId("evidence-parties").textContent();
    // A development server keeps the code in its outbox: the level is the simple one (decision 060).
    expect(parties).toContain(`${patient.nome}— Assinatura eletrônica simples (servidor de desenvolvimento`);
    expect(parties).toContain(account.nome);
    const fingerprint = (await p.getByTestId("evidence-fingerprint").textContent())!.trim();
    expect(fingerprint).toMatch(/^[0-9a-f]{64}$/);
    expect(await report.textContent()).toContain(`Impressão digital SHA-256 do certificado: ${fingerprint}`);
    expect(await p.getByTestId("evidence-certificate").textContent()).toMatch(/CN=|Consentir/);
    expect(await p.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await snap(p, "verification-evidence-ok-phone");

    // One byte flipped inside the signed range.
    const tampered = Buffer.from(sealed);
    const at = tampered.indexOf("\n%", 0, "latin1") + 2;
    tampered[at] = tampered[at]! ^ 0x01;
    await input.setInputFiles({ name: "termo-alterado.pdf", mimeType: "application/pdf", buffer: tampered });
    await p.getByTestId("pdf-verdict").getByText("termo-alterado.pdf", { exact: false }).waitFor();
    await expect
      .poll(() => p.getByTestId("evidence-verdict").getAttribute("data-ok"), { timeout: 20_000 })
      .toBe("false");
    expect(await p.getByTestId("evidence-verdict").textContent()).toContain("Resultado: FALHOU");
    const failed = report.locator('[data-testid="evidence-line"][data-ok="false"]');
    expect(await failed.count()).toBeGreaterThanOrEqual(1);
    expect(await failed.first().textContent()).toMatch(/^✗\s*Não confere:\s*Selo digital inválido/);
    expect(await p.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await snap(p, "verification-evidence-rejected-phone");

    expect(phone.errors).toEqual([]);
    expect(staff.errors).toEqual([]);
    await phone.context.close();
    await staff.context.close();
  });

  it("/verificar without a code: a typed code opens the document, a dropped PDF is checked in the browser (tampered, then genuine), and offline from the saved page", async () => {
    const account = await registerProfessional();
    const staff = await newPage(browser, DESKTOP);
    await signIn(staff.page, account.email, account.password);
    const patient = { nome: "Rui Barbosa Neto", cpf: validCpf(), email: `rui.${Date.now()}@exemplo.com.br` };
    const documentId = await seedSignableDocument(staff.page, account, patient);
    const sent = await json<{ link: string }>(
      await staff.page.request.post(`/api/documents/${documentId}/send`, { data: {} }),
      200,
    );
    await signThroughApi(staff.page, sent.link, patient, signatureDataUrl());
    const sealed = await sealedPdf(staff.page, documentId);
    const detail = await json<{ audit: { action: string; data: Record<string, unknown> }[] }>(
      await staff.page.request.get(`/api/documents/${documentId}`),
      200,
    );
    const code = detail.audit.find((event) => event.action === "document.signed")?.data.verification_code as string;

    const phone = await patientPhone(browser);
    const p = phone.page;
    await p.goto("/verificar");
    await p.getByRole("heading", { name: "Verificar um documento" }).waitFor();
    expect(await p.title()).toBe("Verificação de documento · Consentir");
    // Something that is not a code: said at once, in words, nowhere to go.
    await p.getByLabel("Código de verificação").fill("??");
    await p.getByRole("button", { name: "Verificar", exact: true }).click();
    await p.getByRole("alert").getByText("Digite o código de verificação como está impresso").waitFor();

    // The PDF is checked in this browser (decision 077): nothing is sent, the verdicts are the CLI's.
    const posted: string[] = [];
    p.on("request", (request) => {
      if (request.method() === "POST") posted.push(request.url());
    });
    expect(await p.getByTestId("local-privacy").textContent()).toContain("o arquivo não sai do seu computador");
    const drop = async (name: string, buffer: Buffer) => {
      await p.getByLabel("Arquivo PDF para verificar").setInputFiles({ name, mimeType: "application/pdf", buffer });
      await p.locator(`[data-testid="local-verdict"]:has-text("${name}")`).waitFor();
      return p.getByTestId("local-verdict").getAttribute("data-verdict");
    };
    const tampered = Buffer.from(sealed);
    tampered[200] = tampered[200]! ^ 1;
    expect([verifySignedPdf(sealed).ok, verifySignedPdf(tampered).selo_ok]).toEqual([true, false]);
    // Garbage is answered in words, and the page stays responsive (the check runs in a worker).
    const garbage = Buffer.alloc(3 * 1024 * 1024, "lixo ");
    expect(await drop("lixo.pdf", garbage)).toBe("sem_assinatura");
    expect(await p.getByTestId("local-verdict-title").textContent()).toContain("não tem assinatura digital");
    expect(await drop("alterado.pdf", tampered)).toBe("alterado");
    expect(await p.getByTestId("local-verdict-title").textContent()).toContain("Arquivo alterado");
    expect(await drop("termo.pdf", sealed)).toBe("integro");
    expect(await p.getByTestId("local-lines").textContent()).not.toContain("✗");
    const open = p.getByTestId("verification-open-document");
    expect(await open.textContent()).toContain(code);
    expect(posted).toEqual([]);
    expect(await p.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await snap(p, "verification-start-pdf-phone");

    // The saveable page: the same check opened from disk, offline.
    const saved = await p.request.get("/verificador.html");
    expect(saved.status()).toBe(200);
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), "verificador-")), "verificador.html");
    writeFileSync(file, await saved.body());
    const offline = await browser.newContext({ offline: true });
    const page = await offline.newPage();
    await page.goto(`file://${file}`);
    await page
      .getByLabel("Arquivo PDF para verificar")
      .setInputFiles({ name: "termo.pdf", mimeType: "application/pdf", buffer: sealed });
    await page.getByTestId("local-verdict").waitFor();
    expect(await page.getByTestId("local-verdict").getAttribute("data-verdict")).toBe("integro");
    await snap(page, "offline-verifier-file");
    await offline.close();

    // Typed from paper in lower case with a dash: the document's page opens.
    await p.getByLabel("Código de verificação").fill(`${code.slice(0, 4).toLowerCase()}-${code.slice(4)}`);
    await p.getByRole("button", { name: "Verificar", exact: true }).click();
    await p.waitForURL(`**/verificar/${code}`);
    await p.getByTestId("sealed-hash").waitFor();

    expect(phone.errors).toEqual([]);
    expect(staff.errors).toEqual([]);
    await phone.context.close();
    await staff.context.close();
  });
});
