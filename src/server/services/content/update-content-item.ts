import { and, eq } from "drizzle-orm";
import type { Db } from "../../../db/client.js";
import { withTenant } from "../../../db/tenant-scope.js";
import type { ContentItem, ContentItemData, ContentKind } from "../../../shared/schemas/content.js";
import type { Actor } from "../../policies/roles.js";
import { presentContentItem } from "../../presenters/content-item.js";
import { type AuditContext, recordAuditEvent } from "../audit/record-audit-event.js";
import { CONTENT_ENTITY, contentTable, findContentItemOrThrow, kindColumns } from "./content-tables.js";

export interface UpdateContentItemOptions {
  db: Db;
  actor: Actor;
  kind: ContentKind;
  id: string;
  input: ContentItemData;
  audit: Omit<AuditContext, "tenantId" | "actorProfileId">;
}

/** Replaces the item's fields with the form's (a field left blank becomes empty). */
export async function updateContentItem({
  db,
  actor,
  kind,
  id,
  input,
  audit,
}: UpdateContentItemOptions): Promise<ContentItem> {
  const table = contentTable(kind);
  return withTenant(db, actor.tenantId, async (tx) => {
    const before = await findContentItemOrThrow(tx, kind, actor.tenantId, id);
    const [row] = await tx
      .update(table)
      .set({ titulo: input.titulo, descricao: input.descricao, ...kindColumns(kind, input), updated_at: new Date() })
      .where(and(eq(table.tenant_id, actor.tenantId), eq(table.id, id)))
      .returning();
    if (!row) throw new Error(`${kind} update returned no row`);
    const after = presentContentItem(kind, row);
    const old = presentContentItem(kind, before);
    const campos = (["titulo", "descricao", "categoria", "periodo"] as const).filter((key) => old[key] !== after[key]);
    await recordAuditEvent(
      tx,
      { tenantId: actor.tenantId, actorProfileId: actor.profileId, ...audit },
      { action: "content.updated", entityType: CONTENT_ENTITY[kind], entityId: id, data: { campos } },
    );
    return after;
  });
}
