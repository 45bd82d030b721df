import { and, eq, sql } from "drizzle-orm";
import type { Tx } from "../../../db/client.js";
import { templateVersions } from "../../../db/schema.js";
import type { TemplateStructure } from "../../../shared/document-model/structure.js";
import { type Actor, can } from "../../policies/roles.js";
import { versionContent } from "./template-content.js";

type TemplateStatus = "draft" | "review" | "published";

/**
 * What a new version does to publication (update-template.ts explains the rule): on a published
 * template it is published at once when the actor may publish, otherwise the template goes to
 * review; drafts and templates in review keep their status.
 */
export function publicationOfNewVersion<S extends TemplateStatus>(
  actor: Actor,
  status: S,
): { publishNow: boolean; status: S | "review" } {
  const wasPublished = status === "published";
  const publishNow = wasPublished && can(actor, "templates.publish");
  return { publishNow, status: wasPublished && !publishNow ? "review" : status };
}

/**
 * Inserts the template's next version (max + 1) with `structure`; old versions are never touched.
 * The caller has locked the template row, so concurrent saves get consecutive numbers.
 */
export async function appendTemplateVersion(
  tx: Tx,
  actor: Actor,
  templateId: string,
  input: { structure: TemplateStructure; changelog: string; publishNow: boolean },
): Promise<{ versionNumber: number; hashModelo: string }> {
  const [max] = await tx
    .select({ n: sql<number>`coalesce(max(${templateVersions.version_number}), 0)::int` })
    .from(templateVersions)
    .where(and(eq(templateVersions.tenant_id, actor.tenantId), eq(templateVersions.template_id, templateId)));
  const versionNumber = (max?.n ?? 0) + 1;
  const content = versionContent(input.structure);
  await tx.insert(templateVersions).values({
    tenant_id: actor.tenantId,
    template_id: templateId,
    version_number: versionNumber,
    changelog: input.changelog,
    created_by: actor.profileId,
    published_at: input.publishNow ? new Date() : null,
    published_by: input.publishNow ? actor.profileId : null,
    ...content,
  });
  return { versionNumber, hashModelo: content.hash_modelo };
}
