import { describe, expect, it } from "vitest";
import { formatCalendarDate, formatDate, formatDateTime, formatDateTimeAt, formatNumber, formatPercent, formatTime, MISSING } from "./index.js";

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
