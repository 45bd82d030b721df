import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import QRCode from "qrcode";
import { describe, expect, it } from "vitest";
import { SAMPLE_SIGNED_AT, sampleDocumentInput, sampleEvidence } from "../../tests/unit/pdf/fixtures.js";
import { renderDocumentPdf } from "./document-pdf.js";
import { formatSaoPaulo, formatUtc, LEGAL_NOTE, REGISTRY_TITLE } from "./signature-registry.js";

describe("registry times", () => {
  it("writes each instant in UTC and in São Paulo (UTC−3, no daylight saving since 2019)", () => {
    const at = new Date("2026-01-15T02:30:05Z");
    expect(formatUtc(at)).toBe("2026-01-15 02:30:05");
    expect(formatSaoPaulo(at)).toBe("14/01/2026 23:30:05");
  });
});

describe("'Registro de assinaturas' page", () => {
  it("comes after the document, on its own last page, with events, hashes, code, link and legal note", async () => {
    const url = "https://consentir.exemplo.com.br/verificar/7K2M9QX4TB";
    const input = sampleDocumentInput();
    const { registry, attachments } = sampleEvidence(
      input,
      { verificationCode: "7K2M9QX4TB", verificationUrl: url, qrPngDataUrl: await QRCode.toDataURL(url) },
      { commonName: "Consentir — Selo da instância", fingerprintSha256: "ab".repeat(32) },
    );
    const withRegistry = await renderDocumentPdf({ ...input, registry, attachments });
    const without = await renderDocumentPdf(input);
    const dir = mkdtempSync(path.join(os.tmpdir(), "consentir-registry-"));
    const file = path.join(dir, "registro.pdf");
    writeFileSync(file, withRegistry);
    writeFileSync(path.join(dir, "sem.pdf"), without);
    const pages = (f: string) => Number(/Pages:\s+(\d+)/.exec(execFileSync("pdfinfo", [f], { encoding: "utf8" }))![1]);
    const total = pages(file);
    const documentPages = pages(path.join(dir, "sem.pdf"));
    // The registry starts on the page after the document (one or two pages with seven events).
    expect(total).toBeGreaterThan(documentPages);
    expect(total).toBeLessThanOrEqual(documentPages + 2);
    const before = execFileSync("pdftotext", ["-f", "1", "-l", String(documentPages), file, "-"], { encoding: "utf8" });
    expect(before).not.toContain(REGISTRY_TITLE);
    const last = execFileSync("pdftotext", ["-f", String(documentPages + 1), "-l", String(total), file, "-"], { encoding: "utf8" });
    const flat = last.replace(/\s+/g, " ");
    expect(last).toContain(REGISTRY_TITLE);
    expect(flat).toContain("2025-03-08 13:20:41");
    expect(last).toContain("UTC");
    expect(flat).toContain("08/03/2025 10:20:41");
    expect(last).toContain("203.0.113.7");
    expect(last).toContain(input.contentSha256);
    expect(last).toContain(registry.finalHash);
    expect(last).toContain("7K2M9QX4TB");
    expect(last).toContain(url);
    expect(last).toContain("Consentir — Selo da instância");
    // The level in words and what was checked — and what was not.
    expect(flat).toContain("Assinatura eletrônica avançada — código de verificação enviado ao contato cadastrado (j***@example.com.br)");
    expect(flat).toContain("igual ao CPF cadastrado");
    expect(flat).toContain("não conferido com o cadastro");
    expect(flat).not.toMatch(/conferidos com o cadastro|uso único\)/);
    expect(flat).toContain("Dra. Beatriz Andrade: link copiado");
    expect(flat).toContain("npm run verify -- arquivo.pdf");
    expect(SAMPLE_SIGNED_AT.toISOString()).toBe("2025-03-08T13:20:41.000Z");
    expect(flat).toContain(LEGAL_NOTE.slice(0, 60));
    expect(last).toContain("2.200-2/2001");
    // The evidence travels inside the file.
    const list = execFileSync("pdfdetach", ["-list", file], { encoding: "utf8" });
    expect(list).toContain("documento.json");
    expect(list).toContain("evidencias.json");
  });
});
