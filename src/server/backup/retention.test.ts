import { describe, expect, it } from "vitest";
import { backupsToRemove, isoWeek } from "./retention.js";

/** One backup a day at 03:00 São Paulo (06:00 UTC), for `days` days ending on `last`. */
function daily(last: string, days: number): { name: string; time: Date }[] {
  const end = new Date(`${last}T06:00:00Z`).getTime();
  return Array.from({ length: days }, (_, i) => {
    const time = new Date(end - i * 86_400_000);
    return { name: time.toISOString().slice(0, 10), time };
  });
}

describe("isoWeek", () => {
  it("numbers weeks from Monday, week 1 holding the first Thursday", () => {
    expect(isoWeek("2026-01-01")).toBe("2026-W01"); // a Thursday
    expect(isoWeek("2025-12-29")).toBe("2026-W01"); // the Monday of that week
    expect(isoWeek("2027-01-01")).toBe("2026-W53"); // a Friday: still 2026's last week
    expect(isoWeek("2026-11-26")).toBe("2026-W48");
  });
});

describe("backupsToRemove (7 daily, 4 weekly, 12 monthly)", () => {
  it("keeps everything while there are at most 7 days of backups", () => {
    expect(backupsToRemove(daily("2026-11-26", 7))).toEqual([]);
  });

  it("after a year of daily backups keeps 7 days, the newest of 4 weeks and of 12 months", () => {
    const all = daily("2026-11-26", 400);
    const removed = new Set(backupsToRemove(all));
    const kept = all
      .map((b) => b.name)
      .filter((name) => !removed.has(name))
      .sort();
    // The last 7 days, then Sundays (newest of each ISO week) back to 4 weeks, then month ends.
    expect(kept).toEqual([
      "2025-12-31",
      "2026-01-31",
      "2026-02-28",
      "2026-03-31",
      "2026-04-30",
      "2026-05-31",
      "2026-06-30",
      "2026-07-31",
      "2026-08-31",
      "2026-09-30",
      "2026-10-31",
      "2026-11-08",
      "2026-11-15",
      "2026-11-20",
      "2026-11-21",
      "2026-11-22",
      "2026-11-23",
      "2026-11-24",
      "2026-11-25",
      "2026-11-26",
    ]);
  });

  it("keeps only the newest of several backups on one day, and never removes the newest", () => {
    const base = new Date("2026-11-26T06:00:00Z").getTime();
    const sameDay = [0, 1, 2].map((h) => ({ name: `h${h}`, time: new Date(base + h * 3_600_000) }));
    expect(backupsToRemove(sameDay).sort()).toEqual(["h0", "h1"]);
    expect(backupsToRemove([{ name: "only", time: new Date(base) }])).toEqual([]);
  });

  it("counts days in São Paulo: 01:00 UTC is still the day before", () => {
    const late = { name: "late", time: new Date("2026-11-26T01:00:00Z") }; // 22:00 on the 25th in São Paulo
    const early = { name: "early", time: new Date("2026-11-25T12:00:00Z") };
    expect(backupsToRemove([late, early])).toEqual(["early"]);
  });
});
