import { formatCep } from "@shared/br/cep";
import type { Patient } from "@shared/schemas/patient";

/** "1 documento", "N documentos" (0 → "0 documentos"). */
export function documentsLabel(count: number): string {
  return count === 1 ? "1 documento" : `${count} documentos`;
}

/**
 * The patient's address in display lines: street with number and complement, district,
 * city/UF and CEP. Empty when nothing is known.
 */
export function addressLines(
  patient: Pick<Patient, "logradouro" | "numero" | "complemento" | "bairro" | "cidade" | "uf" | "cep">,
): string[] {
  const street = [patient.logradouro, patient.numero].filter(Boolean).join(", ");
  const first = [street, patient.complemento].filter(Boolean).join(" — ");
  const city = [patient.cidade, patient.uf].filter(Boolean).join("/");
  const lines = [first, patient.bairro ?? "", city, patient.cep ? `CEP ${formatCep(patient.cep)}` : ""];
  return lines.filter((line) => line.trim().length > 0);
}

const NAME_CONNECTORS = new Set(["da", "das", "de", "di", "do", "dos", "du", "e"]);

/** Up to two initials for an avatar: "Maria da Silva" → "MS", "Dra. Ana" → "DA". */
export function initials(nome: string): string {
  const parts = nome
    .trim()
    .split(/\s+/)
    .filter((part) => part && !NAME_CONNECTORS.has(part.toLowerCase()));
  const first = parts[0]?.[0] ?? "";
  const last = parts.length > 1 ? (parts[parts.length - 1]?.[0] ?? "") : "";
  return `${first}${last}`.toUpperCase();
}
