import { describe, expect, it } from "vitest";
import {
  formatCalendarDate,
  formatDate,
  formatDateTime,
  formatDateTimeAt,
  formatDateTimeSeconds,
  formatMonthLong,
  formatMonthShort,
  formatNumber,
  formatPercent,
  formatPercentChange,
  formatRelative,
  formatTime,
  MISSING,
} from "./index.js";

describe("dates in São Paulo, dd/mm/aaaa", () => {
  it("reads an instant in the clinic's calendar, not the machine's", () => {
    // 02:00 UTC on 1 March is still 28 February in São Paulo (UTC−3).
    expect(formatDate("2025-03-01T02:00:00Z")).toBe("28/02/2025");
    expect(formatDate(new Date("2025-03-01T03:00:00Z"))).toBe("01/03/2025");
    expect(formatDateTime("2025-03-01T02:00:00Z")).toBe("28/02/2025, 23:00");
    expect(formatDateTimeAt("2026-03-12T17:05:00Z")).toBe("12/03/2026 às 14:05");
    expect(formatTime(Date.UTC(2026, 0, 5, 3, 7))).toBe("00:07");
  });

  it("shows a calendar date as it is, whatever the time zone", () => {
    expect(formatCalendarDate("2026-12-03")).toBe("03/12/2026");
    expect(formatCalendarDate("1988-07-14T00:00:00.000Z")).toBe("14/07/1988");
  });

  it("answers the dash for missing or malformed values", () => {
    for (const value of [null, undefined, "", "ontem"]) {
      expect(formatDate(value)).toBe(MISSING);
      expect(formatDateTime(value)).toBe(MISSING);
      expect(formatDateTimeAt(value)).toBe(MISSING);
      expect(formatCalendarDate(value)).toBe(MISSING);
    }
  });
});

describe("numbers with the decimal comma", () => {
  it("groups thousands with dots", () => {
    expect(formatNumber(1234567)).toBe("1.234.567");
    expect(formatNumber(0)).toBe("0");
    expect(formatNumber(2.5, 2)).toBe("2,50");
    expect(formatNumber(Number.NaN)).toBe(MISSING);
  });

  it("writes percentages as 20,0%", () => {
    expect(formatPercent(20)).toBe("20,0%");
    expect(formatPercent(100 / 3)).toBe("33,3%");
    expect(formatPercent(1234.56, 0)).toBe("1.235%");
    expect(formatPercent(null)).toBe(MISSING);
  });
});

describe("more dates and numbers (the screens' own Intl calls moved here)", () => {
  it("writes evidence times to the second in São Paulo", () => {
    expect(formatDateTimeSeconds("2026-03-07T17:04:09Z")).toBe("07/03/2026 14:04:09");
    expect(formatDateTimeSeconds(new Date("2026-01-01T02:59:59Z"))).toBe("31/12/2025 23:59:59");
    expect(formatDateTimeSeconds(null)).toBe(MISSING);
  });

  it("labels calendar months, whatever the time zone", () => {
    expect(formatMonthShort("2026-06")).toBe("jun/26");
    expect(formatMonthShort("2026-01")).toBe("jan/26");
    expect(formatMonthLong("2026-06")).toBe("junho de 2026");
    expect(formatMonthShort("2026-13")).toBe("2026-13");
    expect(formatMonthLong("junho")).toBe("junho");
  });

  it("says relative times in pt-BR", () => {
    const now = new Date("2026-06-10T12:00:00Z");
    expect(formatRelative("2026-06-10T11:55:00Z", now)).toBe("há 5 minutos");
    expect(formatRelative("2026-06-09T12:00:00Z", now)).toBe("ontem");
    expect(formatRelative("2026-03-10T12:00:00Z", now)).toBe("há 3 meses");
    expect(formatRelative("2026-06-10T11:59:40Z", now)).toBe("agora");
    expect(formatRelative(undefined, now)).toBe(MISSING);
  });

  it("writes a signed change with the decimal comma", () => {
    expect(formatPercentChange(50)).toBe("+50%");
    expect(formatPercentChange(-200 / 3)).toBe("−66,7%");
    expect(formatPercentChange(12.25)).toBe("+12,3%");
    expect(formatPercentChange(0.04)).toBe("0%");
    expect(formatPercentChange(-0.04)).toBe("0%");
    expect(formatPercentChange(1234.5)).toBe("+1.234,5%");
    expect(formatPercentChange(Number.POSITIVE_INFINITY)).toBe(MISSING);
  });
});
