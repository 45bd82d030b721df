import type { Db } from "../../../db/client.js";
import { procedimentos } from "../../../db/schema.js";
import { withTenant } from "../../../db/tenant-scope.js";
import type { Procedure, ProcedureData } from "../../../shared/schemas/procedure.js";
import type { Actor } from "../../policies/roles.js";
import { presentProcedure } from "../../presenters/procedure.js";
import { type AuditContext, recordAuditEvent } from "../audit/record-audit-event.js";
import { assertProcedureSpecialty } from "./procedure-specialty.js";
import { effectivePrivacy } from "./procedure-visibility.js";

export async function createProcedure(
  db: Db,
  actor: Actor,
  input: ProcedureData,
  audit: Omit<AuditContext, "tenantId" | "actorProfileId">,
): Promise<Procedure> {
  assertProcedureSpecialty(input.especialidade);
  return withTenant(db, actor.tenantId, async (tx) => {
    const [row] = await tx
      .insert(procedimentos)
      .values({
        tenant_id: actor.tenantId,
        nome: input.nome,
        descricao: input.descricao ?? null,
        especialidade: input.especialidade ?? null,
        is_private: effectivePrivacy(actor, input.is_private, actor.profileId),
        valor_centavos: input.valor ?? null,
        created_by: actor.profileId,
      })
      .returning();
    if (!row) throw new Error("procedimentos insert returned no row");
    await recordAuditEvent(
      tx,
      { tenantId: actor.tenantId, actorProfileId: actor.profileId, ...audit },
      {
        action: "procedure.created",
        entityType: "procedimento",
        entityId: row.id,
        data: { nome: row.nome, is_private: row.is_private },
      },
    );
    return presentProcedure(row);
  });
}
