import { desc, eq } from "drizzle-orm";
import type { Db } from "../../../db/client.js";
import { contratos } from "../../../db/schema.js";
import { withTenant } from "../../../db/tenant-scope.js";
import { type DocumentSummary, RECENT_DOCUMENTS } from "../../../shared/schemas/document.js";
import type { Actor } from "../../policies/roles.js";
import { presentDocumentSummary } from "../../presenters/document.js";
import { summarySelect } from "./list-documents.js";

/** The dashboard's 'Contratos Recentes' (spec part 1 §9: 5). */
export async function listRecentDocuments(db: Db, actor: Actor, now = new Date()): Promise<DocumentSummary[]> {
  const rows = await withTenant(db, actor.tenantId, (tx) =>
    summarySelect(tx)
      .where(eq(contratos.tenant_id, actor.tenantId))
      .orderBy(desc(contratos.created_at), desc(contratos.id))
      .limit(RECENT_DOCUMENTS),
  );
  return rows.map((row) => presentDocumentSummary(row, now));
}
