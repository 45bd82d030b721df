import { describe, expect, it } from "vitest";
import { BRAZIL_DDDS, formatPhone, isValidPhone, normalizePhone } from "./phone.js";

describe("isValidPhone", () => {
  it("accepts 11-digit mobiles starting with 9", () => {
    expect(isValidPhone("(11) 98765-4321")).toBe(true);
    expect(isValidPhone("11987654321")).toBe(true);
    expect(isValidPhone("(99) 91234-5678")).toBe(true);
  });

  it("accepts 10-digit landlines starting with 2–5", () => {
    expect(isValidPhone("(11) 3456-7890")).toBe(true);
    expect(isValidPhone("(21) 2345-6789")).toBe(true);
    expect(isValidPhone("(51) 4003-1234")).toBe(true);
    expect(isValidPhone("6155556789")).toBe(true);
  });

  it("rejects an 11-digit number not starting with 9", () => {
    expect(isValidPhone("(11) 88765-4321")).toBe(false);
    expect(isValidPhone("(11) 38765-4321")).toBe(false);
  });

  it("rejects a 10-digit number outside the landline ranges (old 8-digit mobiles, 0–1)", () => {
    expect(isValidPhone("(11) 9876-5432")).toBe(false);
    expect(isValidPhone("(11) 6876-5432")).toBe(false);
    expect(isValidPhone("(11) 1234-5678")).toBe(false);
    expect(isValidPhone("(11) 0234-5678")).toBe(false);
  });

  it("rejects DDDs outside 11–99 and unassigned DDDs", () => {
    expect(isValidPhone("(10) 98765-4321")).toBe(false);
    expect(isValidPhone("(20) 98765-4321")).toBe(false);
    expect(isValidPhone("(23) 3456-7890")).toBe(false);
    expect(isValidPhone("(90) 98765-4321")).toBe(false);
  });

  it("rejects the wrong length", () => {
    expect(isValidPhone("")).toBe(false);
    expect(isValidPhone("98765-4321")).toBe(false);
    expect(isValidPhone("(11) 987654-3210")).toBe(false);
  });

  it("accepts the +55 country code and the trunk zero", () => {
    expect(isValidPhone("+55 11 98765-4321")).toBe(true);
    expect(isValidPhone("+55 (11) 3456-7890")).toBe(true);
    expect(isValidPhone("(011) 3456-7890")).toBe(true);
  });

  it("rejects other country codes and bare 12–13 digit strings", () => {
    expect(isValidPhone("+1 415 555 2671")).toBe(false);
    expect(isValidPhone("5511987654321")).toBe(false);
  });

  it("rejects letters", () => {
    expect(isValidPhone("(11) 98765-432l")).toBe(false);
    expect(isValidPhone("tel 11987654321")).toBe(false);
  });

  it("returns false for non-string input", () => {
    expect(isValidPhone(11987654321 as unknown as string)).toBe(false);
  });
});

describe("BRAZIL_DDDS", () => {
  it("has the 67 assigned area codes, all within 11–99 and none ending in 0", () => {
    expect(BRAZIL_DDDS.size).toBe(67);
    for (const ddd of BRAZIL_DDDS) {
      expect(ddd).toMatch(/^[1-9][1-9]$/);
    }
  });

  it("includes every capital's DDD", () => {
    for (const ddd of [
      "11",
      "21",
      "27",
      "31",
      "41",
      "48",
      "51",
      "61",
      "62",
      "63",
      "65",
      "67",
      "68",
      "69",
      "71",
      "79",
      "81",
      "82",
      "83",
      "84",
      "85",
      "86",
      "91",
      "92",
      "95",
      "96",
      "98",
    ]) {
      expect(BRAZIL_DDDS.has(ddd), ddd).toBe(true);
    }
  });
});

describe("normalizePhone", () => {
  it("returns digits only", () => {
    expect(normalizePhone("(11) 98765-4321")).toBe("11987654321");
    expect(normalizePhone("")).toBe("");
  });

  it("drops an explicit +55 and the trunk zero", () => {
    expect(normalizePhone("+55 11 98765-4321")).toBe("11987654321");
    expect(normalizePhone("+55 (011) 98765-4321")).toBe("11987654321");
    expect(normalizePhone("(011) 3456-7890")).toBe("1134567890");
  });

  it("does not drop 55 without '+' (55 is also a DDD)", () => {
    expect(normalizePhone("55 99876-5432")).toBe("55998765432");
  });
});

describe("formatPhone", () => {
  it("formats 10 and 11 digits", () => {
    expect(formatPhone("1134567890")).toBe("(11) 3456-7890");
    expect(formatPhone("11987654321")).toBe("(11) 98765-4321");
    expect(formatPhone("+55 11 98765 4321")).toBe("(11) 98765-4321");
  });

  it("is idempotent", () => {
    expect(formatPhone("(11) 98765-4321")).toBe("(11) 98765-4321");
  });

  it("returns the input unchanged for other lengths", () => {
    expect(formatPhone("98765-4321")).toBe("98765-4321");
    expect(formatPhone("")).toBe("");
  });
});
