import type { profiles, tenants } from "../../db/schema.js";
import type { CurrentUser } from "../../shared/schemas/me.js";

type ProfileRow = typeof profiles.$inferSelect;
type TenantRow = typeof tenants.$inferSelect;

/** What leaves the server about the signed-in user: never the password hash. */
export function presentCurrentUser(profile: ProfileRow, tenant: TenantRow): CurrentUser {
  return {
    profile: {
      id: profile.id,
      tenant_id: profile.tenant_id,
      nome: profile.nome,
      email: profile.email,
      cpf: profile.cpf,
      role: profile.role,
      is_proprietario: profile.is_proprietario,
      is_active: profile.is_active,
      telefone: profile.telefone,
      crm: profile.crm,
      rqe: profile.rqe,
      especialidade: profile.especialidade,
      especialidades: profile.especialidades,
      conselho_tipo: profile.conselho_tipo,
      conselho_numero: profile.conselho_numero,
      conselho_uf: profile.conselho_uf,
      created_at: profile.created_at.toISOString(),
    },
    tenant: {
      id: tenant.id,
      nome: tenant.nome,
      tipo_perfil: tenant.tipo_perfil,
      tipo_estabelecimento: tenant.tipo_estabelecimento,
      razao_social: tenant.razao_social,
      nome_fantasia: tenant.nome_fantasia,
      cnpj: tenant.cnpj,
      cnes: tenant.cnes,
    },
  };
}
