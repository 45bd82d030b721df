import { describe, expect, it } from "vitest";
import { formatCalendarDate, formatDate, isExpired, removalFor, showsExpiry, statusLabel } from "./format";

describe("documents formatting", () => {
  it("shows dates in the clinic's calendar", () => {
    expect(formatDate("2026-03-01T02:00:00Z")).toBe("28/02/2026");
    expect(formatCalendarDate("2026-12-03")).toBe("03/12/2026");
    expect(formatDate(null)).toBe("—");
  });

  it("hides the expiry of signed documents and flags passed deadlines", () => {
    const now = new Date("2026-03-10T12:00:00Z");
    expect(showsExpiry("signed")).toBe(false);
    expect(showsExpiry("sent")).toBe(true);
    expect(isExpired("sent", "2026-03-09T12:00:00Z", now)).toBe(true);
    expect(isExpired("draft", "2026-03-11T12:00:00Z", now)).toBe(false);
    expect(isExpired("signed", "2026-03-01T12:00:00Z", now)).toBe(false);
    expect(isExpired("expired", "2026-03-11T12:00:00Z", now)).toBe(true);
  });

  it("offers delete for drafts and cancelled, cancel for sent, viewed or expired, nothing for signed", () => {
    expect(removalFor("draft")).toBe("delete");
    expect(removalFor("sent")).toBe("cancel");
    expect(removalFor("viewed")).toBe("cancel");
    expect(removalFor("signed")).toBeNull();
    expect(removalFor("cancelled")).toBe("delete");
    expect(removalFor("expired")).toBe("cancel");
    expect(statusLabel("viewed")).toBe("Visualizado");
  });
});
