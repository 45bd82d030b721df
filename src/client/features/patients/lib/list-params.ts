import { SEXOS, type PatientListQuery, type Sexo } from "@shared/schemas/patient";

/** The filters of the patients list (the search term travels apart, debounced). */
export interface PatientFilters {
  sexo?: Sexo;
  criado_de?: string;
  criado_ate?: string;
  menores?: "sim" | "nao";
  documentos?: "com" | "sem";
}

export const MENORES_OPTIONS = [
  { value: "", label: "Todos" },
  { value: "sim", label: "Somente menores" },
  { value: "nao", label: "Somente maiores" },
] as const;

export const DOCUMENTOS_OPTIONS = [
  { value: "", label: "Todos" },
  { value: "com", label: "Com documentos" },
  { value: "sem", label: "Sem documentos" },
] as const;

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

const FILTER_KEYS = ["sexo", "criado_de", "criado_ate", "menores", "documentos"] as const;

/** Reads `q` and the filters from the address bar, ignoring anything malformed. */
export function readListState(params: URLSearchParams): { q: string; filters: PatientFilters } {
  const filters: PatientFilters = {};
  const sexo = params.get("sexo");
  if (sexo && (SEXOS as readonly string[]).includes(sexo)) filters.sexo = sexo as Sexo;
  const de = params.get("criado_de");
  if (de && ISO_DATE.test(de)) filters.criado_de = de;
  const ate = params.get("criado_ate");
  if (ate && ISO_DATE.test(ate)) filters.criado_ate = ate;
  const menores = params.get("menores");
  if (menores === "sim" || menores === "nao") filters.menores = menores;
  const documentos = params.get("documentos");
  if (documentos === "com" || documentos === "sem") filters.documentos = documentos;
  return { q: (params.get("q") ?? "").trim().slice(0, 100), filters };
}

/** The address-bar form of the list state: only what is set, in a stable order. */
export function writeListState(q: string, filters: PatientFilters): URLSearchParams {
  const params = new URLSearchParams();
  const term = q.trim();
  if (term) params.set("q", term);
  for (const key of FILTER_KEYS) {
    const value = filters[key];
    if (value) params.set(key, value);
  }
  return params;
}

/** How many filters are on (the date range counts once per end). */
export function countActiveFilters(filters: PatientFilters): number {
  return FILTER_KEYS.filter((key) => Boolean(filters[key])).length;
}

/** True when the "de" date is after the "até" date. */
export function isDateRangeInverted(filters: PatientFilters): boolean {
  return Boolean(filters.criado_de && filters.criado_ate && filters.criado_de > filters.criado_ate);
}

/** The query string for GET /api/patients (no leading "?"); blanks are left out. */
export function patientListQueryString(query: PatientListQuery): string {
  const params = new URLSearchParams();
  for (const key of ["q", ...FILTER_KEYS, "cursor", "limit"] as const) {
    const value = query[key];
    if (value === undefined || value === null) continue;
    const text = String(value).trim();
    if (text) params.set(key, text);
  }
  return params.toString();
}
