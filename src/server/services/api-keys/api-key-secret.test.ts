import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { bearerTokenOf } from "../../plugins/auth.js";
import { apiKeyHashOf, newApiKeySecret, sameHash } from "./api-key-secret.js";

describe("API key secrets (decision 058)", () => {
  it("are 256 random bits after csk_live_, stored as SHA-256 with a visible prefix", () => {
    const a = newApiKeySecret();
    const b = newApiKeySecret();
    expect(a.secret).toMatch(/^csk_live_[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(a.secret.slice(9), "base64url")).toHaveLength(32);
    expect(a.secret).not.toBe(b.secret);
    expect(a.hash).toBe(createHash("sha256").update(a.secret).digest("hex"));
    expect(a.prefixo).toBe(a.secret.slice(0, 17));
    expect(apiKeyHashOf(a.secret)).toBe(a.hash);
  });

  it("refuse what cannot be a key before any lookup, and compare hashes whole", () => {
    const { secret, hash } = newApiKeySecret();
    for (const bad of [
      "",
      "csk_live_",
      `${secret}A`,
      secret.slice(0, -1),
      secret.replace("csk_live_", "csk_test_"),
      "x y",
    ])
      expect(apiKeyHashOf(bad), bad).toBeNull();
    expect(sameHash(hash, hash)).toBe(true);
    expect(sameHash(hash, newApiKeySecret().hash)).toBe(false);
    expect(sameHash(hash, hash.slice(0, 62))).toBe(false);
  });

  it("are read from Authorization: Bearer only", () => {
    expect(bearerTokenOf(undefined)).toBeNull();
    expect(bearerTokenOf("Basic dXNlcjpwYXNz")).toBeNull();
    expect(bearerTokenOf("Bearer abc")).toBe("abc");
    expect(bearerTokenOf("bearer   abc  ")).toBe("abc");
    expect(bearerTokenOf("Bearer")).toBe("");
    expect(bearerTokenOf("Bearerabc")).toBeNull();
  });
});
