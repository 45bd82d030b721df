import type { EspecialidadeEscolhida } from "../../db/schema.js";
import { isConselhoTipo } from "../../shared/reference/councils.js";
import { specialtyName } from "../../shared/reference/specialties.js";

interface PhysicianProfile {
  especialidade: string | null;
  especialidades: EspecialidadeEscolhida[];
  conselho_tipo: string | null;
  rqe: string | null;
}

/**
 * What documents print of a physician's qualification (CFM Res. 2.299/2021 art. 2): the first
 * chosen specialty, by name, and its RQE (the profile's own RQE when the specialty has none).
 */
export function physicianCredentials(profile: PhysicianProfile): { especialidade: string | null; rqe: string | null } {
  const first = profile.especialidades[0];
  const code = first?.especialidade ?? profile.especialidade;
  const conselho = profile.conselho_tipo && isConselhoTipo(profile.conselho_tipo) ? profile.conselho_tipo : undefined;
  return { especialidade: code ? specialtyName(code, conselho) : null, rqe: first?.rqe ?? profile.rqe };
}
