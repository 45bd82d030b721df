import { z } from "zod";
import { text } from "./safe-input.js";

export const currentUserSchema = z.object({
  profile: z.object({
    id: text(),
    tenant_id: text(),
    nome: text(),
    email: text(),
    cpf: text(),
    role: text(),
    is_proprietario: z.boolean(),
    is_active: z.boolean(),
    telefone: text().nullable(),
    crm: text().nullable(),
    rqe: text().nullable(),
    especialidade: text().nullable(),
    especialidades: z.array(
      z.object({ especialidade: text(), areas_atuacao: z.array(text()), rqe: text().nullable().optional() }),
    ),
    conselho_tipo: text().nullable(),
    conselho_numero: text().nullable(),
    conselho_uf: text().nullable(),
    created_at: text(),
  }),
  tenant: z.object({
    id: text(),
    nome: text(),
    tipo_perfil: z.enum(["estabelecimento", "profissional_independente"]),
    tipo_estabelecimento: text().nullable(),
    razao_social: text().nullable(),
    nome_fantasia: text().nullable(),
    cnpj: text().nullable(),
    cnes: text().nullable(),
  }),
});

export type CurrentUser = z.infer<typeof currentUserSchema>;
