import { and, eq } from "drizzle-orm";
import type { Tx } from "../../../db/client.js";
import { contratoPartes, type contratos } from "../../../db/schema.js";
import { AppError } from "../../errors.js";
import type { Actor } from "../../policies/roles.js";

const SIGNABLE = new Set(["draft", "sent", "viewed"]);

/**
 * Whether `actor` may sign this document's professional declaration now: only the responsible
 * professional, only while the document is a draft, sent or viewed and within its deadline, and
 * once (decision 015). The same rule for asking the code (decision 042) and for signing.
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
}
