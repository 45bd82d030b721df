import { describe, expect, it } from "vitest";
import { nextVisit, noticeKey, parseNoticeKey, signedNoticesSince } from "./notice-kinds.js";

const id = "8e29db2f-b9dd-4c06-bb12-d5aee1efefcf";
const at = (iso: string) => new Date(iso);
const MIN = 60_000;
const DAY = 24 * 60 * MIN;

describe("notice keys", () => {
  it("round-trip kind, row and instant", () => {
    const key = noticeKey("feegow.failed", id.toUpperCase(), "1767225600123456");
    expect(key).toBe(`feegow.failed:${id}:1767225600123456`);
    expect(parseNoticeKey(key)).toEqual({ kind: "feegow.failed", id, atMicros: "1767225600123456" });
  });

  it("refuse anything else", () => {
    for (const bad of [
      "",
      "feegow.failed",
      `outro.tipo:${id}:1`,
      `feegow.failed:${id}`,
      `feegow.failed:${id}:`,
      `feegow.failed:${id}:-1`,
      `feegow.failed:${id}:1.5`,
      `feegow.failed:nao-e-id:1`,
      `feegow.failed:${id}:1:extra`,
      `feegowXfailed:${id}:1`,
      `feegow.failed:${id}:${"9".repeat(20)}`,
    ]) {
      expect(parseNoticeKey(bad), bad).toBeNull();
    }
  });
});

describe("visits and 'assinado desde a sua última visita'", () => {
  const now = at("2026-03-12T15:00:00Z");

  it("starts a first visit", () => {
    expect(nextVisit({ visitAt: null, previousVisitAt: null }, now)).toEqual({ visitAt: now, previousVisitAt: null });
  });

  it("continues a visit while fetches are less than 30 minutes apart", () => {
    const visitAt = new Date(now.getTime() - 29 * MIN);
    const previousVisitAt = new Date(now.getTime() - 2 * DAY);
    expect(nextVisit({ visitAt, previousVisitAt }, now)).toEqual({ visitAt: now, previousVisitAt });
  });

  it("makes the last visit 'a última' once more than 30 minutes went by", () => {
    const visitAt = new Date(now.getTime() - 31 * MIN);
    expect(nextVisit({ visitAt, previousVisitAt: new Date(now.getTime() - 2 * DAY) }, now)).toEqual({
      visitAt: now,
      previousVisitAt: visitAt,
    });
  });

  it("counts signatures since the last visit, the last 7 days without one, never more than 30 days", () => {
    const yesterday = new Date(now.getTime() - DAY);
    expect(signedNoticesSince({ previousVisitAt: yesterday }, now)).toEqual(yesterday);
    expect(signedNoticesSince({ previousVisitAt: null }, now)).toEqual(new Date(now.getTime() - 7 * DAY));
    expect(signedNoticesSince({ previousVisitAt: new Date(now.getTime() - 90 * DAY) }, now)).toEqual(
      new Date(now.getTime() - 30 * DAY),
    );
  });
});
