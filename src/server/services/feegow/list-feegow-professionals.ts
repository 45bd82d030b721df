import type { Db } from "../../../db/client.js";
import { withTenant } from "../../../db/tenant-scope.js";
import type { FeegowProfessionalList } from "../../../shared/schemas/feegow.js";
import type { SecretBox } from "../../lib/secret-box.js";
import type { Actor } from "../../policies/roles.js";
import { assertUsersManager } from "../users/access.js";
import { assertFeature, clientFor, type FeegowConnection, feegowAppError, loadFeegowRow } from "./feegow-store.js";
import { planProfessionals, usersByCpf } from "./feegow-professionals.js";

/**
 * The /integration professionals section (establishments; the owner, who manages users —
 * decision 017): Feegow's active professionals (GET /professional/list?ativo=1) and whether each
 * is already a user of the clinic (same CPF). "Erro ao listar profissionais" when Feegow fails.
 */
export async function listFeegowProfessionals(
  db: Db,
  secretBox: SecretBox,
  connection: FeegowConnection,
  actor: Actor,
): Promise<FeegowProfessionalList> {
  const row = await withTenant(db, actor.tenantId, async (tx) => {
    await assertUsersManager(tx, actor);
    return loadFeegowRow(tx, actor.tenantId);
  });
  assertFeature(row, "professionals");
  const client = clientFor(row, secretBox, connection);
  const professionals = await client.listProfessionals().catch((error: unknown) => {
    throw feegowAppError(error);
  });
  const existing = await withTenant(db, actor.tenantId, (tx) => usersByCpf(tx, actor.tenantId));
  return { items: planProfessionals(professionals, existing).map((plan) => plan.row) };
}
