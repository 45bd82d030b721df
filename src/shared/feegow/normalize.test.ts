import { describe, expect, it } from "vitest";
import { formatCentavos, normalizeName } from "./normalize.js";

describe("normalizeName", () => {
  it("ignores case, accents and runs of spaces", () => {
    expect(normalizeName("  Toxina   Botulínica ")).toBe("toxina botulinica");
    expect(normalizeName("PREENCHIMENTO\tLABIAL")).toBe("preenchimento labial");
    expect(normalizeName("Blefaroplastia")).toBe(normalizeName("blefaroplástia"));
    expect(normalizeName("Ácido hialurônico")).toBe("acido hialuronico");
  });

  it("keeps different names different", () => {
    expect(normalizeName("Peeling químico")).not.toBe(normalizeName("Peeling físico"));
    expect(normalizeName("")).toBe("");
  });
});

describe("formatCentavos", () => {
  it("turns centavos into reais in pt-BR", () => {
    expect(formatCentavos(120000)).toBe("R$ 1.200,00");
    expect(formatCentavos(185050)).toBe("R$ 1.850,50");
    expect(formatCentavos(0)).toBe("R$ 0,00");
    expect(formatCentavos(5)).toBe("R$ 0,05");
  });
});
