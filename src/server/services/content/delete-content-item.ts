import { and, eq } from "drizzle-orm";
import type { Db } from "../../../db/client.js";
import { withTenant } from "../../../db/tenant-scope.js";
import type { ContentKind } from "../../../shared/schemas/content.js";
import type { Actor } from "../../policies/roles.js";
import { type AuditContext, recordAuditEvent } from "../audit/record-audit-event.js";
import { CONTENT_ENTITY, contentTable, findContentItemOrThrow } from "./content-tables.js";

export interface DeleteContentItemOptions {
  db: Db;
  actor: Actor;
  kind: ContentKind;
  id: string;
  audit: Omit<AuditContext, "tenantId" | "actorProfileId">;
}

/** Deletes the item; its links to procedures go with it (ON DELETE CASCADE). */
export async function deleteContentItem({ db, actor, kind, id, audit }: DeleteContentItemOptions): Promise<void> {
  const table = contentTable(kind);
  await withTenant(db, actor.tenantId, async (tx) => {
    const row = await findContentItemOrThrow(tx, kind, actor.tenantId, id);
    await tx.delete(table).where(and(eq(table.tenant_id, actor.tenantId), eq(table.id, id)));
    await recordAuditEvent(
      tx,
      { tenantId: actor.tenantId, actorProfileId: actor.profileId, ...audit },
      { action: "content.deleted", entityType: CONTENT_ENTITY[kind], entityId: id, data: { titulo: row.titulo } },
    );
  });
}
