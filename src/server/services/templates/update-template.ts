import { and, eq } from "drizzle-orm";
import type { Db } from "../../../db/client.js";
import { templates } from "../../../db/schema.js";
import { withTenant } from "../../../db/tenant-scope.js";
import { TEMPLATE_MESSAGES, type TemplateData, type TemplateDetail } from "../../../shared/schemas/template.js";
import { AppError } from "../../errors.js";
import type { Actor } from "../../policies/roles.js";
import { type AuditContext, recordAuditEvent } from "../audit/record-audit-event.js";
import { findTemplateOrThrow } from "./find-template.js";
import { allowedSpecialties } from "./get-allowed-specialties.js";
import { loadTemplateDetail } from "./get-template.js";
import { normalizeStructure } from "./template-content.js";
import { appendTemplateVersion, publicationOfNewVersion } from "./append-template-version.js";

export interface UpdateTemplateOptions {
  db: Db;
  actor: Actor;
  id: string;
  input: TemplateData;
  audit: Omit<AuditContext, "tenantId" | "actorProfileId">;
}

/**
 * Saves an edit: the template's fields change and a NEW immutable version (max + 1, 'Template
 * atualizado') is always inserted; old versions are never touched (spec part 2 §4). The template
 * row is locked FOR UPDATE first, so concurrent saves queue and get consecutive numbers.
 *
 * Editing a PUBLISHED template (our rule; the spec does not say): documents are always made from
 * the newest version whose published_at is set, so
 * - when the editor may publish (templates.publish), the new version is published at once
 *   (published_at = now, published_by = editor) and the template stays 'published';
 * - otherwise (e.g. pro_saude) the new version stays unpublished and the template goes to
 *   'review': documents keep using the last published version until someone who may publish
 *   publishes it.
 * Draft and review templates get an unpublished version and keep their status.
 */
export async function updateTemplate({ db, actor, id, input, audit }: UpdateTemplateOptions): Promise<TemplateDetail> {
  return withTenant(db, actor.tenantId, async (tx) => {
    const before = await findTemplateOrThrow(tx, actor, id, { lock: true });
    if (input.especialidade !== before.especialidade) {
      const allowed = await allowedSpecialties(tx, actor);
      if (!allowed.fallback && !allowed.items.includes(input.especialidade)) {
        throw new AppError("TEMPLATE_SPECIALTY_NOT_ALLOWED", TEMPLATE_MESSAGES.especialidadeNotAllowed, {
          issues: [{ path: "especialidade", message: TEMPLATE_MESSAGES.especialidadeNotAllowed }],
        });
      }
    }
    const { publishNow, status } = publicationOfNewVersion(actor, before.status);

    const [row] = await tx
      .update(templates)
      .set({
        titulo: input.titulo,
        especialidade: input.especialidade,
        categoria: input.categoria,
        status,
        updated_at: new Date(),
      })
      .where(and(eq(templates.tenant_id, actor.tenantId), eq(templates.id, id)))
      .returning({ id: templates.id });
    if (!row) throw new Error("templates update returned no row");

    const { versionNumber, hashModelo } = await appendTemplateVersion(tx, actor, id, {
      structure: normalizeStructure(input.estrutura),
      changelog: TEMPLATE_MESSAGES.changelogUpdated,
      publishNow,
    });
    await recordAuditEvent(
      tx,
      { tenantId: actor.tenantId, actorProfileId: actor.profileId, ...audit },
      {
        action: "template.updated",
        entityType: "template",
        entityId: id,
        data: {
          versao: versionNumber,
          hash_modelo: hashModelo,
          campos: (["titulo", "especialidade", "categoria"] as const).filter((key) => before[key] !== input[key]),
          status_de: before.status,
          status_para: status,
          publicada: publishNow,
        },
      },
    );
    return loadTemplateDetail(tx, actor, id);
  });
}
