import { describe, expect, it } from "vitest";
import { ROLES } from "../permissions.js";
import { noticeAudience, type NoticeViewer, seesNotice } from "./notice-audience.js";
import { NOTICE_KINDS } from "./notice-kinds.js";

const me = "3f2b8c1e-5d4a-4e6f-9a7b-1c2d3e4f5a6b";
const someone = "8e29db2f-b9dd-4c06-bb12-d5aee1efefcf";
const viewer = (role: string, isOwner = false): NoticeViewer => ({ role, isOwner, profileId: me });

describe("noticeAudience (decision 028)", () => {
  it("gives the owner everything", () => {
    expect(noticeAudience(viewer("profissional", true))).toEqual({
      documents: "all",
      feegowFailures: true,
      certificates: "all",
      operations: true,
    });
  });

  it("gives the administration every document, Feegow, the clinic's certificates and operations", () => {
    expect(noticeAudience(viewer("admin"))).toEqual({
      documents: "all",
      feegowFailures: true,
      certificates: "all",
      operations: true,
    });
  });

  it("gives a health professional their own documents and their own certificate only", () => {
    for (const role of ["profissional", "pro_saude"]) {
      expect(noticeAudience(viewer(role)), role).toEqual({
        documents: "own",
        feegowFailures: false,
        certificates: "own",
        operations: false,
      });
    }
  });

  it("gives the front desk, legal staff and auditors the clinic's documents and nothing else", () => {
    for (const role of ["atendente", "juridico", "auditor"]) {
      expect(noticeAudience(viewer(role)), role).toEqual({
        documents: "all",
        feegowFailures: false,
        certificates: "none",
        operations: false,
      });
    }
  });
});

describe("seesNotice", () => {
  it("shows a professional the documents they answer for, not a colleague's", () => {
    for (const kind of ["document.viewed", "document.expiring", "document.signed"] as const) {
      expect(seesNotice(viewer("profissional"), { kind, responsibleId: me })).toBe(true);
      expect(seesNotice(viewer("profissional"), { kind, responsibleId: someone })).toBe(false);
      expect(seesNotice(viewer("profissional"), { kind, responsibleId: null })).toBe(false);
      expect(seesNotice(viewer("atendente"), { kind, responsibleId: someone })).toBe(true);
      expect(seesNotice(viewer("profissional", true), { kind, responsibleId: someone })).toBe(true);
    }
  });

  it("shows Feegow failures only to who manages the integration", () => {
    expect(seesNotice(viewer("admin"), { kind: "feegow.failed" })).toBe(true);
    expect(seesNotice(viewer("atendente", true), { kind: "feegow.failed" })).toBe(true);
    for (const role of ["profissional", "atendente", "juridico", "auditor", "pro_saude"])
      expect(seesNotice(viewer(role), { kind: "feegow.failed" }), role).toBe(false);
  });

  it("shows the clinic's certificate to its managers and an e-CPF also to its holder", () => {
    for (const kind of ["certificate.expiring", "certificate.expired"] as const) {
      expect(seesNotice(viewer("admin"), { kind, certificateOwnerId: null })).toBe(true);
      expect(seesNotice(viewer("admin"), { kind, certificateOwnerId: someone })).toBe(true);
      expect(seesNotice(viewer("profissional"), { kind, certificateOwnerId: me })).toBe(true);
      expect(seesNotice(viewer("profissional"), { kind, certificateOwnerId: someone })).toBe(false);
      expect(seesNotice(viewer("profissional"), { kind, certificateOwnerId: null })).toBe(false);
      expect(seesNotice(viewer("atendente"), { kind, certificateOwnerId: null })).toBe(false);
    }
  });

  it("shows failed e-mails and system notices to the owner and the administration only", () => {
    for (const kind of ["email.failed", "system"] as const) {
      expect(seesNotice(viewer("admin"), { kind })).toBe(true);
      expect(seesNotice(viewer("auditor", true), { kind })).toBe(true);
      for (const role of ["profissional", "atendente", "juridico", "auditor", "pro_saude"])
        expect(seesNotice(viewer(role), { kind }), role).toBe(false);
    }
  });

  it("tells only the responsible professional what waits for their signature, whatever their role (decision 050)", () => {
    for (const role of ROLES) {
      expect(seesNotice(viewer(role), { kind: "professional.awaiting", responsibleId: me }), role).toBe(true);
      expect(seesNotice(viewer(role, true), { kind: "professional.awaiting", responsibleId: someone }), role).toBe(
        false,
      );
    }
  });

  it("answers for every role and kind without throwing, and the owner sees every kind but another's pending signatures", () => {
    for (const role of ROLES)
      for (const kind of NOTICE_KINDS)
        expect(typeof seesNotice(viewer(role), { kind, responsibleId: me, certificateOwnerId: me })).toBe("boolean");
    for (const kind of NOTICE_KINDS.filter((k) => k !== "professional.awaiting"))
      expect(seesNotice(viewer("atendente", true), { kind, responsibleId: someone, certificateOwnerId: someone })).toBe(
        true,
      );
  });
});
