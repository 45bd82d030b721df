import { describe, expect, it } from "vitest";
import { isValidCnpj } from "./cnpj.js";
import { isValidCpf } from "./cpf.js";
import { maskCep, maskCnes, maskCnpj, maskCpf, maskPhone } from "./masks.js";

/**
 * Simulates typing `text` one character at a time into an input whose value
 * is re-masked after every keystroke; returns each intermediate value.
 */
function typeInto(mask: (raw: string) => string, text: string): string[] {
  const steps: string[] = [];
  let value = "";
  for (const ch of text) {
    value = mask(value + ch);
    steps.push(value);
  }
  return steps;
}

describe("maskCpf", () => {
  it("masks progressively while typing", () => {
    expect(typeInto(maskCpf, "52998224725")).toEqual([
      "5",
      "52",
      "529",
      "529.9",
      "529.98",
      "529.982",
      "529.982.2",
      "529.982.24",
      "529.982.247",
      "529.982.247-2",
      "529.982.247-25",
    ]);
  });

  it("typing 1234 gives 123.4", () => {
    expect(maskCpf("1234")).toBe("123.4");
  });

  it("keeps a pasted masked value as is", () => {
    expect(maskCpf("529.982.247-25")).toBe("529.982.247-25");
  });

  it("re-masks a pasted value with foreign punctuation", () => {
    expect(maskCpf(" 529 982 247 / 25 ")).toBe("529.982.247-25");
  });

  it("truncates extra digits (max 14 chars)", () => {
    expect(maskCpf("529982247251234")).toBe("529.982.247-25");
    expect(maskCpf("529.982.247-259")).toHaveLength(14);
    expect(typeInto(maskCpf, "5299822472599").at(-1)).toBe("529.982.247-25");
  });

  it("ignores letters", () => {
    expect(maskCpf("abc")).toBe("");
    expect(maskCpf("52a9b")).toBe("529");
    expect(typeInto(maskCpf, "529x")).toEqual(["5", "52", "529", "529"]);
  });

  it("handles deletion (backspace over a separator)", () => {
    expect(maskCpf("529.")).toBe("529");
    expect(maskCpf("529.982.247-")).toBe("529.982.247");
  });

  it("returns an empty string for empty input", () => {
    expect(maskCpf("")).toBe("");
  });

  it("produces values accepted by isValidCpf", () => {
    expect(isValidCpf(maskCpf("52998224725"))).toBe(true);
  });
});

describe("maskCnpj", () => {
  it("masks a numeric CNPJ progressively", () => {
    expect(typeInto(maskCnpj, "11222333000181")).toEqual([
      "1",
      "11",
      "11.2",
      "11.22",
      "11.222",
      "11.222.3",
      "11.222.33",
      "11.222.333",
      "11.222.333/0",
      "11.222.333/00",
      "11.222.333/000",
      "11.222.333/0001",
      "11.222.333/0001-8",
      "11.222.333/0001-81",
    ]);
  });

  it("accepts and uppercases letters in the first 12 positions", () => {
    expect(typeInto(maskCnpj, "12abc34501de35").at(-1)).toBe("12.ABC.345/01DE-35");
    expect(maskCnpj("12abc")).toBe("12.ABC");
  });

  it("ignores letters in the two check-digit positions", () => {
    expect(maskCnpj("12ABC34501DEX")).toBe("12.ABC.345/01DE");
    expect(maskCnpj("12ABC34501DE3X5")).toBe("12.ABC.345/01DE-35");
    expect(typeInto(maskCnpj, "12ABC34501DEAB35").at(-1)).toBe("12.ABC.345/01DE-35");
  });

  it("keeps a pasted masked value as is", () => {
    expect(maskCnpj("12.ABC.345/01DE-35")).toBe("12.ABC.345/01DE-35");
    expect(maskCnpj("11.222.333/0001-81")).toBe("11.222.333/0001-81");
  });

  it("truncates extra characters (max 18 chars)", () => {
    expect(maskCnpj("1122233300018199")).toBe("11.222.333/0001-81");
    expect(maskCnpj("12.ABC.345/01DE-35ZZ9")).toHaveLength(18);
  });

  it("ignores punctuation, symbols and non A–Z letters", () => {
    expect(maskCnpj("1_2*Ç")).toBe("12");
    expect(maskCnpj("")).toBe("");
  });

  it("produces values accepted by isValidCnpj", () => {
    expect(isValidCnpj(maskCnpj("12abc34501de35"))).toBe(true);
    expect(isValidCnpj(maskCnpj("11222333000181"))).toBe(true);
  });
});

describe("maskCep", () => {
  it("masks progressively", () => {
    expect(typeInto(maskCep, "01310100")).toEqual([
      "0",
      "01",
      "013",
      "0131",
      "01310",
      "01310-1",
      "01310-10",
      "01310-100",
    ]);
  });

  it("keeps a pasted masked value and truncates to 9 chars", () => {
    expect(maskCep("01310-100")).toBe("01310-100");
    expect(maskCep("013101009999")).toBe("01310-100");
  });

  it("ignores letters and handles backspace over the dash", () => {
    expect(maskCep("01a310")).toBe("01310");
    expect(maskCep("01310-")).toBe("01310");
  });
});

describe("maskPhone", () => {
  it("masks an 11-digit mobile progressively, switching shape at the 11th digit", () => {
    expect(typeInto(maskPhone, "11987654321")).toEqual([
      "(1",
      "(11",
      "(11) 9",
      "(11) 98",
      "(11) 987",
      "(11) 9876",
      "(11) 9876-5",
      "(11) 9876-54",
      "(11) 9876-543",
      "(11) 9876-5432",
      "(11) 98765-4321",
    ]);
  });

  it("masks a 10-digit landline as (00) 0000-0000", () => {
    expect(maskPhone("1134567890")).toBe("(11) 3456-7890");
  });

  it("keeps pasted masked values", () => {
    expect(maskPhone("(11) 98765-4321")).toBe("(11) 98765-4321");
    expect(maskPhone("(11) 3456-7890")).toBe("(11) 3456-7890");
  });

  it("goes back to the 10-digit shape when a digit is deleted", () => {
    expect(maskPhone("(11) 98765-432")).toBe("(11) 9876-5432");
  });

  it("truncates beyond 11 digits (max 15 chars)", () => {
    expect(maskPhone("119876543210")).toBe("(11) 98765-4321");
    expect(maskPhone("(11) 98765-43219")).toHaveLength(15);
  });

  it("drops +55 and the trunk zero when pasted", () => {
    expect(maskPhone("+55 11 98765-4321")).toBe("(11) 98765-4321");
    expect(maskPhone("(011) 3456-7890")).toBe("(11) 3456-7890");
  });

  it("ignores letters and empties cleanly", () => {
    expect(maskPhone("1a1b9")).toBe("(11) 9");
    expect(maskPhone("(")).toBe("");
    expect(maskPhone("")).toBe("");
  });
});

describe("maskCnes", () => {
  it("keeps up to 7 digits with no punctuation", () => {
    expect(typeInto(maskCnes, "2077485")).toEqual(["2", "20", "207", "2077", "20774", "207748", "2077485"]);
    expect(maskCnes("20774859")).toBe("2077485");
  });

  it("ignores letters and punctuation", () => {
    expect(maskCnes("20.774-85")).toBe("2077485");
    expect(maskCnes("abc")).toBe("");
  });
});
