import { describe, expect, it } from "vitest";
import { formatDate, formatDateTime, methodLabel, statusLabel, withDestination } from "./format";

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

  it("names where the code went without doubled brackets", () => {
    const sms = "Enviamos um código de 6 dígitos por SMS para o seu celular cadastrado.";
    expect(withDestination(sms, "sms", "(**) *****-4321")).toBe(
      "Enviamos um código de 6 dígitos por SMS para o seu celular cadastrado, final 4321.",
    );
    expect(withDestination("Enviamos para o seu e-mail cadastrado.", "email", "be***@exemplo.com.br")).toBe(
      "Enviamos para o seu e-mail cadastrado (be***@exemplo.com.br).",
    );
    expect(withDestination(sms, "whatsapp", null)).toBe(sms);
    expect(withDestination(sms, "sms", "(**) *****-")).toBe(sms);
  });
});
