/**
 * The token of a password-reset link as the server issues it: 32 random bytes in base64url
 * (src/server/lib/tokens.ts), so exactly 43 characters of A–Z a–z 0–9 - _.
 */
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

export const RESET_LINK_MESSAGES = {
  cut: "Este link de redefinição de senha está incompleto. Isso acontece quando o endereço é cortado ao ser copiado do e-mail. Peça um novo link e abra-o direto do e-mail.",
  invalid: "Este link de redefinição de senha já foi usado ou expirou (ele vale por 60 minutos). Peça um novo link.",
} as const;

/**
 * The token read from the link, or null when the link was cut or changed. Punctuation an e-mail
 * client glued to the end of the address ("…token=abc)." ) is dropped first.
 */
export function readResetToken(raw: string | null): string | null {
  const token = (raw ?? "").trim().replace(/[^A-Za-z0-9_-]+$/, "");
  return TOKEN.test(token) ? token : null;
}
