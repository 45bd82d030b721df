import { z } from "zod";

export const enderecoSchema = z.object({
  cep: z.string(),
  logradouro: z.string(),
  complemento: z.string(),
  bairro: z.string(),
  cidade: z.string(),
  uf: z.string(),
});
export type Endereco = z.infer<typeof enderecoSchema>;

export const cepParamsSchema = z.object({
  cep: z
    .string()
    .transform((value) => value.replace(/\D/g, ""))
    .refine((value) => value.length === 8, "CEP inválido. Informe os 8 dígitos."),
});
