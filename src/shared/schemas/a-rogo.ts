import { z } from "zod";
import { text } from "./safe-input.js";
import { cpfField } from "./common.js";

/**
 * Signature "a rogo" (decision 070): a patient who cannot read or sign agrees at the clinic; the
 * term is read aloud to them, a person of their trust signs at their request in their own name and
 * CPF, and two witnesses sign. Staff name that person on the draft.
 */
export const A_ROGO_MOTIVOS = ["nao_sabe_ler", "nao_sabe_assinar", "impossibilitado"] as const;
export type ARogoMotivo = (typeof A_ROGO_MOTIVOS)[number];

/** Printed after "…, que" in the registry; also the options of the staff form. */
export const A_ROGO_MOTIVO_LABELS: Record<ARogoMotivo, string> = {
  nao_sabe_ler: "não sabe ler",
  nao_sabe_assinar: "sabe ler, mas não sabe assinar",
  impossibilitado: "está impossibilitado(a) de assinar",
};

/** The witnesses an "a rogo" signature needs (Código Civil art. 595, by analogy). */
export const A_ROGO_WITNESSES = 2;

export const A_ROGO_MESSAGES = {
  title: "Assinatura a rogo",
  hint: "Para o paciente que não sabe ler ou não pode assinar: o termo é lido em voz alta para ele na clínica, uma pessoa de confiança assina a pedido dele, com o próprio nome e CPF, e duas testemunhas assinam.",
  open: "O paciente não sabe ler ou não pode assinar",
  saved: "Assinatura a rogo definida",
  removed: "Assinatura a rogo removida",
  nameRequired: "Informe o nome de quem assina a rogo",
  motivoRequired: "Escolha por que o paciente não assina",
  witnessesMissing: (missing: number) =>
    missing === 1 ? "Falta cadastrar 1 testemunha." : `Faltam cadastrar ${missing} testemunhas.`,
  readerRequired: "Informe quem leu o termo em voz alta",
  readingRequired: "Confirme que o termo foi lido em voz alta para o paciente",
} as const;

/** PUT /api/documents/:id/a-rogo. */
export const aRogoInputSchema = z.object({
  nome: text({ error: A_ROGO_MESSAGES.nameRequired })
    .trim()
    .min(3, A_ROGO_MESSAGES.nameRequired)
    .max(160, "Use no máximo 160 caracteres"),
  cpf: cpfField,
  motivo: z.enum(A_ROGO_MOTIVOS, { error: A_ROGO_MESSAGES.motivoRequired }),
});
export type ARogoInput = z.input<typeof aRogoInputSchema>;
/** As stored on the document (contratos.a_rogo): CPF digits only. */
export type ARogo = z.output<typeof aRogoInputSchema>;

/** What the signing page sends with an "a rogo" signature: who read the term aloud, and that it was. */
export const aRogoReadingSchema = z.object({
  lido_por: text({ error: A_ROGO_MESSAGES.readerRequired })
    .trim()
    .min(3, A_ROGO_MESSAGES.readerRequired)
    .max(160, "Use no máximo 160 caracteres"),
  leitura_confirmada: z.literal(true, { error: A_ROGO_MESSAGES.readingRequired }),
});
export type ARogoReading = z.output<typeof aRogoReadingSchema>;

/** "a rogo de Maria da Silva" (and the guardian's own capacity after it, when they are the one who cannot sign). */
export function aRogoCapacity(signerName: string, signerCapacity: string | null): string {
  return `a rogo de ${signerName}${signerCapacity ? `, ${signerCapacity}` : ""}`;
}

/** A stored value read back (jsonb): the shape or null. */
export function aRogoOf(stored: unknown): ARogo | null {
  const parsed = aRogoInputSchema.safeParse(stored);
  return parsed.success ? parsed.data : null;
}
