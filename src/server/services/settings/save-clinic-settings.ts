import { eq, sql } from "drizzle-orm";
import type { Db } from "../../../db/client.js";
import { tenants } from "../../../db/schema.js";
import { withTenant } from "../../../db/tenant-scope.js";
import {
  type ClinicSettings,
  type ClinicSettingsData,
  documentValidityDays,
} from "../../../shared/schemas/clinic-settings.js";
import { AppError } from "../../errors.js";
import type { Actor } from "../../policies/roles.js";
import { type AuditContext, recordAuditEvent } from "../audit/record-audit-event.js";
import { assertSettingsManager } from "./clinic-settings-access.js";
import { presentClinicSettings } from "./get-clinic-settings.js";

const orNull = (value: string | undefined) => value ?? null;

/** The tenant columns the form replaces, by kind of account (an independent professional has no company data). */
function columnsOf(input: ClinicSettingsData) {
  const common = {
    cep: orNull(input.cep),
    estado: orNull(input.estado),
    cidade: orNull(input.cidade),
    bairro: orNull(input.bairro),
    logradouro: orNull(input.logradouro),
    numero: orNull(input.numero),
    complemento: orNull(input.complemento),
    telefone: orNull(input.telefone),
  };
  if (input.tipo_perfil === "profissional_independente") return common;
  return {
    ...common,
    tipo_estabelecimento: input.tipo_estabelecimento,
    // The name shown across the app and on documents, as sign-up sets it.
    nome: input.nome_fantasia ?? input.razao_social,
    razao_social: input.razao_social,
    nome_fantasia: orNull(input.nome_fantasia),
    cnpj: input.cnpj,
    cnes: orNull(input.cnes),
  };
}

export interface SaveClinicSettingsOptions {
  db: Db;
  actor: Actor;
  input: ClinicSettingsData;
  audit: Omit<AuditContext, "tenantId" | "actorProfileId">;
  now?: Date;
}

/**
 * PUT /api/settings/clinic (owner and administrators): the clinic's data and the validity of new
 * documents, in one transaction with an audit event naming the fields that changed. The
 * validity goes into tenants.settings with jsonb_set, keeping the other settings written meanwhile.
 */
export async function saveClinicSettings({
  db,
  actor,
  input,
  audit,
  now = new Date(),
}: SaveClinicSettingsOptions): Promise<ClinicSettings> {
  assertSettingsManager(actor);
  return withTenant(db, actor.tenantId, async (tx) => {
    const [before] = await tx.select().from(tenants).where(eq(tenants.id, actor.tenantId)).limit(1).for("update");
    if (!before) throw new AppError("NOT_FOUND");
    if (before.tipo_perfil !== input.tipo_perfil) throw new AppError("SETTINGS_ACCOUNT_MISMATCH");
    const columns = columnsOf(input);
    const [row] = await tx
      .update(tenants)
      .set({
        ...columns,
        settings: sql`jsonb_set(${tenants.settings}, '{documentos}', coalesce(${tenants.settings} -> 'documentos', '{}'::jsonb) || ${JSON.stringify({ validade_dias: input.validade_documento_dias })}::jsonb, true)`,
        updated_at: now,
      })
      .where(eq(tenants.id, actor.tenantId))
      .returning();
    if (!row) throw new Error("tenants update returned no row");
    const changed = (Object.keys(columns) as (keyof typeof columns)[]).filter((key) => before[key] !== row[key]);
    const validityBefore = documentValidityDays(before.settings);
    await recordAuditEvent(
      tx,
      { tenantId: actor.tenantId, actorProfileId: actor.profileId, ...audit },
      {
        action: "settings.clinic_updated",
        entityType: "tenant",
        entityId: actor.tenantId,
        data: {
          campos: changed,
          ...(validityBefore !== input.validade_documento_dias
            ? { validade_documento_dias: { antes: validityBefore, depois: input.validade_documento_dias } }
            : {}),
        },
      },
    );
    return presentClinicSettings(row);
  });
}
