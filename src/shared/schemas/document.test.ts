import { describe, expect, it } from "vitest";
import {
  dashboardBadge,
  documentCreateInputSchema,
  documentStatusLabel,
  effectiveStatus,
  shortDocumentId,
  signatureRate,
} from "./document.js";
import { DOCUMENT_MESSAGES } from "./document-basics.js";

describe("document rules of spec part 1", () => {
  it("shows '#' and the last 8 characters of the id", () => {
    expect(shortDocumentId("0b6e3a52-7d1c-4f0e-9a51-1c2d3e4f5a6b")).toBe("#3e4f5a6b");
  });

  it("computes the signature rate with one decimal, 0 without documents", () => {
    expect(signatureRate(0, 0)).toBe("0.0");
    expect(signatureRate(1, 3)).toBe("33.3");
    expect(signatureRate(2, 3)).toBe("66.7");
    expect(signatureRate(5, 5)).toBe("100.0");
  });

  it("badges the dashboard: signed, pending for sent and viewed, expired, and pt-BR labels for the rest", () => {
    expect(dashboardBadge("signed")).toBe("Assinado");
    expect(dashboardBadge("sent")).toBe("Pendente");
    expect(dashboardBadge("viewed")).toBe("Pendente");
    expect(dashboardBadge("expired")).toBe("Expirado");
    expect(dashboardBadge("draft")).toBe("Rascunho");
    expect(dashboardBadge("cancelled")).toBe("Cancelado");
    expect(dashboardBadge("arquivado")).toBe("arquivado");
  });

  it("never shows a revoked consent as plain Assinado; a refused one reads Recusado (decision 056)", () => {
    expect(dashboardBadge("signed", "2026-12-02T10:00:00Z")).toBe("Revogado");
    expect(documentStatusLabel("signed", "2026-12-02T10:00:00Z")).toBe("Revogado");
    expect(documentStatusLabel("signed", null)).toBe("Assinado");
    expect(documentStatusLabel("recusado")).toBe("Recusado");
    expect(dashboardBadge("recusado")).toBe("Recusado");
  });

  it("treats sent or viewed documents past their expiry as expired, and nothing else", () => {
    const now = new Date("2026-11-22T12:00:00Z");
    const past = "2026-11-22T11:59:59Z";
    const future = "2026-11-29T12:00:00Z";
    expect(effectiveStatus("sent", past, now)).toBe("expired");
    expect(effectiveStatus("viewed", past, now)).toBe("expired");
    expect(effectiveStatus("sent", future, now)).toBe("sent");
    expect(effectiveStatus("draft", past, now)).toBe("draft");
    expect(effectiveStatus("signed", past, now)).toBe("signed");
    expect(effectiveStatus("cancelled", past, now)).toBe("cancelled");
  });

  it("requires patient, template version and title with one message; trims custom texts; drops repeated items", () => {
    const missing = documentCreateInputSchema.safeParse({ titulo: "" });
    expect(missing.success).toBe(false);
    expect(new Set(missing.error?.issues.map((i) => i.message))).toEqual(
      new Set(["Por favor, preencha todos os campos obrigatórios."]),
    );
    const id = "0b6e3a52-7d1c-4f0e-9a51-1c2d3e4f5a6b";
    const parsed = documentCreateInputSchema.parse({
      paciente_id: id,
      template_version_id: id,
      titulo: "  Termo  ",
      procedimento_id: "",
      variaveis: { valor_procedimento: "  ", riscos_personalizados: " Dor " },
      conteudo: { riscos: [id, id] },
    });
    expect(parsed).toMatchObject({
      titulo: "Termo",
      procedimento_id: undefined,
      variaveis: { valor_procedimento: null, riscos_personalizados: "Dor" },
      conteudo: { riscos: [id], beneficios: [], cuidados: [] },
      permitir_pendencias: false,
    });
  });
});

describe("the documents list header", () => {
  it("says 'Mostrando X de Y documentos', and 'mais de 1.000' when the count stopped at the cap", () => {
    expect(DOCUMENT_MESSAGES.showing(20, 35)).toBe("Mostrando 20 de 35 documentos");
    expect(DOCUMENT_MESSAGES.showing(40, 1000, true)).toBe("Mostrando 40 de mais de 1.000 documentos");
    expect(DOCUMENT_MESSAGES.showing(1200, 1500)).toBe("Mostrando 1.200 de 1.500 documentos");
  });
});
