import { describe, expect, it } from "vitest";
import { formatDate, formatDateTime, methodLabel, statusLabel } from "./format";

describe("public page formats", () => {
  it("shows São Paulo dates in pt-BR", () => {
    expect(formatDate("2026-03-01T02:30:00Z")).toBe("28/02/2026");
    expect(formatDateTime("2026-03-01T15:05:00Z")).toBe("01/03/2026 às 12:05");
    expect(formatDate(null)).toBe("—");
    expect(formatDateTime("nope")).toBe("—");
  });

  it("labels methods and statuses", () => {
    expect(methodLabel("eletronica")).toBe("Eletrônica");
    expect(methodLabel("ICP-Brasil")).toBe("ICP-Brasil");
    expect(statusLabel("signed")).toBe("Assinado");
    expect(statusLabel("outro")).toBe("outro");
  });
});
