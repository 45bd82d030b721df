import { and, eq } from "drizzle-orm";
import type { Db } from "../../../db/client.js";
import { contratos } from "../../../db/schema.js";
import { withTenant } from "../../../db/tenant-scope.js";
import { type ARogo, aRogoOf } from "../../../shared/schemas/a-rogo.js";
import { maskCpf } from "../../../shared/signing-rules.js";
import { AppError } from "../../errors.js";
import type { Actor } from "../../policies/roles.js";
import { type AuditContext, recordAuditEvent } from "../audit/record-audit-event.js";
import { findDocumentOrThrow } from "../documents/find-document.js";
import { partyCpfs } from "./party-cpfs.js";

export interface SetARogoOptions {
  db: Db;
  actor: Actor;
  id: string;
  input: ARogo;
  audit: Omit<AuditContext, "tenantId" | "actorProfileId">;
}

/**
 * PUT /api/documents/:id/a-rogo: names, on a draft, the person who will sign at the patient's
 * request and why the patient does not sign (decision 070). A third person: not the patient, the
 * guardian, the responsible professional or a witness. Setting it again replaces it; audited.
 */
export async function setARogo({ db, actor, id, input, audit }: SetARogoOptions): Promise<ARogo> {
  return withTenant(db, actor.tenantId, async (tx) => {
    const document = await findDocumentOrThrow(tx, actor.tenantId, id, true);
    if (document.status !== "draft") throw new AppError("A_ROGO_NOT_EDITABLE");
    const taken = await partyCpfs(tx, actor.tenantId, document);
    if ([...taken.patient, ...taken.physician, ...taken.witnesses].includes(input.cpf))
      throw new AppError("A_ROGO_IS_PARTY");
    const value: ARogo = { nome: input.nome, cpf: input.cpf, motivo: input.motivo };
    await tx
      .update(contratos)
      .set({ a_rogo: value, updated_at: new Date() })
      .where(and(eq(contratos.tenant_id, actor.tenantId), eq(contratos.id, id)));
    await recordAuditEvent(
      tx,
      { tenantId: actor.tenantId, actorProfileId: actor.profileId, ...audit },
      {
        action: "document.a_rogo_set",
        entityType: "contrato",
        entityId: id,
        // Masked: the trail is shown widely; the full CPF is on the document.
        data: { nome: value.nome, cpf: maskCpf(value.cpf), motivo: value.motivo },
      },
    );
    return value;
  });
}

/** DELETE /api/documents/:id/a-rogo: the patient signs themselves after all; only on a draft. */
export async function removeARogo(
  db: Db,
  actor: Actor,
  id: string,
  audit: Omit<AuditContext, "tenantId" | "actorProfileId">,
): Promise<void> {
  await withTenant(db, actor.tenantId, async (tx) => {
    const document = await findDocumentOrThrow(tx, actor.tenantId, id, true);
    if (document.status !== "draft") throw new AppError("A_ROGO_NOT_EDITABLE");
    const current = aRogoOf(document.a_rogo);
    if (!current) return;
    await tx
      .update(contratos)
      .set({ a_rogo: null, updated_at: new Date() })
      .where(and(eq(contratos.tenant_id, actor.tenantId), eq(contratos.id, id)));
    await recordAuditEvent(
      tx,
      { tenantId: actor.tenantId, actorProfileId: actor.profileId, ...audit },
      {
        action: "document.a_rogo_removed",
        entityType: "contrato",
        entityId: id,
        data: { nome: current.nome },
      },
    );
  });
}
