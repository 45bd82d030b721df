import { describe, expect, it } from "vitest";
import {
  isReminderHour,
  nextReminderHour,
  reminderSchedule,
  reminderSettingsOf,
  remindersContinue,
} from "./reminder-schedule.js";

// São Paulo is UTC−3 (no daylight saving since 2019).
const sp = (local: string) => new Date(`${local}-03:00`);

describe("reminder schedule (decision 059)", () => {
  it("goes at 24 h, 72 h and 24 h before the deadline when all fall in the day", () => {
    const sentAt = sp("2026-12-01T10:00:00");
    const expiresAt = sp("2026-12-08T10:00:00");
    expect(reminderSchedule({ sentAt, expiresAt, maximo: 3 })).toEqual([
      sp("2026-12-02T10:00:00"),
      sp("2026-12-04T10:00:00"),
      sp("2026-12-07T10:00:00"),
    ]);
    expect(reminderSchedule({ sentAt, expiresAt, maximo: 1 })).toEqual([sp("2026-12-02T10:00:00")]);
  });

  it("moves a night time to 08:00 São Paulo and keeps 20:00 out", () => {
    expect(isReminderHour(sp("2026-12-02T07:59:59"))).toBe(false);
    expect(isReminderHour(sp("2026-12-02T08:00:00"))).toBe(true);
    expect(isReminderHour(sp("2026-12-02T19:59:59"))).toBe(true);
    expect(isReminderHour(sp("2026-12-02T20:00:00"))).toBe(false);
    expect(nextReminderHour(sp("2026-12-02T21:37:12"))).toEqual(sp("2026-12-03T08:00:00"));
    expect(nextReminderHour(sp("2026-12-03T03:05:00"))).toEqual(sp("2026-12-03T08:00:00"));
    expect(nextReminderHour(sp("2026-12-03T11:05:00"))).toEqual(sp("2026-12-03T11:05:00"));
    const sentAt = sp("2026-12-01T22:30:00");
    const schedule = reminderSchedule({ sentAt, expiresAt: sp("2026-12-08T22:30:00"), maximo: 3 });
    expect(schedule[0]).toEqual(sp("2026-12-03T08:00:00"));
    expect(schedule.every(isReminderHour)).toBe(true);
  });

  it("never reaches the deadline and merges reminders that fall close together", () => {
    // A 3-day deadline: 72 h is the deadline itself; 24 h before it is 48 h.
    const sentAt = sp("2026-12-01T10:00:00");
    const expiresAt = sp("2026-12-04T10:00:00");
    expect(reminderSchedule({ sentAt, expiresAt, maximo: 3 })).toEqual([
      sp("2026-12-02T10:00:00"),
      sp("2026-12-03T10:00:00"),
    ]);
    // A 1-day deadline: nothing is left before it.
    expect(reminderSchedule({ sentAt, expiresAt: sp("2026-12-02T10:00:00"), maximo: 3 })).toEqual([]);
    // Deadline at 02:00: the morning after is past it.
    const late = reminderSchedule({
      sentAt: sp("2026-12-01T01:00:00"),
      expiresAt: sp("2026-12-02T02:00:00"),
      maximo: 3,
    });
    expect(late.every((t) => t < sp("2026-12-02T02:00:00"))).toBe(true);
  });

  it("continues only while the document waits for the patient", () => {
    expect(remindersContinue("sent")).toBe(true);
    expect(remindersContinue("viewed")).toBe(true);
    for (const s of ["draft", "signed", "cancelled", "expired", "refused", "revoked", "anything-new"])
      expect(remindersContinue(s)).toBe(false);
  });

  it("defaults to on with 3 and ignores values out of range", () => {
    expect(reminderSettingsOf(undefined)).toEqual({ ativo: true, maximo: 3 });
    expect(reminderSettingsOf({ ativo: false, maximo: 2 })).toEqual({ ativo: false, maximo: 2 });
    expect(reminderSettingsOf({ maximo: 9 })).toEqual({ ativo: true, maximo: 3 });
  });
});
