import { and, eq } from "drizzle-orm";
import type { Tx } from "../../../db/client.js";
import { templateVersions } from "../../../db/schema.js";
import { TEMPLATE_MESSAGES } from "../../../shared/schemas/template.js";
import { AppError } from "../../errors.js";
import type { Actor } from "../../policies/roles.js";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * A version of the actor's clinic's template `templateId`, or 404 'Versão não encontrada' (also
 * for a malformed id, another template's version and another clinic's).
 */
export async function findTemplateVersionOrThrow(tx: Tx, actor: Actor, templateId: string, versionId: string) {
  if (!UUID.test(versionId)) throw new AppError("NOT_FOUND", TEMPLATE_MESSAGES.versionNotFound);
  const [row] = await tx
    .select()
    .from(templateVersions)
    .where(
      and(
        eq(templateVersions.tenant_id, actor.tenantId),
        eq(templateVersions.template_id, templateId),
        eq(templateVersions.id, versionId),
      ),
    )
    .limit(1);
  if (!row) throw new AppError("NOT_FOUND", TEMPLATE_MESSAGES.versionNotFound);
  return row;
}
