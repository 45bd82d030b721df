import { and, desc, eq, inArray, type SQL } from "drizzle-orm";
import type { z } from "zod";
import type { Db } from "../../../db/client.js";
import { feegowUploads } from "../../../db/schema.js";
import { withTenant } from "../../../db/tenant-scope.js";
import type { FeegowUploadList, feegowUploadQuerySchema } from "../../../shared/schemas/feegow.js";
import type { Actor } from "../../policies/roles.js";
import { findDocumentOrThrow } from "../documents/find-document.js";
import { presentFeegowUpload } from "./feegow-uploads-store.js";

/**
 * Upload states for the screens and the future 'Avisos': with `documentos`, the latest upload of
 * each (documents list); else the clinic's newest uploads, optionally of one status (e.g. every
 * 'falhou' to warn about).
 */
export async function listFeegowUploads(
  db: Db,
  actor: Actor,
  query: z.output<typeof feegowUploadQuerySchema>,
): Promise<FeegowUploadList> {
  return withTenant(db, actor.tenantId, async (tx) => {
    const conditions: SQL[] = [eq(feegowUploads.tenant_id, actor.tenantId)];
    if (query.status) conditions.push(eq(feegowUploads.status, query.status));
    if (query.documentos) {
      if (query.documentos.length === 0) return { items: [] };
      conditions.push(inArray(feegowUploads.contrato_id, query.documentos));
      const rows = await tx
        .selectDistinctOn([feegowUploads.contrato_id])
        .from(feegowUploads)
        .where(and(...conditions))
        .orderBy(feegowUploads.contrato_id, desc(feegowUploads.created_at), desc(feegowUploads.id));
      return { items: rows.map(presentFeegowUpload) };
    }
    const rows = await tx
      .select()
      .from(feegowUploads)
      .where(and(...conditions))
      .orderBy(desc(feegowUploads.updated_at), desc(feegowUploads.id))
      .limit(query.limit);
    return { items: rows.map(presentFeegowUpload) };
  });
}

/** Every upload of one document, newest first (its detail page); another clinic's id is 404. */
export async function listDocumentFeegowUploads(db: Db, actor: Actor, contratoId: string): Promise<FeegowUploadList> {
  return withTenant(db, actor.tenantId, async (tx) => {
    await findDocumentOrThrow(tx, actor.tenantId, contratoId);
    const rows = await tx
      .select()
      .from(feegowUploads)
      .where(and(eq(feegowUploads.tenant_id, actor.tenantId), eq(feegowUploads.contrato_id, contratoId)))
      .orderBy(desc(feegowUploads.created_at), desc(feegowUploads.id))
      .limit(50);
    return { items: rows.map(presentFeegowUpload) };
  });
}
