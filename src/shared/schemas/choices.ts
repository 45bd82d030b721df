/**
 * The patient's choices besides signing (decision 056): an informed refusal before signing and the
 * revocation of a signed consent — by the patient on their link, or recorded by staff from what
 * the patient said in person or by phone. Inputs, the record as the screens show it, and messages.
 */
import { z } from "zod";
import { isValidCpf } from "../br/cpf.js";
import { SIGNING_MESSAGES } from "../signing-rules.js";
import { embeddedInputSchema } from "./embedding.js";
import { isIsoInstant, text } from "./safe-input.js";

export const CHOICE_KINDS = ["recusa", "revogacao"] as const;
export type ChoiceKind = (typeof CHOICE_KINDS)[number];
export const CHOICE_MEANS = ["link", "presencial", "telefone"] as const;
export type ChoiceMeans = (typeof CHOICE_MEANS)[number];

export const CHOICE_KIND_LABEL: Readonly<Record<ChoiceKind, string>> = {
  recusa: "Recusa",
  revogacao: "Revogação",
};
export const CHOICE_MEANS_LABEL: Readonly<Record<ChoiceMeans, string>> = {
  link: "pelo link de assinatura",
  presencial: "pessoalmente, à equipe",
  telefone: "por telefone, à equipe",
};
export const CHOICE_RECORD_TITLE: Readonly<Record<ChoiceKind, string>> = {
  recusa: "Registro de recusa",
  revogacao: "Registro de revogação",
};

export const MAX_REASON = 1000;
const reason = text()
  .trim()
  .max(MAX_REASON, `Use no máximo ${MAX_REASON} caracteres`)
  .optional()
  .transform((v) => (v ? v : undefined));

/** POST /api/public/sign/:token/refuse and …/revoke: the same identity checks as signing. */
export const linkChoiceInputSchema = z.object({
  nome: text({ error: SIGNING_MESSAGES.required })
    .trim()
    .min(1, SIGNING_MESSAGES.required)
    .max(160, "Use no máximo 160 caracteres"),
  cpf: text({ error: SIGNING_MESSAGES.required })
    .trim()
    .min(1, { error: SIGNING_MESSAGES.required, abort: true })
    .refine(isValidCpf, "CPF inválido"),
  codigo: text()
    .trim()
    .regex(/^\d{6}$/, SIGNING_MESSAGES.otpInvalid)
    .optional(),
  motivo: reason,
  /** The content the page showed (a refusal is of that text, not of a newer one). */
  conteudo_sha256: text().regex(/^[0-9a-f]{64}$/, "Conteúdo inválido"),
  /** Shown inside a clinic's system (decision 071), as for a signature: kept only when allowed. */
  incorporado: embeddedInputSchema.catch(undefined),
});
export type LinkChoiceInput = z.input<typeof linkChoiceInputSchema>;
export type LinkChoiceData = z.output<typeof linkChoiceInputSchema>;

/** POST /api/documents/:id/refusal and …/revocation: what the patient told the staff. */
export const staffChoiceInputSchema = z.object({
  meio: z.enum(["presencial", "telefone"], { error: "Informe como o paciente comunicou" }),
  motivo: reason,
  /** When the patient said it (default: now); never in the future. */
  ocorrido_em: text().refine(isIsoInstant, "Data e hora inválidas").optional(),
});
export type StaffChoiceInput = z.input<typeof staffChoiceInputSchema>;
export type StaffChoiceData = z.output<typeof staffChoiceInputSchema>;

/** The `:item` of an optional consent's revocation route: its stable id (decision 057). */
export const optionalItemParam = text()
  .max(64, "Autorização opcional não encontrada")
  .regex(/^[a-z0-9-]+$/, "Autorização opcional não encontrada");

/** A refusal or revocation as the document page shows it. */
export const choiceRecordSchema = z.object({
  id: text(),
  tipo: z.enum(CHOICE_KINDS),
  origem: z.enum(["paciente", "equipe"]),
  meio: z.enum(CHOICE_MEANS),
  nome: text(),
  motivo: text().nullable(),
  otp_verificado: z.boolean(),
  registrado_por_nome: text().nullable(),
  ocorrido_em: text(),
  created_at: text(),
  codigo_verificacao: text(),
  /** The sealed record exists (the job made it). */
  pdf_pronto: z.boolean(),
  pdf_sha256: text().nullable(),
  original_pdf_sha256: text().nullable(),
  /** A revocation of one optional consent only (decision 057): its id; null: the whole document. */
  item_id: text().nullable(),
});
export type ChoiceRecord = z.infer<typeof choiceRecordSchema>;

export const CHOICE_MESSAGES = {
  refuseTitle: "Não concordo / Recusar",
  refuseIntro:
    "Se você decidiu não realizar o procedimento, registre aqui a sua recusa. Ela fica registrada com a mesma segurança de uma assinatura e a clínica é avisada.",
  refuseConfirm: "Recusar o documento",
  refused: "Sua recusa foi registrada",
  refusedText: "A clínica e o profissional responsável foram avisados. Este link não aceita mais assinatura.",
  /** Where the sealed refusal record goes: promised by e-mail only when e-mail really leaves the server. */
  refusedCopyByEmail: (masked: string | null) =>
    `Você receberá o registro selado da recusa por e-mail${masked ? ` (${masked})` : ""}.`,
  refusedCopyAtClinic: "O registro selado da recusa fica guardado pela clínica; você pode pedir uma cópia a ela.",
  revokeTitle: "Revogar meu consentimento",
  revokeIntro:
    "Você pode revogar este consentimento a qualquer momento, sem custo. O documento assinado continua guardado; um registro selado da revogação é feito e a clínica é avisada.",
  /** The signed page's panel (decision 056), before the patient asks to revoke. */
  revokeOfferTitle: "Mudou de ideia?",
  revokeOfferPoints: [
    "Você pode revogar este consentimento a qualquer momento. É gratuito (Lei Geral de Proteção de Dados, art. 8º, § 5º).",
    "O documento que você assinou não é alterado: ele continua mostrando o que você autorizou até hoje.",
    "É feito um “Registro de revogação” selado, com data e hora, e a clínica e o profissional responsável são avisados.",
  ],
  revokeOfferChecks: (code: boolean) =>
    `Para isso, confirmamos que é você, como na assinatura: nome completo, CPF${code ? " e um código enviado a você" : ""}.`,
  revokeOfferButton: "Revogar consentimento",
  /** Where the sealed record goes: promised by e-mail only when e-mail really leaves the server. */
  revokedCopyByEmail: (masked: string | null) =>
    `Você receberá o registro selado da revogação por e-mail${masked ? ` (${masked})` : ""}.`,
  revokedCopyAtClinic: "O registro selado da revogação fica guardado pela clínica; você pode pedir uma cópia a ela.",
  revokedCheck: "Conferir a revogação",
  revokedNoticeText:
    "Este consentimento foi revogado. O documento assinado continua guardado e o registro da revogação foi feito com o código abaixo.",
  revokeConfirm: "Continuar",
  revokeAreYouSure: "Confirma a revogação?",
  revokeAreYouSureText:
    "Depois de revogar, este link não desfaz a revogação. Se mudar de ideia, fale com a clínica: um novo termo pode ser assinado.",
  revokeYes: "Sim, revogar",
  revokeNo: "Não, voltar",
  revoked: "Sua revogação foi registrada",
  revokedText: "A clínica e o profissional responsável foram avisados.",
  /** One optional consent answered "Sim", revoked on its own (decision 057). */
  itemsHeading: "Suas autorizações opcionais",
  itemsIntro:
    "Você pode revogar cada autorização respondida com “Sim”, uma de cada vez. O consentimento principal e as outras respostas continuam valendo.",
  itemRevokeButton: "Revogar esta autorização",
  itemRevokeTitle: (title: string) => `Revogar a autorização “${title}”`,
  itemRevokeIntro:
    "Só esta autorização é revogada; o consentimento principal e as outras respostas continuam valendo. Confirmamos que é você, como na assinatura, e um registro selado da revogação é feito e a clínica é avisada.",
  itemRevoked: "A revogação desta autorização foi registrada",
  itemRevokedCode: "Código do registro:",
  reasonLabel: "Motivo (opcional)",
  staffRefused: "Recusa registrada",
  staffRevoked: "Revogação registrada",
  refusedAt: (when: string) => `Recusado em ${when}`,
  revokedAt: (when: string) => `Revogado em ${when}`,
  itemRevokedAt: (title: string, when: string) => `Autorização “${title}” revogada em ${when}`,
} as const;

/**
 * Where a sealed refusal or revocation record goes, said to the patient: by e-mail only when
 * e-mail leaves this server and there is an address to send it to; else it stays with the clinic.
 */
export function recordCopyLine(
  tipo: ChoiceKind,
  page: { email_configurado: boolean; copia_para: string | null },
): string {
  if (page.email_configurado && page.copia_para) {
    return tipo === "recusa"
      ? CHOICE_MESSAGES.refusedCopyByEmail(page.copia_para)
      : CHOICE_MESSAGES.revokedCopyByEmail(page.copia_para);
  }
  return tipo === "recusa" ? CHOICE_MESSAGES.refusedCopyAtClinic : CHOICE_MESSAGES.revokedCopyAtClinic;
}
