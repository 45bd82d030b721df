import { z } from "zod";
import { isValidCpf } from "../br/cpf.js";
import { MAX_SIGNATURE_BYTES, SIGNING_MESSAGES } from "../signing-rules.js";

export {
  cpfMatches,
  MAX_SIGNATURE_BYTES,
  maskCpf,
  maskEmail,
  MIN_SIGNATURE_BYTES,
  nameMatches,
  OTP_DIGITS,
  OTP_MAX_ATTEMPTS,
  OTP_TTL_MINUTES,
  SIGNATURE_CANVAS,
  SIGNING_MESSAGES,
  signingPath,
  whatsappMessage,
  whatsappUrl,
} from "../signing-rules.js";

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
  email: z.boolean({ error: "Valor inválido" }).optional().default(false),
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
