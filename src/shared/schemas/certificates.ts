import { z } from "zod";
import { ROOT_CHECKS } from "../certificates/root-check.js";
import { MAX_CERTIFICATE_FILE_BYTES } from "../reference/limits.js";
import { text } from "./safe-input.js";

/**
 * Digital certificates (/certificates, spec part 1 §2, §4, §5, §8; decision 019): what the
 * upload form sends and what the list receives. One schema for the form and the route.
 */

/** Spec §5 and §8 (pt-BR, as given), and ours beside them. */
export const CERTIFICATE_MESSAGES = {
  invalidFileType: "Tipo de arquivo inválido",
  invalidFileTypeDetail: "Apenas arquivos .p12 ou .pfx são aceitos.",
  requiredFields: "Campos obrigatórios",
  requiredFieldsDetail: "Preencha todos os campos obrigatórios.",
  uploadError: "Erro no upload do certificado",
  loadError: "Erro ao carregar certificados",
  removeError: "Erro ao remover certificado",
  uploaded: "Certificado enviado com sucesso",
  removed: "Certificado removido",
  validationError: "Erro na validação do certificado",
  invalid: "Certificado inválido",
  fileRequired: "Selecione o arquivo do certificado (.p12 ou .pfx)",
  aliasRequired: "Informe um nome para o certificado",
  passwordRequired: "Informe a senha do certificado",
  tooLarge: "O arquivo é grande demais para um certificado A1 (máximo de 64 kB).",
  empty: "Nenhum certificado cadastrado",
  accessDenied: "Acesso negado",
  accessDeniedDetail:
    "Só o proprietário, os administradores e os profissionais de saúde (os próprios certificados) gerenciam certificados.",
} as const;

export const CERTIFICATE_TITULARES = ["clinica", "profissional"] as const;
export type CertificateTitular = (typeof CERTIFICATE_TITULARES)[number];

export const CERTIFICATE_TITULAR_LABEL: Record<CertificateTitular, string> = {
  clinica: "Certificado da clínica (e-CNPJ)",
  profissional: "Meu certificado pessoal (e-CPF)",
};

export const HOLDER_KINDS = ["e-CPF", "e-CNPJ", "outro"] as const;

/** .p12 or .pfx, any case (spec §5). */
export function isCertificateFileName(name: string): boolean {
  return /\.(p12|pfx)$/i.test(name.trim());
}

/** The alias the form proposes: the file name without its extension (spec §5). */
export function aliasFromFileName(name: string): string {
  return name.trim().replace(/\.[^.]*$/, "");
}

/** Base64 characters of the largest file accepted. */
const MAX_BASE64_CHARS = Math.ceil(MAX_CERTIFICATE_FILE_BYTES / 3) * 4;

export const certificateUploadSchema = z.object({
  arquivo_base64: text({ error: CERTIFICATE_MESSAGES.fileRequired })
    .min(1, { error: CERTIFICATE_MESSAGES.fileRequired, abort: true })
    .max(MAX_BASE64_CHARS, { error: CERTIFICATE_MESSAGES.tooLarge, abort: true })
    .regex(/^[A-Za-z0-9+/]+={0,2}$/, { error: "O arquivo não chegou inteiro (base64 inválido). Selecione-o de novo." }),
  nome_arquivo: text({ error: CERTIFICATE_MESSAGES.fileRequired })
    .trim()
    .min(1, { error: CERTIFICATE_MESSAGES.fileRequired, abort: true })
    .max(255, { error: "Nome de arquivo longo demais" })
    .refine(isCertificateFileName, { error: CERTIFICATE_MESSAGES.invalidFileTypeDetail }),
  alias: text({ error: CERTIFICATE_MESSAGES.aliasRequired })
    .trim()
    .min(1, { error: CERTIFICATE_MESSAGES.aliasRequired, abort: true })
    .max(120, { error: "Use no máximo 120 caracteres" }),
  senha: text({ error: CERTIFICATE_MESSAGES.passwordRequired })
    .min(1, { error: CERTIFICATE_MESSAGES.passwordRequired, abort: true })
    .max(200, { error: "Senha longa demais" }),
  descricao: text().trim().max(500, { error: "Use no máximo 500 caracteres" }).nullish(),
  titular: z.enum(CERTIFICATE_TITULARES, { error: "Escolha de quem é o certificado" }),
});
export type CertificateUploadInput = z.infer<typeof certificateUploadSchema>;

export const certificateSchema = z.object({
  id: z.uuid(),
  alias: z.string(),
  descricao: z.string().nullable(),
  tipo: z.literal("A1"),
  provider: z.literal("local"),
  nome_arquivo: z.string(),
  titular: z.enum(CERTIFICATE_TITULARES),
  /** The professional who owns it (titular 'profissional'). */
  profissional: z.object({ id: z.uuid(), nome: z.string() }).nullable(),
  cn: z.string(),
  subject: z.string(),
  issuer: z.string(),
  issuer_cn: z.string(),
  serial_number: z.string(),
  not_before: z.string(),
  vence_em: z.string().nullable(),
  fingerprint_sha256: z.string(),
  key_usage: z.array(z.string()),
  icp_brasil: z.boolean(),
  /** Whether the chain was checked up to an official ICP-Brasil root (decision 047). */
  raiz: z.object({ conferencia: z.enum(ROOT_CHECKS), nome: z.string().nullable() }),
  holder_kind: z.enum(HOLDER_KINDS),
  /** Masked (***.456.789-**): the holder's, or the responsible person's on an e-CNPJ. */
  cpf_mascarado: z.string().nullable(),
  cnpj: z.string().nullable(),
  responsible_name: z.string().nullable(),
  /** The clinic's user with the certificate's CPF. */
  perfil_vinculado: z.object({ id: z.uuid(), nome: z.string() }).nullable(),
  /** e-CNPJ whose CNPJ is the clinic's. */
  vinculado_clinica: z.boolean(),
  is_active: z.boolean(),
  removed_at: z.string().nullable(),
  created_at: z.string(),
  enviado_por: z.string().nullable(),
});
export type Certificate = z.infer<typeof certificateSchema>;

export const certificateListSchema = z.object({ items: z.array(certificateSchema) });
export type CertificateList = z.infer<typeof certificateListSchema>;

export const certificateUploadResultSchema = z.object({
  certificado: certificateSchema,
  /** Things to know that did not block the upload (e.g. the CNPJ is not the clinic's). */
  avisos: z.array(z.string()),
  /** The previous active certificate of the same holder, now inactive. */
  substituido_id: z.uuid().nullable(),
});
export type CertificateUploadResult = z.infer<typeof certificateUploadResultSchema>;
