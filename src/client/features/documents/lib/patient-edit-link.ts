/** The patient's edit page ("Completar cadastro"), coming back to `returnTo` after saving. */
export function patientEditLink(patientId: string, returnTo?: string): string {
  const base = `/patients/${encodeURIComponent(patientId)}/edit`;
  return returnTo ? `${base}?voltar=${encodeURIComponent(returnTo)}` : base;
}

/** Only a path of this app is followed after saving (never another site: "//x", "https:"). */
export function safeReturnPath(value: string | null): string | null {
  if (!value || !value.startsWith("/") || value.startsWith("//") || value.startsWith("/\\")) return null;
  return value;
}
