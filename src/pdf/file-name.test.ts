import { describe, expect, it } from "vitest";
import { draftPdfFileName, fileTimestamp, isWatermarkedDraftName, pdfFileName, safeFileStem } from "./file-name.js";

// 2025-03-07 17:04:09 UTC = 14:04:09 in São Paulo (UTC-3, no DST since 2019).
const AT = new Date("2025-03-07T17:04:09Z");

describe("pdfFileName", () => {
  it("replaces every non-alphanumeric character by an underscore and adds a São Paulo timestamp", () => {
    expect(pdfFileName("Termo de Consentimento - Botox", AT)).toBe(
      "Termo_de_Consentimento___Botox_20250307_140409.pdf",
    );
  });

  it("drops accents instead of turning accented letters into underscores", () => {
    expect(pdfFileName("Aplicação de Ácido Hialurônico (1ª sessão)", AT)).toBe(
      "Aplicacao_de_Acido_Hialuronico__1__sessao__20250307_140409.pdf",
    );
    expect(safeFileStem("Ç ã é ô ü")).toBe("C_a_e_o_u");
  });

  it("never lets path separators, dots or control characters through", () => {
    const name = pdfFileName("../../etc/passwd\u0000.pdf", AT);
    expect(name).toBe("______etc_passwd__pdf_20250307_140409.pdf");
    expect(name).toMatch(/^[A-Za-z0-9_]+\.pdf$/);
  });

  it("names a title without letters or digits 'documento' and cuts long titles", () => {
    expect(pdfFileName("", AT)).toBe("documento_20250307_140409.pdf");
    expect(pdfFileName(" — ", AT)).toBe("documento_20250307_140409.pdf");
    expect(safeFileStem("a".repeat(300))).toHaveLength(120);
  });

  it("uses the São Paulo calendar around midnight UTC", () => {
    expect(fileTimestamp(new Date("2025-01-01T02:30:00Z"))).toBe("20241231_233000");
  });
});

describe("draftPdfFileName", () => {
  it("says the file is a draft, with a marker no title can produce", () => {
    const name = draftPdfFileName("Termo de Consentimento - Botox", AT);
    expect(name).toBe("Termo_de_Consentimento___Botox-rascunho_20250307_140409.pdf");
    expect(isWatermarkedDraftName(name)).toBe(true);
    // A stored name from before drafts were watermarked, even for a title that says "rascunho".
    expect(isWatermarkedDraftName(pdfFileName("Termo de Consentimento - Botox", AT))).toBe(false);
    expect(isWatermarkedDraftName(pdfFileName("Termo - rascunho", AT))).toBe(false);
    expect(isWatermarkedDraftName(draftPdfFileName("a".repeat(300), AT))).toBe(true);
  });
});
