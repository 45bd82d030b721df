import { describe, expect, it } from "vitest";
import {
  calendarDate,
  findUnsafeText,
  isCalendarDate,
  isIsoInstant,
  isSafeText,
  text,
  UNSAFE_TEXT_MESSAGE,
} from "./safe-input.js";

describe("isSafeText", () => {
  it("accepts ordinary Portuguese text, emoji and line breaks", () => {
    for (const value of ["", "Conceição", "Olá 👋🏽", "linha 1\nlinha 2\ttab", "𝔘𝔫𝔦𝔠𝔬𝔡𝔢"])
      expect(isSafeText(value)).toBe(true);
  });
  it("refuses NUL bytes and lone surrogates anywhere", () => {
    for (const value of ["\u0000", "a\u0000b", "\ud800", "x\udc00", "\ud83d", "fim \ud83d", "\udc4b início"])
      expect(isSafeText(value)).toBe(false);
  });
});

describe("text()", () => {
  it("keeps the chain of an ordinary string schema and answers in Portuguese", () => {
    const schema = text().trim().min(1, "Informe o nome");
    expect(schema.parse("  Ana ")).toBe("Ana");
    const result = schema.safeParse("Ana\u0000");
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe(UNSAFE_TEXT_MESSAGE);
  });
});

describe("calendar dates", () => {
  it("accepts real days, leap days included", () => {
    for (const value of ["2024-02-29", "2000-02-29", "1900-01-01", "2026-12-31", "2200-12-31"])
      expect(isCalendarDate(value)).toBe(true);
  });
  it("refuses days JavaScript rolls over and PostgreSQL refuses, and dates out of bounds", () => {
    for (const value of [
      "2024-02-30",
      "2023-02-29",
      "1900-02-29",
      "2024-04-31",
      "2024-13-01",
      "2024-00-10",
      "2024-01-00",
      "0000-01-01",
      "1899-12-31",
      "2201-01-01",
      "20240101",
      "2024-1-1",
      " 2024-01-01x",
    ]) {
      expect(isCalendarDate(value)).toBe(false);
    }
  });
  it("calendarDate() gives the field's message", () => {
    const result = calendarDate("Data inicial inválida").safeParse("2023-02-29");
    expect(result.error?.issues[0]?.message).toBe("Data inicial inválida");
    expect(calendarDate().parse(" 2024-02-29 ")).toBe("2024-02-29");
  });
  it("checks the day inside an ISO instant", () => {
    expect(isIsoInstant("2026-11-22T00:30:29.123456Z")).toBe(true);
    expect(isIsoInstant("2024-02-30T00:00:00.000Z")).toBe(false);
    expect(isIsoInstant("2024-02-28T24:00:00Z")).toBe(false);
  });
});

describe("findUnsafeText", () => {
  it("points at the first unsafe value or key, however deep", () => {
    expect(findUnsafeText({ a: ["ok", { b: "x\u0000" }] })).toEqual(["a", "1", "b"]);
    expect(findUnsafeText({ variaveis: { "nome\ud800": "Ana" } })).toEqual(["variaveis", "(chave)"]);
    expect(findUnsafeText({ a: 1, b: [true, null, "Conceição"] })).toBeNull();
  });
});
