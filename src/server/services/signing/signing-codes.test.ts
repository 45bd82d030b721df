import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { OTP_MAX_ATTEMPTS } from "../../../shared/schemas/signing.js";
import { createSecretBox } from "../../lib/secret-box.js";
import {
  codeVerdict,
  hashProfessionalCode,
  hashSigningCode,
  newSigningCode,
  professionalCodeMatches,
  signingCodeKey,
  signingCodeMatches,
} from "./signing-codes.js";

const key = signingCodeKey(createSecretBox(Buffer.alloc(32, 3)));
const otherKey = signingCodeKey(createSecretBox(Buffer.alloc(32, 4)));
const doc = "0b6a3c2e-5f55-4a8e-9d55-7a3a1f3e0c11";
const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

describe("signing codes at rest", () => {
  it("are six digits, leading zeros kept", () => {
    for (let i = 0; i < 50; i++) expect(newSigningCode()).toMatch(/^\d{6}$/);
  });

  it("are kept as an HMAC under a key of their own: trying the million codes without the key finds nothing", () => {
    const stored = hashSigningCode(key, doc, "042137");
    expect(stored).toMatch(/^h1:[0-9a-f]{64}$/);
    expect(stored).not.toContain(sha256(`${doc}:042137`));
    // What a reader of the database would try: the plain hash of every code. None matches.
    const hex = stored.slice(3);
    for (const code of ["042137", "000000", "999999"]) expect(sha256(`${doc}:${code}`)).not.toBe(hex);
    expect(signingCodeMatches(key, doc, "042137", stored)).toBe(true);
    expect(signingCodeMatches(key, doc, "042138", stored)).toBe(false);
    expect(signingCodeMatches(otherKey, doc, "042137", stored)).toBe(false);
    expect(signingCodeMatches(key, "1b6a3c2e-5f55-4a8e-9d55-7a3a1f3e0c11", "042137", stored)).toBe(false);
  });

  it("still match a code stored before (plain SHA-256, valid ten minutes at most)", () => {
    expect(signingCodeMatches(key, doc, "042137", sha256(`${doc}:042137`))).toBe(true);
    expect(signingCodeMatches(key, doc, "042138", sha256(`${doc}:042137`))).toBe(false);
  });

  it("keep the professional's code apart from the signers' codes", () => {
    const stored = hashProfessionalCode(key, doc, "p1", "042137");
    expect(professionalCodeMatches({ key, contratoId: doc, profileId: "p1", code: "042137", storedHash: stored })).toBe(
      true,
    );
    expect(professionalCodeMatches({ key, contratoId: doc, profileId: "p2", code: "042137", storedHash: stored })).toBe(
      false,
    );
    expect(signingCodeMatches(key, doc, "042137", stored)).toBe(false);
  });

  it("are dead once expired or used up, else right or wrong", () => {
    const now = new Date("2026-12-01T12:00:00Z");
    const live = {
      expires_at: new Date("2026-12-01T12:05:00Z"),
      attempts: 0,
      code_hash: hashSigningCode(key, doc, "042137"),
    };
    const typed = (code: string) => (stored: string) => signingCodeMatches(key, doc, code, stored);
    expect(codeVerdict(live, now, typed("042137"))).toBe("right");
    expect(codeVerdict(live, now, typed("042138"))).toBe("wrong");
    expect(codeVerdict(undefined, now, typed("042137"))).toBe("dead");
    expect(codeVerdict({ ...live, expires_at: now }, now, typed("042137"))).toBe("dead");
    expect(codeVerdict({ ...live, attempts: OTP_MAX_ATTEMPTS }, now, typed("042137"))).toBe("dead");
    expect(codeVerdict({ ...live, attempts: OTP_MAX_ATTEMPTS - 1 }, now, typed("042137"))).toBe("right");
  });
});
