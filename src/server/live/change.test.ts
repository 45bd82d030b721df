import { describe, expect, it } from "vitest";
import { parseChange } from "./change.js";
import { hears } from "./event-audience.js";

const tenant = "3f2b8c1e-5d4a-4e6f-9a7b-1c2d3e4f5a6b";
const id = "8e29db2f-b9dd-4c06-bb12-d5aee1efefcf";

describe("parseChange", () => {
  it("reads a trigger's notification", () => {
    expect(parseChange(JSON.stringify({ tenant_id: tenant, kind: "document", id, status: "signed" }))).toEqual({
      tenantId: tenant,
      kind: "document",
      id,
      status: "signed",
    });
    expect(parseChange(JSON.stringify({ tenant_id: tenant, kind: "session", id }))).toEqual({
      tenantId: tenant,
      kind: "session",
      id,
    });
    expect(parseChange(JSON.stringify({ tenant_id: tenant, kind: "notice", id }))).toEqual({
      tenantId: tenant,
      kind: "notice",
      id,
    });
  });

  it("ignores anything else", () => {
    for (const payload of [
      "",
      "nope",
      "{}",
      JSON.stringify({ tenant_id: tenant, kind: "secret", id }),
      JSON.stringify({ tenant_id: "x", kind: "document", id }),
    ]) {
      expect(parseChange(payload)).toBeNull();
    }
  });
});

describe("hears", () => {
  const attendant = { profileId: id, tenantId: tenant, role: "atendente" as const, isOwner: false };
  const owner = {
    ...attendant,
    profileId: "0b8f7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d",
    role: "profissional" as const,
    isOwner: true,
  };
  it("sends documents and patients to the clinic's staff", () => {
    expect(hears(attendant, "document", "any")).toBe(true);
    expect(hears(attendant, "patient", "any")).toBe(true);
  });
  it("sends notice changes to everyone in the clinic (the API then applies each one's audience)", () => {
    expect(hears(attendant, "notice", "any")).toBe(true);
    expect(hears(owner, "notice", "any")).toBe(true);
  });
  it("sends a profile change to the owner and to that user only", () => {
    expect(hears(owner, "profile", "someone")).toBe(true);
    expect(hears(attendant, "profile", id)).toBe(true);
    expect(hears(attendant, "profile", "someone")).toBe(false);
  });
});
