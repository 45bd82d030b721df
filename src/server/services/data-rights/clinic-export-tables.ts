import { type SQL, sql } from "drizzle-orm";
import type { AnyPgColumn, PgTable } from "drizzle-orm/pg-core";
import {
  apiKeys,
  webhookDeliveries,
  webhookEndpoints,
  auditAnchors,
  auditChainHeads,
  auditTrailTimestamps,
  auditEvents,
  beneficios,
  certificados,
  clinicLogos,
  contratoNomes,
  consentimentosOpcionais,
  contratoRegistros,
  contratoRevisoesPdf,
  contratoPartes,
  contratos,
  documentCounters,
  contratoTestemunhas,
  cuidadosPos,
  emailOutbox,
  feegowUploads,
  files,
  integracoesFeegow,
  jobs,
  noticeReads,
  noticeUserStates,
  pacientes,
  passwordResetTokens,
  procedimentoBeneficios,
  procedimentoCuidados,
  procedimentoRiscos,
  procedimentos,
  profiles,
  riscos,
  sessions,
  signingOtps,
  professionalSigningCodes,
  documentReminders,
  whatsappMessages,
  signingTokens,
  systemNotices,
  templates,
  templateVersions,
  tenantCounters,
  tenants,
  userInvitations,
} from "../../../db/schema.js";

/** Columns a table leaves out of the export, and why (decision 026 lists them too). */
export interface Exclusion {
  columns: string[];
  reason: string;
}

/** One spreadsheet of the export: header label → column. */
export interface CsvSheet {
  file: string;
  columns: [label: string, column: string][];
}

export interface ExportTable {
  /** The SQL name, also the file name (dados/<name>.json). */
  name: string;
  table: PgTable;
  /** The column that says whose row it is (tenants: its id). */
  tenantColumn: AnyPgColumn;
  /** A unique key, in the order pages are read (keyset cursors, never OFFSET). */
  key: AnyPgColumn[];
  excluded?: Exclusion;
  /** Tables tenant transactions may not read (decision 007/013): read as the server's role, filtered by tenant. */
  serverRole?: boolean;
  /** Rows per page (tables with large JSON columns read fewer at a time). */
  pageSize?: number;
  /** Computed columns added to each row. */
  extra?: Record<string, SQL>;
  csv?: CsvSheet;
}

const SEARCH_COLUMN: Exclusion = {
  columns: ["busca"],
  reason: "coluna calculada pelo banco para a busca, refeita a partir das outras (não é dado novo)",
};
const TOKEN_HASH = (what: string): Exclusion => ({
  columns: ["token_hash"],
  reason: `SHA-256 do token de ${what}: é o que o servidor confere para dar acesso; fora dele só serviria para tentar adivinhar o token`,
});

/**
 * Every table with a clinic's rows, in an order where each row's references come before it.
 * tests/integration/clinic-export.test.ts fails when a table with `tenant_id` is neither here
 * nor in NOT_EXPORTED: a new table has to be decided on.
 */
export const EXPORT_TABLES: ExportTable[] = [
  { name: "tenants", table: tenants, tenantColumn: tenants.id, key: [tenants.id] },
  {
    name: "tenant_counters",
    table: tenantCounters,
    tenantColumn: tenantCounters.tenant_id,
    key: [tenantCounters.tenant_id],
  },
  {
    name: "profiles",
    table: profiles,
    tenantColumn: profiles.tenant_id,
    key: [profiles.id],
    excluded: {
      columns: ["password_hash"],
      reason: "hash argon2id da senha de cada usuário: segredo de acesso (cada pessoa define a sua de novo)",
    },
  },
  {
    name: "user_invitations",
    table: userInvitations,
    tenantColumn: userInvitations.tenant_id,
    key: [userInvitations.id],
    excluded: TOKEN_HASH("convite"),
  },
  {
    name: "sessions",
    table: sessions,
    tenantColumn: sessions.tenant_id,
    key: [sessions.id],
    excluded: TOKEN_HASH("sessão (cookie de acesso)"),
  },
  {
    name: "api_keys",
    table: apiKeys,
    tenantColumn: apiKeys.tenant_id,
    key: [apiKeys.id],
    excluded: TOKEN_HASH("chave de API (decisão 058)"),
  },
  {
    name: "webhook_endpoints",
    table: webhookEndpoints,
    tenantColumn: webhookEndpoints.tenant_id,
    key: [webhookEndpoints.id],
    excluded: {
      columns: ["segredo_sealed", "segredo_anterior_sealed"],
      reason: "segredo de assinatura de cada endpoint de webhook (decisão 062): gere um novo em Configurações",
    },
  },
  {
    name: "webhook_deliveries",
    table: webhookDeliveries,
    tenantColumn: webhookDeliveries.tenant_id,
    key: [webhookDeliveries.id],
  },
  {
    name: "password_reset_tokens",
    table: passwordResetTokens,
    tenantColumn: passwordResetTokens.tenant_id,
    key: [passwordResetTokens.id],
    excluded: TOKEN_HASH("redefinição de senha"),
  },
  {
    name: "pacientes",
    table: pacientes,
    tenantColumn: pacientes.tenant_id,
    key: [pacientes.id],
    excluded: SEARCH_COLUMN,
    csv: {
      file: "pacientes.csv",
      columns: [
        ["ID", "id"],
        ["Nome", "nome"],
        ["CPF", "cpf"],
        ["Data de nascimento", "data_nascimento"],
        ["Sexo", "sexo"],
        ["Telefone", "telefone"],
        ["E-mail", "email"],
        ["CEP", "cep"],
        ["Logradouro", "logradouro"],
        ["Número", "numero"],
        ["Complemento", "complemento"],
        ["Bairro", "bairro"],
        ["Cidade", "cidade"],
        ["UF", "uf"],
        ["Responsável", "responsavel_nome"],
        ["CPF do responsável", "responsavel_cpf"],
        ["E-mail do responsável", "responsavel_email"],
        ["Celular do responsável", "responsavel_telefone"],
        ["Cadastrado em", "created_at"],
        ["Alterado em", "updated_at"],
      ],
    },
  },
  {
    name: "procedimentos",
    table: procedimentos,
    tenantColumn: procedimentos.tenant_id,
    key: [procedimentos.id],
    csv: {
      file: "procedimentos.csv",
      columns: [
        ["ID", "id"],
        ["Nome", "nome"],
        ["Descrição", "descricao"],
        ["Especialidade", "especialidade"],
        ["Privado", "is_private"],
        ["Valor (centavos)", "valor_centavos"],
        ["ID no Feegow", "feegow_procedimento_id"],
        ["Criado em", "created_at"],
      ],
    },
  },
  { name: "riscos", table: riscos, tenantColumn: riscos.tenant_id, key: [riscos.id] },
  { name: "beneficios", table: beneficios, tenantColumn: beneficios.tenant_id, key: [beneficios.id] },
  { name: "cuidados_pos", table: cuidadosPos, tenantColumn: cuidadosPos.tenant_id, key: [cuidadosPos.id] },
  {
    name: "procedimento_riscos",
    table: procedimentoRiscos,
    tenantColumn: procedimentoRiscos.tenant_id,
    key: [procedimentoRiscos.procedimento_id, procedimentoRiscos.risco_id],
  },
  {
    name: "procedimento_beneficios",
    table: procedimentoBeneficios,
    tenantColumn: procedimentoBeneficios.tenant_id,
    key: [procedimentoBeneficios.procedimento_id, procedimentoBeneficios.beneficio_id],
  },
  {
    name: "procedimento_cuidados",
    table: procedimentoCuidados,
    tenantColumn: procedimentoCuidados.tenant_id,
    key: [procedimentoCuidados.procedimento_id, procedimentoCuidados.cuidado_id],
  },
  {
    name: "templates",
    table: templates,
    tenantColumn: templates.tenant_id,
    key: [templates.id],
    excluded: SEARCH_COLUMN,
    csv: {
      file: "templates.csv",
      columns: [
        ["ID", "id"],
        ["Título", "titulo"],
        ["Especialidade", "especialidade"],
        ["Categoria", "categoria"],
        ["Status", "status"],
        ["Criado em", "created_at"],
        ["Alterado em", "updated_at"],
      ],
    },
  },
  {
    name: "template_versions",
    table: templateVersions,
    tenantColumn: templateVersions.tenant_id,
    key: [templateVersions.id],
    pageSize: 100,
  },
  { name: "files", table: files, tenantColumn: files.tenant_id, key: [files.id] },
  {
    name: "contratos",
    table: contratos,
    tenantColumn: contratos.tenant_id,
    key: [contratos.id],
    excluded: SEARCH_COLUMN,
    pageSize: 100,
    csv: {
      file: "documentos.csv",
      columns: [
        ["ID", "id"],
        ["Título", "titulo"],
        ["Status", "status"],
        ["Paciente (ID)", "paciente_id"],
        ["Procedimento", "procedimento"],
        ["Data do procedimento", "data_procedimento"],
        ["Profissional responsável (ID)", "medico_responsavel_id"],
        ["Criado em", "created_at"],
        ["Enviado em", "sent_at"],
        ["Visualizado em", "viewed_at"],
        ["Assinado em", "signed_at"],
        ["Cancelado em", "cancelled_at"],
        ["Motivo do cancelamento", "cancel_reason"],
        ["Expira em", "expiracao_at"],
        ["Código de verificação", "verification_code"],
        ["SHA-256 do conteúdo", "conteudo_sha256"],
        ["SHA-256 do PDF assinado", "signed_pdf_sha256"],
      ],
    },
  },
  {
    name: "contrato_testemunhas",
    table: contratoTestemunhas,
    tenantColumn: contratoTestemunhas.tenant_id,
    key: [contratoTestemunhas.id],
  },
  { name: "contrato_partes", table: contratoPartes, tenantColumn: contratoPartes.tenant_id, key: [contratoPartes.id] },
  // The signer's Sim/Não to each optional consent (decision 057).
  {
    name: "consentimentos_opcionais",
    table: consentimentosOpcionais,
    tenantColumn: consentimentosOpcionais.tenant_id,
    key: [consentimentosOpcionais.id],
    csv: {
      file: "consentimentos-opcionais.csv",
      columns: [
        ["Documento", "contrato_id"],
        ["Item", "item_id"],
        ["Título", "titulo"],
        ["Aceito", "aceito"],
        ["Respondido em", "respondido_em"],
      ],
    },
  },
  // Refusal and revocation records (decision 056); their sealed PDFs are among the files by SHA-256.
  {
    name: "contrato_registros",
    table: contratoRegistros,
    tenantColumn: contratoRegistros.tenant_id,
    key: [contratoRegistros.id],
    csv: {
      file: "recusas-e-revogacoes.csv",
      columns: [
        ["Documento", "contrato_id"],
        ["Tipo", "tipo"],
        ["Autorização opcional (só ela revogada)", "item_id"],
        ["Origem", "origem"],
        ["Meio", "meio"],
        ["Nome", "nome"],
        ["Motivo", "motivo"],
        ["Ocorrido em", "ocorrido_em"],
        ["Registrado por", "registrado_por_nome"],
        ["Código de verificação", "verification_code"],
        ["SHA-256 do PDF selado", "pdf_sha256"],
      ],
    },
  },
  // Archive revisions of the sealed PDFs (decision 064); every revision's file is among the files by SHA-256.
  {
    name: "contrato_revisoes_pdf",
    table: contratoRevisoesPdf,
    tenantColumn: contratoRevisoesPdf.tenant_id,
    key: [contratoRevisoesPdf.id],
    csv: {
      file: "revisoes-de-arquivo-dos-pdfs.csv",
      columns: [
        ["Documento", "contrato_id"],
        ["Revisão", "revisao"],
        ["SHA-256 do PDF", "sha256"],
        ["SHA-256 do PDF anterior", "anterior_sha256"],
        ["Motivo", "motivo"],
        ["Carimbo do tempo em", "carimbo_em"],
        ["Autoridade", "autoridade"],
        ["Certificado da autoridade vence em", "autoridade_vence_em"],
        ["Criada em", "created_at"],
      ],
    },
  },
  {
    name: "signing_tokens",
    table: signingTokens,
    tenantColumn: signingTokens.tenant_id,
    key: [signingTokens.id],
    excluded: {
      columns: ["token_hash", "token_encrypted"],
      reason:
        "o token do link de assinatura (seu SHA-256 e a cópia cifrada com a chave da instância): quem o tivesse assinaria no lugar do paciente",
    },
  },
  {
    name: "signing_otps",
    table: signingOtps,
    tenantColumn: signingOtps.tenant_id,
    key: [signingOtps.id],
    excluded: {
      columns: ["code_hash"],
      reason: "hash do código de uso único enviado ao signatário: segredo de verificação",
    },
  },
  {
    name: "professional_signing_codes",
    table: professionalSigningCodes,
    tenantColumn: professionalSigningCodes.tenant_id,
    key: [professionalSigningCodes.id],
    excluded: {
      columns: ["code_hash"],
      reason: "hash do código de uso único enviado ao profissional responsável: segredo de verificação",
    },
  },
  // Automatic reminders and WhatsApp delivery statuses (decision 059).
  {
    name: "document_reminders",
    table: documentReminders,
    tenantColumn: documentReminders.tenant_id,
    key: [documentReminders.id],
  },
  {
    name: "whatsapp_messages",
    table: whatsappMessages,
    tenantColumn: whatsappMessages.tenant_id,
    key: [whatsappMessages.id],
  },
  { name: "feegow_uploads", table: feegowUploads, tenantColumn: feegowUploads.tenant_id, key: [feegowUploads.id] },
  // Avisos (decision 028): stored system notices, and what each person read and when they last looked.
  {
    name: "clinic_logos",
    table: clinicLogos,
    tenantColumn: clinicLogos.tenant_id,
    key: [clinicLogos.tenant_id],
    // The PNG itself, readable in JSON.
    extra: { png: sql<string>`encode(${clinicLogos.png}, 'base64')` },
  },
  {
    name: "document_counters",
    table: documentCounters,
    tenantColumn: documentCounters.tenant_id,
    key: [documentCounters.bucket, documentCounters.shard],
  },
  // The documents search's patient names (decision 036): derived from contratos, like the counters.
  {
    name: "contrato_nomes",
    table: contratoNomes,
    tenantColumn: contratoNomes.tenant_id,
    key: [contratoNomes.paciente_id, contratoNomes.nome],
  },
  { name: "system_notices", table: systemNotices, tenantColumn: systemNotices.tenant_id, key: [systemNotices.id] },
  {
    name: "notice_reads",
    table: noticeReads,
    tenantColumn: noticeReads.tenant_id,
    key: [noticeReads.profile_id, noticeReads.notice_key],
  },
  {
    name: "notice_user_states",
    table: noticeUserStates,
    tenantColumn: noticeUserStates.tenant_id,
    key: [noticeUserStates.profile_id],
  },
  {
    name: "integracoes_feegow",
    table: integracoesFeegow,
    tenantColumn: integracoesFeegow.tenant_id,
    key: [integracoesFeegow.tenant_id],
    excluded: {
      columns: ["token_encrypted"],
      reason:
        "token de acesso à API do Feegow, cifrado: credencial da clínica em outro sistema (token_final mostra os 4 últimos caracteres)",
    },
  },
  {
    name: "certificados",
    table: certificados,
    tenantColumn: certificados.tenant_id,
    key: [certificados.id],
    excluded: {
      columns: ["secret_encrypted"],
      reason:
        "o arquivo do certificado A1 (chave privada) e a sua senha, cifrados: quem os tivesse assinaria em nome do titular",
    },
  },
  {
    name: "email_outbox",
    table: emailOutbox,
    tenantColumn: emailOutbox.tenant_id,
    key: [emailOutbox.id],
    excluded: {
      columns: ["body_sealed", "text_body", "html_body"],
      reason:
        "o texto das mensagens (cifrado) leva links de assinatura, de convite e de redefinição de senha e códigos que podem ainda valer (destinatário, assunto, situação e anexos ficam)",
    },
  },
  {
    name: "jobs",
    table: jobs,
    tenantColumn: jobs.tenant_id,
    key: [jobs.id],
    serverRole: true,
    excluded: {
      columns: ["payload"],
      reason: "dados internos de cada tarefa; os de SMS levam o código de assinatura (cifrado) e o telefone",
    },
  },
  {
    name: "audit_events",
    table: auditEvents,
    tenantColumn: auditEvents.tenant_id,
    key: [auditEvents.seq],
    extra: {
      // The exact forms the chain hashes (decision 007): microseconds and PostgreSQL's jsonb text.
      created_at_utc: sql<string>`to_char(${auditEvents.created_at} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`,
      data_text: sql<string>`${auditEvents.data}::text`,
    },
  },
  {
    name: "audit_chain_heads",
    table: auditChainHeads,
    tenantColumn: auditChainHeads.tenant_id,
    key: [auditChainHeads.tenant_id],
    serverRole: true,
  },
  {
    name: "audit_anchors",
    table: auditAnchors,
    tenantColumn: auditAnchors.tenant_id,
    key: [auditAnchors.seq],
    serverRole: true,
  },
  // Time-stamp tokens over the chain (decision 072): token_der is the RFC 3161 token (base64), over
  // SHA-256 of the 32 bytes of `hash` (the event `seq`'s hash); anyone can check it with openssl.
  {
    name: "audit_trail_timestamps",
    table: auditTrailTimestamps,
    tenantColumn: auditTrailTimestamps.tenant_id,
    key: [auditTrailTimestamps.seq],
    extra: { token_der: sql<string>`encode(${auditTrailTimestamps.token_der}, 'base64')` },
    csv: {
      file: "carimbos-do-tempo-da-trilha.csv",
      columns: [
        ["Evento", "seq"],
        ["Hash do evento", "hash"],
        ["Carimbo do tempo em", "gen_time"],
        ["Autoridade", "tsa"],
        ["Token (DER, base64)", "token_der"],
      ],
    },
  },
];

/** Tables with rows of no single clinic: not part of a clinic's export. */
export const NOT_EXPORTED: Record<string, string> = {
  seal_certificates: "o selo da instância (chave privada cifrada), comum a todas as clínicas",
  sign_in_throttles: "contagem de tentativas de entrada por e-mail (hash), de toda a instância",
  rate_limit_counters: "contagem de pedidos por minuto (hash do endereço ou da sessão), de toda a instância",
  cep_cache: "cache público de CEPs",
};

/** What the export leaves out, per table, for the LEIA-ME and the manifest. */
export function exportExclusions(): { tabela: string; colunas: string[]; motivo: string }[] {
  return EXPORT_TABLES.filter((t) => t.excluded).map((t) => ({
    tabela: t.name,
    colunas: t.excluded?.columns ?? [],
    motivo: t.excluded?.reason ?? "",
  }));
}
