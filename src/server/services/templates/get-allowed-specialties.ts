import { and, eq } from "drizzle-orm";
import type { Db, Tx } from "../../../db/client.js";
import { profiles } from "../../../db/schema.js";
import { withTenant } from "../../../db/tenant-scope.js";
import {
  ESPECIALIDADES_CRM,
  ESPECIALIDADES_CRO,
  ESPECIALIDADES_OUTROS,
  specialtyName,
} from "../../../shared/reference/specialties.js";
import type { AllowedSpecialties } from "../../../shared/schemas/template.js";
import type { Actor } from "../../policies/roles.js";

const byPtBr = (a: string, b: string) => a.localeCompare(b, "pt-BR");

/** Every known specialty name (CRM, CRO, other councils), for a clinic where nobody has one. */
function everySpecialty(): string[] {
  return [...new Set([...ESPECIALIDADES_CRM, ...ESPECIALIDADES_CRO, ...ESPECIALIDADES_OUTROS].map((e) => e.nome))].sort(
    byPtBr,
  );
}

/**
 * The specialties (display names) the actor may give a template: a profissional or pro_saude
 * (not the owner) uses their own; the owner, admin and everyone else the union over the clinic's
 * active profiles. Nobody with a specialty → every known one, flagged `fallback`.
 */
export async function allowedSpecialties(tx: Tx, actor: Actor): Promise<AllowedSpecialties> {
  const ownOnly = !actor.isOwner && (actor.role === "profissional" || actor.role === "pro_saude");
  const rows = await tx
    .select({ especialidades: profiles.especialidades, conselho_tipo: profiles.conselho_tipo })
    .from(profiles)
    .where(
      ownOnly
        ? and(eq(profiles.tenant_id, actor.tenantId), eq(profiles.id, actor.profileId))
        : and(eq(profiles.tenant_id, actor.tenantId), eq(profiles.is_active, true)),
    );
  const names = new Set<string>();
  for (const row of rows) {
    for (const chosen of Array.isArray(row.especialidades) ? row.especialidades : []) {
      const code = typeof chosen?.especialidade === "string" ? chosen.especialidade.trim() : "";
      if (code) names.add(specialtyName(code, row.conselho_tipo ?? undefined));
    }
  }
  if (names.size === 0) return { items: everySpecialty(), fallback: true };
  return { items: [...names].sort(byPtBr), fallback: false };
}

export async function getAllowedSpecialties(db: Db, actor: Actor): Promise<AllowedSpecialties> {
  return withTenant(db, actor.tenantId, (tx) => allowedSpecialties(tx, actor));
}
