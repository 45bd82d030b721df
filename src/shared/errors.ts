/**
 * The error catalogue: every error the API returns has a stable code, an HTTP status and a
 * pt-BR message. The server maps it to responses in one place (src/server/errors.ts); the
 * client shows `message` and may branch on `code`.
 */
export const ERRORS = {
  VALIDATION: { status: 400, message: "Dados inválidos. Verifique os campos destacados." },
  BAD_REQUEST: { status: 400, message: "Requisição inválida." },
  BAD_URL: { status: 400, message: "Endereço inválido. Confira o link e tente de novo." },
  URL_TOO_LONG: { status: 414, message: "Endereço longo demais. Confira o link e tente de novo." },
  UNAUTHENTICATED: { status: 401, message: "Sua sessão expirou. Entre novamente." },
  INVALID_CREDENTIALS: { status: 401, message: "E-mail ou senha incorretos." },
  /** Front-desk signing: the device is in the patient's hands until a password unlocks it. */
  SESSION_LOCKED: {
    status: 423,
    message: "Este aparelho está com o paciente para assinatura. Digite a sua senha para voltar ao sistema.",
  },
  FRONT_DESK_NOT_WAITING: { status: 409, message: "Este documento não está aguardando a assinatura do paciente." },
  ACCOUNT_INACTIVE: { status: 403, message: "Sua conta está desativada. Fale com o responsável pela clínica." },
  FORBIDDEN: { status: 403, message: "Você não tem permissão para esta ação." },
  ORIGIN_MISMATCH: { status: 403, message: "Origem da requisição não permitida." },
  /** API keys (decision 058): one message for a key unknown, malformed, expired or revoked — no hint which. */
  API_KEY_INVALID: { status: 401, message: "Chave de API inválida, expirada ou revogada." },
  API_KEY_WITH_SESSION: {
    status: 400,
    message: "Envie a chave de API ou o cookie de sessão, não os dois na mesma requisição.",
  },
  API_KEY_SESSION_ONLY: {
    status: 403,
    message: "Esta operação exige uma pessoa com sessão aberta: chaves de API não podem usá-la.",
  },
  API_KEY_ROLE_ABOVE: {
    status: 403,
    message: "Uma chave não pode agir com um papel que tenha permissões que você não tem.",
  },
  API_KEY_NOT_FOUND: { status: 404, message: "Chave de API não encontrada." },
  API_KEY_RATE_LIMITED: {
    status: 429,
    message: "Limite de requisições desta chave de API atingido. Aguarde um minuto e tente de novo.",
  },
  NOT_FOUND: { status: 404, message: "Recurso não encontrado." },
  /** The WhatsApp webhook (decision 059): X-Hub-Signature-256 missing or not the app secret's. */
  WEBHOOK_SIGNATURE_INVALID: { status: 401, message: "Assinatura do webhook ausente ou inválida." },
  WEBHOOK_NOT_CONFIGURED: { status: 404, message: "O WhatsApp não está configurado neste servidor." },
  WEBHOOK_VERIFY_FAILED: { status: 403, message: "Token de verificação do webhook inválido." },
  /** The clinic's own webhook endpoints (decision 062). */
  WEBHOOK_ENDPOINT_NOT_FOUND: { status: 404, message: "Endpoint de webhook não encontrado." },
  WEBHOOK_DELIVERY_NOT_FOUND: { status: 404, message: "Entrega de webhook não encontrada." },
  WEBHOOK_ENDPOINT_INACTIVE: {
    status: 409,
    message: "Este endpoint está desativado. Reative-o antes de enviar ou reenviar eventos.",
  },
  EMAIL_TAKEN: { status: 409, message: "Este email já está cadastrado. Tente fazer login." },
  PATIENT_HAS_DOCUMENTS: { status: 409, message: "Este paciente possui documentos e não pode ser excluído." },
  PATIENT_CPF_TAKEN: { status: 409, message: "Já existe um paciente com este CPF nesta clínica." },
  ASSOCIATION_ITEM_UNKNOWN: {
    status: 400,
    message: "Um ou mais itens selecionados não existem mais. Recarregue a página e tente novamente.",
  },
  TEMPLATE_IN_USE: { status: 409, message: "Este template está sendo usado em contratos. Não é possível excluí-lo." },
  TEMPLATE_INVALID_TRANSITION: { status: 409, message: "Esta mudança de status não é permitida" },
  TEMPLATE_SPECIALTY_NOT_ALLOWED: { status: 400, message: "Especialidade não permitida para o seu perfil" },
  DOCUMENT_PHYSICIAN_REQUIRED: { status: 400, message: "Por favor, selecione o médico responsável pelo documento." },
  DOCUMENT_PHYSICIAN_INVALID: {
    status: 400,
    message: "O médico responsável escolhido não pode assinar documentos desta clínica.",
  },
  DOCUMENT_TEMPLATE_NOT_PUBLISHED: {
    status: 400,
    message: "Este template não está publicado. Publique-o antes de criar documentos.",
  },
  DOCUMENT_UNRESOLVED: {
    status: 400,
    message: "Há variáveis sem valor no documento. Preencha os dados ou ajuste o template antes de criar.",
  },
  DOCUMENT_LOCKED: { status: 409, message: "Documentos assinados não podem ser excluídos nem alterados." },
  DOCUMENT_NOT_DELETABLE: {
    status: 409,
    message:
      "Só rascunhos, documentos cancelados e expirados podem ser excluídos; documentos enviados podem ser cancelados.",
  },
  DOCUMENT_NOT_CANCELLABLE: { status: 409, message: "Este documento não pode ser cancelado." },
  PDF_UNAVAILABLE: { status: 404, message: "PDF não disponível" },
  PDF_FAILED: { status: 500, message: "Erro ao gerar PDF" },
  /** The document's frozen content cannot be drawn (spec part 1 §5 PDF generation). */
  PDF_TEMPLATE_INVALID: { status: 422, message: "Erro ao processar template do documento" },
  DOCUMENT_TOO_LARGE: {
    status: 400,
    message: "O documento ficou grande demais para gerar o PDF. Escolha menos conteúdos ou encurte os textos.",
  },
  SIGNING_LINK_INVALID: { status: 410, message: "O link de assinatura é inválido ou expirado" },
  SIGNING_NAME_MISMATCH: { status: 400, message: "Nome não confere com os dados do paciente" },
  SIGNING_CPF_MISMATCH: { status: 400, message: "CPF não confere com os dados do paciente" },
  SIGNING_SIGNATURE_REQUIRED: { status: 400, message: "Por favor, assine no campo acima" },
  /** Decision 057: the answers must name exactly the optional consents the document offered. */
  SIGNING_OPTIONAL_ANSWERS_INVALID: {
    status: 400,
    message:
      "As respostas aos consentimentos opcionais não correspondem a este documento. Recarregue a página e responda a cada item.",
  },
  SIGNING_ALREADY_SIGNED: { status: 409, message: "Este documento já foi assinado." },
  SIGNING_CONTENT_CHANGED: {
    status: 409,
    message: "O documento mudou desde que a página foi aberta. Recarregue para ler a versão atual.",
  },
  /** The reading record (decision 052): an id not in the frozen model; too many batches for a link. */
  READING_UNKNOWN_SECTION: {
    status: 400,
    message: "O registro de leitura cita uma seção que não existe neste documento.",
  },
  READING_TOO_MANY: { status: 429, message: "Registros de leitura demais para este link." },
  /** Decision 061: comprehension questions, answered one at a time before signing. */
  COMPREHENSION_NONE: { status: 400, message: "Este documento não tem perguntas de compreensão." },
  COMPREHENSION_UNKNOWN_QUESTION: {
    status: 400,
    message: "A resposta cita uma pergunta que não existe neste documento. Recarregue a página.",
  },
  COMPREHENSION_OPTION_INVALID: { status: 400, message: "Escolha uma das opções da pergunta." },
  COMPREHENSION_VERSION_MISMATCH: {
    status: 409,
    message: "As perguntas mudaram desde que a página foi aberta. Recarregue para responder às perguntas atuais.",
  },
  COMPREHENSION_ALREADY_RIGHT: { status: 409, message: "Esta pergunta já foi respondida corretamente." },
  COMPREHENSION_TOO_MANY: { status: 429, message: "Tentativas demais nesta pergunta. Fale com o profissional." },
  COMPREHENSION_PENDING: {
    status: 409,
    message: "Responda corretamente às perguntas de compreensão antes de assinar.",
  },
  SIGNING_PAUSED: {
    status: 409,
    message:
      "Você pediu para falar com o profissional. A assinatura está pausada: a clínica vai entrar em contato com você.",
  },
  SIGNING_OTP_REQUIRED: { status: 400, message: "Digite o código enviado para o seu e-mail" },
  SIGNING_OTP_INVALID: { status: 400, message: "Código inválido ou expirado. Peça um novo código." },
  /** The signer's download before the finalize job sealed the PDF (the page keeps asking). */
  SIGNED_PDF_PREPARING: {
    status: 404,
    message: "O documento assinado está sendo preparado. Tente novamente em instantes.",
  },
  SIGNED_PDF_NOT_SIGNED: { status: 404, message: "Este documento ainda não foi assinado." },
  DOCUMENT_NOT_SENDABLE: {
    status: 409,
    message: "Só rascunhos podem ser enviados; documentos enviados podem ser reenviados.",
  },
  DOCUMENT_NOT_RESENDABLE: {
    status: 409,
    message: "Só documentos enviados, visualizados ou expirados podem ser reenviados.",
  },
  PATIENT_CPF_MISSING: {
    status: 400,
    message: "O paciente não tem CPF cadastrado. Cadastre o CPF antes de enviar: ele é conferido na assinatura.",
  },
  PATIENT_EMAIL_MISSING: { status: 400, message: "O paciente não tem e-mail cadastrado" },
  PROFESSIONAL_SIGNATURE_MISSING: {
    status: 409,
    message:
      "O profissional responsável ainda não assinou a declaração do profissional. Nesta clínica ele assina antes do envio, pelo documento, no Consentir.",
  },
  /** Configurações → "depois do paciente" (decision 050). */
  PROFESSIONAL_AFTER_PATIENT: {
    status: 409,
    message:
      "Nesta clínica o profissional responsável assina depois do paciente. O paciente (ou o responsável legal) ainda não assinou este documento.",
  },
  PROFESSIONAL_NOT_RESPONSIBLE: {
    status: 403,
    message: "Só o profissional responsável pelo documento pode assinar a declaração do profissional.",
  },
  PROFESSIONAL_ALREADY_SIGNED: { status: 409, message: "O profissional responsável já assinou este documento." },
  /** Signing with the ICP-Brasil certificate without an active one of one's own. */
  PROFESSIONAL_CERTIFICATE_MISSING: {
    status: 409,
    message:
      "Você não tem um certificado digital ICP-Brasil ativo. Envie seu e-CPF em Certificado Digital, ou assine só com a senha.",
  },
  WRONG_PASSWORD: { status: 400, message: "Senha incorreta." },
  /** The professional's second factor (decision 042) cannot be sent: this server sends no e-mail. */
  PROFESSIONAL_CODE_UNAVAILABLE: {
    status: 409,
    message:
      "Este servidor não envia e-mails, então não há código para confirmar: assine só com a senha (a assinatura fica com login e senha, sem segundo fator).",
  },
  /** The clinic requires the professional's code (decision 078) and none came with the password. */
  PROFESSIONAL_CODE_REQUIRED: {
    status: 409,
    message:
      "A clínica exige o código enviado ao e-mail da sua conta para assinar como profissional: peça o código, digite-o e assine com a sua senha.",
  },
  GUARDIAN_MISSING: {
    status: 400,
    message:
      "Paciente menor de idade ou com responsável legal: cadastre o nome e o CPF do responsável antes de enviar. É ele quem assina.",
  },
  WITNESS_LIMIT: { status: 409, message: "Um documento pode ter no máximo 2 testemunhas." },
  WITNESS_NOT_EDITABLE: {
    status: 409,
    message: "As testemunhas só podem ser alteradas enquanto o documento é um rascunho.",
  },
  A_ROGO_NOT_EDITABLE: {
    status: 409,
    message: "A assinatura a rogo só pode ser definida ou removida enquanto o documento é um rascunho.",
  },
  A_ROGO_IS_PARTY: {
    status: 400,
    message:
      "Quem assina a rogo não pode ser o paciente, o responsável legal, o profissional responsável nem uma das testemunhas.",
  },
  A_ROGO_WITNESSES_MISSING: {
    status: 409,
    message: "A assinatura a rogo exige duas testemunhas: cadastre-as no documento antes de enviar.",
  },
  A_ROGO_FRONT_DESK_ONLY: {
    status: 403,
    message:
      "Esta assinatura a rogo é feita na clínica, no aparelho da equipe, com o termo lido em voz alta e duas testemunhas.",
  },
  A_ROGO_CHOICE_AT_CLINIC: {
    status: 403,
    message: "Para um documento assinado a rogo, a recusa ou a revogação é registrada pela clínica: procure a equipe.",
  },
  A_ROGO_READING_REQUIRED: {
    status: 400,
    message: "Confirme que o termo foi lido em voz alta para o paciente e informe quem o leu.",
  },
  WITNESS_IS_PARTY: {
    status: 400,
    message:
      "A testemunha não pode ser o paciente, o responsável legal, o profissional responsável, quem assina a rogo nem a outra testemunha.",
  },
  PAYLOAD_TOO_LARGE: { status: 413, message: "O conteúdo enviado é grande demais." },
  RATE_LIMITED: { status: 429, message: "Muitas tentativas. Aguarde alguns minutos antes de tentar novamente." },
  /** Per-account sign-in lock (decision 011); the answer's message says how long, Retry-After too. */
  SIGN_IN_LOCKED: {
    status: 429,
    message: "Muitas tentativas de entrar nesta conta. Por segurança, aguarde alguns minutos e tente novamente.",
  },
  RESET_TOKEN_INVALID: { status: 400, message: "O link de redefinição de senha é inválido ou expirou. Peça um novo." },
  /** /users (spec part 2 §6): only the owner of an establishment manages its users (decision 017). */
  USERS_OWNER_ONLY: { status: 403, message: "Acesso negado" },
  USERS_ESTABLISHMENT_ONLY: {
    status: 403,
    message:
      "A gestão de usuários é exclusiva de estabelecimentos. Uma conta de profissional independente tem um único usuário.",
  },
  USER_NOT_FOUND: { status: 404, message: "Usuário não encontrado." },
  /** A clinic chosen by the platform administrator (part 2 §6) that does not exist. */
  CLINIC_NOT_FOUND: { status: 404, message: "Clínica não encontrada." },
  /** Another clinic's specialties asked by anyone but the platform administrator (part 2 §6). */
  OTHER_CLINIC_FORBIDDEN: {
    status: 403,
    message: "Acesso negado: só o administrador da plataforma pode consultar outra clínica.",
  },
  USER_EMAIL_TAKEN: { status: 409, message: "Este e-mail já está cadastrado no Consentir. Use outro e-mail." },
  USER_CPF_TAKEN: { status: 409, message: "Já existe um usuário com este CPF nesta clínica." },
  USER_OWNER_PROTECTED: { status: 409, message: "O proprietário da clínica não pode ser desativado." },
  USER_COUNCIL_REQUIRED: {
    status: 409,
    message: "Esta função é de profissional de saúde: o usuário precisa ter conselho profissional cadastrado.",
  },
  USER_INVITATION_NOT_PENDING: {
    status: 409,
    message: "Este usuário já definiu a própria senha: não há convite pendente.",
  },
  USER_INACTIVE: { status: 409, message: "Este usuário está inativo. Ative-o antes de enviar um convite." },
  INVITATION_INVALID: {
    status: 410,
    message: "Este convite é inválido, expirou ou já foi usado. Peça um novo convite ao responsável pela clínica.",
  },
  /** Digital certificates (spec part 1 §8 "Certificates", decision 019). */
  CERTIFICATES_FORBIDDEN: { status: 403, message: "Acesso negado" },
  CERTIFICATE_NOT_FOUND: { status: 404, message: "Certificado não encontrado." },
  /** The file was refused; the message says why (not PKCS#12, no key, expired…), details.motivo too. */
  CERTIFICATE_INVALID: { status: 400, message: "Certificado inválido" },
  CERTIFICATE_WRONG_PASSWORD: { status: 400, message: "Senha do certificado incorreta." },
  CERTIFICATE_TOO_LARGE: {
    status: 413,
    message: "O arquivo é grande demais para um certificado A1 (máximo de 64 kB).",
  },
  CERTIFICATE_NOT_YOURS: {
    status: 400,
    message:
      "O CPF deste certificado não é o do seu cadastro. Envie o seu próprio e-CPF, ou peça ao proprietário para enviá-lo como certificado da clínica.",
  },
  CERTIFICATE_DUPLICATE: { status: 409, message: "Este certificado já está cadastrado e ativo." },
  /** Too many wrong certificate passwords by one user (decision 019); Retry-After says how long. */
  CERTIFICATE_PASSWORD_LOCKED: {
    status: 429,
    message: "Muitas tentativas com senha incorreta. Por segurança, aguarde alguns minutos antes de tentar de novo.",
  },
  /** /profile: the password re-typed to change the password, e-mail or CPF. */
  PROFILE_WRONG_PASSWORD: { status: 400, message: "Senha atual incorreta." },
  PROFILE_PASSWORD_REQUIRED: { status: 400, message: "Informe sua senha atual para alterar o e-mail ou o CPF." },
  /** /settings: owner and administrators only. */
  SETTINGS_ACCESS_DENIED: { status: 403, message: "Acesso negado" },
  SETTINGS_ACCOUNT_MISMATCH: {
    status: 400,
    message: "Os dados enviados não correspondem ao tipo desta conta. Recarregue a página e tente novamente.",
  },
  /** The clinic's logo. */
  /** Audio consent (decision 069). */
  AUDIO_NOT_REQUESTED: { status: 409, message: "A clínica não pediu gravação em áudio para este documento." },
  AUDIO_NOT_AUDIO: {
    status: 415,
    message: "O arquivo enviado não é uma gravação de áudio. Grave de novo pela página de assinatura.",
  },
  AUDIO_TOO_BIG: { status: 413, message: "A gravação é grande demais (máximo de 3 MB). Grave de novo, mais curta." },
  AUDIO_TOO_LONG: { status: 400, message: "A gravação passou de 3 minutos. Grave de novo, mais curta." },
  AUDIO_TOO_SHORT: { status: 400, message: "A gravação ficou curta demais. Grave de novo lendo a frase inteira." },
  AUDIO_TOO_MANY: {
    status: 429,
    message: "Você já gravou o áudio muitas vezes por este link. Assine com a última gravação ou fale com a clínica.",
  },
  AUDIO_NOT_FOUND: { status: 404, message: "Áudio do aceite não encontrado." },
  LOGO_TOO_LARGE: { status: 413, message: "O logo deve ter no máximo 1 MB." },
  LOGO_UNSUPPORTED: { status: 415, message: "Envie o logo em PNG, JPEG ou SVG." },
  LOGO_INVALID: { status: 400, message: "Não foi possível ler a imagem. Envie um PNG, JPEG ou SVG válido." },
  LOGO_TOO_MANY_PIXELS: {
    status: 400,
    message: "A imagem é grande demais (mais de 40 megapixels). Reduza-a e envie de novo.",
  },
  LOGO_TOO_COMPLEX: {
    status: 400,
    message:
      "A imagem levou tempo demais para ser desenhada (um SVG com muitos efeitos). Envie o logo em PNG ou JPEG, ou um SVG mais simples.",
  },
  PROCEDURE_SPECIALTY_UNKNOWN: { status: 400, message: "Escolha uma especialidade da lista." },
  CEP_INVALID: { status: 400, message: "CEP inválido. Informe os 8 dígitos." },
  CEP_NOT_FOUND: { status: 404, message: "CEP não encontrado" },
  CEP_UNAVAILABLE: { status: 502, message: "Erro ao buscar CEP" },
  /** Clinic-system integration (spec part 2 §8 "Integration", decision 016). */
  FEEGOW_TOKEN_MISSING: { status: 400, message: "Token não configurado" },
  FEEGOW_NOT_CONNECTED: {
    status: 409,
    message: "Salve o token e teste a conexão com sucesso antes de ativar as integrações.",
  },
  FEEGOW_FEATURE_DISABLED: { status: 409, message: "Integração desabilitada" },
  FEEGOW_PATIENT_NOT_FOUND: { status: 404, message: "Paciente não encontrado" },
  FEEGOW_UPLOAD_NOT_FOUND: { status: 404, message: "Envio ao Feegow não encontrado" },
  FEEGOW_UPLOAD_NOT_FAILED: { status: 409, message: "Só um envio que falhou pode ser tentado de novo." },
  FEEGOW_SIGNED_PDF_PENDING: {
    status: 409,
    message: "O PDF assinado ainda está sendo gerado. Ele vai para o Feegow assim que ficar pronto.",
  },
  /** Production without SMTP: an e-mail would wait in an outbox nobody reads (decision 067). */
  EMAIL_NOT_DELIVERABLE: {
    status: 409,
    message: "Este servidor não envia e-mails: envie o link pelo WhatsApp ou copie-o.",
  },
  FEEGOW_REFUSED_DOCUMENT: {
    status: 409,
    message:
      "O paciente recusou este documento: o que vai ao Feegow é o Registro de recusa selado, enviado automaticamente, não o termo sem assinatura.",
  },
  /** Feegow refused, failed or did not answer: the message says which, in words. */
  FEEGOW_ERROR: { status: 502, message: "Erro ao conectar com Feegow" },
  /** Live updates (decision 022): past the streams one user may hold, or this server's capacity. */
  LIVE_TOO_MANY_STREAMS: {
    status: 429,
    message:
      "Há abas demais abertas recebendo atualizações ao vivo. Feche algumas: as listas continuam funcionando e se atualizam ao recarregar.",
  },
  LIVE_UNAVAILABLE: {
    status: 503,
    message:
      "As atualizações ao vivo estão indisponíveis no momento. As listas continuam funcionando e se atualizam ao recarregar.",
  },
  /** Retention and the patient's rights (decision 026): the messages name the law and the date. */
  DOCUMENT_RETAINED: {
    status: 409,
    message: "Documentos assinados são guardados por 20 anos (Lei 13.787/2018) e não podem ser excluídos.",
  },
  PATIENT_ANONYMIZE_RETAINED: {
    status: 409,
    message:
      "Este paciente tem documentos assinados, que a clínica tem o dever legal de guardar por 20 anos (Lei 13.787/2018): os dados dele não podem ser anonimizados.",
  },
  PATIENT_ANONYMIZE_PENDING: {
    status: 409,
    message: "Este paciente tem documentos aguardando assinatura. Cancele-os antes de anonimizar.",
  },
  CLINIC_EXPORT_TOO_LARGE: {
    status: 409,
    message:
      "A clínica tem arquivos demais para um único ZIP (até 65.000 arquivos e 4 GB). Exporte sem os arquivos ou peça ao responsável pelo servidor uma cópia de segurança.",
  },
  /** Refusal and revocation (decision 056). */
  DOCUMENT_NOT_REFUSABLE: {
    status: 409,
    message: "Só um documento ainda não assinado (rascunho, enviado ou visualizado) pode ter a recusa registrada.",
  },
  DOCUMENT_NOT_REVOCABLE: { status: 409, message: "Só um consentimento assinado pode ser revogado." },
  DOCUMENT_ALREADY_REVOKED: { status: 409, message: "Este consentimento já foi revogado." },
  /** Revoking one optional consent (decision 057). */
  CHOICE_RECORD_NOT_FOUND: { status: 404, message: "Registro não encontrado neste documento." },
  OPTIONAL_CONSENT_NOT_FOUND: { status: 404, message: "Autorização opcional não encontrada neste documento." },
  OPTIONAL_CONSENT_DECLINED: {
    status: 409,
    message: "Esta autorização foi respondida com “Não”: não há o que revogar.",
  },
  OPTIONAL_CONSENT_ALREADY_REVOKED: { status: 409, message: "Esta autorização já foi revogada." },
  CHOICE_NOT_FOR_WITNESS: {
    status: 403,
    message: "Só o paciente ou o responsável legal pode recusar ou revogar este documento, não a testemunha.",
  },
  CHOICE_IN_FUTURE: { status: 400, message: "A data e hora informadas não podem estar no futuro." },
  INTERNAL: { status: 500, message: "Erro inesperado. Tente novamente em instantes." },
  UNAVAILABLE: { status: 503, message: "Serviço indisponível no momento." },
  /** The PDF worker pool's queue is full (decision 012): sent with a Retry-After header. */
  SERVER_BUSY: {
    status: 503,
    message: "O servidor está ocupado gerando outros documentos. Tente novamente em alguns segundos.",
  },
  /**
   * Too many public requests (signing, verification) in this process right now (decision 040):
   * nothing was done; sent with Retry-After, and the public pages try again by themselves.
   */
  PUBLIC_BUSY: { status: 503, message: "Muitos acessos ao mesmo tempo. Aguarde alguns segundos e tente de novo." },
} as const satisfies Record<string, { status: number; message: string }>;

export type ErrorCode = keyof typeof ERRORS;

export interface FieldIssue {
  path: string;
  message: string;
}

/** The body of every error response. */
export interface ApiErrorBody {
  code: ErrorCode;
  message: string;
  issues?: FieldIssue[];
  details?: Record<string, unknown>;
}
