import { describe, expect, it } from "vitest";
import { ACTIONS, can } from "../permissions.js";
import { API_KEY_ROLES, apiKeyInputSchema, roleWithinCreator } from "./api-keys.js";

describe("roleWithinCreator (decision 058)", () => {
  it("lets the owner hand out any role of the table, never the platform's", () => {
    for (const role of API_KEY_ROLES)
      expect(roleWithinCreator({ role: "profissional", isOwner: true }, role)).toBe(true);
    expect(API_KEY_ROLES).not.toContain("saas_admin");
  });

  it("is a subset of permissions, not a rank: an administrator cannot mint a professional's key", () => {
    const admin = { role: "admin", isOwner: false };
    expect(roleWithinCreator(admin, "profissional")).toBe(false);
    expect(roleWithinCreator(admin, "pro_saude")).toBe(false);
    for (const role of ["admin", "atendente", "juridico", "auditor"]) expect(roleWithinCreator(admin, role)).toBe(true);
    // The front desk cannot hand out an administrator's deletes.
    expect(roleWithinCreator({ role: "atendente", isOwner: false }, "admin")).toBe(false);
  });

  it("agrees with the table for every pair of roles", () => {
    for (const creator of API_KEY_ROLES) {
      for (const role of API_KEY_ROLES) {
        const expected = ACTIONS.every(
          (a) => !can({ role, isOwner: false }, a) || can({ role: creator, isOwner: false }, a),
        );
        expect(roleWithinCreator({ role: creator, isOwner: false }, role), `${creator} → ${role}`).toBe(expected);
      }
    }
    expect(ACTIONS.length).toBeGreaterThan(20);
  });
});

describe("apiKeyInputSchema", () => {
  it("trims the name, takes an optional real calendar day, refuses unknown roles", () => {
    expect(apiKeyInputSchema.parse({ nome: "  ERP  ", role: "auditor" })).toEqual({ nome: "ERP", role: "auditor" });
    expect(apiKeyInputSchema.parse({ nome: "ERP", role: "auditor", expira_em: null }).expira_em).toBeNull();
    expect(apiKeyInputSchema.safeParse({ nome: "ERP", role: "auditor", expira_em: "2030-02-29" }).success).toBe(false);
    expect(apiKeyInputSchema.safeParse({ nome: "ERP", role: "saas_admin" }).success).toBe(false);
    expect(apiKeyInputSchema.safeParse({ nome: " ", role: "auditor" }).success).toBe(false);
  });
});
