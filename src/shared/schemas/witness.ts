import { z } from "zod";
import { text } from "./safe-input.js";
import { cpfField, optionalPhoneField } from "./common.js";

/** CPC art. 784 III asks for two witnesses; a document takes at most two (decision 021). */
export const MAX_WITNESSES = 2;

export const WITNESS_MESSAGES = {
  title: "Testemunhas",
  hint: "Opcional. Até duas pessoas que acompanharam as explicações ao paciente podem assinar também, cada uma pelo próprio link e código.",
  open: "Adicionar testemunha (opcional)",
  /** Signed "a rogo" (decision 070): the two witnesses are required. */
  hintARogo:
    "Obrigatórias na assinatura a rogo: duas pessoas que presenciaram a leitura do termo ao paciente assinam também, cada uma pelo próprio link e código.",
  openARogo: "Adicionar testemunha",
  added: "Testemunha adicionada",
  removed: "Testemunha removida",
  contactRequired: "Informe o e-mail ou o celular da testemunha: o link e o código de assinatura vão para ele",
  nameRequired: "Informe o nome da testemunha",
} as const;

/** POST /api/documents/:id/witnesses — a witness named on a draft. */
export const witnessInputSchema = z
  .object({
    nome: text({ error: WITNESS_MESSAGES.nameRequired })
      .trim()
      .min(3, WITNESS_MESSAGES.nameRequired)
      .max(160, "Use no máximo 160 caracteres"),
    cpf: cpfField,
    email: text()
      .trim()
      .max(200, "Use no máximo 200 caracteres")
      .optional()
      .refine((value) => !value || z.email().safeParse(value).success, "E-mail inválido")
      .transform((value) => (value ? value.toLowerCase() : undefined)),
    telefone: optionalPhoneField,
  })
  .refine((value) => Boolean(value.email || value.telefone), {
    path: ["email"],
    message: WITNESS_MESSAGES.contactRequired,
  });
export type WitnessInput = z.input<typeof witnessInputSchema>;
export type WitnessData = z.output<typeof witnessInputSchema>;

/** A witness as staff see it (full CPF: staff already hold it). */
export const witnessSchema = z.object({
  id: text(),
  ordem: z.number().int(),
  nome: text(),
  cpf: text(),
  email: text().nullable(),
  telefone: text().nullable(),
  /** When they signed; null while waiting. */
  assinou_em: text().nullable(),
});
export type Witness = z.infer<typeof witnessSchema>;

export const witnessListSchema = z.object({ items: z.array(witnessSchema), max: z.number().int() });
