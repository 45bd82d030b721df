import { and, eq, inArray } from "drizzle-orm";
import type { Tx } from "../../../db/client.js";
import { contratoPartes, type contratos } from "../../../db/schema.js";
import { AppError } from "../../errors.js";
import type { Actor } from "../../policies/roles.js";
import { professionalOrder } from "./signing-settings.js";

const SIGNABLE = new Set(["draft", "sent", "viewed"]);

/**
 * Whether `actor` may sign this document's professional declaration now: only the responsible
 * professional, only while the document is a draft, sent or viewed and within its deadline, and
 * once (decision 015); when the clinic chose "depois do paciente", only after the patient (or the
 * guardian) signed (decision 050). The same rule for asking the code (decision 042), for signing
 * and for each document of a batch.
 */
export async function assertProfessionalCanSign(
  tx: Tx,
  actor: Actor,
  document: typeof contratos.$inferSelect,
  now: Date,
): Promise<void> {
  const expired = document.status !== "draft" && document.expiracao_at.getTime() <= now.getTime();
  if (!SIGNABLE.has(document.status) || expired) throw new AppError("DOCUMENT_LOCKED");
  if (document.medico_responsavel_id !== actor.profileId) throw new AppError("PROFESSIONAL_NOT_RESPONSIBLE");
  const [signed] = await tx
    .select({ id: contratoPartes.id })
    .from(contratoPartes)
    .where(
      and(
        eq(contratoPartes.tenant_id, actor.tenantId),
        eq(contratoPartes.contrato_id, document.id),
        eq(contratoPartes.papel, "profissional"),
      ),
    )
    .limit(1);
  if (signed) throw new AppError("PROFESSIONAL_ALREADY_SIGNED");
  if ((await professionalOrder(tx, actor.tenantId)) === "depois_do_paciente") {
    const [patient] = await tx
      .select({ id: contratoPartes.id })
      .from(contratoPartes)
      .where(
        and(
          eq(contratoPartes.tenant_id, actor.tenantId),
          eq(contratoPartes.contrato_id, document.id),
          inArray(contratoPartes.papel, ["paciente", "responsavel"]),
        ),
      )
      .limit(1);
    if (!patient) throw new AppError("PROFESSIONAL_AFTER_PATIENT");
  }
}
