import { sql } from "drizzle-orm";
import type { Db } from "../../../db/client.js";
import { profiles, tenants } from "../../../db/schema.js";
import type { SignUp } from "../../../shared/schemas/signup.js";
import { AppError } from "../../errors.js";
import { hashPassword } from "../../lib/passwords.js";
import { isUniqueViolation } from "../../lib/pg-errors.js";

export interface SignUpResult {
  tenantId: string;
  profileId: string;
}

/**
 * Creates, in one transaction, the tenant and its owner profile. An independent professional
 * gets a tenant of their own. The owner is a professional (they gave council data) and holds
 * the owner flag, which grants the administrative powers (docs/decisions/004-owner-role.md).
 */
export async function signUp(db: Db, input: SignUp): Promise<SignUpResult> {
  const passwordHash = await hashPassword(input.password);
  const especialidades = input.especialidades.filter((e) => e.especialidade !== "");
  const first = especialidades[0];

  try {
    return await db.transaction(async (tx) => {
      const existing = await tx
        .select({ id: profiles.id })
        .from(profiles)
        .where(sql`lower(${profiles.email}) = ${input.email}`)
        .limit(1);
      if (existing.length > 0) throw new AppError("EMAIL_TAKEN");

      const tenantValues =
        input.profile_type === "estabelecimento"
          ? {
              tipo_perfil: "estabelecimento" as const,
              tipo_estabelecimento: input.tipo_estabelecimento,
              nome: input.nome_fantasia ?? input.razao_social,
              razao_social: input.razao_social,
              nome_fantasia: input.nome_fantasia,
              cnpj: input.cnpj,
              cnes: input.cnes,
              cep: input.cep,
              estado: input.estado,
              cidade: input.cidade,
              bairro: input.bairro,
              logradouro: input.logradouro,
              numero: input.numero,
              complemento: input.complemento,
            }
          : { tipo_perfil: "profissional_independente" as const, nome: input.nome, telefone: input.telefone };

      const [tenant] = await tx.insert(tenants).values(tenantValues).returning({ id: tenants.id });
      if (!tenant) throw new Error("tenant insert returned no row");

      const [profile] = await tx
        .insert(profiles)
        .values({
          tenant_id: tenant.id,
          is_proprietario: true,
          nome: input.nome,
          email: input.email,
          password_hash: passwordHash,
          cpf: input.cpf,
          role: "profissional",
          telefone: input.telefone,
          conselho_tipo: input.conselho_tipo,
          conselho_numero: input.conselho_numero,
          conselho_uf: input.conselho_uf,
          crm: input.conselho_tipo === "CRM" ? input.conselho_numero : null,
          especialidades,
          especialidade: first?.especialidade ?? null,
          rqe: first?.rqe ?? null,
        })
        .returning({ id: profiles.id });
      if (!profile) throw new Error("profile insert returned no row");
      return { tenantId: tenant.id, profileId: profile.id };
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError("EMAIL_TAKEN");
    throw error;
  }
}
