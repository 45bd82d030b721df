import { and, eq } from "drizzle-orm";
import type { z } from "zod";
import type { Db } from "../../../db/client.js";
import { profiles } from "../../../db/schema.js";
import { withTenant } from "../../../db/tenant-scope.js";
import type { TemplateDefaults, templateDefaultsInputSchema } from "../../../shared/schemas/template.js";
import { AppError } from "../../errors.js";
import type { Actor } from "../../policies/roles.js";
import { type AuditContext, recordAuditEvent } from "../audit/record-audit-event.js";
import { templateDefaultColumns } from "./get-template-defaults.js";

/** Replaces the signed-in user's four default texts (blank → null); any role: it is their own profile. */
export async function saveTemplateDefaults(
  db: Db,
  actor: Actor,
  input: z.output<typeof templateDefaultsInputSchema>,
  audit: Omit<AuditContext, "tenantId" | "actorProfileId">,
): Promise<TemplateDefaults> {
  return withTenant(db, actor.tenantId, async (tx) => {
    const [row] = await tx
      .update(profiles)
      .set({
        template_riscos: input.template_riscos,
        template_beneficios: input.template_beneficios,
        template_cuidados_pos: input.template_cuidados_pos,
        template_valor_procedimento: input.template_valor_procedimento,
        updated_at: new Date(),
      })
      .where(and(eq(profiles.tenant_id, actor.tenantId), eq(profiles.id, actor.profileId)))
      .returning(templateDefaultColumns);
    if (!row) throw new AppError("UNAUTHENTICATED");
    await recordAuditEvent(
      tx,
      { tenantId: actor.tenantId, actorProfileId: actor.profileId, ...audit },
      {
        action: "profile.template_defaults_saved",
        entityType: "profile",
        entityId: actor.profileId,
        data: {
          preenchidos: Object.entries(row)
            .filter(([, value]) => value !== null)
            .map(([key]) => key),
        },
      },
    );
    return row;
  });
}
