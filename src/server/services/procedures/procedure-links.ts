import { and, eq, inArray } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import type { Tx } from "../../../db/client.js";
import { procedimentoBeneficios, procedimentoCuidados, procedimentoRiscos } from "../../../db/schema.js";
import type { ContentKind } from "../../../shared/schemas/content.js";
import { contentTable } from "../content/content-tables.js";

interface LinkTable {
  table: PgTable;
  tenant: PgColumn;
  procedure: PgColumn;
  item: PgColumn;
  itemKey: string;
}

/** The link table of each kind of content item, by the API's kind names. */
const LINKS: Record<ContentKind, LinkTable> = {
  riscos: {
    table: procedimentoRiscos,
    tenant: procedimentoRiscos.tenant_id,
    procedure: procedimentoRiscos.procedimento_id,
    item: procedimentoRiscos.risco_id,
    itemKey: "risco_id",
  },
  beneficios: {
    table: procedimentoBeneficios,
    tenant: procedimentoBeneficios.tenant_id,
    procedure: procedimentoBeneficios.procedimento_id,
    item: procedimentoBeneficios.beneficio_id,
    itemKey: "beneficio_id",
  },
  cuidados: {
    table: procedimentoCuidados,
    tenant: procedimentoCuidados.tenant_id,
    procedure: procedimentoCuidados.procedimento_id,
    item: procedimentoCuidados.cuidado_id,
    itemKey: "cuidado_id",
  },
};

export const KINDS = Object.keys(LINKS) as ContentKind[];

/** The ids of the items of `kind` linked to the procedure. */
export async function linkedIds(tx: Tx, kind: ContentKind, tenantId: string, procedureId: string): Promise<string[]> {
  const link = LINKS[kind];
  const rows = await tx
    .select({ id: link.item })
    .from(link.table)
    .where(and(eq(link.tenant, tenantId), eq(link.procedure, procedureId)))
    .orderBy(link.item);
  return rows.map((row) => String(row.id));
}

/** How many of `ids` are items of `kind` of the tenant. */
export async function countOwnItems(tx: Tx, kind: ContentKind, tenantId: string, ids: string[]): Promise<number> {
  if (ids.length === 0) return 0;
  const table = contentTable(kind);
  const rows = await tx
    .select({ id: table.id })
    .from(table)
    .where(and(eq(table.tenant_id, tenantId), inArray(table.id, ids)));
  return rows.length;
}

export interface ReplaceLinksOptions {
  tx: Tx;
  kind: ContentKind;
  tenantId: string;
  procedureId: string;
  ids: string[];
}

/** Replaces the procedure's links of `kind` with `ids` (inside the caller's transaction). */
export async function replaceLinks({ tx, kind, tenantId, procedureId, ids }: ReplaceLinksOptions): Promise<void> {
  const link = LINKS[kind];
  await tx.delete(link.table).where(and(eq(link.tenant, tenantId), eq(link.procedure, procedureId)));
  if (ids.length === 0) return;
  const rows = ids.map((id) => ({ tenant_id: tenantId, procedimento_id: procedureId, [link.itemKey]: id }));
  await tx.insert(link.table).values(rows as never);
}
