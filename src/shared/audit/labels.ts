/**
 * pt-BR description of each audit action: a document's trail, the patient's access log, the clinic's
 * export. Every action the server records has one (labels.test.ts reads src/server to check). Where
 * the words depend on the event itself (who opened the signing link), use {@link auditEventLabel}.
 */
export const AUDIT_ACTION_LABEL: Readonly<Record<string, string>> = {
  "document.created": "Documento criado",
  "document.viewed_by_staff": "Documento consultado pela equipe",
  "document.pdf_generated": "PDF gerado",
  "document.pdf_downloaded": "PDF baixado",
  "document.deleted": "Documento excluído",
  "document.cancelled": "Documento cancelado",
  /** Decision 056. */
  "document.refused": "Recusa informada registrada",
  "document.revoked": "Consentimento revogado",
  "document.optional_consent_revoked": "Autorização opcional revogada",
  "document.choice_sealed": "Registro de recusa ou revogação selado",
  "document.sent": "Enviado para assinatura",
  "document.resent": "Link de assinatura reenviado",
  /** Decision 076: one event for the batch (each document has its own created/sent events). */
  "document.bulk_sent": "Envio em lote",
  "document.reminder_sent": "Lembrete automático enviado",
  "document.whatsapp_fallback": "WhatsApp não entregue: mensagem enviada por SMS ou e-mail",
  /** Decision 074. */
  "document.signed_copy_message": "Link da via assinada enviado ao celular cadastrado",
  "document.viewed": "Aberto pelo(a) signatário(a)",
  "document.signed": "Documento assinado por todas as partes",
  "document.party_signed": "Assinatura registrada",
  "document.reading": "Registro de leitura enviado pelo aparelho do signatário (não conferido)",
  "document.comprehension_answered": "Pergunta de compreensão respondida",
  /** Decision 069. */
  "document.audio_recorded": "Áudio do aceite gravado pelo signatário",
  "document.audio_played": "Áudio do aceite reproduzido",
  "document.signing_paused": "Assinatura pausada: o paciente pediu para falar com o profissional",
  "document.expired": "Prazo de assinatura expirado",
  "document.sealed": "PDF assinado selado",
  "document.archive_timestamped": "PDF selado renovado no arquivo: novos dados de validação e carimbo do tempo",
  "document.signed_pdf_downloaded": "PDF assinado baixado",
  "document.choice_record_downloaded": "Registro de recusa ou revogação baixado",
  "document.fhir_exported": "Documento exportado em FHIR (outro sistema da clínica)",
  "document.signed_pdf_downloaded_by_signer": "PDF assinado baixado pelo signatário (pelo link de assinatura)",
  "document.opened": "Link de assinatura aberto",
  "document.otp_sent": "Código de verificação enviado ao paciente",
  "document.otp_email_outbox": "Código de verificação na caixa de saída (envio de e-mail não configurado)",
  "document.professional_code_sent": "Código de verificação enviado ao e-mail do profissional",
  "document.professional_code_outbox":
    "Código de verificação do profissional na caixa de saída (envio de e-mail não configurado)",
  "document.link_emailed": "Link de assinatura enviado por e-mail ao paciente",
  "document.link_sms_sent": "Link de assinatura enviado por SMS ao paciente",
  "document.link_email_outbox": "E-mail com o link na caixa de saída (envio de e-mail não configurado)",
  "document.link_accessed": "Link de assinatura exibido a um membro da equipe",
  "document.front_desk_started":
    "Aparelho da equipe entregue ao paciente para assinatura presencial (sistema bloqueado)",
  "document.front_desk_ended": "Aparelho desbloqueado pela equipe após a assinatura presencial",
  "document.otp_verified": "Código de verificação confirmado pelo signatário",
  "document.sign_attempt_failed": "Tentativa de assinatura recusada",
  "document.witness_added": "Testemunha adicionada ao documento",
  "document.witness_removed": "Testemunha removida do documento",
  "document.a_rogo_set": "Assinatura a rogo definida no documento",
  "document.a_rogo_removed": "Assinatura a rogo removida do documento",
  "audit.trail_timestamp_renewed":
    "Carimbo do tempo da trilha de auditoria renovado antes de vencer o certificado da autoridade",
  "document.witness_link_emailed": "Link de assinatura enviado por e-mail à testemunha",
  "document.witness_link_email_outbox":
    "E-mail com o link da testemunha na caixa de saída (envio de e-mail não configurado)",
  "patient.contact_changed": "Contato do paciente alterado enquanto aguardava assinatura",
  "settings.signing_updated": "Opções de assinatura alteradas",
  "api_key.created": "Chave de API criada",
  "api_key.revoked": "Chave de API revogada",
  "webhook.created": "Endpoint de webhook criado",
  "webhook.updated": "Endpoint de webhook alterado",
  "webhook.deleted": "Endpoint de webhook excluído",
  "webhook.secret_rotated": "Segredo do endpoint de webhook trocado",
  "webhook.resent": "Entrega de webhook reenviada",
  "webhook.test_sent": "Evento de teste de webhook enviado",
  "settings.reminders_updated": "Lembretes automáticos alterados",
  "settings.embedding_updated": "Sites autorizados a incorporar a assinatura alterados",
  "certificate.uploaded": "Certificado digital enviado",
  "certificate.upload_refused": "Envio de certificado digital recusado",
  "certificate.removed": "Certificado digital removido",
  "certificate.replaced": "Certificado digital substituído por um novo",
  "certificate.expiry_warning_sent": "Aviso de vencimento do certificado digital enviado",
  "certificate.used": "Documento assinado com o certificado digital",
  "settings.clinic_updated": "Dados da clínica alterados",
  "profile.updated": "Perfil alterado pelo próprio usuário",
  "profile.password_changed": "Senha alterada pelo próprio usuário",
  "user.updated": "Dados do usuário alterados pelo proprietário",
  "document.feegow_upload_requested": "Envio do PDF ao Feegow solicitado",
  "document.feegow_uploaded": "PDF enviado ao prontuário do paciente no Feegow",
  "document.feegow_upload_failed": "Falha no envio do PDF ao Feegow",
  "document.feegow_upload_retried": "Envio do PDF ao Feegow tentado de novo",
  "integration.feegow_professionals_imported": "Profissionais importados do Feegow",
  "integration.feegow_procedures_imported": "Procedimentos importados do Feegow",
  "integration.feegow_token_removed": "Token do Feegow removido",
  // A patient's own data and the exports (decision 026: the patient's access log speaks these).
  "patient.created": "Cadastro do paciente criado",
  "patient.viewed": "Dados do paciente consultados",
  "patient.updated": "Dados do paciente alterados",
  "patient.deleted": "Cadastro do paciente excluído",
  "patient.exported": "Dados do paciente exportados (LGPD)",
  "patient.anonymized": "Dados pessoais do paciente anonimizados (LGPD)",
  "clinic.exported": "Todos os dados da clínica exportados",
  // The clinic's own records (templates, procedures, content, team, integration, settings).
  "template.created": "Modelo de termo criado",
  "template.updated": "Modelo de termo alterado (nova versão)",
  "template.version_restored": "Versão anterior do modelo restaurada (nova versão)",
  "template.duplicated": "Modelo de termo duplicado",
  "template.status_changed": "Situação do modelo de termo alterada",
  "template.deleted": "Modelo de termo excluído",
  "procedure.created": "Procedimento criado",
  "procedure.updated": "Procedimento alterado",
  "procedure.deleted": "Procedimento excluído",
  "procedure.associations_saved": "Riscos, benefícios e cuidados do procedimento salvos",
  "content.created": "Conteúdo (risco, benefício ou cuidado) criado",
  "content.updated": "Conteúdo (risco, benefício ou cuidado) alterado",
  "content.deleted": "Conteúdo (risco, benefício ou cuidado) excluído",
  "profile.template_defaults_saved": "Padrões dos modelos de termo salvos",
  "settings.logo_updated": "Logotipo da clínica alterado",
  "settings.logo_removed": "Logotipo da clínica removido",
  "user.invited": "Membro da equipe convidado",
  "user.invitation_accepted": "Convite da equipe aceito",
  "user.created": "Membro da equipe cadastrado",
  "user.role_changed": "Papel de um membro da equipe alterado",
  "integration.feegow_updated": "Integração com o Feegow configurada",
  "integration.feegow_tested": "Conexão com o Feegow testada",
  "integration.feegow_patient_searched": "Paciente procurado no Feegow",
};

export function auditActionLabel(action: string): string {
  return AUDIT_ACTION_LABEL[action] ?? action;
}

/**
 * Who opened the signing link, from the `document.viewed` event's data (open-signing-page.ts):
 * `papel` of the link's signer (recorded since decision 025), else a witness's `testemunha_id`.
 * Events written before `papel` was recorded on the patient's link say "signatário(a)": that link
 * is opened by the patient or, for a minor or a patient with a guardian, by the legal guardian.
 */
const VIEWED_BY: Readonly<Record<string, string>> = {
  paciente: "Aberto pelo paciente",
  responsavel: "Aberto pelo responsável legal",
  testemunha: "Aberto pela testemunha",
};

function field(data: unknown, name: string): unknown {
  return typeof data === "object" && data !== null && !Array.isArray(data)
    ? (data as Record<string, unknown>)[name]
    : undefined;
}

/** The label of one event in a document's trail (Auditoria tab, the PDF's registry): the action's, refined by its data. */
export function auditEventLabel(action: string, data?: unknown): string {
  if (action === "document.viewed") {
    const papel = field(data, "papel");
    if (typeof papel === "string" && Object.hasOwn(VIEWED_BY, papel)) return VIEWED_BY[papel]!;
    if (typeof field(data, "testemunha_id") === "string") return VIEWED_BY.testemunha!;
  }
  if (action === "document.whatsapp_fallback") {
    // Decision 066: says which channel carried the message instead of WhatsApp.
    const canal = field(data, "canal");
    const tipo = field(data, "tipo");
    const what =
      tipo === "codigo"
        ? "novo código enviado"
        : tipo === "via_assinada"
          ? "link da via assinada enviado"
          : "link enviado";
    if (canal === "sms") return `WhatsApp não entregue: ${what} por SMS`;
    if (canal === "email") return `WhatsApp não entregue: ${what} por e-mail`;
    if (canal === "nenhum") return "WhatsApp não entregue: sem SMS ou e-mail para reenviar";
  }
  if (action === "document.signed_copy_message") {
    // Decision 074: by which channel, to whose mobile.
    const canal = field(data, "canal");
    const whose = field(data, "contato_de") === "responsavel" ? "do responsável legal" : "do paciente";
    if (canal === "whatsapp" || canal === "sms")
      return `Link da via assinada enviado por ${canal === "sms" ? "SMS" : "WhatsApp"} ao celular ${whose}`;
  }
  const toGuardian = guardianDestinationLabel(action, data);
  if (toGuardian) return toGuardian;
  if (action === "document.optional_consent_revoked") {
    const titulo = field(data, "item_titulo");
    if (typeof titulo === "string" && titulo) return `Autorização opcional revogada: ${titulo}`;
  }
  return auditActionLabel(action);
}

/**
 * Where the guardian's link or code went (decision 078): when the guardian signs with contacts of
 * their own (`contato_de: "responsavel"`, decision 068), the staff trail names the masked address
 * or mobile recorded in the event and whose it was, instead of "ao paciente". Null otherwise.
 */
function guardianDestinationLabel(action: string, data: unknown): string | null {
  if (field(data, "contato_de") !== "responsavel") return null;
  const email = field(data, "email");
  const telefone = field(data, "telefone");
  const destination = typeof email === "string" && email ? email : typeof telefone === "string" ? telefone : "";
  const where = destination ? ` (${destination})` : "";
  const canal = field(data, "canal");
  const by = canal === "sms" ? "por SMS ao celular" : canal === "whatsapp" ? "por WhatsApp ao celular" : "ao e-mail";
  switch (action) {
    case "document.link_emailed":
      return `Link de assinatura enviado por e-mail ao responsável legal${where}`;
    case "document.link_sms_sent":
      return `Link de assinatura enviado por SMS ao celular do responsável legal${where}`;
    case "document.link_email_outbox":
      return `E-mail com o link ao responsável legal na caixa de saída${where} (envio de e-mail não configurado)`;
    case "document.otp_sent":
      return `Código de verificação enviado ${by} do responsável legal${where}`;
    case "document.otp_email_outbox":
      return `Código de verificação ao responsável legal na caixa de saída${where} (envio de e-mail não configurado)`;
    default:
      return null;
  }
}
