import { eq } from "drizzle-orm";
import type { DbOrTx } from "../../../db/client.js";
import { profiles } from "../../../db/schema.js";
import { normalizeCpf } from "../../../shared/br/cpf.js";
import { professionalToUser } from "../../../shared/feegow/professional-to-user.js";
import type { FeegowProfessionalRow } from "../../../shared/schemas/feegow.js";
import { type UserCreate, userCreateSchema } from "../../../shared/schemas/users.js";
import { maskCpf } from "../../../shared/signing-rules.js";
import type { FeegowProfessional } from "./feegow-client.js";

export interface ProfessionalPlan {
  row: FeegowProfessionalRow;
  /** The add-user body, for a professional that can be imported. */
  input: UserCreate | null;
}

/** CPF → profile id of the clinic's users (a clinic has tens of users). */
export async function usersByCpf(tx: DbOrTx, tenantId: string): Promise<Map<string, string>> {
  const rows = await tx
    .select({ id: profiles.id, cpf: profiles.cpf })
    .from(profiles)
    .where(eq(profiles.tenant_id, tenantId));
  return new Map(rows.map((row) => [normalizeCpf(row.cpf), row.id]));
}

/**
 * Each Feegow professional beside the clinic's users, matched by CPF: already a user, ready to be
 * invited (the add-user rules pass), or incomplete with the reason in words.
 */
export function planProfessionals(
  professionals: readonly FeegowProfessional[],
  existing: Map<string, string>,
): ProfessionalPlan[] {
  return professionals.map((professional) => {
    const cpfDigits = normalizeCpf(professional.cpf ?? "");
    const conselho = professional.conselho
      ? `${professional.conselho.toUpperCase()} ${professional.documento_conselho ?? ""}${professional.uf_conselho ? `/${professional.uf_conselho.toUpperCase()}` : ""}`.trim()
      : null;
    const base = {
      feegow_id: professional.profissional_id,
      nome: professional.nome,
      conselho,
      email: professional.email,
      cpf: cpfDigits.length === 11 ? maskCpf(cpfDigits) : null,
    };
    const userId = cpfDigits ? existing.get(cpfDigits) : undefined;
    if (userId) return { row: { ...base, situacao: "existente", usuario_id: userId, motivo: null }, input: null };
    const mapped = professionalToUser(professional);
    if (!mapped.ok)
      return { row: { ...base, situacao: "incompleto", usuario_id: null, motivo: mapped.motivo }, input: null };
    const parsed = userCreateSchema.safeParse(mapped.input);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const motivo = `${issue?.message ?? "Dados incompletos"} — complete o cadastro em Usuários.`;
      return { row: { ...base, situacao: "incompleto", usuario_id: null, motivo }, input: null };
    }
    return { row: { ...base, situacao: "novo", usuario_id: null, motivo: null }, input: parsed.data };
  });
}
