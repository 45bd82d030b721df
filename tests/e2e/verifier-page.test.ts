/**
 * The saveable verifier as our own server serves it, /verificador.html (decision 077, amended):
 * under its route's policy (inline script and style by hash, a blob: worker, no network) it runs,
 * and on a sealed PDF from the app and three tampered copies it gives the verdict `npm run verify`
 * gives on the same files, with the same evidence lines (the audio asked and not recorded, the
 * reading record not sent).
 */
import { execFile } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Verdict } from "../../src/shared/verification/pdf-verifier.js";
import { VERDICT_TEXT } from "../../src/shared/verification/verdict-text.js";
import { byteChanged, sealSignatureChanged, updateAppended } from "../helpers/tampered-pdfs.js";
import { launchBrowser, newPage, PHONE, snap } from "./browser.js";
import { sealedDocumentWithAudioAsked } from "./signing-helpers.js";

const projectRoot = path.resolve(import.meta.dirname, "../..");

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** `npm run verify -- <file>`: its exit code and what it prints. */
function npmRunVerify(file: string): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    execFile(
      path.join(projectRoot, "node_modules", ".bin", "tsx"),
      ["src/server/cli/verify-pdf.ts", file],
      { cwd: projectRoot, timeout: 60_000 },
      (error, stdout) => resolve({ code: error ? Number(error.code ?? -1) : 0, out: stdout }),
    );
  });
}

/** Checks one file on the page; the verdict and every line it shows. */
async function check(page: Page, name: string, bytes: Buffer) {
  await page
    .getByLabel("Arquivo PDF para verificar")
    .setInputFiles({ name, mimeType: "application/pdf", buffer: bytes });
  const verdict = page.locator(`[data-testid="local-verdict"]:has(p.arquivo:text-is("Arquivo: ${name}"))`);
  await verdict.waitFor();
  return {
    verdict: await verdict.getAttribute("data-verdict"),
    title: (await page.getByTestId("local-verdict-title").textContent()) ?? "",
    lines: await page.getByTestId("local-lines").locator("li").allTextContents(),
  };
}

describe("/verificador.html served by the app", () => {
  it("runs under its own strict policy and gives npm run verify's verdicts on a genuine and three tampered PDFs", async () => {
    const { staff, patient, sealed: genuine } = await sealedDocumentWithAudioAsked(browser, "Marta Quintela Dias");
    const files: [string, Buffer, Verdict][] = [
      ["termo.pdf", genuine, "integro"],
      ["alterado.pdf", byteChanged(genuine), "alterado"],
      ["acrescentado.pdf", updateAppended(genuine), "atualizacao_posterior"],
      ["assinatura-trocada.pdf", sealSignatureChanged(genuine), "assinatura_invalida"],
    ];
    const dir = mkdtempSync(path.join(os.tmpdir(), "verificador-servido-"));
    const cli = await Promise.all(
      files.map(([name, bytes]) => {
        writeFileSync(path.join(dir, name), bytes);
        return npmRunVerify(path.join(dir, name));
      }),
    );

    const phone = await newPage(browser, PHONE);
    const p = phone.page;
    const answer = await p.goto("/verificador.html");
    const csp = answer!.headers()["content-security-policy"] ?? "";
    expect(csp).toMatch(/^default-src 'none'; script-src 'sha256-[A-Za-z0-9+/]+=*'; style-src 'sha256-/);
    expect(csp).not.toContain("unsafe");
    // The script ran: the page drew itself (the static text before it asks to save the file).
    await p.getByRole("heading", { name: "Verificador de documentos Consentir" }).waitFor();
    expect(await p.getByTestId("local-privacy").textContent()).toContain("o arquivo não sai do seu computador");
    await snap(p, "served-verifier-empty-phone");

    for (const [i, [name, , expected]] of files.entries()) {
      const local = await check(p, name, files[i]![1]);
      const { code, out } = cli[i]!;
      const failed = out.includes("RESULTADO: FALHOU");
      expect(local.verdict, `${name}: ${local.lines.join("\n")}`).toBe(expected);
      // The same verdict as `npm run verify`: intact but unconfirmed (3), or FALHOU (1).
      expect([local.verdict === "integro", failed, code]).toEqual(
        expected === "integro" ? [true, false, 3] : [false, true, 1],
      );
      expect(local.title).toBe(VERDICT_TEXT[expected].title);
      // Every line the page shows from the attachments on is printed by the CLI, with the same mark.
      const evidence = local.lines.slice(local.lines.findIndex((l) => l.includes("Anexos ")));
      expect(evidence.length).toBeGreaterThan(5);
      const printed = out.split("\n");
      for (const line of evidence) expect(printed, name).toContain(line);
      if (name === "termo.pdf") {
        expect(local.lines.some((l) => l.startsWith("✗"))).toBe(false);
        expect(evidence).toContain(
          `✓ A cadeia de eventos registra, na assinatura de ${patient.nome}, que o áudio do aceite foi pedido e não foi gravado.`,
        );
        expect(evidence).toContain(
          `• ${patient.nome} — Registro de leitura: não enviado pelo aparelho do signatário (nenhum tempo de leitura por seção foi registrado).`,
        );
        expect(await p.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
        await snap(p, "served-verifier-genuine-phone");
      }
    }
    await snap(p, "served-verifier-tampered-phone");
    expect(phone.errors).toEqual([]);

    // Wide screen: the genuine file, and nothing runs out of the page.
    const wide = await newPage(browser, { width: 1366, height: 900 });
    await wide.page.goto("/verificador.html");
    expect((await check(wide.page, "termo.pdf", genuine)).verdict).toBe("integro");
    expect(await wide.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1366);
    await snap(wide.page, "served-verifier-genuine-desktop");
    expect(wide.errors).toEqual([]);

    await wide.context.close();
    await phone.context.close();
    await staff.context.close();
  });
});
