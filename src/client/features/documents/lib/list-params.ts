import { DOCUMENT_STATUSES, type DocumentListQuery, type DocumentStatus } from "@shared/schemas/document";

/**
 * The filters of the documents list as they live in the address bar, so the dashboard and the
 * patient screens can link to a filtered list (?status=expired, ?paciente=<id>).
 */
export interface DocumentFilters {
  status?: DocumentStatus;
  /** Patient id. */
  paciente?: string;
  /** Responsible professional id. */
  profissional?: string;
  /** Created from / until (yyyy-mm-dd, clinic calendar). */
  de?: string;
  ate?: string;
  /** "1": only those waiting for the responsible professional's signature (decision 050). */
  aguardando_profissional?: "1";
  /** "1": only revoked consents (decision 056); the status filter's "Revogado". */
  revogado?: "1";
}

export const FILTER_KEYS = [
  "status",
  "paciente",
  "profissional",
  "de",
  "ate",
  "aguardando_profissional",
  "revogado",
] as const;

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Reads `q` and the filters from the address bar, ignoring anything malformed. */
export function readDocumentListState(params: URLSearchParams): { q: string; filters: DocumentFilters } {
  const filters: DocumentFilters = {};
  const status = params.get("status");
  if (status && (DOCUMENT_STATUSES as readonly string[]).includes(status)) filters.status = status as DocumentStatus;
  const paciente = params.get("paciente");
  if (paciente && UUID.test(paciente)) filters.paciente = paciente;
  const profissional = params.get("profissional");
  if (profissional && UUID.test(profissional)) filters.profissional = profissional;
  const de = params.get("de");
  if (de && ISO_DATE.test(de)) filters.de = de;
  const ate = params.get("ate");
  if (ate && ISO_DATE.test(ate)) filters.ate = ate;
  if (params.get("aguardando_profissional") === "1") filters.aguardando_profissional = "1";
  if (params.get("revogado") === "1") filters.revogado = "1";
  return { q: (params.get("q") ?? "").trim().slice(0, 100), filters };
}

/** The address-bar form of the list state: only what is set, in a stable order. */
export function writeDocumentListState(q: string, filters: DocumentFilters): URLSearchParams {
  const params = new URLSearchParams();
  const term = q.trim();
  if (term) params.set("q", term);
  for (const key of FILTER_KEYS) {
    const value = filters[key];
    if (value) params.set(key, value);
  }
  return params;
}

export function countActiveFilters(filters: DocumentFilters): number {
  return FILTER_KEYS.filter((key) => Boolean(filters[key])).length;
}

/** The API query for the list (GET /api/documents). */
export function toApiQuery(q: string, filters: DocumentFilters, cursor: string | undefined): DocumentListQuery {
  return {
    q: q || undefined,
    status: filters.status,
    paciente_id: filters.paciente,
    medico_responsavel_id: filters.profissional,
    from: filters.de,
    to: filters.ate,
    aguardando_profissional: filters.aguardando_profissional,
    revogado: filters.revogado,
    cursor,
  };
}

/** The query string for GET /api/documents (no leading "?"); blanks are left out. */
export function documentListQueryString(query: DocumentListQuery): string {
  const params = new URLSearchParams();
  for (const key of [
    "q",
    "status",
    "aguardando",
    "aguardando_profissional",
    "revogado",
    "paciente_id",
    "medico_responsavel_id",
    "from",
    "to",
    "cursor",
    "limit",
  ] as const) {
    const value = query[key];
    if (value === undefined || value === null) continue;
    const text = String(value).trim();
    if (text) params.set(key, text);
  }
  return params.toString();
}
