/**
 * Signing rules without zod: constants, messages and pure checks. The public signing page imports
 * this module directly (its bundle must not carry zod); src/shared/schemas/signing.ts re-exports it.
 */
/** Signature canvas (spec part 1 §9): 280×120 CSS px, black line 2 px. */
export const SIGNATURE_CANVAS = { width: 280, height: 120, lineWidth: 2, color: "#000000" } as const;
/** A drawn signature PNG (base64 data URL) is refused above this size. */
export const MAX_SIGNATURE_BYTES = 300_000;
/** …and below this (an empty canvas exports a few hundred bytes). */
export const MIN_SIGNATURE_BYTES = 200;
export const OTP_DIGITS = 6;
export const OTP_TTL_MINUTES = 10;
export const OTP_MAX_ATTEMPTS = 5;

export const SIGNING_MESSAGES = {
  invalidLink: "O link de assinatura é inválido ou expirado",
  validateError: "Erro ao validar link de assinatura",
  required: "Nome, CPF e E-mail são obrigatórios",
  nameMismatch: "Nome não confere com os dados do paciente",
  cpfMismatch: "CPF não confere com os dados do paciente",
  signatureRequiredTitle: "Assinatura obrigatória",
  signatureRequired: "Por favor, assine no campo acima",
  signErrorTitle: "Erro ao assinar",
  signError: "Erro ao processar assinatura. Tente novamente.",
  signedTitle: "Documento assinado com sucesso!",
  signed: "Sua assinatura foi registrada com segurança",
  contentError: "Erro ao gerar conteúdo do documento.",
  noContent: "Nenhum conteúdo de template encontrado.",
  notFound: "Documento não encontrado",
  signedNotice: "Todos os participantes receberão uma cópia do documento assinado por e-mail.",
  otpSent: "Enviamos um código de 6 dígitos para o seu e-mail cadastrado.",
  otpRequired: "Digite o código enviado para o seu e-mail",
  otpInvalid: "Código inválido ou expirado. Peça um novo código.",
  linkCopied: "Link copiado!",
  messageCopied: "Mensagem copiada!",
  tokenMissing: "Token de assinatura não gerado",
  linkError: "Erro ao gerar link de assinatura",
  whatsappError: "Erro ao gerar mensagem WhatsApp",
  sent: "Documento enviado para assinatura",
  resent: "Novo link de assinatura gerado; o anterior deixou de funcionar",
  emailQueued: "E-mail com o link enviado ao paciente",
  patientEmailMissing: "O paciente não tem e-mail cadastrado",
} as const;

/** The ready WhatsApp text (spec part 1 §2: a message containing the link). */
export function whatsappMessage(patientName: string, title: string, link: string): string {
  const first = patientName.trim().split(/\s+/)[0] ?? patientName;
  return `Olá, ${first}! Segue o link para ler e assinar o documento "${title}": ${link}`;
}

/** wa.me link to a Brazilian phone (digits, 55 prefix) with the text. */
export function whatsappUrl(phone: string | null, text: string): string {
  const digits = (phone ?? "").replace(/\D/g, "");
  const number = digits ? (digits.startsWith("55") && digits.length > 11 ? digits : `55${digits}`) : "";
  return `https://wa.me/${number}?text=${encodeURIComponent(text)}`;
}

/** Public path of a signing link (spec part 1 §9: origin + /assinar/{token}). */
export const signingPath = (token: string) => `/assinar/${token}`;

/**
 * The name typed by the signer must be contained in the patient's name, case- and
 * accent-insensitively (spec part 1 §5; the server repeats the check).
 */
export function nameMatches(typed: string, patientName: string): boolean {
  const fold = (s: string) =>
    s
      .normalize("NFD")
      .replace(/\p{M}/gu, "")
      .toLowerCase()
      .replace(/\s+/g, " ")
      .trim();
  const t = fold(typed);
  return t.length > 0 && fold(patientName).includes(t);
}

export function cpfMatches(typed: string, patientCpf: string | null): boolean {
  const digits = typed.replace(/\D/g, "");
  return !!patientCpf && digits.length === 11 && digits === patientCpf.replace(/\D/g, "");
}

/** "***.456.789-**": enough to recognise, not to reuse (public pages). */
export function maskCpf(cpf: string): string {
  const d = cpf.replace(/\D/g, "");
  if (d.length !== 11) return "***.***.***-**";
  return `***.${d.slice(3, 6)}.${d.slice(6, 9)}-**`;
}

/** "ma***@gmail.com" */
export function maskEmail(email: string): string {
  const [user = "", domain = ""] = email.split("@");
  return `${user.slice(0, 2)}***@${domain}`;
}
