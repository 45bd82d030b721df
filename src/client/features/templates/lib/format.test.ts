import { describe, expect, it } from "vitest";
import { formatDate, formatMonthShort, formatRelative, usageLabel, versionLabel } from "./format";

describe("templates formatting", () => {
  it("shows São Paulo dates in pt-BR", () => {
    expect(formatDate("2025-03-01T02:00:00Z")).toBe("28/02/2025");
    expect(formatDate(null)).toBe("—");
  });

  it("says relative times in pt-BR", () => {
    const now = new Date("2026-06-10T12:00:00Z");
    expect(formatRelative("2026-06-10T11:55:00Z", now)).toBe("há 5 minutos");
    expect(formatRelative("2026-06-09T12:00:00Z", now)).toBe("ontem");
    expect(formatRelative("2026-06-10T11:59:40Z", now)).toBe("agora");
  });

  it("labels months, versions and usage", () => {
    expect(formatMonthShort("2026-06")).toBe("jun/26");
    expect(versionLabel(2)).toBe("v2");
    expect(usageLabel(0)).toBe("Usado: 0 vezes");
    expect(usageLabel(1)).toBe("Usado: 1 vez");
  });
});
