import { describe, expect, it } from "vitest";
import { addressLines, documentsLabel, initials } from "./labels";

describe("documentsLabel", () => {
  it("agrees in number", () => {
    expect(documentsLabel(0)).toBe("0 documentos");
    expect(documentsLabel(1)).toBe("1 documento");
    expect(documentsLabel(12)).toBe("12 documentos");
  });
});

describe("addressLines", () => {
  const empty = { logradouro: null, numero: null, complemento: null, bairro: null, cidade: null, uf: null, cep: null };

  it("writes a full address in display lines", () => {
    expect(
      addressLines({
        logradouro: "Avenida Paulista",
        numero: "1578",
        complemento: "Sala 4",
        bairro: "Bela Vista",
        cidade: "São Paulo",
        uf: "SP",
        cep: "01310100",
      }),
    ).toEqual(["Avenida Paulista, 1578 — Sala 4", "Bela Vista", "São Paulo/SP", "CEP 01310-100"]);
  });

  it("leaves out what is unknown", () => {
    expect(addressLines(empty)).toEqual([]);
    expect(addressLines({ ...empty, cidade: "Niterói", uf: "RJ" })).toEqual(["Niterói/RJ"]);
    expect(addressLines({ ...empty, numero: "10" })).toEqual(["10"]);
  });
});

describe("initials", () => {
  it("takes the first and last names, skipping connectors", () => {
    expect(initials("Maria da Silva")).toBe("MS");
    expect(initials("  joão  ")).toBe("J");
    expect(initials("Ana Beatriz dos Santos")).toBe("AS");
    expect(initials("")).toBe("");
  });
});
