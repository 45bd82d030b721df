import { and, eq } from "drizzle-orm";
import type { Db } from "../../../db/client.js";
import { procedimentos } from "../../../db/schema.js";
import { withTenant } from "../../../db/tenant-scope.js";
import type { Procedure, ProcedureData } from "../../../shared/schemas/procedure.js";
import type { Actor } from "../../policies/roles.js";
import { presentProcedure } from "../../presenters/procedure.js";
import { type AuditContext, recordAuditEvent } from "../audit/record-audit-event.js";
import { assertProcedureSpecialty } from "./procedure-specialty.js";
import { effectivePrivacy, findProcedureOrThrow } from "./procedure-visibility.js";

const EDITABLE = ["nome", "descricao", "especialidade", "is_private", "valor_centavos"] as const;

export interface UpdateProcedureOptions {
  db: Db;
  actor: Actor;
  id: string;
  input: ProcedureData;
  audit: Omit<AuditContext, "tenantId" | "actorProfileId">;
}

/** Replaces the procedure's fields with the form's (a field left blank becomes empty). */
export async function updateProcedure({ db, actor, id, input, audit }: UpdateProcedureOptions): Promise<Procedure> {
  return withTenant(db, actor.tenantId, async (tx) => {
    const before = await findProcedureOrThrow(tx, actor, id);
    // An older free-text specialty may be kept as it is; any other value comes from the list.
    assertProcedureSpecialty(input.especialidade, before.especialidade);
    const [row] = await tx
      .update(procedimentos)
      .set({
        nome: input.nome,
        descricao: input.descricao ?? null,
        especialidade: input.especialidade ?? null,
        is_private: effectivePrivacy(actor, input.is_private, before.created_by),
        ...(input.valor !== undefined ? { valor_centavos: input.valor } : {}),
        updated_at: new Date(),
      })
      .where(and(eq(procedimentos.tenant_id, actor.tenantId), eq(procedimentos.id, id)))
      .returning();
    if (!row) throw new Error("procedimentos update returned no row");
    await recordAuditEvent(
      tx,
      { tenantId: actor.tenantId, actorProfileId: actor.profileId, ...audit },
      {
        action: "procedure.updated",
        entityType: "procedimento",
        entityId: id,
        data: { campos: EDITABLE.filter((key) => before[key] !== row[key]) },
      },
    );
    return presentProcedure(row);
  });
}
