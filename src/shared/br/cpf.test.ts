import { describe, expect, it } from "vitest";
import { cpfCheckDigits, formatCpf, isValidCpf, normalizeCpf } from "./cpf.js";

/** Independent reference implementation of the CPF check digits (test oracle). */
function referenceCpfDv(base9: string): string {
  const nums = base9.split("").map(Number);
  let s1 = 0;
  for (let i = 0; i < 9; i++) s1 += nums[i]! * (10 - i);
  const d1 = s1 % 11 < 2 ? 0 : 11 - (s1 % 11);
  let s2 = 0;
  for (let i = 0; i < 9; i++) s2 += nums[i]! * (11 - i);
  s2 += d1 * 2;
  const d2 = s2 % 11 < 2 ? 0 : 11 - (s2 % 11);
  return `${d1}${d2}`;
}

/** Deterministic PRNG (mulberry32) so generated cases are reproducible. */
function rng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function randomDigits(next: () => number, n: number): string {
  let s = "";
  for (let i = 0; i < n; i++) s += String(Math.floor(next() * 10));
  return s;
}

const KNOWN_VALID = ["529.982.247-25", "123.456.789-09", "111.444.777-35", "000.000.001-91"];

describe("isValidCpf", () => {
  it.each(KNOWN_VALID)("accepts the known valid CPF %s (masked and unmasked)", (cpf) => {
    expect(isValidCpf(cpf)).toBe(true);
    expect(isValidCpf(cpf.replace(/\D/g, ""))).toBe(true);
  });

  it("accepts surrounding and inner whitespace", () => {
    expect(isValidCpf("  529.982.247-25 ")).toBe(true);
    expect(isValidCpf("529 982 247 25")).toBe(true);
  });

  it("rejects a wrong first or second check digit", () => {
    expect(isValidCpf("529.982.247-35")).toBe(false);
    expect(isValidCpf("529.982.247-26")).toBe(false);
    expect(isValidCpf("123.456.789-00")).toBe(false);
  });

  it("rejects a changed body digit", () => {
    expect(isValidCpf("529.982.248-25")).toBe(false);
  });

  it("rejects transposed digits", () => {
    expect(isValidCpf("259.982.247-25")).toBe(false);
  });

  it.each([
    "000.000.000-00",
    "111.111.111-11",
    "222.222.222-22",
    "333.333.333-33",
    "444.444.444-44",
    "555.555.555-55",
    "666.666.666-66",
    "777.777.777-77",
    "888.888.888-88",
    "999.999.999-99",
  ])("rejects the repeated-digit sequence %s (even though its check digits match)", (cpf) => {
    // Sanity: the sequence *does* pass the modulo-11 check, so the rejection is the special rule.
    const d = cpf.replace(/\D/g, "");
    expect(referenceCpfDv(d.slice(0, 9))).toBe(d.slice(9));
    expect(isValidCpf(cpf)).toBe(false);
  });

  it("rejects the wrong length", () => {
    expect(isValidCpf("")).toBe(false);
    expect(isValidCpf("5299822472")).toBe(false); // 10 digits
    expect(isValidCpf("529982247250")).toBe(false); // 12 digits
    expect(isValidCpf("0529982247251")).toBe(false);
  });

  it("rejects letters and foreign punctuation instead of silently ignoring them", () => {
    expect(isValidCpf("529.982.247-2a5")).toBe(false);
    expect(isValidCpf("CPF 529.982.247-25")).toBe(false);
    expect(isValidCpf("529/982/247-25")).toBe(false);
  });

  it("returns false for non-string input coming from untyped JS", () => {
    expect(isValidCpf(undefined as unknown as string)).toBe(false);
    expect(isValidCpf(52998224725 as unknown as string)).toBe(false);
  });

  it("agrees with the reference algorithm on 500 generated CPFs", () => {
    const next = rng(2024);
    for (let i = 0; i < 500; i++) {
      const base = randomDigits(next, 9);
      if (/^(\d)\1{8}$/.test(base)) continue;
      const dv = referenceCpfDv(base);
      expect(isValidCpf(base + dv), base + dv).toBe(true);
      expect(isValidCpf(formatCpf(base + dv))).toBe(true);
      // Every other second check digit must be rejected.
      const wrong = `${dv[0]}${(Number(dv[1]) + 1 + Math.floor(next() * 9)) % 10}`;
      expect(isValidCpf(base + wrong), base + wrong).toBe(false);
    }
  });
});

describe("cpfCheckDigits", () => {
  it("computes the check digits of a 9-digit base", () => {
    expect(cpfCheckDigits("529982247")).toBe("25");
    expect(cpfCheckDigits("123456789")).toBe("09");
    expect(cpfCheckDigits("111444777")).toBe("35");
  });

  it("throws on a malformed base", () => {
    expect(() => cpfCheckDigits("12345678")).toThrow();
    expect(() => cpfCheckDigits("123.456.789")).toThrow();
  });
});

describe("normalizeCpf", () => {
  it("returns digits only", () => {
    expect(normalizeCpf("529.982.247-25")).toBe("52998224725");
    expect(normalizeCpf(" 529 982 247 25 ")).toBe("52998224725");
    expect(normalizeCpf("")).toBe("");
  });
});

describe("formatCpf", () => {
  it("formats 11 digits as 000.000.000-00", () => {
    expect(formatCpf("52998224725")).toBe("529.982.247-25");
    expect(formatCpf("00000000191")).toBe("000.000.001-91");
  });

  it("is idempotent on an already formatted CPF", () => {
    expect(formatCpf("529.982.247-25")).toBe("529.982.247-25");
  });

  it("returns the input unchanged when it does not hold 11 digits", () => {
    expect(formatCpf("5299822472")).toBe("5299822472");
    expect(formatCpf("")).toBe("");
    expect(formatCpf("abc")).toBe("abc");
  });
});
