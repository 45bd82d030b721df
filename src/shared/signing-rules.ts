import { ageOn } from "./dates/sao-paulo.js";

/**
 * Signing rules without zod: constants, messages and pure checks. The public signing page imports
 * this module directly (its bundle must not carry zod); src/shared/schemas/signing.ts re-exports it.
 */
/** Signature canvas (spec part 1 §9): 280×120 CSS px, black line 2 px. */
export const SIGNATURE_CANVAS = { width: 280, height: 120, lineWidth: 2, color: "#000000" } as const;
/** A drawn signature PNG (base64 data URL) is refused above this size. */
export const MAX_SIGNATURE_BYTES = 300_000;
/** …and below this (an empty canvas exports a few hundred bytes). */
export const MIN_SIGNATURE_BYTES = 200;
export const OTP_DIGITS = 6;
export const OTP_TTL_MINUTES = 10;
export const OTP_MAX_ATTEMPTS = 5;
/**
 * After the document is signed, its links show the signed copy (and the sealed PDF, which carries
 * every party's full CPF and evidence) for this many days; then they answer like any dead link and
 * /verificar, by the code printed on the copy, remains (decision 021).
 */
export const SIGNED_LINK_DAYS = 30;

export const SIGNING_MESSAGES = {
  invalidLink: "O link de assinatura é inválido ou expirado",
  validateError: "Erro ao validar link de assinatura",
  required: "Nome, CPF e E-mail são obrigatórios",
  nameMismatch: "Nome não confere com os dados do paciente",
  cpfMismatch: "CPF não confere com os dados do paciente",
  signatureRequiredTitle: "Assinatura obrigatória",
  signatureRequired: "Por favor, assine no campo acima",
  signErrorTitle: "Erro ao assinar",
  signError: "Erro ao processar assinatura. Tente novamente.",
  signedTitle: "Documento assinado com sucesso!",
  signed: "Sua assinatura foi registrada com segurança",
  /** A signed link opened again: the state, no success banner. */
  signedRevisitTitle: "Documento assinado",
  signedRevisit: "A assinatura deste documento já foi registrada. Você pode consultá-lo abaixo.",
  contentError: "Erro ao gerar conteúdo do documento.",
  noContent: "Nenhum conteúdo de template encontrado.",
  notFound: "Documento não encontrado",
  signedNotice: "Todos os participantes receberão uma cópia do documento assinado por e-mail.",
  /** Ours (decision 047): where this signer's copy goes, after the spec's sentence. */
  signedNoticeTo: (masked: string) => `A sua vai para ${masked}, o e-mail registrado na clínica.`,
  copyGoesTo: (masked: string) => `A cópia do documento assinado vai para ${masked}, o e-mail registrado na clínica.`,
  copyGoesToTyped: "A cópia do documento assinado vai para este e-mail: digite-o de novo abaixo para conferir.",
  emailConfirmationMismatch: "Os e-mails não conferem. Digite o mesmo e-mail nos dois campos.",
  /** When e-mail cannot leave the server (no SMTP): nothing is promised by e-mail. */
  signedNoticeDownload: "Baixe aqui sua cópia do documento assinado e guarde-a com você.",
  signedPdfDownload: "Baixar documento assinado",
  signedPdfPreparing: "Preparando o documento assinado…",
  signedPdfPreparingHint:
    "O documento com as assinaturas e o selo está sendo gerado. O botão será liberado em instantes.",
  signedPdfLate: "O documento assinado ainda está sendo preparado. Tente novamente em alguns minutos.",
  signedPdfError: "Não foi possível baixar o documento assinado. Verifique sua conexão e tente novamente.",
  otpSent: "Enviamos um código de 6 dígitos para o seu e-mail cadastrado.",
  otpRequired: "Digite o código enviado para o seu e-mail",
  otpInvalid: "Código inválido ou expirado. Peça um novo código.",
  linkCopied: "Link copiado!",
  messageCopied: "Mensagem copiada!",
  tokenMissing: "Token de assinatura não gerado",
  linkError: "Erro ao gerar link de assinatura",
  whatsappError: "Erro ao gerar mensagem WhatsApp",
  sent: "Documento enviado para assinatura",
  resent: "Novo link de assinatura gerado; o anterior deixou de funcionar",
  emailQueued: "E-mail com o link enviado ao paciente",
  patientEmailMissing: "O paciente não tem e-mail cadastrado",
  emailInOutbox: "E-mail com o link colocado na caixa de saída: o envio de e-mail não está configurado neste servidor",
  consentRequired: "Confirme que concorda em assinar eletronicamente",
  codeFirst: "Para ver o documento completo e assinar, confirme o código enviado ao seu e-mail cadastrado.",
  codeFirstSms: "Para ver o documento completo e assinar, confirme o código enviado por SMS ao seu celular cadastrado.",
  otpSentSms: "Enviamos um código de 6 dígitos por SMS para o seu celular cadastrado.",
  codeFirstWhatsapp:
    "Para ver o documento completo e assinar, confirme o código enviado por WhatsApp ao seu celular cadastrado.",
  otpSentWhatsapp: "Enviamos um código de 6 dígitos por WhatsApp para o seu celular cadastrado.",
  /** The WhatsApp code could not be delivered and a new one went another way (decision 066). */
  otpFallbackSms:
    "Não conseguimos entregar o código pelo WhatsApp. Enviamos um novo código de 6 dígitos por SMS para o seu celular cadastrado.",
  otpFallbackEmail:
    "Não conseguimos entregar o código pelo WhatsApp. Enviamos um novo código de 6 dígitos para o seu e-mail cadastrado.",
  otpFallbackOld: "O código do WhatsApp não vale mais: use o novo.",
  codeVerified: "Código confirmado. Agora você pode ler o documento completo e assinar.",
  guardianNameMismatch: "Nome não confere com o do responsável legal cadastrado",
  guardianCpfMismatch: "CPF não confere com o do responsável legal cadastrado",
  witnessNameMismatch: "Nome não confere com o da testemunha cadastrada",
  witnessCpfMismatch: "CPF não confere com o da testemunha cadastrada",
  aRogoAtClinicTitle: "Assinatura a rogo, na clínica",
  aRogoAtClinic:
    "Este documento é assinado a rogo: na clínica, o termo é lido em voz alta para o paciente e a pessoa de confiança dele assina no aparelho da equipe, com duas testemunhas. Procure a equipe da clínica.",
  aRogoTitle: "Dados de quem assina a rogo",
  aRogoHint: (patient: string) =>
    `Você assina a rogo de ${patient}, a pedido dele(a). Preencha com o seu nome e o seu CPF, como informados à clínica.`,
  aRogoReadingTitle: "Leitura em voz alta",
  aRogoReaderLabel: "Quem leu o termo em voz alta",
  aRogoReadingConfirm: (patient: string) =>
    `O termo foi lido em voz alta para ${patient}, que disse ter entendido e pediu que eu assinasse por ele(a).`,
  aRogoReaderRequired: "Informe quem leu o termo em voz alta",
  aRogoReadingRequired: "Confirme que o termo foi lido em voz alta para o paciente",
  aRogoDeskHint: "Se o paciente não concordar, não assine: devolva o aparelho à equipe, que registra a recusa dele.",
  aRogoNameMismatch: "Nome não confere com o de quem foi cadastrado para assinar a rogo",
  aRogoCpfMismatch: "CPF não confere com o de quem foi cadastrado para assinar a rogo",
  /** The signer's own signature is recorded; others (witnesses, the patient) still have to sign. */
  waitingOthersTitle: "Sua assinatura foi registrada",
  waitingOthers:
    "O documento será concluído quando todas as partes assinarem. Depois disso, a cópia assinada ficará disponível.",
  /** The patient signed; only the responsible professional is missing (decision 050). */
  waitingProfessional: (profissional: string | null) =>
    `Falta agora a assinatura do profissional responsável${profissional ? ` (${profissional})` : ""}. Assim que ela for feita, o documento fica concluído e a cópia assinada fica disponível neste mesmo link.`,
} as const;

/**
 * When the responsible professional signs the professional declaration (Configurações, decision
 * 050): before the document can be sent, only after the patient (or guardian), or in any order.
 */
export const PROFESSIONAL_ORDERS = ["antes_do_envio", "depois_do_paciente", "qualquer_ordem"] as const;
export type ProfessionalOrder = (typeof PROFESSIONAL_ORDERS)[number];
export const DEFAULT_PROFESSIONAL_ORDER: ProfessionalOrder = "qualquer_ordem";
export const PROFESSIONAL_ORDER_LABELS: Record<ProfessionalOrder, string> = {
  antes_do_envio: "Antes do envio",
  depois_do_paciente: "Depois do paciente",
  qualquer_ordem: "Em qualquer ordem",
};

/** The stored value, or the default when none (or a bad one) is stored. */
export function professionalOrderOf(stored: unknown): ProfessionalOrder {
  return (PROFESSIONAL_ORDERS as readonly unknown[]).includes(stored)
    ? (stored as ProfessionalOrder)
    : DEFAULT_PROFESSIONAL_ORDER;
}

/** The ready WhatsApp text (spec part 1 §2: a message containing the link). */
export function whatsappMessage(patientName: string, title: string, link: string): string {
  const first = patientName.trim().split(/\s+/)[0] ?? patientName;
  return `Olá, ${first}! Segue o link para ler e assinar o documento "${title}": ${link}`;
}

/** wa.me link to a Brazilian phone (digits, 55 prefix) with the text. */
export function whatsappUrl(phone: string | null, text: string): string {
  const digits = (phone ?? "").replace(/\D/g, "");
  const number = digits ? (digits.startsWith("55") && digits.length > 11 ? digits : `55${digits}`) : "";
  return `https://wa.me/${number}?text=${encodeURIComponent(text)}`;
}

/** Public path of a signing link (spec part 1 §9: origin + /assinar/{token}). */
export const signingPath = (token: string) => `/assinar/${token}`;

/** Case, accents and runs of spaces do not count when names are compared. */
export function foldName(value: string): string {
  return value.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase().replace(/\s+/g, " ").trim();
}

/**
 * The name typed by the signer must BE the registered name once case, accents and spaces are set
 * aside ("Ana" no longer passes for "Ana Luíza Conceição"; the spec's substring rule
 * let anyone holding the link sign with a first name). The server repeats the check.
 */
export function nameMatches(typed: string, registeredName: string): boolean {
  const t = foldName(typed);
  return t.length > 0 && t === foldName(registeredName);
}

/** Replaces every appearance of `cpf` (masked 000.000.000-00 or bare digits) in a text with its mask. */
export function maskCpfInText(value: string, cpf: string | null): string {
  const digits = (cpf ?? "").replace(/\D/g, "");
  if (digits.length !== 11) return value;
  const formatted = `${digits.slice(0, 3)}.${digits.slice(3, 6)}.${digits.slice(6, 9)}-${digits.slice(9)}`;
  const masked = maskCpf(digits);
  return value.split(formatted).join(masked).split(digits).join(masked);
}

/** The same, through any JSON value (a frozen DocumentModel on the signing page). */
export function maskCpfDeep<T>(value: T, cpf: string | null): T {
  if (typeof value === "string") return maskCpfInText(value, cpf) as T;
  if (Array.isArray(value)) return value.map((inner) => maskCpfDeep(inner, cpf)) as T;
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, maskCpfDeep(inner, cpf)])) as T;
  }
  return value;
}

/** Age of majority (Código Civil art. 5º): a patient under 18 signs through their legal guardian. */
export const MAJORITY_AGE = 18;

/** True when someone born on `birthDate` (YYYY-MM-DD) is under 18 on `today` (YYYY-MM-DD, São Paulo). */
export function isMinorOn(birthDate: string | null, today: string): boolean {
  const age = ageOn(birthDate, today);
  return age !== null && age < MAJORITY_AGE;
}

/** Who signs a patient's document: the patient, or their legal guardian. */
export type SignerRole = "paciente" | "responsavel";

export interface RequiredSigner {
  papel: SignerRole;
  /** The name and CPF the signer must type (the guardian's own when they sign). */
  nome: string;
  cpf: string | null;
  /** "responsável legal de Pedro Souza", printed with the signature; null for the patient. */
  qualidade: string | null;
}

/**
 * The guardian signs when the record names one or the patient is a minor: in their own name and
 * CPF, as "responsável legal de …" — never passing for the patient (a minor cannot consent alone).
 */
export function requiredSigner(
  patient: {
    nome: string;
    cpf: string | null;
    data_nascimento: string | null;
    responsavel_nome: string | null;
    responsavel_cpf: string | null;
  },
  today: string,
): RequiredSigner {
  const guardian = Boolean(patient.responsavel_nome?.trim()) || isMinorOn(patient.data_nascimento, today);
  if (!guardian) return { papel: "paciente", nome: patient.nome, cpf: patient.cpf, qualidade: null };
  return {
    papel: "responsavel",
    nome: patient.responsavel_nome?.trim() ?? "",
    cpf: patient.responsavel_cpf,
    qualidade: `responsável legal de ${patient.nome}`,
  };
}

/** Whose contacts the link signer's messages go to: the guardian's own, or the patient's record. */
export type ContactOwner = "paciente" | "responsavel";

export interface SignerContacts {
  email: string | null;
  telefone: string | null;
  /** "responsavel": the guardian's own e-mail/mobile; "paciente": the patient's record contacts. */
  titular: ContactOwner;
}

/**
 * Where the link, the code, the reminders and the signed copy of the patient's link go. When the
 * guardian signs and the record has the guardian's own e-mail or mobile, only those (never the
 * minor's); a guardian without contacts of their own falls back to the patient's record contacts,
 * as before those fields existed. Guardian and patient contacts are never mixed.
 */
export function signerContacts(
  patient: Parameters<typeof requiredSigner>[0] & {
    email: string | null;
    telefone: string | null;
    responsavel_email: string | null;
    responsavel_telefone: string | null;
  },
  today: string,
): SignerContacts {
  const guardianEmail = patient.responsavel_email?.trim() || null;
  const guardianPhone = patient.responsavel_telefone?.trim() || null;
  if (requiredSigner(patient, today).papel === "responsavel" && (guardianEmail || guardianPhone)) {
    return { email: guardianEmail, telefone: guardianPhone, titular: "responsavel" };
  }
  return { email: patient.email, telefone: patient.telefone, titular: "paciente" };
}

/**
 * Every party a document needs: its link signer, the responsible professional when it has one,
 * and each witness named on it (decision 021).
 */
export type PartyRole = SignerRole | "profissional" | "testemunha";

/**
 * The parties still to sign, in order: the professional (before sending), then the link signer,
 * then the witnesses still missing (`witnesses` named; each signed one appears in `signed`).
 */
export function missingRoles(
  signer: SignerRole,
  hasResponsibleProfessional: boolean,
  signed: readonly string[],
  witnesses = 0,
): PartyRole[] {
  const required: PartyRole[] = [
    ...(hasResponsibleProfessional ? (["profissional"] as const) : []),
    signer,
    ...Array<PartyRole>(witnesses).fill("testemunha"),
  ];
  const left = [...signed];
  return required.filter((role) => {
    const at = left.indexOf(role);
    if (at < 0) return true;
    left.splice(at, 1);
    return false;
  });
}

/** Every required party has signed (the document becomes `signed`). */
export function everyPartySigned(
  signer: SignerRole,
  hasResponsibleProfessional: boolean,
  signed: readonly string[],
  witnesses = 0,
): boolean {
  // The link signer may be recorded as the patient or the guardian (who signs is decided at signing).
  const asSigned = signed.map((role) => (role === "paciente" || role === "responsavel" ? signer : role));
  return missingRoles(signer, hasResponsibleProfessional, asSigned, witnesses).length === 0;
}

export const PARTY_LABEL: Record<PartyRole, string> = {
  paciente: "paciente",
  responsavel: "responsável legal",
  profissional: "profissional responsável",
  testemunha: "testemunha",
};

/** The capacity printed with a witness's signature (Signatures block, registry). */
export const WITNESS_CAPACITY = "testemunha";

/**
 * The signer's explicit consent to sign electronically, versioned: the SHA-256 of `texto` (the
 * box's line and the full text behind "Saiba mais", exactly as shown) is recorded with each
 * signature. A new wording gets a new version. v2 (decision 041): the signer admits this means of
 * proof (MP 2.200-2/2001, art. 10, § 2º, which asks for it); v1 said the signature "has the same
 * value as on paper", which the law does not say. v3 (decision 067): the box is one line; the full
 * text opens under "Saiba mais", and whether it was opened is recorded as the phone reported it.
 */
const CONSENT_LINE = "Concordo em assinar eletronicamente este documento.";
const CONSENT_DETAIL =
  "Ao marcar a caixa, declaro que li o documento acima e admito como prova da minha autoria e da integridade deste documento os registros desta assinatura (Medida Provisória nº 2.200-2/2001, art. 10, § 2º): data e hora, endereço IP, navegador, o código de verificação quando pedido e o resumo (SHA-256) do conteúdo apresentado nesta página.";
export const ELECTRONIC_CONSENT = {
  versao: "2026-12-v3",
  rotulo: CONSENT_LINE,
  detalhe: CONSENT_DETAIL,
  texto: `${CONSENT_LINE} Saiba mais: ${CONSENT_DETAIL}`,
} as const;

/** Consent versions whose text admits the means of proof (the registry says so only for these). */
export const CONSENT_VERSIONS_ADMITTING: ReadonlySet<string> = new Set(["2026-12-v2", ELECTRONIC_CONSENT.versao]);

/** Every consent text ever shown, by version: the registry prints the one a signer accepted. */
export const CONSENT_TEXTS: Readonly<Record<string, string>> = {
  "2026-11-v1":
    "Li o documento acima e concordo em assiná-lo eletronicamente. Sei que minha assinatura eletrônica tem o mesmo valor da assinatura em papel (Lei 14.063/2020) e que serão registrados data e hora, endereço IP, navegador e o resumo (SHA-256) do conteúdo exibido.",
  "2026-12-v2":
    "Li o documento acima e concordo em assiná-lo eletronicamente. Admito como prova da minha autoria e da integridade deste documento os registros desta assinatura (Medida Provisória nº 2.200-2/2001, art. 10, § 2º): data e hora, endereço IP, navegador, o código de verificação quando pedido e o resumo (SHA-256) do conteúdo apresentado nesta página.",
  [ELECTRONIC_CONSENT.versao]: ELECTRONIC_CONSENT.texto,
};

/** Versions whose box showed one line, the full text behind "Saiba mais" (decision 067). */
export const CONSENT_VERSIONS_WITH_DETAIL: ReadonlySet<string> = new Set([ELECTRONIC_CONSENT.versao]);

/**
 * What the evidence of a signature reaches (Lei 14.063/2020 art. 4): "avancada" when the signer
 * proved control of a channel registered on the patient's record with a one-time code; "simples"
 * otherwise (the clinic turned the code off, no channel can deliver it, or the record has none).
 */
export type SignatureLevel = "avancada" | "simples";
export const SIGNATURE_LEVEL_LABEL: Record<SignatureLevel, string> = {
  avancada: "assinatura eletrônica avançada",
  simples: "assinatura eletrônica simples",
};

export function cpfMatches(typed: string, patientCpf: string | null): boolean {
  const digits = typed.replace(/\D/g, "");
  return !!patientCpf && digits.length === 11 && digits === patientCpf.replace(/\D/g, "");
}

/** "***.456.789-**": enough to recognise, not to reuse (public pages). */
export function maskCpf(cpf: string): string {
  const d = cpf.replace(/\D/g, "");
  if (d.length !== 11) return "***.***.***-**";
  return `***.${d.slice(3, 6)}.${d.slice(6, 9)}-**`;
}

/** "ma***@gmail.com" */
export function maskEmail(email: string): string {
  const [user = "", domain = ""] = email.split("@");
  return `${user.slice(0, 2)}***@${domain}`;
}
