import { describe, expect, it } from "vitest";
import {
  centavosForInput,
  formatCentavos,
  MAX_CENTAVOS,
  MONEY_MESSAGES,
  normalizeReaisText,
  parseReais,
} from "./money.js";

describe("parseReais", () => {
  it.each([
    ["1.234,56", 123456],
    ["R$ 1.234,56", 123456],
    ["r$1234,5", 123450],
    ["800", 80000],
    ["0,99", 99],
    ["  4.500  ", 450000],
    ["1.000.000,00", 100000000],
    ["20.000.000,00", MAX_CENTAVOS],
  ])("reads %j as %i centavos", (input, centavos) => {
    expect(parseReais(input)).toEqual({ ok: true, centavos });
  });

  it.each(["", "abc", "12.5", "1,234.56", "-3", "1e3", "1,234", "1.23,00", "12,345", "R$"])("refuses %j", (input) => {
    expect(parseReais(input)).toEqual({ ok: false, message: MONEY_MESSAGES.invalid });
  });

  it("refuses amounts above R$ 20 milhões, however many digits", () => {
    expect(parseReais("20.000.000,01")).toEqual({ ok: false, message: MONEY_MESSAGES.tooLarge });
    expect(parseReais("99999999999999999999")).toEqual({ ok: false, message: MONEY_MESSAGES.tooLarge });
  });
});

describe("formatting", () => {
  it("writes centavos in reais, with and without the symbol, and reads back the same amount", () => {
    expect(formatCentavos(120000)).toBe("R$ 1.200,00");
    expect(centavosForInput(123456)).toBe("1.234,56");
    for (const centavos of [0, 5, 99, 100, 123456, MAX_CENTAVOS]) {
      expect(parseReais(formatCentavos(centavos))).toEqual({ ok: true, centavos });
      expect(parseReais(centavosForInput(centavos))).toEqual({ ok: true, centavos });
    }
  });
});

describe("normalizeReaisText", () => {
  it("writes an amount the one way the app shows it", () => {
    expect(normalizeReaisText("1250")).toBe("R$ 1.250,00");
    expect(normalizeReaisText("R$ 1.250,5")).toBe("R$ 1.250,50");
    expect(normalizeReaisText("4.500,00")).toBe("R$ 4.500,00");
  });

  it("answers null for text that is not an amount", () => {
    expect(normalizeReaisText("Conforme orçamento")).toBeNull();
    expect(normalizeReaisText("")).toBeNull();
    expect(normalizeReaisText("12.5")).toBeNull();
  });
});
