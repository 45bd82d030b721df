import type { FactoryOpts } from "imask";
import { normalizePhone } from "@shared/br/phone";

/** Options for one imask input (the second argument of `IMask(element, options)`). */
export type MaskOptions = FactoryOpts;

/**
 * The input masks as imask options (imask keeps the caret where the user edits). They shape the
 * same text as the pure functions in src/shared/br/masks.ts, which the schemas accept masked.
 */
export const CPF_MASK: MaskOptions = { mask: "000.000.000-00" };

export const CEP_MASK: MaskOptions = { mask: "00000-000" };

export const CNES_MASK: MaskOptions = { mask: "0000000" };

/** 00.000.000/0000-00: the first 12 positions take 0–9 and A–Z (alphanumeric CNPJ, uppercased). */
export const CNPJ_MASK: MaskOptions = {
  mask: "XX.XXX.XXX/XXXX-00",
  definitions: { X: /[0-9A-Z]/ },
  prepareChar: (ch: string) => ch.toUpperCase(),
};

/**
 * (00) 0000-0000 up to 10 digits, (00) 00000-0000 once the 11th is typed. A pasted "+55 11 …" or
 * "(011) …" loses the country code / trunk zero (see `normalizePhone`).
 */
export const PHONE_MASK: MaskOptions = {
  mask: [{ mask: "(00) 0000-0000" }, { mask: "(00) 00000-0000" }],
  prepare: (text: string) => (text.length > 1 ? normalizePhone(text) : text),
  dispatch: (appended, masked) => {
    const digits = (masked.value + appended).replace(/\D/g, "");
    return masked.compiledMasks[digits.length > 10 ? 1 : 0];
  },
};

/**
 * Reais as "R$ 1.250,00": dots group thousands (a typed dot is a grouping, not a decimal point),
 * a comma starts the centavos, and leaving the field completes ",00". `parseReais` reads it back.
 */
export const REAIS_MASK: MaskOptions = {
  mask: "R$ num",
  lazy: true,
  blocks: {
    num: {
      mask: Number,
      scale: 2,
      thousandsSeparator: ".",
      radix: ",",
      mapToRadix: [","],
      padFractionalZeros: true,
      normalizeZeros: true,
      min: 0,
      max: 20_000_000,
    },
  },
};
