import { and, eq, gt, isNull, lte, lt, or, type SQL, sql } from "drizzle-orm";
import { contratos, pacientes } from "../../../db/schema.js";
import { escapeLike } from "../../lib/search-text.js";
import { dateInSaoPaulo, startOfDayInSaoPaulo } from "../../../shared/dates/sao-paulo.js";
import type { z } from "zod";
import type { patientListQuerySchema } from "../../../shared/schemas/patient.js";

type ListQuery = z.output<typeof patientListQuerySchema>;

/** A search typed as digits and punctuation ("123.456", "(11) 9876") looks for CPF/phone digits. */
export function isDigitSearch(term: string): boolean {
  return /^[\d\s().\-/]+$/.test(term) && /\d/.test(term);
}

function addDays(date: string, days: number): string {
  const d = new Date(`${date}T12:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/** The WHERE conditions of the patients list: tenant first, then search and filters. */
export function patientConditions(tenantId: string, query: ListQuery, now: Date): SQL[] {
  const conditions: SQL[] = [eq(pacientes.tenant_id, tenantId)];
  const term = query.q?.trim();
  if (term) {
    if (isDigitSearch(term)) {
      conditions.push(sql`${pacientes.busca} like ${`%${escapeLike(term.replace(/\D/g, ""))}%`}`);
    } else {
      conditions.push(sql`${pacientes.busca} like '%' || app_search_text(${escapeLike(term)}) || '%'`);
    }
  }
  if (query.sexo) conditions.push(eq(pacientes.sexo, query.sexo));
  if (query.criado_de) conditions.push(sql`${pacientes.created_at} >= ${startOfDayInSaoPaulo(query.criado_de)}`);
  if (query.criado_ate) {
    conditions.push(lt(pacientes.created_at, startOfDayInSaoPaulo(addDays(query.criado_ate, 1))));
  }
  if (query.menores) {
    const today = dateInSaoPaulo(now);
    const eighteenYearsAgo = `${Number(today.slice(0, 4)) - 18}${today.slice(4)}`;
    conditions.push(
      query.menores === "sim"
        ? gt(pacientes.data_nascimento, eighteenYearsAgo)
        : (or(isNull(pacientes.data_nascimento), lte(pacientes.data_nascimento, eighteenYearsAgo)) as SQL),
    );
  }
  if (query.documentos) {
    const has = sql`exists (select 1 from ${contratos} where ${contratos.tenant_id} = ${pacientes.tenant_id} and ${contratos.paciente_id} = ${pacientes.id})`;
    conditions.push(query.documentos === "com" ? has : sql`not ${has}`);
  }
  return conditions;
}

export const allOf = (conditions: SQL[]): SQL => and(...conditions) as SQL;
