import { ESPECIALIDADES_CRM, ESPECIALIDADES_CRO, ESPECIALIDADES_OUTROS, specialtyName } from "./specialties.js";

/**
 * A procedure's specialty: chosen from the reference lists, stored as the slug
 * (`cirurgia_plastica`), shown by its name ('Cirurgia Plástica'). Rows saved as free text before
 * keep displaying what was typed.
 */

export interface SpecialtyOption {
  codigo: string;
  nome: string;
}

const byName = (a: SpecialtyOption, b: SpecialtyOption) => a.nome.localeCompare(b.nome, "pt-BR");
const options = (list: readonly SpecialtyOption[]) => list.map(({ codigo, nome }) => ({ codigo, nome })).sort(byName);

/** The select's groups, one per council family; a slug shared by two lists has the same name in both. */
export const PROCEDURE_SPECIALTY_GROUPS: readonly { label: string; items: readonly SpecialtyOption[] }[] = [
  { label: "Medicina (CRM)", items: options(ESPECIALIDADES_CRM) },
  { label: "Odontologia (CRO)", items: options(ESPECIALIDADES_CRO) },
  { label: "Enfermagem, Fisioterapia e Biomedicina", items: options(ESPECIALIDADES_OUTROS) },
];

const KNOWN = new Map<string, string>(
  PROCEDURE_SPECIALTY_GROUPS.flatMap((group) => group.items.map((item) => [item.codigo, item.nome] as const)),
);

/** Every slug of the lists, once. */
export const KNOWN_SPECIALTY_CODES: readonly string[] = [...KNOWN.keys()];

export function isKnownSpecialty(codigo: string): boolean {
  return KNOWN.has(codigo);
}

/** The name to show for a stored value: the reference name, or the stored text itself (older free-text rows). */
export function procedureSpecialtyName(value: string | null | undefined): string | null {
  if (!value) return null;
  return specialtyName(value);
}

const fold = (value: string) => value.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase().trim();

/** The slugs whose name contains `term` (case and accents ignored): a search for 'cirurgia plas' finds `cirurgia_plastica`. */
export function specialtyCodesMatching(term: string): string[] {
  const wanted = fold(term);
  if (!wanted) return [];
  return [...KNOWN].filter(([, nome]) => fold(nome).includes(wanted)).map(([codigo]) => codigo);
}
