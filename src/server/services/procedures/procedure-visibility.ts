import { and, eq, or, type SQL } from "drizzle-orm";
import type { Tx } from "../../../db/client.js";
import { procedimentos } from "../../../db/schema.js";
import { AppError } from "../../errors.js";
import { type Actor, can } from "../../policies/roles.js";

/**
 * The procedures `actor` may see: the clinic's shared ones, plus the private ones they created;
 * the owner sees them all. Everyone else gets 404 for a private procedure, as for another clinic's.
 */
export function visibleProcedures(actor: Actor): SQL {
  const ofTenant = eq(procedimentos.tenant_id, actor.tenantId);
  if (actor.isOwner) return ofTenant;
  return and(ofTenant, or(eq(procedimentos.is_private, false), eq(procedimentos.created_by, actor.profileId))) as SQL;
}

/** The visible procedure by id, or NOT_FOUND. */
export async function findProcedureOrThrow(tx: Tx, actor: Actor, id: string) {
  const [row] = await tx
    .select()
    .from(procedimentos)
    .where(and(visibleProcedures(actor), eq(procedimentos.id, id)))
    .limit(1);
  if (!row) throw new AppError("NOT_FOUND", "Procedimento não encontrado");
  return row;
}

/**
 * The privacy rule, on the server (spec part 2 §5): only a profissional or the owner may make a
 * procedure private, and only one they created (or any, for the owner), so a private procedure is
 * always visible to whoever made it private. Anyone else's save is silently shared.
 */
export function effectivePrivacy(actor: Actor, requested: boolean, createdBy: string | null): boolean {
  if (!requested || !can(actor, "procedures.makePrivate")) return false;
  return actor.isOwner || createdBy === actor.profileId;
}
