import { z } from "zod";
import { text } from "./safe-input.js";
import { isValidCpf } from "../br/cpf.js";
import { isMobilePhone, normalizePhone } from "../br/phone.js";
import { MAX_SIGNATURE_BYTES, SIGNING_MESSAGES } from "../signing-rules.js";
import { readingBatchSchema, readingSummarySchema } from "../reading/reading-record.js";
import { optionalAnswersInputSchema } from "../document-model/optional-consents.js";
import { comprehensionSummarySchema } from "../document-model/comprehension.js";
import { embeddedInputSchema } from "./embedding.js";
import { A_ROGO_MOTIVOS, aRogoReadingSchema } from "./a-rogo.js";

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
export const signInputSchema = z
  .object({
    nome: text({ error: SIGNING_MESSAGES.required })
      .trim()
      .min(1, SIGNING_MESSAGES.required)
      .max(160, "Use no máximo 160 caracteres"),
    cpf: text({ error: SIGNING_MESSAGES.required })
      .trim()
      .min(1, { error: SIGNING_MESSAGES.required, abort: true })
      .refine(isValidCpf, "CPF inválido"),
    email: text({ error: SIGNING_MESSAGES.required })
      .trim()
      .min(1, { error: SIGNING_MESSAGES.required, abort: true })
      .pipe(z.email("E-mail inválido"))
      .transform((v) => v.toLowerCase()),
    /**
     * The e-mail typed again, which the page asks for when the clinic has no address for the signer:
     * the copy of the sealed PDF then goes to the typed one (decision 045), so a typo must not send a
     * patient's term to a stranger (decision 047). When given, it must be the same address.
     */
    email_confirmacao: text().trim().max(254).optional(),
    telefone: text()
      .trim()
      .max(30)
      .optional()
      .transform((v) => (v ? v : undefined)),
    /** PNG data URL of the drawn signature. */
    assinatura: text({ error: SIGNING_MESSAGES.signatureRequired })
      .max(Math.ceil((MAX_SIGNATURE_BYTES * 4) / 3) + 40, SIGNING_MESSAGES.signatureRequired)
      .regex(PNG_DATA_URL, SIGNING_MESSAGES.signatureRequired),
    /** SHA-256 of the content the page showed; must equal the document's (no signing a stale copy). */
    conteudo_sha256: text().regex(/^[0-9a-f]{64}$/, "Conteúdo inválido"),
    /** The e-mail one-time code, when the clinic requires it. */
    codigo: text()
      .trim()
      .regex(/^\d{6}$/, SIGNING_MESSAGES.otpInvalid)
      .optional(),
    /** Drawn on the canvas, or typed and drawn by the page (accessibility); recorded as such. */
    tipo_assinatura: z.enum(["desenhada", "digitada"]).default("desenhada"),
    /**
     * The reading record's last batch (decision 052). A malformed one is dropped, never a reason to
     * refuse the signature.
     */
    leitura: readingBatchSchema.optional().catch(undefined),
    /**
     * Sim/Não to each separate optional consent of the frozen model (decision 057); the server
     * wants exactly its ids. Absent: no answers (right only for a model without items, or a witness).
     */
    consentimentos_opcionais: optionalAnswersInputSchema.optional(),
    /** The explicit consent to sign electronically (ELECTRONIC_CONSENT, recorded with its SHA-256). */
    aceite_eletronico: z.literal(true, { error: SIGNING_MESSAGES.consentRequired }),
    /** "Saiba mais" under the consent box was opened, as the phone reports it (decision 067; not checked). */
    aceite_detalhe_aberto: z.boolean().optional().catch(undefined),
    /**
     * Shown inside a clinic's system (decision 071): the parent site the page posts its events to.
     * Kept only when it is one the clinic allows; a malformed one is dropped, never a reason to refuse.
     */
    incorporado: embeddedInputSchema.catch(undefined),
    /** Signed "a rogo" at the front desk (decision 070): who read the term aloud to the patient, and that they did. */
    a_rogo: aRogoReadingSchema.optional(),
  })
  .superRefine((input, context) => {
    if (input.email_confirmacao !== undefined && input.email_confirmacao.toLowerCase() !== input.email) {
      context.addIssue({
        code: "custom",
        path: ["email_confirmacao"],
        message: SIGNING_MESSAGES.emailConfirmationMismatch,
      });
    }
  });

/** POST /api/documents/:id/professional-signature: the professional's own password, typed again. */
export const professionalSignatureInputSchema = z.object({
  senha: text({ error: "Digite sua senha" }).min(1, "Digite sua senha").max(200, "A senha é longa demais"),
  /** Also sign the final PDF with one's own active ICP-Brasil A1. */
  com_certificado: z.boolean().optional(),
  /** The code sent to the e-mail of one's own account (decision 042): with it, an advanced signature. */
  codigo: text({ error: SIGNING_MESSAGES.otpRequired })
    .trim()
    .regex(/^\d{6}$/, SIGNING_MESSAGES.otpInvalid)
    .optional(),
});

/** At most this many declarations in one batch signature (decision 050). */
export const MAX_BATCH_SIGNATURES = 50;
const batchIds = z
  .array(z.uuid("Documento não encontrado"), { error: "Selecione os documentos a assinar" })
  .min(1, "Selecione ao menos um documento")
  .max(MAX_BATCH_SIGNATURES, `Selecione no máximo ${MAX_BATCH_SIGNATURES} documentos por vez`);

/** POST /api/documents/professional-signatures: several declarations, one password and one code. */
export const professionalBatchSignatureInputSchema = professionalSignatureInputSchema.extend({ ids: batchIds });

/** POST /api/documents/professional-signatures/code: one code for the documents to sign together. */
export const professionalBatchCodeInputSchema = z.object({ ids: batchIds });

/** POST /api/public/sign/:token/code: which channel (default: the first the page offers). */
export const sendCodeInputSchema = z.object({ canal: z.enum(["email", "sms", "whatsapp"]).optional() }).nullish();

/** POST /api/public/sign/:token/verify-code */
export const verifyCodeInputSchema = z.object({
  codigo: text({ error: SIGNING_MESSAGES.otpRequired })
    .trim()
    .regex(/^\d{6}$/, SIGNING_MESSAGES.otpInvalid),
});
export type SignInput = z.input<typeof signInputSchema>;
export type SignData = z.output<typeof signInputSchema>;

export const signatureSummarySchema = z.object({
  nome: text(),
  /** paciente, responsavel, profissional or testemunha, and the capacity printed ("responsável legal de …", "testemunha"). */
  papel: z.enum(["paciente", "responsavel", "profissional", "testemunha"]),
  qualidade: text().nullable(),
  /** Masked on public pages, full for staff. */
  cpf: text(),
  email: text(),
  telefone: text().nullable(),
  assinou_em: text(),
  metodo_assinatura: text(),
  ip_address: text().nullable(),
  user_agent: text().nullable(),
  /** The reading record the signer's device sent (staff only; decision 052). */
  leitura: readingSummarySchema.nullable().optional(),
  /** Every answer to the comprehension questions (staff only; decision 061). */
  compreensao: comprehensionSummarySchema.nullable().optional(),
  /** The audio of the agreement (staff only; decision 069): asked, recorded, its hash and length. */
  audio: z
    .object({
      gravado: z.boolean(),
      sha256: text().nullable(),
      duracao_ms: z.number().int().nullable(),
      frase: text().nullable(),
    })
    .nullable()
    .optional(),
  /** The party's id (staff only): the audio route names it. */
  parte_id: text().optional(),
  /** TCP source port and the parsed device (staff only). */
  porta_origem: z.number().int().nullable(),
  dispositivo: text().nullable(),
  /** avançada (code verified) or simples. */
  nivel_assinatura: z.enum(["avancada", "simples"]),
  /** The signer confirmed a one-time code (the professional's badge depends on it, decision 042). */
  otp_verificado: z.boolean(),
  /** Drawn on the canvas or typed (accessibility). */
  tipo_assinatura: z.enum(["desenhada", "digitada", "senha"]),
  /** data:image/png;base64,… of the drawn signature (staff and the signer's own page). */
  assinatura: text().nullable(),
});
export type SignatureSummary = z.infer<typeof signatureSummarySchema>;

/** GET /api/public/sign/:token — what the signing page draws. */
export const signingPageSchema = z.object({
  estado: z.enum(["pending", "signed"]),
  documento: z.object({
    short_id: text(),
    titulo: text(),
    status: text(),
    created_at: text(),
    /** Deadline shown on the page (spec prazo_assinatura = expiracao_at). */
    prazo_assinatura: text(),
    /** The frozen DocumentModel. */
    modelo: z.record(text(), z.unknown()),
    conteudo_sha256: text(),
    clinica: text(),
    /** The clinic's logo (its public, content-addressed PNG), or null. */
    clinica_logo_url: text().nullable(),
    profissional: text().nullable(),
  }),
  /** True when the clinic asks for the e-mail code before signing. */
  codigo_obrigatorio: z.boolean(),
  /** Masked e-mail the code goes to, when required. */
  codigo_email: text().nullable(),
  /**
   * Where this signer's copy of the sealed PDF will go (masked): the address the clinic has on
   * record for them (decision 045). Null when it has none: the copy then goes to the address typed
   * on the page, which the page asks to be typed twice (decision 047).
   */
  copia_para: text().nullable(),
  /** Where the code can go (e-mail and/or SMS to a mobile on record), destination masked. */
  codigo_canais: z.array(z.object({ canal: z.enum(["email", "sms", "whatsapp"]), destino: text() })),
  /** The code was verified (POST …/verify-code): the term comes whole. */
  codigo_verificado: z.boolean(),
  /** The term's CPFs are masked until the code is verified. */
  conteudo_mascarado: z.boolean(),
  /** What the signature will reach: avançada with the code, simples without. */
  nivel: z.enum(["avancada", "simples"]),
  /** Why it will be simple (pt-BR), or null. */
  motivo_simples: text().nullable(),
  /**
   * Who signs through this link: the patient, their legal guardian in their own name ("responsável
   * legal de …"), or a witness named on the document (decision 021).
   */
  signatario: z.object({
    papel: z.enum(["paciente", "responsavel", "testemunha"]),
    qualidade: text().nullable(),
    paciente_nome: text(),
    /** Signed "a rogo" (decision 070): at whose request, and why they do not sign; null otherwise. */
    a_rogo: z.object({ a_pedido_de: text(), motivo: z.enum(A_ROGO_MOTIVOS) }).nullable(),
  }),
  /** This link's signer has signed, but other parties (witnesses, the patient) have not yet: no sealed PDF to offer. */
  aguardando_outras_assinaturas: z.boolean(),
  /** …and the one missing is the responsible professional (decision 050): the page says so plainly. */
  aguardando_profissional: z.boolean(),
  /**
   * E-mail really leaves this server (SMTP_URL is set). When false, nothing is promised by e-mail:
   * the signed page offers the download instead.
   */
  email_configurado: z.boolean(),
  /** Signed and the sealed PDF exists: GET …/signed-pdf answers 200 (else the page polls HEAD). */
  pdf_assinado_pronto: z.boolean(),
  assinaturas: z.array(signatureSummarySchema),
  /** After signing: the signer's own Sim/Não to each optional consent (decision 057). */
  consentimentos_opcionais: z
    .array(
      z.object({
        id: text(),
        aceito: z.boolean(),
        /** A "Sim" revoked later on its own (decision 057): when, and its record's code. */
        revogado_em: text().optional(),
        codigo_revogacao: text().optional(),
      }),
    )
    .optional(),
  /**
   * A signed document (every party signed) on the patient's or guardian's own link, never a
   * witness's (decision 056): whether it was revoked (when, and the revocation record's code), and
   * the code the revocation asks for — the same requirement as the signature. Absent otherwise.
   */
  revogacao: z
    .object({
      revogado_em: text().nullable(),
      codigo_verificacao: text().nullable(),
      codigo_obrigatorio: z.boolean(),
      codigo_canais: z.array(z.object({ canal: z.enum(["email", "sms", "whatsapp"]), destino: text() })),
    })
    .optional(),
  /**
   * The comprehension questions' state for this link (decision 061): which are answered rightly,
   * how many tries, whether the signer asked to talk to the professional. Null: none to answer.
   * The questions themselves are in the model, without their right option.
   */
  compreensao: z
    .object({
      respostas: z.array(z.object({ pergunta_id: text(), verificada: z.boolean(), tentativas: z.number().int() })),
      pausada: z.boolean(),
      max_tentativas: z.number().int(),
    })
    .nullable()
    .optional(),
  /**
   * The clinic asks this signer to record the agreement sentence (decision 069): the sentence,
   * the limits, and the last recording kept for this link. Null or absent: not asked.
   */
  audio: z
    .object({
      frase: text(),
      max_ms: z.number().int(),
      max_bytes: z.number().int(),
      max_envios: z.number().int(),
      envios: z.number().int(),
      gravacao: z.object({ duracao_ms: z.number().int(), sha256: text() }).nullable(),
    })
    .nullable()
    .optional(),
  /**
   * Embedded signing (decision 071): the document's id (as the API and webhooks name it) and the
   * sites that may show this page inside them — the only targets of its postMessage events. Null
   * when the clinic allows no site.
   */
  incorporacao: z
    .object({ documento_id: text(), origens: z.array(text()) })
    .nullable()
    .optional(),
});
export type SigningPage = z.infer<typeof signingPageSchema>;

/** A witness's own signing link, for staff (decision 021). */
export const witnessLinkSchema = z.object({
  id: text(),
  ordem: z.number().int(),
  nome: text(),
  link: text(),
  expires_at: text(),
  whatsapp_text: text(),
  whatsapp_url: text(),
  /** The link was e-mailed to the witness's address (false: no e-mail asked, or none on the witness). */
  email_enviado: z.boolean(),
});
export type WitnessLink = z.infer<typeof witnessLinkSchema>;

/** Staff: POST /api/documents/:id/send and /resend, GET /api/documents/:id/link. */
export const signingLinkSchema = z.object({
  link: text(),
  expires_at: text(),
  whatsapp_text: text(),
  whatsapp_url: text(),
  email_enviado: z.boolean(),
  /** The e-mail was queued but cannot leave: SMTP is not configured (it waits in the outbox). */
  email_na_caixa_de_saida: z.boolean(),
  /** What the patient's signature will reach with the clinic's setting and this server. */
  nivel: z.enum(["avancada", "simples"]),
  motivo_simples: text().nullable(),
  /** On Enviar: each witness's own link (decision 021), e-mailed to them when asked and possible. */
  testemunhas: z.array(witnessLinkSchema).optional(),
  /** On Enviar: the link also went by WhatsApp (Cloud API) to the mobile on record (decision 059). */
  whatsapp_enviado: z.boolean().optional(),
  /** SMS was asked (decision 066, "Link por SMS"): true when the link was queued by SMS. */
  sms_enviado: z.boolean().optional(),
  /** SMS was asked and could not go: why, in pt-BR (the send went on by the other channels). */
  sms_motivo: text().nullable().optional(),
});
export type SigningLink = z.infer<typeof signingLinkSchema>;

export const sendInputSchema = z.object({
  /** Also e-mail the link to the patient's registered address. */
  email: z.boolean({ error: "Valor inválido" }).optional().default(false),
  /** Also send the link by WhatsApp (Cloud API, decision 059) when the server has it; on by default. */
  whatsapp: z.boolean({ error: "Valor inválido" }).optional(),
  /** Also send the link by SMS to the patient's mobile (decision 066); off unless chosen. */
  sms: z.boolean({ error: "Valor inválido" }).optional().default(false),
});

/** Why an asked SMS with the link did not go (decision 066). */
export const SMS_LINK_MESSAGES = {
  notConfigured: "Este servidor não envia SMS: o link não foi enviado por SMS.",
  noMobile: "O paciente não tem celular cadastrado: o link não foi enviado por SMS.",
} as const;

export const CONTACT_FIX_MESSAGES = {
  emailInvalid: "E-mail inválido",
  mobileInvalid: "Celular inválido: informe DDD e número, por exemplo (11) 91234-5678",
  nothing: "Informe o e-mail ou o celular corrigido",
  unchanged: "O e-mail e o celular informados já são os do cadastro",
  done: "Contato corrigido; novo link enviado e o anterior deixou de funcionar",
} as const;

/**
 * Staff: POST /api/documents/:id/contact — "Corrigir contato e reenviar": the patient's e-mail
 * and/or mobile as they should be, then a new link (the old one and any pending code stop working).
 */
export const contactFixInputSchema = z
  .object({
    email: text({ error: CONTACT_FIX_MESSAGES.emailInvalid })
      .trim()
      .max(254, CONTACT_FIX_MESSAGES.emailInvalid)
      .optional()
      .refine((value) => !value || z.email().safeParse(value).success, CONTACT_FIX_MESSAGES.emailInvalid)
      .transform((value) => (value ? value.toLowerCase() : undefined)),
    telefone: text({ error: CONTACT_FIX_MESSAGES.mobileInvalid })
      .trim()
      .max(30, CONTACT_FIX_MESSAGES.mobileInvalid)
      .optional()
      .refine((value) => !value || isMobilePhone(value), CONTACT_FIX_MESSAGES.mobileInvalid)
      .transform((value) => (value ? normalizePhone(value) : undefined)),
    /** Also e-mail the new link to the (corrected) address. */
    enviar_email: z.boolean({ error: "Valor inválido" }).optional().default(false),
    /** Also send the new link by WhatsApp (Cloud API) when the server has it; on by default. */
    whatsapp: z.boolean({ error: "Valor inválido" }).optional(),
    /** Also send the new link by SMS to the (corrected) mobile (decision 066); off unless chosen. */
    sms: z.boolean({ error: "Valor inválido" }).optional().default(false),
  })
  .refine((value) => value.email !== undefined || value.telefone !== undefined, {
    message: CONTACT_FIX_MESSAGES.nothing,
  });
export type ContactFixInput = z.input<typeof contactFixInputSchema>;

/**
 * Staff: GET /api/documents/:id/send-check — before Enviar/Reenviar, what the server would say:
 * the problems (blocking ones make it refuse; src/shared/send-readiness and the document's own
 * state) and whether the link can also go by e-mail.
 */
export const sendCheckSchema = z.object({
  /** "send" for a draft, "resend" for a sent, viewed or expired document, null otherwise. */
  modo: z.enum(["send", "resend"]).nullable(),
  paciente_id: text(),
  problemas: z.array(z.object({ codigo: text(), mensagem: text(), bloqueia: z.boolean() })),
  /** The patient has an e-mail: "Enviar também por e-mail" can be ticked. */
  email_possivel: z.boolean(),
  /** The signer has a mobile on record: "SMS" can be ticked when the server has SMS (decision 066). */
  celular_possivel: z.boolean().optional(),
  /** Reenviar on an expired document gives it a new deadline. */
  novo_prazo: z.boolean(),
  /** Signed "a rogo" at the front desk (decision 070): the link is not sent to the patient. */
  a_rogo: z.boolean(),
});
export type SendCheck = z.infer<typeof sendCheckSchema>;

/** GET /api/public/verify/:code — what /verificar/:code tells anyone holding the code. */
export const verificationSchema = z.object({
  codigo: text(),
  titulo: text(),
  clinica: text(),
  status: text(),
  criado_em: text(),
  assinaturas: z.array(z.object({ nome: text(), cpf: text(), assinou_em: text(), metodo_assinatura: text() })),
  pdf_selado_sha256: text().nullable(),
  conteudo_sha256: text(),
  /** Decision 056: refused / revoked (the signed PDF unchanged), and their sealed records. */
  recusado_em: text().nullable().optional(),
  revogado_em: text().nullable().optional(),
  registros: z
    .array(
      z.object({
        tipo: z.enum(["recusa", "revogacao"]),
        em: text(),
        codigo: text(),
        pdf_sha256: text().nullable(),
        /** One optional consent revoked on its own (decision 057): its title as signed. */
        autorizacao: text().nullable().optional(),
      }),
    )
    .optional(),
});
export type Verification = z.infer<typeof verificationSchema>;

/** POST /api/public/verify/:code/pdf (the PDF bytes) → the verdict. */
export const pdfVerdictSchema = z.object({
  /** The file is byte-for-byte the sealed PDF of this document (SHA-256 equal). */
  identico: z.boolean(),
  /** The seal verifies over the whole file AND its certificate is one of ours or the clinic's. */
  assinatura_valida: z.boolean(),
  /** Its PAdES signature's CMS verifies over the signed byte ranges (whatever the key). */
  selo_integro: z.boolean(),
  /** The seal's certificate is an instance seal or one the clinic registered. */
  certificado_reconhecido: z.boolean(),
  sha256: text(),
  certificado: text().nullable(),
  certificado_sha256: text().nullable(),
  /**
   * The evidence embedded in the file itself, checked without the database (decision 014):
   * the content JSON hashes to the signed content, the document's event chain recomputes to
   * its printed final hash. Null for a file without embedded evidence (sealed before it).
   */
  evidencias: z
    .object({
      conteudo_ok: z.boolean(),
      cadeia_ok: z.boolean(),
      eventos: z.number().int(),
      certificado_sha256: text().nullable(),
      /** Every check holds (the verdict `npm run verify` prints). */
      ok: z.boolean(),
      /** The seal certificate's subject (its SHA-256 fingerprint is `certificado_sha256`). */
      certificado_assunto: text().nullable(),
      /** The parties the evidence names, with the level each reached (and that level in words). */
      partes: z.array(z.object({ nome: text(), nivel: text(), descricao: text() })),
      /** The report's lines as `npm run verify` prints them: ok true ✓, false ✗, null information. */
      linhas: z.array(z.object({ ok: z.boolean().nullable(), text: text() })),
    })
    .nullable()
    .optional(),
});
export type PdfVerdict = z.infer<typeof pdfVerdictSchema>;
