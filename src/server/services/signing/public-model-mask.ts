import { isValidCpf } from "../../../shared/br/cpf.js";
import { maskPhone4 } from "../../../shared/br/phone.js";
import { maskCpf, maskEmail } from "../../../shared/signing-rules.js";

/** 11 digits, grouped like a CPF or not (123.456.789-09, 12345678909, 123 456 789 09), not inside a longer number. */
const CPF_LIKE = /(?<!\d)\d{3}[.\s]?\d{3}[.\s]?\d{3}[-.\s]?\d{2}(?!\d)/g;

export interface PublicMaskOptions {
  /** CPFs known to belong to someone in the document (patient, guardian, professional): masked even if invalid. */
  cpfs: readonly (string | null | undefined)[];
  /**
   * The patient's other personal data as the frozen model spells it (birth date, e-mail, phone):
   * masked for a witness, who signs the document but is not its subject (decision 051).
   */
  personal?: {
    dataNascimento?: string | null;
    emails?: readonly (string | null | undefined)[];
    telefones?: readonly (string | null | undefined)[];
  };
}

/**
 * What a public signing page may show of a text (decision 051): never a full CPF — any valid CPF,
 * and every CPF known to the document, is masked like maskCpf — and, for a witness, the patient's
 * birth date and contacts masked too. The page then asks for the full CPF, which it does not show.
 */
export function maskPublicText(value: string, options: PublicMaskOptions): string {
  let out = value;
  const personal = options.personal;
  // Contacts first: an address may hold digits that the CPF pass would otherwise rewrite.
  if (personal) {
    const replace = (from: string | null | undefined, to: (v: string) => string) => {
      const needle = (from ?? "").trim();
      if (needle.length >= 4) out = out.split(needle).join(to(needle));
    };
    replace(personal.dataNascimento, () => "**/**/****");
    for (const email of personal.emails ?? []) replace(email, maskEmail);
    for (const phone of personal.telefones ?? []) replace(phone, maskPhone4);
  }
  const known = new Set(options.cpfs.map((cpf) => (cpf ?? "").replace(/\D/g, "")).filter((d) => d.length === 11));
  return out.replace(CPF_LIKE, (match) => {
    const digits = match.replace(/\D/g, "");
    return known.has(digits) || isValidCpf(digits) ? maskCpf(digits) : match;
  });
}

/** The same, through any JSON value (the frozen DocumentModel). */
export function maskPublicDeep<T>(value: T, options: PublicMaskOptions): T {
  if (typeof value === "string") return maskPublicText(value, options) as T;
  if (Array.isArray(value)) return value.map((inner) => maskPublicDeep(inner, options)) as T;
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, maskPublicDeep(inner, options)])) as T;
  }
  return value;
}
