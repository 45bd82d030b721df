import { describe, expect, it } from "vitest";
import {
  documentDeletion,
  formatRetentionDate,
  isRetained,
  patientAnonymization,
  RETENTION_MESSAGES,
  retainedUntil,
} from "./retention-rule.js";

const NOW = new Date("2026-11-26T12:00:00.000Z");
const yearsAgo = (years: number, extraMs = 0) => {
  const d = new Date(NOW.getTime());
  d.setUTCFullYear(d.getUTCFullYear() - years);
  return new Date(d.getTime() + extraMs);
};

describe("retainedUntil", () => {
  it("adds 20 calendar years to the signing instant", () => {
    expect(retainedUntil("2026-03-15T13:45:00.000Z").toISOString()).toBe("2046-03-15T13:45:00.000Z");
  });
  it("keeps 29 February when the year 20 years later is a leap year too", () => {
    expect(retainedUntil(new Date("2024-02-29T10:00:00.000Z")).toISOString()).toBe("2044-02-29T10:00:00.000Z");
  });
});

describe("isRetained", () => {
  it("keeps a document signed today and one signed 19 years and 364 days ago", () => {
    expect(isRetained({ status: "signed", signed_at: NOW }, NOW)).toBe(true);
    expect(isRetained({ status: "signed", signed_at: yearsAgo(20, 60_000) }, NOW)).toBe(true);
  });
  it("lets go of it once 20 years have passed", () => {
    expect(isRetained({ status: "signed", signed_at: yearsAgo(20) }, NOW)).toBe(false);
    expect(isRetained({ status: "signed", signed_at: yearsAgo(25) }, NOW)).toBe(false);
  });
  it("keeps a signed document whose signing time is unknown", () => {
    expect(isRetained({ status: "signed", signed_at: null }, NOW)).toBe(true);
    expect(isRetained({ status: "signed", signed_at: "não é data" }, NOW)).toBe(true);
  });
  it("never retains what was not signed", () => {
    for (const status of ["draft", "sent", "viewed", "cancelled", "expired"]) {
      expect(isRetained({ status, signed_at: null }, NOW)).toBe(false);
    }
  });
});

describe("documentDeletion", () => {
  it("allows drafts, cancelled and expired documents", () => {
    for (const status of ["draft", "cancelled", "expired"])
      expect(documentDeletion({ status, signed_at: null }, NOW)).toEqual({ allowed: true });
  });
  it("asks to cancel sent and viewed documents first", () => {
    for (const status of ["sent", "viewed"])
      expect(documentDeletion({ status, signed_at: null }, NOW)).toEqual({ allowed: false, reason: "pending" });
  });
  it("refuses a signed document until 20 years after signing, and says until when", () => {
    const signedAt = new Date("2025-06-01T15:00:00.000Z");
    expect(documentDeletion({ status: "signed", signed_at: signedAt }, NOW)).toEqual({
      allowed: false,
      reason: "retained",
      until: new Date("2045-06-01T15:00:00.000Z"),
    });
    expect(
      documentDeletion({ status: "signed", signed_at: signedAt.toISOString() }, new Date("2045-06-01T15:00:00.001Z")),
    ).toEqual({ allowed: true });
  });
  it("refuses with no end date when the signing time is unknown", () => {
    expect(documentDeletion({ status: "signed", signed_at: null }, NOW)).toEqual({
      allowed: false,
      reason: "retained",
      until: null,
    });
  });
  it("treats an unknown status as not deletable", () => {
    expect(documentDeletion({ status: "arquivado", signed_at: null }, NOW).allowed).toBe(false);
  });
});

describe("patientAnonymization", () => {
  it("allows a patient without documents, or with only unsigned ones (they go with it)", () => {
    expect(patientAnonymization([], NOW)).toEqual({ allowed: true, documentsToDelete: 0 });
    expect(
      patientAnonymization(
        [
          { status: "draft", signed_at: null },
          { status: "cancelled", signed_at: null },
          { status: "expired", signed_at: null },
        ],
        NOW,
      ),
    ).toEqual({ allowed: true, documentsToDelete: 3 });
  });
  it("refuses while any document is retained, naming the latest end of retention", () => {
    const verdict = patientAnonymization(
      [
        { status: "signed", signed_at: "2020-01-10T12:00:00.000Z" },
        { status: "draft", signed_at: null },
        { status: "signed", signed_at: "2024-05-02T12:00:00.000Z" },
      ],
      NOW,
    );
    expect(verdict).toEqual({ allowed: false, reason: "retained", until: new Date("2044-05-02T12:00:00.000Z") });
  });
  it("an unknown signing time keeps the refusal open-ended", () => {
    const verdict = patientAnonymization(
      [
        { status: "signed", signed_at: null },
        { status: "signed", signed_at: "2024-05-02T12:00:00.000Z" },
      ],
      NOW,
    );
    expect(verdict).toEqual({ allowed: false, reason: "retained", until: null });
  });
  it("asks to cancel documents waiting for a signature", () => {
    expect(
      patientAnonymization(
        [
          { status: "sent", signed_at: null },
          { status: "viewed", signed_at: null },
        ],
        NOW,
      ),
    ).toEqual({
      allowed: false,
      reason: "pending",
      count: 2,
    });
  });
  it("allows it once every signed document is past retention", () => {
    expect(patientAnonymization([{ status: "signed", signed_at: yearsAgo(21) }], NOW)).toEqual({
      allowed: true,
      documentsToDelete: 1,
    });
  });
});

describe("messages", () => {
  it("state the rule and its basis in Portuguese", () => {
    expect(RETENTION_MESSAGES.rule).toContain("Documentos assinados são guardados por 20 anos (Lei 13.787/2018)");
    expect(RETENTION_MESSAGES.documentRetained(new Date("2045-06-01T15:00:00.000Z"))).toContain("até 01/06/2045");
    expect(RETENTION_MESSAGES.anonymizeRetained(null)).toContain("dever legal de guardar por 20 anos");
    expect(RETENTION_MESSAGES.anonymizePending(1)).toBe(
      "Este paciente tem 1 documento aguardando assinatura. Cancele-os antes de anonimizar.",
    );
  });
  it("formats the day in São Paulo's calendar", () => {
    // 02:00 UTC on 1 June is still 31 May in São Paulo.
    expect(formatRetentionDate(new Date("2045-06-01T02:00:00.000Z"))).toBe("31/05/2045");
  });
});
