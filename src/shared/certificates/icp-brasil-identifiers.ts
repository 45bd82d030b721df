import { isValidCnpj } from "../br/cnpj.js";
import { isValidCpf } from "../br/cpf.js";

/**
 * The ICP-Brasil identifiers an A1 carries in subjectAltName otherName fields (DOC-ICP-04
 * §7.1.2.3; decision 019). Pure: takes the otherName values already decoded to text.
 */
export const ICP_BRASIL_OTHER_NAME = {
  /** e-CPF holder: birth date (ddmmaaaa), CPF (11), NIS (11), RG (15), RG issuer + UF (6). */
  personData: "2.16.76.1.3.1",
  /** e-CNPJ: name of the person responsible for the certificate. */
  responsibleName: "2.16.76.1.3.2",
  /** e-CNPJ: the company's CNPJ (14). */
  cnpj: "2.16.76.1.3.3",
  /** e-CNPJ: the responsible person's data, same layout as 2.16.76.1.3.1. */
  responsibleData: "2.16.76.1.3.4",
} as const;

/** certificatePolicies of ICP-Brasil certificates live under this arc (DOC-ICP-04). */
export const ICP_BRASIL_POLICY_ARC = "2.16.76.1.2.";

export type HolderKind = "e-CPF" | "e-CNPJ" | "outro";

export interface PersonData {
  /** YYYY-MM-DD, or null when the field is zeros or not a date. */
  birthDate: string | null;
  /** 11 digits with valid check digits, or null. */
  cpf: string | null;
  nis: string | null;
  rg: string | null;
  rgIssuer: string | null;
}

const blankToNull = (value: string) => {
  const trimmed = value.trim();
  return trimmed === "" || /^0+$/.test(trimmed) ? null : trimmed;
};

function birthDateOf(ddmmaaaa: string): string | null {
  const match = /^(\d{2})(\d{2})(\d{4})$/.exec(ddmmaaaa);
  if (!match) return null;
  const [day, month, year] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  if (year < 1900 || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return null;
  return `${match[3]}-${match[2]}-${match[1]}`;
}

/** Splits a 2.16.76.1.3.1 / 2.16.76.1.3.4 value: positions 1–8, 9–19, 20–30, 31–45, 46–51. */
export function parsePersonData(value: string): PersonData {
  const cpf = value.slice(8, 19);
  return {
    birthDate: birthDateOf(value.slice(0, 8)),
    cpf: /^\d{11}$/.test(cpf) && isValidCpf(cpf) ? cpf : null,
    nis: blankToNull(value.slice(19, 30)),
    rg: blankToNull(value.slice(30, 45)),
    rgIssuer: blankToNull(value.slice(45, 51)),
  };
}

export interface IcpBrasilHolder {
  kind: HolderKind;
  /** e-CPF: the holder; e-CNPJ: the responsible person. */
  cpf: string | null;
  cnpj: string | null;
  responsibleName: string | null;
}

/**
 * What the otherName values say about the holder: a CNPJ (2.16.76.1.3.3) makes it an e-CNPJ
 * (its CPF is the responsible person's, 2.16.76.1.3.4); otherwise 2.16.76.1.3.1 makes it an
 * e-CPF; anything else is 'outro'.
 */
export function icpBrasilHolder(otherNames: ReadonlyMap<string, string>): IcpBrasilHolder {
  const cnpjValue = otherNames.get(ICP_BRASIL_OTHER_NAME.cnpj);
  if (cnpjValue !== undefined) {
    const digits = cnpjValue.replace(/\D/g, "").slice(0, 14);
    const responsible = otherNames.get(ICP_BRASIL_OTHER_NAME.responsibleData);
    return {
      kind: "e-CNPJ",
      cnpj: isValidCnpj(digits) ? digits : null,
      cpf: responsible ? parsePersonData(responsible).cpf : null,
      responsibleName: blankToNull(otherNames.get(ICP_BRASIL_OTHER_NAME.responsibleName) ?? ""),
    };
  }
  const person = otherNames.get(ICP_BRASIL_OTHER_NAME.personData);
  if (person !== undefined)
    return { kind: "e-CPF", cpf: parsePersonData(person).cpf, cnpj: null, responsibleName: null };
  return { kind: "outro", cpf: null, cnpj: null, responsibleName: null };
}

/** True when one of the policies is an ICP-Brasil certificate policy (2.16.76.1.2.…). */
export function hasIcpBrasilPolicy(policies: readonly string[]): boolean {
  return policies.some((oid) => oid.startsWith(ICP_BRASIL_POLICY_ARC));
}
