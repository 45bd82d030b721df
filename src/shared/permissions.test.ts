import { describe, expect, it } from "vitest";
import { can, profileCan, ROLES } from "./permissions.js";

const member = (role: string, isOwner = false) => ({ role, isOwner });

describe("permissions (spec part 1 §6, part 2 §6)", () => {
  it("lets everyone read patients, procedures and content", () => {
    for (const role of ROLES) {
      for (const action of ["patients.read", "procedures.read", "content.read"] as const) {
        expect(can(member(role), action), `${role} ${action}`).toBe(true);
      }
    }
  });

  it("keeps auditors and legal staff read-only; the care team and front desk write", () => {
    for (const action of ["patients.write", "procedures.write", "content.write"] as const) {
      expect(can(member("auditor"), action)).toBe(false);
      expect(can(member("juridico"), action)).toBe(false);
      for (const role of ["profissional", "admin", "atendente", "pro_saude"])
        expect(can(member(role), action)).toBe(true);
      expect(can(member("auditor", true), action)).toBe(true);
    }
  });

  it("lets only owners and admins delete patients", () => {
    expect(can(member("admin"), "patients.delete")).toBe(true);
    expect(can(member("profissional", true), "patients.delete")).toBe(true);
    expect(can(member("profissional"), "patients.delete")).toBe(false);
    expect(can(member("atendente"), "patients.delete")).toBe(false);
  });

  it("lets only a profissional or the owner make a procedure private (receptionists always share)", () => {
    expect(can(member("profissional"), "procedures.makePrivate")).toBe(true);
    expect(can(member("admin", true), "procedures.makePrivate")).toBe(true);
    expect(can(member("atendente"), "procedures.makePrivate")).toBe(false);
    expect(can(member("admin"), "procedures.makePrivate")).toBe(false);
  });

  it("lets only owners manage users, and owners or admins choose the responsible physician", () => {
    expect(can(member("admin"), "users.manage")).toBe(false);
    expect(can(member("profissional", true), "users.manage")).toBe(true);
    expect(can(member("admin"), "documents.chooseResponsiblePhysician")).toBe(true);
    expect(can(member("profissional"), "documents.chooseResponsiblePhysician")).toBe(false);
  });

  it("lets owners and admins manage the clinic's certificates, and care roles their own", () => {
    expect(can(member("admin"), "certificates.manageClinic")).toBe(true);
    expect(can(member("profissional", true), "certificates.manageClinic")).toBe(true);
    expect(can(member("profissional"), "certificates.manageClinic")).toBe(false);
    expect(can(member("pro_saude"), "certificates.manageOwn")).toBe(true);
    expect(can(member("admin"), "certificates.manageOwn")).toBe(false);
    for (const role of ["atendente", "juridico", "auditor"]) {
      expect(can(member(role), "certificates.manageClinic")).toBe(false);
      expect(can(member(role), "certificates.manageOwn")).toBe(false);
      expect(can(member(role), "certificates.open")).toBe(false);
    }
    // The menu entry: exactly who may manage either kind.
    for (const role of ["admin", "profissional", "pro_saude"]) {
      const subject = member(role);
      expect(can(subject, "certificates.open")).toBe(
        can(subject, "certificates.manageClinic") || can(subject, "certificates.manageOwn"),
      );
      expect(can(subject, "certificates.open")).toBe(true);
    }
  });

  it("answers for an API profile, and no for nobody", () => {
    expect(profileCan({ role: "auditor", is_proprietario: false }, "patients.write")).toBe(false);
    expect(profileCan({ role: "auditor", is_proprietario: true }, "patients.write")).toBe(true);
    expect(profileCan(undefined, "patients.read")).toBe(false);
  });

  it("lets owners and administrators manage the clinic's settings, nobody else", () => {
    expect(can(member("profissional", true), "settings.manage")).toBe(true);
    expect(can(member("admin"), "settings.manage")).toBe(true);
    for (const role of ["profissional", "atendente", "juridico", "auditor", "pro_saude"])
      expect(can(member(role), "settings.manage"), role).toBe(false);
  });

  it("lets everyone open Avisos, and only owners and administrators hear of the clinic's operation", () => {
    for (const role of ROLES) expect(can(member(role), "notices.read"), role).toBe(true);
    expect(can(member("admin"), "notices.operations")).toBe(true);
    expect(can(member("atendente", true), "notices.operations")).toBe(true);
    for (const role of ["profissional", "atendente", "juridico", "auditor", "pro_saude"])
      expect(can(member(role), "notices.operations"), role).toBe(false);
  });
});
