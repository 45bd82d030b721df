import { z } from "zod";
import { text } from "./safe-input.js";

export const enderecoSchema = z.object({
  cep: text(),
  logradouro: text(),
  complemento: text(),
  bairro: text(),
  cidade: text(),
  uf: text(),
});
export type Endereco = z.infer<typeof enderecoSchema>;

export const cepParamsSchema = z.object({
  cep: text()
    .transform((value) => value.replace(/\D/g, ""))
    .refine((value) => value.length === 8, "CEP inválido. Informe os 8 dígitos."),
});
