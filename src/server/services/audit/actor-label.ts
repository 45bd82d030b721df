/**
 * Who acted, in words, for an event made through an API key (`data.chave_api`, written by
 * recordAuditEvent): the key's name and visible prefix, and the person who created it. Null when
 * the event was not made through a key.
 */
export function apiKeyActorLabel(data: Record<string, unknown>, creator: string | null): string | null {
  const key = data.chave_api as { nome?: unknown; prefixo?: unknown } | undefined;
  if (!key || typeof key.nome !== "string" || typeof key.prefixo !== "string") return null;
  return `Chave de API “${key.nome}” (${key.prefixo}…)${creator ? `, criada por ${creator}` : ""}`;
}
