import type { Db } from "../../../db/client.js";
import { withTenant } from "../../../db/tenant-scope.js";
import type { ContentItem, ContentItemData, ContentKind } from "../../../shared/schemas/content.js";
import type { Actor } from "../../policies/roles.js";
import { presentContentItem } from "../../presenters/content-item.js";
import { type AuditContext, recordAuditEvent } from "../audit/record-audit-event.js";
import { CONTENT_ENTITY, contentTable, kindColumns } from "./content-tables.js";

export interface CreateContentItemOptions {
  db: Db;
  actor: Actor;
  kind: ContentKind;
  input: ContentItemData;
  audit: Omit<AuditContext, "tenantId" | "actorProfileId">;
}

export async function createContentItem({
  db,
  actor,
  kind,
  input,
  audit,
}: CreateContentItemOptions): Promise<ContentItem> {
  return withTenant(db, actor.tenantId, async (tx) => {
    const [row] = await tx
      .insert(contentTable(kind))
      .values({
        tenant_id: actor.tenantId,
        titulo: input.titulo,
        descricao: input.descricao,
        created_by: actor.profileId,
        ...kindColumns(kind, input),
      })
      .returning();
    if (!row) throw new Error(`${kind} insert returned no row`);
    await recordAuditEvent(
      tx,
      { tenantId: actor.tenantId, actorProfileId: actor.profileId, ...audit },
      { action: "content.created", entityType: CONTENT_ENTITY[kind], entityId: row.id, data: { titulo: row.titulo } },
    );
    return presentContentItem(kind, row);
  });
}
