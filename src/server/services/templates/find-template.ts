import { and, desc, eq } from "drizzle-orm";
import type { Tx } from "../../../db/client.js";
import { templates, templateVersions } from "../../../db/schema.js";
import { TEMPLATE_MESSAGES } from "../../../shared/schemas/template.js";
import { AppError } from "../../errors.js";
import type { Actor } from "../../policies/roles.js";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function templateNotFound(): AppError {
  return new AppError("NOT_FOUND", TEMPLATE_MESSAGES.notFound);
}

/**
 * The actor's clinic's template by id, or 404 'Template não encontrado' (also for a malformed id
 * and for another clinic's template). `lock` takes the row FOR UPDATE: writers that number
 * versions or change status serialise on it.
 */
export async function findTemplateOrThrow(tx: Tx, actor: Actor, id: string, options: { lock?: boolean } = {}) {
  if (!UUID.test(id)) throw templateNotFound();
  const query = tx
    .select()
    .from(templates)
    .where(and(eq(templates.tenant_id, actor.tenantId), eq(templates.id, id)))
    .limit(1);
  const [row] = options.lock ? await query.for("update") : await query;
  if (!row) throw templateNotFound();
  return row;
}

/** The template's newest version (the current one), if it has any. */
export async function newestVersion(tx: Tx, tenantId: string, templateId: string) {
  const [row] = await tx
    .select()
    .from(templateVersions)
    .where(and(eq(templateVersions.tenant_id, tenantId), eq(templateVersions.template_id, templateId)))
    .orderBy(desc(templateVersions.version_number))
    .limit(1);
  return row;
}
