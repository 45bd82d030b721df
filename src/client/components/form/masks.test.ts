import { IMask } from "react-imask";
import { describe, expect, it } from "vitest";
import { parseReais } from "@shared/br/money";
import { maskCep, maskCnpj, maskCpf, maskPhone } from "@shared/br/masks";
import { CEP_MASK, CNPJ_MASK, CPF_MASK, type MaskOptions, PHONE_MASK, REAIS_MASK } from "./masks";

/** Types `text` one character at a time, as a person would; `commit` is leaving the field. */
function typed(options: MaskOptions, text: string, commit = false): string {
  const masked = IMask.createMask(options);
  for (const ch of text) masked.append(ch, { input: true, raw: true });
  if (commit) masked.doCommit();
  return masked.value;
}

/** Writes the whole value at once (a paste, a form reset). */
function pasted(options: MaskOptions, text: string): string {
  const masked = IMask.createMask(options);
  masked.value = text;
  return masked.value;
}

describe("imask options shape the text the schemas read", () => {
  it.each(["5", "529", "5299", "529982", "5299822", "529982247", "5299822472", "52998224725", "52998224725999"])(
    "CPF typed %s looks like maskCpf",
    (digits) => expect(typed(CPF_MASK, digits)).toBe(maskCpf(digits)),
  );

  it("CPF refuses letters and takes a masked paste", () => {
    expect(typed(CPF_MASK, "52a9")).toBe("529");
    expect(pasted(CPF_MASK, "529.982.247-25")).toBe("529.982.247-25");
  });

  it.each(["0131", "01310100", "013101009"])("CEP typed %s looks like maskCep", (digits) =>
    expect(typed(CEP_MASK, digits)).toBe(maskCep(digits)),
  );

  it.each(["12ABC34501DE35", "11222333000181", "12abc34501de35"])("CNPJ typed %s looks like maskCnpj", (value) =>
    expect(typed(CNPJ_MASK, value)).toBe(maskCnpj(value)),
  );

  it.each(["1", "11", "113456", "1134567890", "11987654321"])("phone typed %s looks like maskPhone", (digits) =>
    expect(typed(PHONE_MASK, digits)).toBe(maskPhone(digits)),
  );

  it("phone paste drops the country code and trunk zero", () => {
    expect(pasted(PHONE_MASK, "+55 11 98765-4321")).toBe("(11) 98765-4321");
    expect(pasted(PHONE_MASK, "(011) 3456-7890")).toBe("(11) 3456-7890");
    expect(pasted(PHONE_MASK, "(11) 3456-7890")).toBe("(11) 3456-7890");
  });
});

describe("REAIS_MASK", () => {
  it("groups thousands while typing and completes the centavos on leaving the field", () => {
    expect(typed(REAIS_MASK, "1250")).toBe("R$ 1.250");
    expect(typed(REAIS_MASK, "1250", true)).toBe("R$ 1.250,00");
    expect(typed(REAIS_MASK, "1250,5", true)).toBe("R$ 1.250,50");
    expect(typed(REAIS_MASK, "1.250,00", true)).toBe("R$ 1.250,00");
  });

  it("refuses what is not an amount in reais", () => {
    expect(typed(REAIS_MASK, "-3abc", true)).toBe("R$ 3,00");
    expect(typed(REAIS_MASK, "12,345", true)).toBe("R$ 12,34");
  });

  it("reads back stored amounts and what parseReais accepts", () => {
    expect(pasted(REAIS_MASK, "R$ 4.500,00")).toBe("R$ 4.500,00");
    expect(pasted(REAIS_MASK, "1.200,00")).toBe("R$ 1.200,00");
    const value = typed(REAIS_MASK, "12500", true);
    expect(parseReais(value)).toEqual({ ok: true, centavos: 1_250_000 });
  });
});
