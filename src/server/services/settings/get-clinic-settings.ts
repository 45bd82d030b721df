import { eq } from "drizzle-orm";
import type { Db } from "../../../db/client.js";
import { tenants } from "../../../db/schema.js";
import { withTenant } from "../../../db/tenant-scope.js";
import { type ClinicSettings, documentValidityDays } from "../../../shared/schemas/clinic-settings.js";
import { AppError } from "../../errors.js";
import type { Actor } from "../../policies/roles.js";
import { assertSettingsManager } from "./clinic-settings-access.js";

type TenantRow = typeof tenants.$inferSelect;

export function presentClinicSettings(row: TenantRow): ClinicSettings {
  return {
    tipo_perfil: row.tipo_perfil,
    tipo_estabelecimento: row.tipo_estabelecimento,
    nome: row.nome,
    razao_social: row.razao_social,
    nome_fantasia: row.nome_fantasia,
    cnpj: row.cnpj,
    cnes: row.cnes,
    cep: row.cep,
    estado: row.estado,
    cidade: row.cidade,
    bairro: row.bairro,
    logradouro: row.logradouro,
    numero: row.numero,
    complemento: row.complemento,
    telefone: row.telefone,
    validade_documento_dias: documentValidityDays(row.settings),
  };
}

/** GET /api/settings/clinic: the clinic's data and document validity (owner and administrators). */
export async function getClinicSettings(db: Db, actor: Actor): Promise<ClinicSettings> {
  assertSettingsManager(actor);
  return withTenant(db, actor.tenantId, async (tx) => {
    const [row] = await tx.select().from(tenants).where(eq(tenants.id, actor.tenantId)).limit(1);
    if (!row) throw new AppError("NOT_FOUND");
    return presentClinicSettings(row);
  });
}
