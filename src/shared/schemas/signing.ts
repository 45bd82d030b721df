import { z } from "zod";
import { isValidCpf } from "../br/cpf.js";

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

const PNG_DATA_URL = /^data:image\/png;base64,[A-Za-z0-9+/]+={0,2}$/;

/** What the signer sends (spec part 1 §3 signer data + the drawn signature). */
export const signInputSchema = z.object({
  nome: z.string({ error: SIGNING_MESSAGES.required }).trim().min(1, SIGNING_MESSAGES.required).max(160, "Use no máximo 160 caracteres"),
  cpf: z
    .string({ error: SIGNING_MESSAGES.required })
    .trim()
    .min(1, { error: SIGNING_MESSAGES.required, abort: true })
    .refine(isValidCpf, "CPF inválido"),
  email: z
    .string({ error: SIGNING_MESSAGES.required })
    .trim()
    .min(1, { error: SIGNING_MESSAGES.required, abort: true })
    .pipe(z.email("E-mail inválido"))
    .transform((v) => v.toLowerCase()),
  telefone: z.string().trim().max(30).optional().transform((v) => (v ? v : undefined)),
  /** PNG data URL of the drawn signature. */
  assinatura: z
    .string({ error: SIGNING_MESSAGES.signatureRequired })
    .max(Math.ceil((MAX_SIGNATURE_BYTES * 4) / 3) + 40, SIGNING_MESSAGES.signatureRequired)
    .regex(PNG_DATA_URL, SIGNING_MESSAGES.signatureRequired),
  /** SHA-256 of the content the page showed; must equal the document's (no signing a stale copy). */
  conteudo_sha256: z.string().regex(/^[0-9a-f]{64}$/, "Conteúdo inválido"),
  /** The e-mail one-time code, when the clinic requires it. */
  codigo: z.string().trim().regex(/^\d{6}$/, SIGNING_MESSAGES.otpInvalid).optional(),
});
export type SignInput = z.input<typeof signInputSchema>;
export type SignData = z.output<typeof signInputSchema>;

export const signatureSummarySchema = z.object({
  nome: z.string(),
  /** Masked on public pages, full for staff. */
  cpf: z.string(),
  email: z.string(),
  telefone: z.string().nullable(),
  assinou_em: z.string(),
  metodo_assinatura: z.string(),
  ip_address: z.string().nullable(),
  user_agent: z.string().nullable(),
  /** data:image/png;base64,… of the drawn signature (staff and the signer's own page). */
  assinatura: z.string().nullable(),
});
export type SignatureSummary = z.infer<typeof signatureSummarySchema>;

/** GET /api/public/sign/:token — what the signing page draws. */
export const signingPageSchema = z.object({
  estado: z.enum(["pending", "signed"]),
  documento: z.object({
    short_id: z.string(),
    titulo: z.string(),
    status: z.string(),
    created_at: z.string(),
    /** Deadline shown on the page (spec prazo_assinatura = expiracao_at). */
    prazo_assinatura: z.string(),
    /** The frozen DocumentModel. */
    modelo: z.record(z.string(), z.unknown()),
    conteudo_sha256: z.string(),
    clinica: z.string(),
    profissional: z.string().nullable(),
  }),
  /** True when the clinic asks for the e-mail code before signing. */
  codigo_obrigatorio: z.boolean(),
  /** Masked e-mail the code goes to, when required. */
  codigo_email: z.string().nullable(),
  assinaturas: z.array(signatureSummarySchema),
});
export type SigningPage = z.infer<typeof signingPageSchema>;

/** Staff: POST /api/documents/:id/send and /resend, GET /api/documents/:id/link. */
export const signingLinkSchema = z.object({
  link: z.string(),
  expires_at: z.string(),
  whatsapp_text: z.string(),
  whatsapp_url: z.string(),
  email_enviado: z.boolean(),
});
export type SigningLink = z.infer<typeof signingLinkSchema>;

export const sendInputSchema = z.object({
  /** Also e-mail the link to the patient's registered address. */
  email: z.boolean().optional().default(false),
});

/** GET /api/public/verify/:code — what /verificar/:code tells anyone holding the code. */
export const verificationSchema = z.object({
  codigo: z.string(),
  titulo: z.string(),
  clinica: z.string(),
  status: z.string(),
  criado_em: z.string(),
  assinaturas: z.array(z.object({ nome: z.string(), cpf: z.string(), assinou_em: z.string(), metodo_assinatura: z.string() })),
  pdf_selado_sha256: z.string().nullable(),
  conteudo_sha256: z.string(),
});
export type Verification = z.infer<typeof verificationSchema>;

/** POST /api/public/verify/:code/pdf (the PDF bytes) → the verdict. */
export const pdfVerdictSchema = z.object({
  /** The file is byte-for-byte the sealed PDF of this document (SHA-256 equal). */
  identico: z.boolean(),
  /** Its PAdES signature's CMS verifies over the signed byte ranges. */
  assinatura_valida: z.boolean(),
  sha256: z.string(),
  certificado: z.string().nullable(),
});
export type PdfVerdict = z.infer<typeof pdfVerdictSchema>;
