/**
 * What the signed-in user may do with patients, so the screens offer only what the server will
 * accept. Mirrors src/server/policies/roles.ts ("patients.write", "patients.delete"); the
 * server stays the one that decides.
 */
interface PatientActor {
  role: string;
  is_proprietario: boolean;
}

const WRITERS = new Set(["profissional", "admin", "atendente", "pro_saude"]);

export function canWritePatients(profile: PatientActor | null | undefined): boolean {
  if (!profile) return false;
  return profile.is_proprietario || WRITERS.has(profile.role);
}

export function canDeletePatients(profile: PatientActor | null | undefined): boolean {
  if (!profile) return false;
  return profile.is_proprietario || profile.role === "admin";
}
