import { and, eq } from "drizzle-orm";
import type { Db, Tx } from "../../../db/client.js";
import { templates } from "../../../db/schema.js";
import { withTenant } from "../../../db/tenant-scope.js";
import {
  emptyTemplate,
  parseTemplateContent,
  TemplateStructureSchema,
} from "../../../shared/document-model/structure.js";
import type { TemplateDetail } from "../../../shared/schemas/template.js";
import type { Actor } from "../../policies/roles.js";
import { presentTemplateDetail } from "../../presenters/template.js";
import { findTemplateOrThrow, newestVersion, templateNotFound } from "./find-template.js";
import { selectSummaries } from "./template-summary.js";

/**
 * The stored content of a version, with the spec's fallbacks (part 2 §5): the structure in
 * variaveis_json when valid; otherwise conteudo_html read by parseTemplateContent (text that is not
 * JSON → one paragraph; JSON that is not a valid structure → an empty template with the title).
 */
export function storedStructure(
  version: { variaveis_json: unknown; conteudo_html: string } | undefined,
  titulo: string,
) {
  if (!version) return emptyTemplate(titulo);
  const parsed = TemplateStructureSchema.safeParse(version.variaveis_json);
  return parsed.success ? parsed.data : parseTemplateContent(version.conteudo_html, titulo);
}

/** The detail of a template inside the caller's transaction (also answers the writes). */
export async function loadTemplateDetail(tx: Tx, actor: Actor, id: string): Promise<TemplateDetail> {
  await findTemplateOrThrow(tx, actor, id);
  const [row] = await selectSummaries(tx)
    .where(and(eq(templates.tenant_id, actor.tenantId), eq(templates.id, id)))
    .limit(1);
  if (!row) throw templateNotFound();
  const version = await newestVersion(tx, actor.tenantId, id);
  return presentTemplateDetail(row, version, storedStructure(version, row.template.titulo));
}

export async function getTemplate(db: Db, actor: Actor, id: string): Promise<TemplateDetail> {
  return withTenant(db, actor.tenantId, (tx) => loadTemplateDetail(tx, actor, id));
}
