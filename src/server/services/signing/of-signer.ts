import { eq, isNull, type SQL } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";

/**
 * Rows of one signer of a document: a witness's (`testemunha_id` = theirs) or the patient's
 * (`testemunha_id` null). A witness's link or code never serves on the patient's, nor the reverse.
 */
export function ofSigner(testemunhaColumn: AnyPgColumn, testemunhaId: string | null): SQL {
  return testemunhaId ? eq(testemunhaColumn, testemunhaId) : isNull(testemunhaColumn);
}
