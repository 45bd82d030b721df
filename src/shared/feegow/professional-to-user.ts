import { isValidCpf, normalizeCpf } from "../br/cpf.js";
import { isConselhoTipo } from "../reference/councils.js";
import { MAX_ESPECIALIDADES } from "../reference/limits.js";
import { requiresRqe, specialtiesFor } from "../reference/specialties.js";
import { isUf } from "../reference/ufs.js";
import type { UserCreateInput } from "../schemas/users.js";
import { normalizeName } from "./normalize.js";

/** What a professional of GET /professional/list gives us (the client's parsed shape). */
export interface FeegowProfessionalFields {
  profissional_id: number;
  nome: string;
  conselho: string | null;
  documento_conselho: string | null;
  uf_conselho: string | null;
  email: string | null;
  cpf: string | null;
  rqe: string | null;
  /** Specialty names as Feegow spells them. */
  especialidades: string[];
}

export type ProfessionalMapping = { ok: true; input: UserCreateInput } | { ok: false; motivo: string };

/**
 * A Feegow professional as the add-user dialog's body (decision 016, second step): invited by
 * e-mail (nobody knows a password for them), role 'profissional', the council as Feegow has it
 * and the specialties whose names match ours. The service still runs userCreateSchema, so the
 * sign-up rules (a specialty for CRM/CRO, an RQE for CRM) are the same as for a user typed in;
 * what is missing here is said in words, for the owner to complete by hand in Usuários.
 */
export function professionalToUser(professional: FeegowProfessionalFields): ProfessionalMapping {
  const cpf = professional.cpf ?? "";
  if (!cpf || !isValidCpf(cpf))
    return { ok: false, motivo: "Sem CPF válido no Feegow: cadastre este profissional em Usuários." };
  const email = professional.email?.trim() ?? "";
  if (!email)
    return { ok: false, motivo: "Sem e-mail no Feegow: o convite precisa de um e-mail. Cadastre-o em Usuários." };
  const conselho = (professional.conselho ?? "").trim().toUpperCase();
  if (!conselho)
    return { ok: false, motivo: "Sem conselho profissional no Feegow: cadastre-o em Usuários com a função adequada." };
  if (!isConselhoTipo(conselho)) {
    return {
      ok: false,
      motivo: `O conselho ${conselho} não é aceito no Consentir (CRM, COREN, CREFITO, CRO ou CRBM).`,
    };
  }
  const uf = (professional.uf_conselho ?? "").trim().toUpperCase();
  const known = new Map(specialtiesFor(conselho).map((s) => [normalizeName(s.nome), s.codigo]));
  const codigos = [
    ...new Set(
      professional.especialidades.map((name) => known.get(normalizeName(name))).filter((c): c is string => Boolean(c)),
    ),
  ];
  const rqe = professional.rqe?.trim() || null;
  return {
    ok: true,
    input: {
      nome: professional.nome,
      email,
      cpf: normalizeCpf(cpf),
      role: "profissional",
      acesso: "convite",
      conselho_tipo: conselho,
      conselho_numero: (professional.documento_conselho ?? "").trim(),
      conselho_uf: isUf(uf) ? uf : undefined,
      especialidades: codigos.slice(0, MAX_ESPECIALIDADES).map((especialidade) => ({
        especialidade,
        areas_atuacao: [],
        // Feegow keeps one RQE per professional: it goes with each matched CRM specialty.
        rqe: requiresRqe(conselho) ? rqe : null,
      })),
    },
  };
}
