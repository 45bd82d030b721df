/** pt-BR description of each audit action shown in a document's trail. */
export const AUDIT_ACTION_LABEL: Readonly<Record<string, string>> = {
  "document.created": "Documento criado",
  "document.viewed_by_staff": "Documento consultado pela equipe",
  "document.pdf_generated": "PDF gerado",
  "document.pdf_downloaded": "PDF baixado",
  "document.deleted": "Documento excluído",
  "document.cancelled": "Documento cancelado",
  "document.sent": "Enviado para assinatura",
  "document.resent": "Link de assinatura reenviado",
  "document.viewed": "Aberto pelo paciente",
  "document.signed": "Documento assinado por todas as partes",
  "document.party_signed": "Assinatura registrada",
  "document.expired": "Prazo de assinatura expirado",
  "document.sealed": "PDF assinado selado",
  "document.signed_pdf_downloaded": "PDF assinado baixado",
  "document.signed_pdf_downloaded_by_signer": "PDF assinado baixado pelo signatário (pelo link de assinatura)",
  "document.opened": "Link de assinatura aberto",
  "document.otp_sent": "Código de verificação enviado ao paciente",
  "document.otp_email_outbox": "Código de verificação na caixa de saída (envio de e-mail não configurado)",
  "document.link_emailed": "Link de assinatura enviado por e-mail ao paciente",
  "document.link_email_outbox": "E-mail com o link na caixa de saída (envio de e-mail não configurado)",
  "document.link_accessed": "Link de assinatura exibido a um membro da equipe",
  "document.otp_verified": "Código de verificação confirmado pelo signatário",
  "document.sign_attempt_failed": "Tentativa de assinatura recusada",
  "patient.contact_changed": "Contato do paciente alterado enquanto aguardava assinatura",
  "settings.signing_updated": "Opções de assinatura alteradas",
  "document.feegow_upload_requested": "Envio do PDF ao Feegow solicitado",
  "document.feegow_uploaded": "PDF enviado ao prontuário do paciente no Feegow",
  "document.feegow_upload_failed": "Falha no envio do PDF ao Feegow",
  "document.feegow_upload_retried": "Envio do PDF ao Feegow tentado de novo",
  "integration.feegow_professionals_imported": "Profissionais importados do Feegow",
  "integration.feegow_procedures_imported": "Procedimentos importados do Feegow",
  "integration.feegow_token_removed": "Token do Feegow removido",
};

export function auditActionLabel(action: string): string {
  return AUDIT_ACTION_LABEL[action] ?? action;
}
