import { and, eq } from "drizzle-orm";
import type { Db, Tx } from "../../../db/client.js";
import { profiles, tenants } from "../../../db/schema.js";
import { withTenant } from "../../../db/tenant-scope.js";
import {
  ESPECIALIDADES_CRM,
  ESPECIALIDADES_CRO,
  ESPECIALIDADES_OUTROS,
  specialtyName,
} from "../../../shared/reference/specialties.js";
import type { AllowedSpecialties, PlatformClinicList } from "../../../shared/schemas/template.js";
import { AppError } from "../../errors.js";
import { can, type Actor } from "../../policies/roles.js";

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
  return namesOf(rows);
}

type SpecialtyRow = Pick<typeof profiles.$inferSelect, "especialidades" | "conselho_tipo">;

function namesOf(rows: SpecialtyRow[]): AllowedSpecialties {
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

/** The union over one clinic's active profiles (what the owner of that clinic would see). */
async function clinicSpecialties(tx: Tx, tenantId: string): Promise<AllowedSpecialties> {
  const rows = await tx
    .select({ especialidades: profiles.especialidades, conselho_tipo: profiles.conselho_tipo })
    .from(profiles)
    .where(and(eq(profiles.tenant_id, tenantId), eq(profiles.is_active, true)));
  return namesOf(rows);
}

/**
 * GET /api/templates/specialties[?clinica_id]: the actor's own clinic, or — for the platform
 * administrator only (part 2 §6, p_clinica_id) — the clinic named. Anyone else naming a clinic
 * other than their own: 403; a clinic that does not exist: 404.
 */
export async function getAllowedSpecialties(db: Db, actor: Actor, clinicId?: string): Promise<AllowedSpecialties> {
  if (!clinicId || clinicId === actor.tenantId)
    return withTenant(db, actor.tenantId, (tx) => allowedSpecialties(tx, actor));
  if (!can(actor, "platform.chooseClinic")) throw new AppError("OTHER_CLINIC_FORBIDDEN");
  return withTenant(db, clinicId, async (tx) => {
    const [clinic] = await tx.select({ id: tenants.id }).from(tenants).where(eq(tenants.id, clinicId));
    if (!clinic) throw new AppError("CLINIC_NOT_FOUND");
    return clinicSpecialties(tx, clinicId);
  });
}

/** Every clinic by name, for the platform administrator's clinic choice (part 2 §6). */
export async function listPlatformClinics(db: Db, actor: Actor): Promise<PlatformClinicList> {
  if (!can(actor, "platform.chooseClinic")) throw new AppError("FORBIDDEN");
  const rows = await db.select({ id: tenants.id, nome: tenants.nome }).from(tenants);
  return { items: rows.sort((a, b) => byPtBr(a.nome, b.nome)) };
}
