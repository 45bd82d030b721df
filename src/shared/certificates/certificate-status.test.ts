import { describe, expect, it } from "vitest";
import { certificateBadge, daysUntil, dueExpiryWarning } from "./certificate-status.js";

const now = new Date("2026-03-10T12:00:00Z");
const inDays = (days: number, hours = 0) => new Date(now.getTime() + (days * 24 + hours) * 3600_000);

describe("certificateBadge (spec part 1 §4)", () => {
  it("says Inativo for an inactive certificate, whatever its expiry", () => {
    expect(certificateBadge({ is_active: false, vence_em: inDays(-3) }, now)).toEqual({
      tone: "inactive",
      label: "Inativo",
    });
    expect(certificateBadge({ is_active: false, vence_em: inDays(300) }, now).label).toBe("Inativo");
  });

  it("says Expirado once the expiry has passed (to the millisecond)", () => {
    expect(certificateBadge({ is_active: true, vence_em: inDays(-1) }, now).label).toBe("Expirado");
    expect(certificateBadge({ is_active: true, vence_em: now.toISOString() }, now).label).toBe("Expirado");
  });

  it("counts the days left up to 30, rounding up, singular for one", () => {
    expect(certificateBadge({ is_active: true, vence_em: inDays(30) }, now)).toEqual({
      tone: "expiring",
      label: "Expira em 30 dias",
      daysLeft: 30,
    });
    expect(certificateBadge({ is_active: true, vence_em: inDays(6, 1) }, now).label).toBe("Expira em 7 dias");
    expect(certificateBadge({ is_active: true, vence_em: inDays(0, 10) }, now).label).toBe("Expira em 1 dia");
  });

  it("says Válido beyond 30 days and Ativo with no expiry", () => {
    expect(certificateBadge({ is_active: true, vence_em: inDays(30, 1) }, now)).toEqual({
      tone: "valid",
      label: "Válido",
    });
    expect(certificateBadge({ is_active: true, vence_em: null }, now)).toEqual({ tone: "active", label: "Ativo" });
  });
});

describe("expiry warnings (30, 7 and 1 days before)", () => {
  it("computes whole days left", () => {
    expect(daysUntil(inDays(1), now)).toBe(1);
    expect(daysUntil(inDays(0, -1), now)).toBe(0);
  });

  it("is due once per threshold, the smallest one reached", () => {
    expect(dueExpiryWarning(inDays(45), [], now)).toBeNull();
    expect(dueExpiryWarning(inDays(30), [], now)).toEqual({ threshold: 30, daysLeft: 30, covers: [30] });
    expect(dueExpiryWarning(inDays(20), [30], now)).toBeNull();
    expect(dueExpiryWarning(inDays(7), [30], now)).toEqual({ threshold: 7, daysLeft: 7, covers: [7] });
    expect(dueExpiryWarning(inDays(1), [30, 7], now)).toEqual({ threshold: 1, daysLeft: 1, covers: [1] });
    expect(dueExpiryWarning(inDays(1), [30, 7, 1], now)).toBeNull();
  });

  it("sends one warning, not three, for a certificate uploaded close to its expiry; none once expired", () => {
    expect(dueExpiryWarning(inDays(5), [], now)).toEqual({ threshold: 7, daysLeft: 5, covers: [30, 7] });
    expect(dueExpiryWarning(inDays(-1), [], now)).toBeNull();
  });
});
