import { and, eq, isNotNull } from "drizzle-orm";
import type { Tx } from "../../../db/client.js";
import { consentimentosOpcionais, contratoRegistros, type contratos } from "../../../db/schema.js";
import type { DocumentModel, DocumentOptionalConsent } from "../../../shared/document-model/build-document-model.js";
import { AppError } from "../../errors.js";

/**
 * The optional consent one revocation names (decisions 056 and 057), checked with the document
 * locked and before anything is written: an item of the frozen model (else 404), answered "Sim"
 * by the patient or guardian (a "Não" has nothing to revoke: 409), not revoked yet (409). The
 * caller has already refused an unsigned document and a consent revoked as a whole.
 */
export async function revocableOptionalItem(
  tx: Tx,
  document: typeof contratos.$inferSelect,
  itemId: string,
): Promise<DocumentOptionalConsent> {
  const items = (document.documento as Partial<DocumentModel> | null)?.optional_consents ?? [];
  const item = Array.isArray(items) ? items.find((candidate) => candidate.id === itemId) : undefined;
  if (!item) throw new AppError("OPTIONAL_CONSENT_NOT_FOUND");
  const [answer] = await tx
    .select({ aceito: consentimentosOpcionais.aceito })
    .from(consentimentosOpcionais)
    .where(
      and(
        eq(consentimentosOpcionais.tenant_id, document.tenant_id),
        eq(consentimentosOpcionais.contrato_id, document.id),
        eq(consentimentosOpcionais.item_id, itemId),
      ),
    )
    .limit(1);
  if (!answer) throw new AppError("OPTIONAL_CONSENT_NOT_FOUND");
  if (!answer.aceito) throw new AppError("OPTIONAL_CONSENT_DECLINED");
  const [revoked] = await tx
    .select({ id: contratoRegistros.id })
    .from(contratoRegistros)
    .where(
      and(
        eq(contratoRegistros.tenant_id, document.tenant_id),
        eq(contratoRegistros.contrato_id, document.id),
        isNotNull(contratoRegistros.item_id),
        eq(contratoRegistros.item_id, itemId),
      ),
    )
    .limit(1);
  if (revoked) throw new AppError("OPTIONAL_CONSENT_ALREADY_REVOKED");
  return item;
}

/** The title and text of an item as the document froze it (for the sealed record). */
export function frozenOptionalItem(documento: unknown, itemId: string): DocumentOptionalConsent | null {
  const items = (documento as Partial<DocumentModel> | null)?.optional_consents;
  return (Array.isArray(items) ? items.find((item) => item.id === itemId) : undefined) ?? null;
}
