import { describe, expect, it } from "vitest";
import * as br from "./index.js";

describe("shared/br index", () => {
  it("re-exports every public helper", () => {
    const fns = [
      "onlyDigits",
      "isRepeatedChar",
      "cpfCheckDigits",
      "formatCpf",
      "isValidCpf",
      "normalizeCpf",
      "cnpjCheckDigits",
      "formatCnpj",
      "isValidCnpj",
      "normalizeCnpj",
      "formatCep",
      "isValidCep",
      "normalizeCep",
      "formatPhone",
      "isValidPhone",
      "normalizePhone",
      "maskCep",
      "maskCnes",
      "maskCnpj",
      "maskCpf",
      "maskPhone",
    ] as const;
    for (const name of fns) expect(typeof br[name], name).toBe("function");
    expect(br.BRAZIL_DDDS.has("11")).toBe(true);
  });
});
