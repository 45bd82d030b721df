import { describe, expect, it } from "vitest";
import { can, ROLES } from "../permissions.js";

const member = (role: string, isOwner = false) => ({ role, isOwner });

describe("who may exercise a patient's rights and export the clinic (decision 026)", () => {
  it("lets the owner and administrators export and anonymize a patient, nobody else", () => {
    for (const action of ["patients.exportData", "patients.anonymize"] as const) {
      expect(can(member("admin"), action)).toBe(true);
      expect(can(member("profissional", true), action)).toBe(true);
      for (const role of ["profissional", "atendente", "juridico", "auditor", "pro_saude"])
        expect(can(member(role), action), `${role} ${action}`).toBe(false);
    }
  });

  it("keeps the whole clinic's export to its owner", () => {
    for (const role of ROLES) {
      expect(can(member(role), "clinic.export"), role).toBe(false);
      expect(can(member(role, true), "clinic.export"), `${role} owner`).toBe(true);
    }
  });
});
