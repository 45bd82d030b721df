import type { Db } from "../../../db/client.js";
import { contratoTestemunhas } from "../../../db/schema.js";
import { withTenant } from "../../../db/tenant-scope.js";
import { maskEmail } from "../../../shared/schemas/signing.js";
import { MAX_WITNESSES, type Witness, type WitnessData } from "../../../shared/schemas/witness.js";
import { maskCpf } from "../../../shared/signing-rules.js";
import { AppError } from "../../errors.js";
import { isUniqueViolation } from "../../lib/pg-errors.js";
import type { Actor } from "../../policies/roles.js";
import { type AuditContext, recordAuditEvent } from "../audit/record-audit-event.js";
import { findDocumentOrThrow } from "../documents/find-document.js";
import { partyCpfs } from "./party-cpfs.js";
import { presentWitnesses, selectWitnesses } from "./witness-rows.js";

export interface AddWitnessOptions {
  db: Db;
  actor: Actor;
  id: string;
  input: WitnessData;
  audit: Omit<AuditContext, "tenantId" | "actorProfileId">;
  now?: Date;
}

/**
 * POST /api/documents/:id/witnesses: names a witness on a draft (decision 021), at most two. A
 * witness is a third person: not the patient, the guardian, the responsible professional, the
 * other witness or whoever signs "a rogo" (same CPF). The document row is locked, so two additions at once take 1 and 2.
 */
export async function addWitness({
  db,
  actor,
  id,
  input,
  audit,
  now = new Date(),
}: AddWitnessOptions): Promise<Witness> {
  try {
    return await withTenant(db, actor.tenantId, async (tx) => {
      const document = await findDocumentOrThrow(tx, actor.tenantId, id, true);
      if (document.status !== "draft") throw new AppError("WITNESS_NOT_EDITABLE");
      const existing = await selectWitnesses(tx, actor.tenantId, id);
      if (existing.length >= MAX_WITNESSES) throw new AppError("WITNESS_LIMIT");
      const cpfs = await partyCpfs(tx, actor.tenantId, document);
      const taken = [...cpfs.patient, ...cpfs.physician, ...cpfs.witnesses, ...cpfs.aRogo];
      if (taken.includes(input.cpf)) throw new AppError("WITNESS_IS_PARTY");
      const ordem = [1, 2].find((n) => !existing.some((w) => w.ordem === n)) ?? MAX_WITNESSES + 1;
      const [row] = await tx
        .insert(contratoTestemunhas)
        .values({
          tenant_id: actor.tenantId,
          contrato_id: id,
          ordem,
          nome: input.nome,
          cpf: input.cpf,
          email: input.email ?? null,
          telefone: input.telefone ?? null,
          created_by: actor.profileId,
          created_at: now,
        })
        .returning({ id: contratoTestemunhas.id });
      if (!row) throw new Error("contrato_testemunhas insert returned no row");
      await recordAuditEvent(
        tx,
        { tenantId: actor.tenantId, actorProfileId: actor.profileId, ...audit },
        {
          action: "document.witness_added",
          entityType: "contrato",
          entityId: id,
          // Masked: the trail is shown widely; the witness's full data is on the witness row.
          data: {
            testemunha_id: row.id,
            ordem,
            nome: input.nome,
            cpf: maskCpf(input.cpf),
            email: input.email ? maskEmail(input.email) : null,
          },
        },
      );
      const witnesses = await presentWitnesses(tx, actor.tenantId, id);
      return witnesses.find((w) => w.id === row.id)!;
    });
  } catch (error) {
    if (isUniqueViolation(error, "contrato_testemunhas_ordem_unique")) throw new AppError("WITNESS_LIMIT");
    throw error;
  }
}
