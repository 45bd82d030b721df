import { describe, expect, it } from "vitest";
import { ageFromBirthDate, formatAge, formatDateBR, formatInstantDateBR, isMinor, todayInSaoPaulo } from "./dates";

describe("todayInSaoPaulo", () => {
  it("reads the civil date in São Paulo, not in UTC", () => {
    // 02:30 UTC on 1 March is still 28 February in São Paulo (UTC−3).
    expect(todayInSaoPaulo(new Date("2025-03-01T02:30:00Z"))).toBe("2025-02-28");
    expect(todayInSaoPaulo(new Date("2025-03-01T03:00:00Z"))).toBe("2025-03-01");
  });
});

describe("ageFromBirthDate", () => {
  const at = (iso: string) => new Date(iso);

  it("counts whole years, turning older on the birthday", () => {
    expect(ageFromBirthDate("1990-06-15", at("2024-06-14T15:00:00Z"))).toBe(33);
    expect(ageFromBirthDate("1990-06-15", at("2024-06-15T15:00:00Z"))).toBe(34);
    expect(ageFromBirthDate("1990-06-15", at("2024-12-31T15:00:00Z"))).toBe(34);
  });

  it("uses the São Paulo date at the turn of the UTC day", () => {
    // 01:00 UTC on the 15th is 22:00 on the 14th in São Paulo: not yet the birthday.
    expect(ageFromBirthDate("1990-06-15", at("2024-06-15T01:00:00Z"))).toBe(33);
    expect(ageFromBirthDate("1990-06-15", at("2024-06-15T03:00:00Z"))).toBe(34);
  });

  it("treats 29 February birthdays as 1 March in common years", () => {
    expect(ageFromBirthDate("2008-02-29", at("2026-02-28T15:00:00Z"))).toBe(17);
    expect(ageFromBirthDate("2008-02-29", at("2026-03-01T15:00:00Z"))).toBe(18);
    expect(ageFromBirthDate("2008-02-29", at("2028-02-29T15:00:00Z"))).toBe(20);
  });

  it("is 0 in the first year and null for missing, malformed or future dates", () => {
    expect(ageFromBirthDate("2024-01-10", at("2024-06-01T12:00:00Z"))).toBe(0);
    expect(ageFromBirthDate(null)).toBeNull();
    expect(ageFromBirthDate(undefined)).toBeNull();
    expect(ageFromBirthDate("")).toBeNull();
    expect(ageFromBirthDate("15/06/1990")).toBeNull();
    expect(ageFromBirthDate("1990-13-01")).toBeNull();
    expect(ageFromBirthDate("2030-01-01", at("2024-06-01T12:00:00Z"))).toBeNull();
  });
});

describe("isMinor", () => {
  it("is true under 18 and false from the 18th birthday on", () => {
    const now = new Date("2025-05-10T12:00:00Z");
    expect(isMinor("2007-05-11", now)).toBe(true);
    expect(isMinor("2007-05-10", now)).toBe(false);
    expect(isMinor("1980-01-01", now)).toBe(false);
    expect(isMinor(null, now)).toBe(false);
  });
});

describe("formatAge", () => {
  it("writes the age in pt-BR", () => {
    expect(formatAge(34)).toBe("34 anos");
    expect(formatAge(1)).toBe("1 ano");
    expect(formatAge(0)).toBe("Menos de 1 ano");
    expect(formatAge(null)).toBe("—");
  });
});

describe("formatDateBR", () => {
  it("formats calendar dates without shifting the day", () => {
    expect(formatDateBR("1990-03-01")).toBe("01/03/1990");
    expect(formatDateBR("1990-03-01T00:00:00.000Z")).toBe("01/03/1990");
    expect(formatDateBR(null)).toBe("—");
    expect(formatDateBR("ontem")).toBe("—");
  });
});

describe("formatInstantDateBR", () => {
  it("shows an instant as its São Paulo date", () => {
    expect(formatInstantDateBR("2025-03-01T02:00:00Z")).toBe("28/02/2025");
    expect(formatInstantDateBR("2025-03-01T12:00:00Z")).toBe("01/03/2025");
    expect(formatInstantDateBR("nada")).toBe("—");
    expect(formatInstantDateBR(null)).toBe("—");
  });
});
