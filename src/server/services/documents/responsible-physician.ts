import { and, eq, inArray, isNotNull, or, type SQL } from "drizzle-orm";
import type { Tx } from "../../../db/client.js";
import { profiles } from "../../../db/schema.js";
import { AppError } from "../../errors.js";
import { type Actor, can } from "../../policies/roles.js";

/**
 * Who may be a document's responsible physician: an active member of the clinic with a council
 * registration who is a health professional or the owner. Administrative staff manage documents
 * but never sign medical ones (spec part 1 §6).
 */
export function eligiblePhysicians(tenantId: string): SQL {
  return and(
    eq(profiles.tenant_id, tenantId),
    eq(profiles.is_active, true),
    isNotNull(profiles.conselho_tipo),
    isNotNull(profiles.conselho_numero),
    or(inArray(profiles.role, ["profissional", "pro_saude"]), eq(profiles.is_proprietario, true)),
  ) as SQL;
}

async function findEligible(tx: Tx, tenantId: string, profileId: string) {
  const [row] = await tx
    .select()
    .from(profiles)
    .where(and(eligiblePhysicians(tenantId), eq(profiles.id, profileId)))
    .limit(1);
  return row;
}

/**
 * Administrators and owners choose the responsible physician (spec part 1 §5); everyone else is
 * it. A user who cannot be one (e.g. an attendant, who has no council registration) must choose
 * too, rather than putting their own name on a medical document.
 */
export async function mustChoosePhysician(tx: Tx, actor: Actor): Promise<boolean> {
  if (can(actor, "documents.chooseResponsiblePhysician")) return true;
  return !(await findEligible(tx, actor.tenantId, actor.profileId));
}

export async function resolveResponsiblePhysician(tx: Tx, actor: Actor, requestedId: string | undefined) {
  if (!(await mustChoosePhysician(tx, actor))) {
    const self = await findEligible(tx, actor.tenantId, actor.profileId);
    if (!self) throw new AppError("DOCUMENT_PHYSICIAN_INVALID");
    return self;
  }
  if (!requestedId) {
    throw new AppError("DOCUMENT_PHYSICIAN_REQUIRED", undefined, {
      issues: [{ path: "medico_responsavel_id", message: "Por favor, selecione o médico responsável pelo documento." }],
    });
  }
  const chosen = await findEligible(tx, actor.tenantId, requestedId);
  if (!chosen) {
    throw new AppError("DOCUMENT_PHYSICIAN_INVALID", undefined, {
      issues: [
        {
          path: "medico_responsavel_id",
          message: "O médico responsável escolhido não pode assinar documentos desta clínica.",
        },
      ],
    });
  }
  return chosen;
}
