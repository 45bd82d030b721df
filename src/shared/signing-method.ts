/**
 * The signing method to show for a party (spec part 1 §2 method badge: Eletrônica or ICP-Brasil):
 * the one APPLIED, not the one chosen. A professional who chose their ICP-Brasil certificate whose
 * certificate was no longer active when the final PDF was made signed by password only
 * (contratos.icp_profissional_aplicada = false, decision 041).
 */
export function appliedSigningMethod(
  party: { metodo_assinatura: string; papel: string },
  icpProfissionalAplicada: boolean | null,
): string {
  if (party.papel === "profissional" && /icp/i.test(party.metodo_assinatura) && icpProfissionalAplicada === false)
    return "eletronica";
  return party.metodo_assinatura;
}

/**
 * In the drawn image's place when a party has none: the spec's 'Assinatura Digital' only for a
 * certificate signature — in pt-BR legal usage the words mean one; the professional's password
 * signature says what it is (decision 041).
 */
export function signaturePlaceholder(party: { metodo_assinatura: string; papel?: string | null }): string {
  if (/icp/i.test(party.metodo_assinatura)) return "Assinatura Digital";
  return party.papel === "profissional" ? "Assinado no sistema com login e senha" : "Imagem da assinatura indisponível";
}

/**
 * The level badge of a party: the link signers' level; the professional's signature is advanced
 * only with the code from their account's e-mail (decision 042), otherwise named for what it is.
 */
export function signatureLevelBadge(party: {
  nivel_assinatura: string;
  tipo_assinatura?: string | null;
  otp_verificado?: boolean | null;
}): string {
  if (party.tipo_assinatura === "senha")
    return party.nivel_assinatura === "avancada" && party.otp_verificado ? "Avançada" : "Login e senha";
  return party.nivel_assinatura === "avancada" ? "Avançada" : "Simples";
}
