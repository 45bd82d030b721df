import { describe, expect, it } from "vitest";
import { unreadLabel } from "../api/notices-api";
import { unreadDescription } from "./unread-badge";

describe("the unread badge's words", () => {
  it("shows nothing at zero, the number up to 99, then 99+", () => {
    expect(unreadLabel(undefined)).toBeNull();
    expect(unreadLabel(0)).toBeNull();
    expect(unreadLabel(7)).toBe("7");
    expect(unreadLabel(99)).toBe("99");
    expect(unreadLabel(100)).toBe("99+");
  });

  it("tells a screen reader how many are unread", () => {
    expect(unreadDescription(0)).toBe("Avisos");
    expect(unreadDescription(1)).toBe("Avisos: 1 não lido");
    expect(unreadDescription(2)).toBe("Avisos: 2 não lidos");
    expect(unreadDescription(100)).toBe("Avisos: 99+ não lidos");
  });
});
