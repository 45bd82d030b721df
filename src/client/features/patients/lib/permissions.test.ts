import { describe, expect, it } from "vitest";
import { canDeletePatients, canWritePatients } from "./permissions";

describe("patient permissions", () => {
  it("lets owners do everything", () => {
    const owner = { role: "auditor", is_proprietario: true };
    expect(canWritePatients(owner)).toBe(true);
    expect(canDeletePatients(owner)).toBe(true);
  });

  it("lets staff who care for patients edit them, and only admins delete", () => {
    for (const role of ["profissional", "atendente", "pro_saude"]) {
      expect(canWritePatients({ role, is_proprietario: false }), role).toBe(true);
      expect(canDeletePatients({ role, is_proprietario: false }), role).toBe(false);
    }
    expect(canDeletePatients({ role: "admin", is_proprietario: false })).toBe(true);
  });

  it("keeps legal staff and auditors read-only", () => {
    for (const role of ["juridico", "auditor"]) {
      expect(canWritePatients({ role, is_proprietario: false }), role).toBe(false);
      expect(canDeletePatients({ role, is_proprietario: false }), role).toBe(false);
    }
    expect(canWritePatients(null)).toBe(false);
  });
});
