import { describe, expect, it } from "vitest";
import { type DocumentTimestampFacts, newStampHelps, retimestampDecision } from "./archive-timestamp-rule.js";
import { OID } from "./der.js";

const DAY = 24 * 60 * 60 * 1000;
const now = new Date("2030-06-01T12:00:00.000Z");
const inDays = (days: number) => new Date(now.getTime() + days * DAY);

const stamp = (overrides: Partial<DocumentTimestampFacts> = {}): DocumentTimestampFacts => ({
  index: 2,
  genTime: new Date("2027-01-01T00:00:00.000Z"),
  tsaCertificateDer: Buffer.from([1]),
  tokenCertificates: [],
  tsaNotAfter: inDays(400),
  tsaCommonName: "ACT Teste",
  algorithms: [OID.sha256, OID.sha256WithRSAEncryption, OID.sha256],
  ...overrides,
});

describe("archive re-time-stamp: which files are due", () => {
  it("an authority certificate expiring past the margin is not due, and says when it will be", () => {
    expect(retimestampDecision(stamp(), now, 365)).toEqual({ due: false, lookAgainAt: inDays(35) });
  });

  it("within the margin (or exactly at it) it is due for expiry", () => {
    expect(retimestampDecision(stamp({ tsaNotAfter: inDays(364) }), now, 365)).toEqual({
      due: true,
      reason: "vencimento",
    });
    expect(retimestampDecision(stamp({ tsaNotAfter: inDays(365) }), now, 365)).toEqual({
      due: true,
      reason: "vencimento",
    });
    // An already expired certificate too: renewing late still proves from now on.
    expect(retimestampDecision(stamp({ tsaNotAfter: inDays(-10) }), now, 365)).toMatchObject({ due: true });
  });

  it("the margin is the operator's: 30 days leaves a certificate of 100 days alone", () => {
    expect(retimestampDecision(stamp({ tsaNotAfter: inDays(100) }), now, 30)).toEqual({
      due: false,
      lookAgainAt: inDays(70),
    });
    expect(retimestampDecision(stamp({ tsaNotAfter: inDays(100) }), now, 365)).toMatchObject({ due: true });
  });

  it("SHA-1 anywhere in the stamp — imprint, digest or signature — is due at once, whatever the expiry", () => {
    for (const weak of [OID.sha1, OID.sha1WithRSAEncryption]) {
      expect(
        retimestampDecision(stamp({ tsaNotAfter: inDays(3000), algorithms: [OID.sha256, weak] }), now, 365),
      ).toEqual({ due: true, reason: "algoritmo" });
    }
  });

  it("a stamp whose authority certificate cannot be read is due; a file without a document time-stamp never is", () => {
    expect(retimestampDecision(stamp({ tsaNotAfter: null, tsaCertificateDer: undefined }), now, 365)).toEqual({
      due: true,
      reason: "vencimento",
    });
    expect(retimestampDecision(null, now, 365)).toEqual({ due: false, lookAgainAt: null });
  });
});

describe("archive re-time-stamp: whether a new stamp helps", () => {
  it("for an expiry, the new certificate must reach past the old one and lie outside the margin itself", () => {
    expect(newStampHelps("vencimento", inDays(100), inDays(3650), now, 365)).toBe(true);
    // Same authority certificate (or an older one): nothing gained.
    expect(newStampHelps("vencimento", inDays(100), inDays(100), now, 365)).toBe(false);
    // Later, but within the margin: the next run would stamp again, for ever.
    expect(newStampHelps("vencimento", inDays(100), inDays(300), now, 365)).toBe(false);
    expect(newStampHelps("vencimento", null, inDays(400), now, 365)).toBe(true);
  });

  it("against a weak algorithm any new (SHA-256) stamp helps", () => {
    expect(newStampHelps("algoritmo", inDays(3000), inDays(100), now, 365)).toBe(true);
  });
});
