import { and, asc, desc, eq, isNotNull } from "drizzle-orm";
import type { Db } from "../../../db/client.js";
import { profiles, templates, templateVersions, tenants } from "../../../db/schema.js";
import { withTenant } from "../../../db/tenant-scope.js";
import { parseTemplateContent } from "../../../shared/document-model/structure.js";
import { documentValidityDays } from "../../../shared/schemas/clinic-settings.js";
import type { DocumentFormOptions } from "../../../shared/schemas/document.js";
import { AppError } from "../../errors.js";
import type { Actor } from "../../policies/roles.js";
import { physicianCredentials } from "../../presenters/physician.js";
import { eligiblePhysicians, mustChoosePhysician } from "./responsible-physician.js";

/**
 * What the new-document screen offers: for each template, its newest published version (new
 * documents always use published wording); the physicians who may be responsible; whether the
 * user must choose one; the user's personal default texts; the clinic's data for the preview.
 */
export async function getDocumentFormOptions(db: Db, actor: Actor): Promise<DocumentFormOptions> {
  return withTenant(db, actor.tenantId, async (tx) => {
    const versions = await tx
      .selectDistinctOn([templateVersions.template_id], {
        template_id: templateVersions.template_id,
        template_version_id: templateVersions.id,
        version_number: templateVersions.version_number,
        variaveis_json: templateVersions.variaveis_json,
        titulo: templates.titulo,
        categoria: templates.categoria,
        especialidade: templates.especialidade,
      })
      .from(templateVersions)
      .innerJoin(templates, eq(templates.id, templateVersions.template_id))
      .where(and(eq(templateVersions.tenant_id, actor.tenantId), isNotNull(templateVersions.published_at)))
      .orderBy(templateVersions.template_id, desc(templateVersions.version_number));
    const physicians = await tx
      .select()
      .from(profiles)
      .where(eligiblePhysicians(actor.tenantId))
      .orderBy(asc(profiles.nome));
    const [me] = await tx.select().from(profiles).where(eq(profiles.id, actor.profileId)).limit(1);
    const [clinic] = await tx.select().from(tenants).where(eq(tenants.id, actor.tenantId)).limit(1);
    if (!me || !clinic) throw new AppError("NOT_FOUND");
    return {
      templates: versions
        .map(({ variaveis_json, ...v }) => ({ ...v, estrutura: parseTemplateContent(variaveis_json, v.titulo) }))
        .sort((a, b) => a.titulo.localeCompare(b.titulo, "pt-BR")),
      physicians: physicians.map((p) => ({
        id: p.id,
        nome: p.nome,
        cpf: p.cpf,
        conselho_tipo: p.conselho_tipo,
        conselho_numero: p.conselho_numero,
        conselho_uf: p.conselho_uf,
        ...physicianCredentials(p),
        defaults: personalDefaults(p),
      })),
      must_choose_physician: await mustChoosePhysician(tx, actor),
      defaults: personalDefaults(me),
      clinic: {
        nome: clinic.nome_fantasia ?? clinic.razao_social ?? clinic.nome,
        logradouro: clinic.logradouro,
        numero: clinic.numero,
        complemento: clinic.complemento,
        bairro: clinic.bairro,
        cidade: clinic.cidade,
        estado: clinic.estado,
        cep: clinic.cep,
        telefone: clinic.telefone,
        validade_dias: documentValidityDays(clinic.settings),
      },
    };
  });
}

/** A profile's personal default texts (/profile/templates), as the form prefills them. */
function personalDefaults(p: typeof profiles.$inferSelect): DocumentFormOptions["defaults"] {
  return {
    valor_procedimento: p.template_valor_procedimento,
    riscos_personalizados: p.template_riscos,
    beneficios_personalizados: p.template_beneficios,
    cuidados_personalizados: p.template_cuidados_pos,
  };
}
