import { isValidPhone, normalizePhone } from "../../../shared/br/phone.js";
import { UF_SIGLAS } from "../../../shared/reference/ufs.js";
import type { FeegowPatient } from "../../../shared/schemas/feegow.js";
import type { Sexo } from "../../../shared/schemas/patient.js";
import { isCalendarDate } from "../../../shared/schemas/safe-input.js";
import type { FeegowPatientDetail } from "./feegow-client.js";

/** Text from outside, made safe to store and show: no control characters, no lone surrogates, bounded. */
export function cleanText(value: string | null | undefined, max = 200): string | null {
  if (!value) return null;
  const clean = value
    .replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, "")
    .replace(/\p{Cc}+/gu, " ")
    .replace(/\s+/g, " ")
    .trim();
  // By code points, so a cut never leaves half of a surrogate pair.
  return clean ? Array.from(clean).slice(0, max).join("").trim() : null;
}

/** Feegow writes dates as dd-mm-yyyy, dd/mm/yyyy or yyyy-mm-dd (with or without a time). */
export function feegowDate(value: string | null): string | null {
  if (!value) return null;
  const iso = /^(\d{4})-(\d{2})-(\d{2})/.exec(value);
  const br = /^(\d{2})[-/](\d{2})[-/](\d{4})/.exec(value);
  const date = iso ? `${iso[1]}-${iso[2]}-${iso[3]}` : br ? `${br[3]}-${br[2]}-${br[1]}` : null;
  return date && isCalendarDate(date) && date <= new Date().toISOString().slice(0, 10) ? date : null;
}

export function feegowSexo(value: string | null): Sexo | null {
  const v = (value ?? "").trim().toLowerCase();
  if (v === "m" || v.startsWith("masc")) return "masculino";
  if (v === "f" || v.startsWith("fem")) return "feminino";
  return null;
}

/** The first valid Brazilian phone: mobiles first, then landlines; digits only. */
function firstPhone(...lists: string[][]): string | null {
  for (const candidate of lists.flat()) {
    if (isValidPhone(candidate)) return normalizePhone(candidate);
  }
  return null;
}

function firstEmail(list: string[]): string | null {
  const found = list
    .map((e) => e.trim().toLowerCase())
    .find((e) => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(e) && e.length <= 200);
  return found ?? null;
}

/** Feegow's patient record → the new-patient form's fields (spec part 2 §3 "Integration patient result"). */
export function patientFromFeegow(
  detail: FeegowPatientDetail,
  feegowPatientId: number,
  searchedCpf: string,
): FeegowPatient {
  const cep = (detail.cep ?? "").replace(/\D/g, "");
  const uf = (detail.estado ?? "").trim().toUpperCase();
  return {
    feegow_patient_id: feegowPatientId,
    nome: cleanText(detail.nome, 160) ?? "",
    // The CPF searched for is the one Feegow matched; its own copy may be masked or missing.
    cpf: searchedCpf,
    telefone: firstPhone(detail.celulares, detail.telefones),
    email: firstEmail(detail.email),
    data_nascimento: feegowDate(detail.nascimento),
    sexo: feegowSexo(detail.sexo),
    endereco: {
      cep: cep.length === 8 ? cep : null,
      logradouro: cleanText(detail.endereco),
      numero: cleanText(detail.numero, 20),
      complemento: cleanText(detail.complemento, 120),
      bairro: cleanText(detail.bairro, 120),
      cidade: cleanText(detail.cidade, 120),
      uf: (UF_SIGLAS as readonly string[]).includes(uf) ? uf : null,
    },
  };
}
