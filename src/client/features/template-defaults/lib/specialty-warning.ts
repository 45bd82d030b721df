import type { AllowedSpecialties } from "@shared/schemas/template";

export const SPECIALTY_WARNINGS = {
  noSpecialties:
    "Nenhuma especialidade vinculada ao seu perfil. Peça ao superusuário da clínica para vincular suas especialidades.",
  needsClinic:
    "Como administrador da plataforma, você precisa do contexto de uma clínica para listar as especialidades. Escolha a clínica em “Especialidades por clínica”, abaixo.",
} as const;

export type SpecialtyWarning = keyof typeof SPECIALTY_WARNINGS;

/**
 * Which warning /profile/templates shows (spec part 2 §2 Personal template defaults, §6):
 * - saas_admin: a clinic context is needed to list specialties (its own list is not asked for);
 * - a professional who is not the clinic's owner (pro_saude or any other role) and whose allowed
 *   specialties are the fallback list or empty: ask the clinic superuser to link them;
 * - the owner is the superuser: no warning.
 * Null while the specialties are unknown (still loading or failed).
 */
export function specialtyWarning(
  profile: { role: string; is_proprietario: boolean } | null | undefined,
  specialties: AllowedSpecialties | undefined,
): SpecialtyWarning | null {
  if (!profile) return null;
  if (profile.role === "saas_admin") return "needsClinic";
  if (profile.is_proprietario) return null;
  if (!specialties) return null;
  return specialties.fallback || specialties.items.length === 0 ? "noSpecialties" : null;
}
