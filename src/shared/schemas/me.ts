import { z } from "zod";

export const currentUserSchema = z.object({
  profile: z.object({
    id: z.string(),
    tenant_id: z.string(),
    nome: z.string(),
    email: z.string(),
    cpf: z.string(),
    role: z.string(),
    is_proprietario: z.boolean(),
    is_active: z.boolean(),
    telefone: z.string().nullable(),
    crm: z.string().nullable(),
    rqe: z.string().nullable(),
    especialidade: z.string().nullable(),
    especialidades: z.array(
      z.object({ especialidade: z.string(), areas_atuacao: z.array(z.string()), rqe: z.string().nullable().optional() }),
    ),
    conselho_tipo: z.string().nullable(),
    conselho_numero: z.string().nullable(),
    conselho_uf: z.string().nullable(),
    created_at: z.string(),
  }),
  tenant: z.object({
    id: z.string(),
    nome: z.string(),
    tipo_perfil: z.enum(["estabelecimento", "profissional_independente"]),
    tipo_estabelecimento: z.string().nullable(),
    razao_social: z.string().nullable(),
    nome_fantasia: z.string().nullable(),
    cnpj: z.string().nullable(),
    cnes: z.string().nullable(),
  }),
});

export type CurrentUser = z.infer<typeof currentUserSchema>;
