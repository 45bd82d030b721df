import { describe, expect, it } from "vitest";
import { ageOn, dateInSaoPaulo, monthInSaoPaulo, startOfDayInSaoPaulo, startOfMonthInSaoPaulo } from "./sao-paulo.js";

describe("São Paulo calendar", () => {
  it("takes the date in São Paulo, not UTC", () => {
    // 02:00 UTC on the 1st is still the 31st (23:00) in São Paulo.
    expect(dateInSaoPaulo(new Date("2026-11-01T02:00:00Z"))).toBe("2026-10-31");
    expect(dateInSaoPaulo(new Date("2026-11-01T03:00:00Z"))).toBe("2026-11-01");
  });

  it("starts the month at 00:00 of the 1st in São Paulo (03:00 UTC)", () => {
    expect(startOfMonthInSaoPaulo(new Date("2026-11-21T15:00:00Z")).toISOString()).toBe("2026-11-01T03:00:00.000Z");
    // At 01:00 UTC on Dec 1st it is still November in São Paulo.
    expect(startOfMonthInSaoPaulo(new Date("2026-12-01T01:00:00Z")).toISOString()).toBe("2026-11-01T03:00:00.000Z");
    expect(startOfMonthInSaoPaulo(new Date("2026-12-01T03:00:00Z")).toISOString()).toBe("2026-12-01T03:00:00.000Z");
  });

  it("uses the historical offset in the old summer time (UTC-2 in January 2018)", () => {
    expect(startOfDayInSaoPaulo("2018-01-15").toISOString()).toBe("2018-01-15T02:00:00.000Z");
  });

  it("names the month in São Paulo: 02:59 UTC on the 1st is still the previous month there", () => {
    expect(monthInSaoPaulo(new Date("2026-03-01T02:59:59Z"))).toBe("2026-02");
    expect(monthInSaoPaulo(new Date("2026-03-01T03:00:00Z"))).toBe("2026-03");
    expect(monthInSaoPaulo(new Date("2026-01-01T02:00:00Z"))).toBe("2025-12");
  });

  it("computes ages in whole years", () => {
    expect(ageOn("1990-05-20", "2026-05-19")).toBe(35);
    expect(ageOn("1990-05-20", "2026-05-20")).toBe(36);
    expect(ageOn("2010-02-28", "2026-02-27")).toBe(15);
    expect(ageOn(null, "2026-01-01")).toBeNull();
    expect(ageOn("2030-01-01", "2026-01-01")).toBeNull();
    expect(ageOn("20-01-01", "2026-01-01")).toBeNull();
  });
});
