import { describe, expect, it } from "vitest";
import { hasIcpBrasilPolicy, icpBrasilHolder, parsePersonData } from "./icp-brasil-identifiers.js";

describe("parsePersonData (2.16.76.1.3.1 / 2.16.76.1.3.4)", () => {
  it("splits birth date, CPF, NIS, RG and issuer/UF", () => {
    const value = `01021980${"52998224725"}${"12345678901"}${"MG1234567".padStart(15, "0")}SSPMG `;
    expect(parsePersonData(value)).toEqual({
      birthDate: "1980-02-01",
      cpf: "52998224725",
      nis: "12345678901",
      rg: "000000MG1234567",
      rgIssuer: "SSPMG",
    });
  });

  it("gives null for zero-filled fields, impossible dates and CPFs with wrong check digits", () => {
    const value = `31021980${"52998224724"}${"0".repeat(11)}${"0".repeat(15)}${"0".repeat(6)}`;
    expect(parsePersonData(value)).toEqual({ birthDate: null, cpf: null, nis: null, rg: null, rgIssuer: null });
    expect(parsePersonData("curto").cpf).toBeNull();
  });
});

describe("icpBrasilHolder", () => {
  const person = `01021980529982247250000000000000000000000000000000`;

  it("reads an e-CPF", () => {
    expect(icpBrasilHolder(new Map([["2.16.76.1.3.1", person]]))).toEqual({
      kind: "e-CPF",
      cpf: "52998224725",
      cnpj: null,
      responsibleName: null,
    });
  });

  it("reads an e-CNPJ with its responsible person (never 2.16.76.1.3.2 as the CNPJ)", () => {
    const holder = icpBrasilHolder(
      new Map([
        ["2.16.76.1.3.2", "MARIA DA SILVA TESTE"],
        ["2.16.76.1.3.3", "11222333000181"],
        ["2.16.76.1.3.4", person],
      ]),
    );
    expect(holder).toEqual({
      kind: "e-CNPJ",
      cnpj: "11222333000181",
      cpf: "52998224725",
      responsibleName: "MARIA DA SILVA TESTE",
    });
  });

  it("calls anything else 'outro', and an invalid CNPJ null", () => {
    expect(icpBrasilHolder(new Map()).kind).toBe("outro");
    expect(icpBrasilHolder(new Map([["2.16.76.1.3.3", "11222333000180"]])).cnpj).toBeNull();
  });

  it("recognises ICP-Brasil policies", () => {
    expect(hasIcpBrasilPolicy(["2.16.76.1.2.1.51"])).toBe(true);
    expect(hasIcpBrasilPolicy(["2.16.76.1.3.1", "1.3.6.1.4.1.311"])).toBe(false);
  });
});
