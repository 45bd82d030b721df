import { describe, expect, it } from "vitest";
import { cnpjCheckDigits, formatCnpj, isValidCnpj, normalizeCnpj } from "./cnpj.js";

/**
 * Independent reference implementation (test oracle) written straight from
 * IN RFB 2.229/2024: value = ASCII code − 48, weights 2..9 cycling from the
 * right, DV = 0 when the remainder is < 2, else 11 − remainder.
 */
function referenceCnpjDv(base12: string): string {
  const dv = (chars: string): number => {
    let sum = 0;
    let weight = 2;
    for (let i = chars.length - 1; i >= 0; i--) {
      sum += (chars.charCodeAt(i) - 48) * weight;
      weight = weight === 9 ? 2 : weight + 1;
    }
    const r = sum % 11;
    return r < 2 ? 0 : 11 - r;
  };
  const d1 = dv(base12);
  const d2 = dv(base12 + String(d1));
  return `${d1}${d2}`;
}

function rng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ALNUM = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";
function randomBase(next: () => number, alphabet: string): string {
  let s = "";
  for (let i = 0; i < 12; i++) s += alphabet[Math.floor(next() * alphabet.length)];
  return s;
}

/** Published / well-known valid numeric CNPJs. */
const KNOWN_NUMERIC = [
  "11.222.333/0001-81", // classic textbook example
  "00.000.000/0001-91", // Banco do Brasil S.A. (matriz)
  "33.000.167/0001-01", // Petróleo Brasileiro S.A. – Petrobras
  "60.701.190/0001-04", // Itaú Unibanco S.A.
  "47.960.950/0001-21", // Magazine Luiza S.A.
];

describe("isValidCnpj – numeric", () => {
  it.each(KNOWN_NUMERIC)("accepts the known valid CNPJ %s (masked and unmasked)", (cnpj) => {
    expect(isValidCnpj(cnpj)).toBe(true);
    expect(isValidCnpj(cnpj.replace(/\D/g, ""))).toBe(true);
  });

  it("the oracle agrees with the hard-coded examples", () => {
    for (const cnpj of KNOWN_NUMERIC) {
      const v = cnpj.replace(/\D/g, "");
      expect(referenceCnpjDv(v.slice(0, 12))).toBe(v.slice(12));
    }
  });

  it("rejects wrong check digits", () => {
    expect(isValidCnpj("11.222.333/0001-82")).toBe(false);
    expect(isValidCnpj("11.222.333/0001-71")).toBe(false);
    expect(isValidCnpj("11.222.333/0002-81")).toBe(false);
  });

  it("rejects the wrong length", () => {
    expect(isValidCnpj("")).toBe(false);
    expect(isValidCnpj("1122233300018")).toBe(false);
    expect(isValidCnpj("112223330001810")).toBe(false);
  });

  it.each(["00.000.000/0000-00", "11.111.111/1111-11", "99999999999999"])(
    "rejects the repeated-character sequence %s",
    (cnpj) => {
      expect(isValidCnpj(cnpj)).toBe(false);
    },
  );

  it("rejects 000000000000 + its computed check digits (passes mod 11 but is a sequence)", () => {
    expect(referenceCnpjDv("000000000000")).toBe("00");
    expect(isValidCnpj("00000000000000")).toBe(false);
  });

  it("rejects unexpected characters", () => {
    expect(isValidCnpj("11.222.333/0001-8l")).toBe(false);
    expect(isValidCnpj("11_222_333_0001_81")).toBe(false);
    expect(isValidCnpj("11.222.333/0001-81!")).toBe(false);
  });

  it("returns false for non-string input coming from untyped JS", () => {
    expect(isValidCnpj(null as unknown as string)).toBe(false);
    expect(isValidCnpj(11222333000181 as unknown as string)).toBe(false);
  });

  it("agrees with the oracle on 300 generated numeric CNPJs", () => {
    const next = rng(7);
    for (let i = 0; i < 300; i++) {
      const base = randomBase(next, "0123456789");
      const dv = referenceCnpjDv(base);
      expect(isValidCnpj(base + dv), base + dv).toBe(true);
      const bad = `${(Number(dv[0]) + 1) % 10}${dv[1]}`;
      expect(isValidCnpj(base + bad), base + bad).toBe(false);
    }
  });
});

describe("isValidCnpj – alphanumeric (IN RFB 2.229/2024)", () => {
  it("accepts Receita Federal's published example 12.ABC.345/01DE-35", () => {
    expect(isValidCnpj("12.ABC.345/01DE-35")).toBe(true);
    expect(isValidCnpj("12ABC34501DE35")).toBe(true);
  });

  it("the oracle reproduces Receita's example check digits (35)", () => {
    expect(referenceCnpjDv("12ABC34501DE")).toBe("35");
  });

  it("is case-insensitive", () => {
    expect(isValidCnpj("12.abc.345/01de-35")).toBe(true);
    expect(isValidCnpj("12aBc34501dE35")).toBe(true);
  });

  it("rejects wrong check digits on an alphanumeric CNPJ", () => {
    expect(isValidCnpj("12.ABC.345/01DE-36")).toBe(false);
    expect(isValidCnpj("12.ABC.345/01DE-25")).toBe(false);
  });

  it("rejects a changed letter", () => {
    expect(isValidCnpj("12.ABD.345/01DE-35")).toBe(false);
    expect(isValidCnpj("12.ABC.345/01DF-35")).toBe(false);
  });

  it("rejects letters in the check-digit positions", () => {
    expect(isValidCnpj("12.ABC.345/01DE-3A")).toBe(false);
    expect(isValidCnpj("12.ABC.345/01DE-AB")).toBe(false);
  });

  it("rejects accented or non A–Z letters", () => {
    expect(isValidCnpj("12.ÁBC.345/01DE-35")).toBe(false);
    expect(isValidCnpj("12.ABÇ.345/01DE-35")).toBe(false);
  });

  it("rejects a base made of one repeated letter, even with correct check digits", () => {
    const base = "AAAAAAAAAAAA";
    expect(isValidCnpj(base + referenceCnpjDv(base))).toBe(false);
  });

  it("gives letters the value ASCII − 48 (A=17 … Z=42), not A=10 / Z=35", () => {
    // Worked by hand for base "ZZ0000000001" with Z = 42:
    //   DV1: 42·5 + 42·4 + 1·2 = 380; 380 mod 11 = 6 → 11 − 6 = 5
    //   DV2: 42·6 + 42·5 + 1·3 + 5·2 = 475; 475 mod 11 = 2 → 11 − 2 = 9
    // (With Z = 35 DV1 would be 2, so "…59" only passes with the official values.)
    expect(cnpjCheckDigits("ZZ0000000001")).toBe("59");
    expect(isValidCnpj("ZZ.000.000/0001-59")).toBe(true);
    expect(isValidCnpj("ZZ.000.000/0001-29")).toBe(false);
  });

  it("agrees with the oracle on 500 generated alphanumeric CNPJs", () => {
    const next = rng(2229);
    for (let i = 0; i < 500; i++) {
      const base = randomBase(next, ALNUM);
      const dv = referenceCnpjDv(base);
      expect(isValidCnpj(base + dv), base + dv).toBe(true);
      expect(isValidCnpj(formatCnpj(base + dv).toLowerCase())).toBe(true);
      const bad = `${dv[0]}${(Number(dv[1]) + 1 + Math.floor(next() * 9)) % 10}`;
      expect(isValidCnpj(base + bad), base + bad).toBe(false);
    }
  });
});

describe("cnpjCheckDigits", () => {
  it("computes check digits for numeric and alphanumeric bases", () => {
    expect(cnpjCheckDigits("112223330001")).toBe("81");
    expect(cnpjCheckDigits("12ABC34501DE")).toBe("35");
    expect(cnpjCheckDigits("12abc34501de")).toBe("35");
  });

  it("throws on a malformed base", () => {
    expect(() => cnpjCheckDigits("11222333000")).toThrow();
    expect(() => cnpjCheckDigits("11.222.333/0001")).toThrow();
  });
});

describe("normalizeCnpj", () => {
  it("uppercases and strips '.', '/', '-' and spaces", () => {
    expect(normalizeCnpj("12.abc.345/01de-35")).toBe("12ABC34501DE35");
    expect(normalizeCnpj(" 11 222 333 / 0001 - 81 ")).toBe("11222333000181");
  });

  it("keeps other characters so validation can reject them", () => {
    expect(normalizeCnpj("11_222")).toBe("11_222");
  });
});

describe("formatCnpj", () => {
  it("formats numeric CNPJs", () => {
    expect(formatCnpj("11222333000181")).toBe("11.222.333/0001-81");
  });

  it("formats alphanumeric CNPJs, keeping (uppercased) letters", () => {
    expect(formatCnpj("12ABC34501DE35")).toBe("12.ABC.345/01DE-35");
    expect(formatCnpj("12abc34501de35")).toBe("12.ABC.345/01DE-35");
  });

  it("is idempotent", () => {
    expect(formatCnpj("12.ABC.345/01DE-35")).toBe("12.ABC.345/01DE-35");
  });

  it("returns the input unchanged when it is not 14 alphanumerics", () => {
    expect(formatCnpj("1122233300018")).toBe("1122233300018");
    expect(formatCnpj("")).toBe("");
    expect(formatCnpj("11_222_333_0001_81")).toBe("11_222_333_0001_81");
  });
});
