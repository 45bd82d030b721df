/**
 * The "Registro de assinaturas" page(s) of the final PDF (DESIGN §3, decision 014):
 * per signer, the level reached in words and exactly what the server checked (and what it only
 * recorded); the document's own event chain (sequence, time in UTC and in São Paulo, who, IP,
 * previous hash / hash; each user agent is in the embedded evidencias.json); the staff's views of the signing link; contact changes; the
 * hashes (content, final chain hash, draft PDF); the verification code with link and QR code; the
 * seal; how to check the file without our server; the legal basis matching the level reached.
 * Drawn by the same renderer, as the last page(s), BEFORE the PAdES seal is applied.
 */
import { createHash } from "node:crypto";
import type { Content, ContentTable, TableCell } from "pdfmake/interfaces.js";
import { formatCpf } from "../shared/br/cpf.js";
import { formatPhone } from "../shared/br/phone.js";
import { capitalizeFirst, formatDateTimeSeconds } from "../shared/format/index.js";
import type { ContactSince } from "../shared/evidence/contact-since.js";
import type { ARogoEvidence, CodeChannelUsed } from "../shared/evidence/evidence.js";
import { revocationText, type RevocationResult } from "../shared/evidence/revocation.js";
import { DOCUMENT_FILE, EVIDENCE_FILE } from "../shared/evidence/file-names.js";
import { CONSENT_TEXTS, CONSENT_VERSIONS_ADMITTING, CONSENT_VERSIONS_WITH_DETAIL } from "../shared/signing-rules.js";
import { READING_HEADING, type ReadingSummary, readingLines } from "../shared/reading/reading-record.js";
import { type ComprehensionSummary, comprehensionLines } from "../shared/document-model/comprehension.js";
import { type AudioEvidence, audioEvidenceLine } from "../shared/audio/audio-consent.js";

// Shared with the verifiers (decision 077).
export { comprehensionLines, READING_HEADING, readingLines };

export interface RegistryChainEntry {
  seq: number;
  at: Date;
  /** pt-BR label of the event (src/shared/audit/labels.ts). */
  label: string;
  /** Staff member who acted (null: the patient or the system). */
  actor: string | null;
  ip: string | null;
  userAgent: string | null;
  prevHash: string;
  hash: string;
}

export interface RegistryParty {
  /** paciente, responsavel (the legal guardian) or profissional (the responsible professional). */
  papel: string;
  /** "responsável legal de …", "profissional responsável — CRM-SP …" (null for the patient). */
  qualidade: string | null;
  nome: string;
  /** The name as typed by the signer (it matched the registered one), when recorded. */
  nomeDigitado: string | null;
  cpf: string;
  /** Typed by the signer: not checked against the registry. */
  email: string | null;
  telefone: string | null;
  assinouEm: Date;
  nivel: "avancada" | "simples";
  motivoSimples: string | null;
  /** Masked registered e-mail or mobile the verified code was sent to (null: no code verified). */
  codigoEnviadoPara: string | null;
  /** How that code reached the signer (null: unknown, or no code verified). */
  codigoCanal?: CodeChannelUsed | null;
  /** "responsavel": that contact was the guardian's own on the patient's record; null: the patient's record (or unknown). */
  codigoContatoDe?: "responsavel" | null;
  /** Since when that contact has been on the patient's record (decision 046); null: not known. */
  contatoDesde?: ContactSince | null;
  otpVerificado: boolean;
  /** `detalhe_aberto`: "Saiba mais" opened (v3 on, decision 067), as the signer's phone reported it. */
  consentimento: { versao: string; sha256: string; detalhe_aberto?: boolean } | null;
  tipoAssinatura: string;
  assinaturaSha256: string | null;
  dispositivo: string | null;
  /** Front-desk signing: the staff member whose device was handed over. */
  presencialPor?: string | null;
  /** Signed "a rogo" (decision 070): at whose request, why, and who read the term aloud (declared). */
  aRogo?: ARogoEvidence | null;
  /** Signed on the page shown inside this site, one the clinic allowed (decision 071). */
  incorporadoEm?: string | null;
  ip: string | null;
  porta: number | null;
  userAgent: string | null;
  /** What the signer's device reported of the reading (decision 052); null: nothing reported. */
  leitura?: ReadingSummary | null;
  /** Every answer to the comprehension questions, scored by the server (decision 061); null: none asked. */
  compreensao?: ComprehensionSummary | null;
  /** The audio of the agreement, when the clinic asked for it (decision 069); null: not asked. */
  audio?: AudioEvidence | null;
}

/** A dated line about a staff action (link views, contact changes). */
export interface RegistryNote {
  at: Date;
  actor: string | null;
  text: string;
}

export interface SignatureRegistry {
  chain: RegistryChainEntry[];
  /** Hash of the chain's last entry (64 zeros when empty). */
  finalHash: string;
  parties: RegistryParty[];
  linkViews: RegistryNote[];
  contactChanges: RegistryNote[];
  /** SHA-256 of the draft PDF generated before signing (null when none was generated). */
  draftSha256: string | null;
  /** The clinic's latest audit-trail time-stamp before the sealing (decision 072). */
  trailAnchor?: { seq: number; genTime: Date; tsa: string } | null;
  verificationCode: string;
  /** `${origin}/verificar/${code}` */
  verificationUrl: string;
  /** QR code of verificationUrl as a PNG data URL. */
  qrPngDataUrl: string;
  /** Common name of the certificate that seals the file. */
  sealCommonName: string;
  /** SHA-256 fingerprint of that certificate (hex). */
  sealFingerprint: string;
  /** pt-BR level the seal reaches (PAdES B-B, ICP-Brasil AD-RB…), when known. */
  sealLevel?: string | null;
  /** Whose certificate the seal is, and what was checked of it (decision 041). */
  sealTrust?: CertificateTrust | null;
  /** The professional's ICP-Brasil signature applied before the seal. */
  professionalCertificate?: {
    commonName: string;
    fingerprintSha256: string;
    level: string;
    trust?: CertificateTrust | null;
  } | null;
  /** Why the professional's chosen ICP-Brasil signature could not be applied. */
  professionalMissing?: string | null;
  /** Why the clinic's active certificate did not seal (it was revoked: decision 048); the instance seal did. */
  clinicSealMissing?: string | null;
  /** Whether a time-stamp authority stamped the signatures and the document (null: not known; decision 060). */
  timestamped?: boolean | null;
  /** What the server checked of the time-stamp authority the operator called an ACT (decision 060). */
  timestampAuthority?: TimestampAuthorityCheck | null;
}

export interface TimestampAuthorityCheck {
  names: string[];
  accredited: boolean;
  root: string | null;
  reason: string | null;
}

/** "Carimbo do tempo de “X”, …": whether the server confirmed it as an accredited ACT, and how. */
export function timestampAuthorityText(check: TimestampAuthorityCheck): string {
  const names = check.names.map((n) => `“${n}”`).join(", ");
  return check.accredited
    ? `Carimbo do tempo de ${names}: autoridade de carimbo do tempo (ACT) cuja cadeia o servidor conferiu até a raiz oficial “${check.root}” da ICP-Brasil`
    : `Carimbo do tempo de ${names}, que o servidor não confirmou como ACT credenciada na ICP-Brasil (${check.reason ?? "cadeia não conferida"}): por isso nenhuma assinatura declara AD-RT`;
}

/** Said in the seal's box when no time-stamp authority was used (TSA_URL none or unset, decision 060). */
export const NO_TIMESTAMP_NOTE =
  "Sem carimbo do tempo: todas as horas deste registro são do relógio do servidor, sem confirmação de uma autoridade de carimbo do tempo";

/**
 * What the server knows of a signing certificate: the instance's own (self-signed), or one that
 * presents itself as ICP-Brasil — its root either found among the official roots the server was
 * given (ICP_BRASIL_ROOTS_FILE), or not checked against them — and what the authorities' revocation
 * lists said of it just before sealing (decision 048; absent: not looked up).
 */
export type CertificateTrust =
  { kind: "instancia" } | { kind: "icp"; officialRoot: string | null; revocation?: RevocationResult | null };

export function trustText(trust: CertificateTrust): string {
  if (trust.kind === "instancia") {
    return "certificado próprio desta instância do Consentir (autoassinado, não é ICP-Brasil): só quem conhece a impressão digital dele pode confirmá-lo";
  }
  const chain = trust.officialRoot
    ? `cadeia conferida pelo servidor até a raiz oficial “${trust.officialRoot}”`
    : "cadeia não conferida pelo servidor com as raízes oficiais do ITI";
  const revocation = trust.revocation ? revocationText(trust.revocation) : "revogação não consultada";
  return `certificado que se apresenta como ICP-Brasil; ${chain}; ${revocation} — confira no ${ITI_VALIDATOR}`;
}

export const REGISTRY_TITLE = "Registro de assinaturas";

/** Link signers (patient, guardian, witnesses) whose signatures reached each level. */
type LevelGroup = Pick<
  RegistryParty,
  "nome" | "nivel" | "tipoAssinatura" | "codigoCanal" | "consentimento" | "otpVerificado"
>;

const LEGAL_BASIS =
  "Documento assinado eletronicamente por meio de comprovação da autoria e da integridade diverso da ICP-Brasil, que a " +
  "Medida Provisória nº 2.200-2/2001 (art. 10, § 2º) admite quando aceito pelas partes como válido ou pela pessoa a quem " +
  "o documento for oposto; os níveis de assinatura seguem, como referência, o art. 4º da Lei nº 14.063/2020. ";
const LEGAL_BASIS_BESIDE_ICP =
  "As assinaturas eletrônicas descritas a seguir usam meio de comprovação da autoria e da integridade diverso da " +
  "ICP-Brasil, que a Medida Provisória nº 2.200-2/2001 (art. 10, § 2º) admite quando aceito pelas partes como válido ou " +
  "pela pessoa a quem o documento for oposto; os níveis seguem, como referência, o art. 4º da Lei nº 14.063/2020. ";

/** ITI's public validator, named wherever an ICP-Brasil signature is. */
export const ITI_VALIDATOR = "Verificador de Conformidade do ITI (https://validar.iti.gov.br)";

/** An ICP-Brasil digital signature in the file: the professional's e-CPF or the clinic's seal. */
export interface IcpSignatureNote {
  commonName: string;
  /** What it is: "do profissional", "selo da clínica". */
  role: string;
  trust: CertificateTrust;
}

/**
 * What the law says of the ICP-Brasil signatures (MP 2.200-2 art. 10 § 1; Lei 14.063 art. 4 III):
 * qualified when the chain reaches an official root — which the server says only when it checked
 * it against the roots it was given — and in every case subject to ITI's validator.
 */
export function icpLegalSentence(signatures: readonly IcpSignatureNote[]): string {
  const icp = signatures.filter((s) => s.trust.kind === "icp");
  if (icp.length === 0) return "";
  const one = (s: IcpSignatureNote) =>
    `“${s.commonName}” (${s.role}; ${
      s.trust.kind === "icp" && s.trust.officialRoot
        ? `cadeia conferida pelo servidor até a raiz oficial “${s.trust.officialRoot}”`
        : "cadeia não conferida pelo servidor com as raízes oficiais"
    })`;
  const checked = icp.every((s) => s.trust.kind === "icp" && s.trust.officialRoot);
  const list = icp.map(one).join("; ");
  return checked
    ? `Assinatura digital com certificado ICP-Brasil ${list}: assinatura eletrônica qualificada (Lei nº 14.063/2020, ` +
        "art. 4º, III), que a Medida Provisória nº 2.200-2/2001 (art. 10, § 1º) presume verdadeira em relação ao " +
        `signatário; confirme-a no ${ITI_VALIDATOR}. `
    : `Assinatura digital com certificado que se apresenta como ICP-Brasil ${list}: será assinatura eletrônica ` +
        "qualificada (Lei nº 14.063/2020, art. 4º, III), presumida verdadeira em relação ao signatário pela Medida " +
        `Provisória nº 2.200-2/2001 (art. 10, § 1º), se o ${ITI_VALIDATOR} confirmar a cadeia até uma raiz oficial. `;
}

/** The legal note when every link signer reached 'avançada' (patient, guardian, witnesses). */
export const LEGAL_NOTE_ADVANCED =
  "Assinatura eletrônica avançada (art. 4º, II): informou nome e CPF iguais aos do cadastro da clínica e digitou o código " +
  "de uso único enviado ao e-mail ou celular cadastrado, o que associa a assinatura a quem controla esse contato";

/**
 * On a development server the outbox kept the code and sent nothing: typing it proves no control of
 * a contact, so the level is the simple one, named as such.
 */
export const LEGAL_NOTE_ADVANCED_DEVELOPMENT =
  "Assinatura eletrônica simples (art. 4º, I), em servidor de desenvolvimento: informou nome e CPF iguais aos do cadastro " +
  "da clínica e digitou o código de uso único que o servidor deixou na sua caixa de saída, sem envio real, o que não " +
  "comprova o controle de um meio de contato";

/** The legal note for a link signer who signed without a verified code. */
export const LEGAL_NOTE_SIMPLE =
  "Assinatura eletrônica simples (art. 4º, I): informou nome e CPF iguais aos do cadastro da clínica, sem código de " +
  "verificação (o motivo está registrado acima), o que não comprova o controle exclusivo de um meio de contato";

const LEGAL_PROFESSIONAL =
  "assinou a declaração do profissional autenticado na própria conta, com a senha digitada de novo para assinar (login e " +
  "senha, sem segundo fator)";

/** The professional who also confirmed the code sent to their account's e-mail (decision 042). */
export const LEGAL_PROFESSIONAL_ADVANCED =
  "assinou a declaração do profissional com assinatura eletrônica avançada (art. 4º, II): autenticado na própria conta, " +
  "com a senha digitada de novo e o código de uso único enviado ao e-mail dessa conta, o que associa a assinatura a quem " +
  "controla a conta e esse e-mail";

const LEGAL_PROFESSIONAL_DEVELOPMENT =
  "assinou a declaração do profissional com assinatura eletrônica simples (art. 4º, I), em servidor de desenvolvimento: " +
  "autenticado na própria conta, com a senha digitada de novo e o código de uso único que o servidor deixou na sua caixa " +
  "de saída, sem envio real";

/** Said of the link signers when every one of them accepted a consent text that admits this means of proof. */
const LEGAL_ADMITTED =
  "Quem assinou pelo link admitiu este meio de comprovação ao aceitar o termo de assinatura eletrônica registrado acima. ";
const LEGAL_ACCEPTED = "Quem assinou pelo link aceitou o termo de assinatura eletrônica registrado acima. ";

const LEGAL_TAIL =
  "O servidor registrou endereço IP, navegador e horário (relógio do servidor); o documento está vinculado ao conteúdo " +
  "por seu resumo SHA-256 e selado digitalmente, de modo que qualquer modificação posterior do arquivo é detectável por " +
  "quem confere o selo.";

const names = (parties: readonly LevelGroup[]) => parties.map((p) => p.nome).join(", ");

/** The legal basis, then what each signer's signature reached and why, in words. */
export function legalNote(
  parties: readonly LevelGroup[],
  options: { professionalCertificate?: boolean; icpSignatures?: readonly IcpSignatureNote[] } = {},
): string {
  const linkSigners = parties.filter((p) => p.tipoAssinatura !== "senha");
  const professionals = parties.filter((p) => p.tipoAssinatura === "senha");
  const outbox = (p: LevelGroup) => p.codigoCanal === "caixa_de_saida";
  const advanced = linkSigners.filter((p) => p.nivel === "avancada" && !outbox(p));
  const development = linkSigners.filter((p) => p.nivel === "avancada" && outbox(p));
  const simple = linkSigners.filter((p) => p.nivel !== "avancada");
  const sentences: string[] = [];
  if (advanced.length > 0) sentences.push(`${names(advanced)}: ${LEGAL_NOTE_ADVANCED}.`);
  if (development.length > 0) sentences.push(`${names(development)}: ${LEGAL_NOTE_ADVANCED_DEVELOPMENT}.`);
  if (simple.length > 0) sentences.push(`${names(simple)}: ${LEGAL_NOTE_SIMPLE}.`);
  for (const professional of professionals) {
    const how = !professionalWithCode(professional)
      ? LEGAL_PROFESSIONAL
      : outbox(professional)
        ? LEGAL_PROFESSIONAL_DEVELOPMENT
        : LEGAL_PROFESSIONAL_ADVANCED;
    sentences.push(
      `${professional.nome} ${how}${options.professionalCertificate ? "; o PDF final traz também a assinatura digital com o certificado do profissional, descrita acima" : ""}.`,
    );
  }
  const consent =
    linkSigners.length === 0
      ? ""
      : linkSigners.every((p) => p.consentimento && CONSENT_VERSIONS_ADMITTING.has(p.consentimento.versao))
        ? LEGAL_ADMITTED
        : LEGAL_ACCEPTED;
  const icp = icpLegalSentence(options.icpSignatures ?? []);
  return `${icp}${icp ? LEGAL_BASIS_BESIDE_ICP : LEGAL_BASIS}${sentences.join(" ")} ${consent}${LEGAL_TAIL}`;
}

/** The note on checking without our server, around the command, which stays on one line (a break after "--" reads as a hyphen). */
export const VERIFY_COMMAND = "npm run verify -- arquivo.pdf";
const OFFLINE_CHECK_BEFORE =
  `Este PDF traz anexados (arquivos associados) ${DOCUMENT_FILE}, o conteúdo congelado em JSON canônico (RFC 8785), e ` +
  `${EVIDENCE_FILE}, as partes e a cadeia de eventos acima. Qualquer leitor de PDF que confira assinaturas PAdES (por ` +
  "exemplo Adobe Acrobat Reader, ou pdfsig do Poppler) mostra se cada assinatura confere e se o arquivo mudou depois " +
  "dela; depois do selo vêm só dados de validação de longo prazo (DSS: certificados e listas de revogação) e, com " +
  "carimbo do tempo, o carimbo do documento inteiro. " +
  `pdfdetach (Poppler) extrai os anexos, e o SHA-256 de ${DOCUMENT_FILE} (sha256sum) deve ser o SHA-256 do ` +
  "conteúdo impresso aqui; cada evento traz o hash do anterior, e a cadeia termina no hash final impresso aqui. Quem " +
  "tiver o Consentir confere tudo isso de uma vez (";
const OFFLINE_CHECK_AFTER =
  "); a página /verificar do endereço " +
  "impresso acima faz o mesmo no servidor que emitiu o documento. Para saber de quem é o certificado do selo, compare a " +
  "impressão digital impressa acima com a que a clínica ou o servidor informa (lista em /api/public/seal-certificates?codigo= " +
  "seguido do código de verificação, com os certificados que assinaram este documento).";

const MUTED = "#6b7280";
const RULE = "#d1d5db";
const ACCENT = "#1e3a5f";
const PANEL = "#f5f7fa";

/** "2026-03-07 17:04:09" (UTC; the column header names the zone) */
/**
 * The registry's line about the clinic's audit-trail time-stamp (decision 072): what it proves —
 * the clinic's events up to that one existed then — and what it does not.
 */
export function trailAnchorText(anchor: { seq: number; genTime: Date; tsa: string }): string {
  return (
    `Trilha de auditoria da clínica ancorada por carimbo do tempo em ${formatSaoPaulo(anchor.genTime)} (${anchor.tsa}): ` +
    `prova que os eventos da clínica até o de número ${anchor.seq} já existiam nessa data e não foram alterados depois. ` +
    "Os eventos posteriores, inclusive a assinatura deste documento, não são cobertos por esse carimbo; o token está em evidencias.json."
  );
}

export function formatUtc(at: Date): string {
  return at.toISOString().slice(0, 19).replace("T", " ");
}

/** "07/03/2026 14:04:09" (America/Sao_Paulo) */
export function formatSaoPaulo(at: Date): string {
  return formatDateTimeSeconds(at);
}

/** "a1b2c3d4…e5f6" */
export const shortHash = (hash: string) => `${hash.slice(0, 8)}…${hash.slice(-4)}`;

const TABLE_LAYOUT = {
  hLineWidth: () => 0.5,
  vLineWidth: () => 0,
  hLineColor: () => RULE,
  paddingTop: () => 2,
  paddingBottom: () => 2,
};

function chainTable(chain: readonly RegistryChainEntry[]): ContentTable {
  const head = ["Nº", "Evento", "Data/hora: UTC e America/Sao_Paulo", "Endereço IP", "Hash anterior / hash"].map(
    (text): TableCell => ({ text, bold: true, fontSize: 6.5, color: ACCENT, fillColor: PANEL }),
  );
  // Few cells per row (each cell is measured on its own): time zones and IP + agent share one.
  const rows = chain.map((entry): TableCell[] => [
    { text: String(entry.seq), bold: true },
    {
      text: entry.actor
        ? [
            { text: entry.label, bold: true },
            { text: `\npor ${entry.actor}`, color: MUTED },
          ]
        : { text: entry.label, bold: true },
    },
    { text: `${formatUtc(entry.at)} UTC\n${formatSaoPaulo(entry.at)}` },
    // The user agent of each event is in evidencias.json (and the signer's under "Assinaturas").
    { text: entry.ip ?? "—" },
    { text: `${shortHash(entry.prevHash)}\n${shortHash(entry.hash)}`, fontSize: 6 },
  ]);
  return {
    table: {
      headerRows: 1,
      dontBreakRows: true,
      widths: [10, "*", 110, 70, 70],
      body: [
        head,
        ...(rows.length > 0
          ? rows
          : [[{ text: "Nenhum evento registrado.", colSpan: 5, italics: true }, {}, {}, {}, {}]]),
      ],
    },
    layout: TABLE_LAYOUT,
    fontSize: 6.5,
    margin: [0, 0, 0, 6],
  } as ContentTable;
}

const heading = (text: string): Content => ({ text, fontSize: 9, bold: true, color: ACCENT, margin: [0, 3, 0, 2] });
const label = (text: string): Content => ({ text, fontSize: 7, bold: true, color: MUTED, margin: [0, 2, 0, 0.5] });
const bullet = (parts: string | Content[]): Content => ({ text: parts as never, fontSize: 7, margin: [0, 0, 0, 1] });

const CHANNEL_NOUN: Record<CodeChannelUsed, string> = {
  email: "e-mail",
  sms: "celular",
  // Decision 059: a code delivered by WhatsApp (Cloud API) to the mobile on record.
  whatsapp: "WhatsApp do celular",
  caixa_de_saida: "e-mail",
};

/** " do responsável legal" when the code went to the guardian's own contact; "" for the patient's record. */
const ofGuardian = (party: Partial<Pick<RegistryParty, "codigoContatoDe">>) =>
  party.codigoContatoDe === "responsavel" ? " do responsável legal" : "";

/**
 * "ao e-mail cadastrado (j***@…)" / "ao celular cadastrado (…)"; "ao contato cadastrado" when the
 * channel is unknown; "ao e-mail do responsável legal cadastrado (…)" for the guardian's own contact.
 */
function codeDestination(
  party: Pick<RegistryParty, "codigoEnviadoPara" | "codigoCanal"> & Partial<Pick<RegistryParty, "codigoContatoDe">>,
): string {
  const to = party.codigoEnviadoPara ? ` (${party.codigoEnviadoPara})` : "";
  const noun = party.codigoCanal ? CHANNEL_NOUN[party.codigoCanal] : "contato";
  return `ao ${noun}${ofGuardian(party)} cadastrado${to}`;
}

/** The professional confirmed the code sent to their account's e-mail (decision 042), not only the password. */
const professionalWithCode = (party: Pick<RegistryParty, "nivel" | "otpVerificado" | "tipoAssinatura">) =>
  party.tipoAssinatura === "senha" && party.nivel === "avancada" && party.otpVerificado;

/** The level reached, in words. */
export function levelText(
  party: Pick<
    RegistryParty,
    "nivel" | "codigoEnviadoPara" | "codigoCanal" | "motivoSimples" | "tipoAssinatura" | "otpVerificado"
  > &
    Partial<Pick<RegistryParty, "codigoContatoDe">>,
): string {
  if (party.tipoAssinatura === "senha") {
    if (professionalWithCode(party)) {
      return party.codigoCanal === "caixa_de_saida"
        ? "Assinatura eletrônica simples do profissional (servidor de desenvolvimento) — sessão própria, senha digitada de novo e o código de verificação que ficou na caixa de saída deste servidor, sem envio real"
        : `Assinatura eletrônica avançada do profissional — sessão própria no Consentir, senha digitada de novo e código de verificação enviado ao e-mail da conta${party.codigoEnviadoPara ? ` (${party.codigoEnviadoPara})` : ""}`;
    }
    return `Assinatura eletrônica do profissional por login e senha — sessão própria no Consentir, senha digitada de novo para assinar (sem segundo fator${party.motivoSimples ? `: ${withoutFinalStop(party.motivoSimples)}` : ""})`;
  }
  if (party.nivel === "avancada") {
    if (party.codigoCanal === "caixa_de_saida") {
      return "Assinatura eletrônica simples (servidor de desenvolvimento) — o código de verificação ficou na caixa de saída deste servidor, sem envio real, e foi digitado pelo signatário";
    }
    return `Assinatura eletrônica avançada — código de verificação enviado ${codeDestination(party)} e confirmado pelo signatário`;
  }
  return `Assinatura eletrônica simples — sem código de verificação${party.motivoSimples ? `: ${withoutFinalStop(party.motivoSimples)}` : ""}`;
}

/** "A clínica desativou o código." → "A clínica desativou o código" (the sentence around it ends it). */
const withoutFinalStop = (text: string) => text.replace(/\.+$/, "");

/** "Endereço IP …, porta de origem …" — the port only when it is the signer's own (src/server/lib/client-port.ts). */
function networkLine(party: Pick<RegistryParty, "dispositivo" | "ip" | "porta">): Content {
  const port = party.porta ? `, porta de origem ${party.porta}` : party.ip ? " (porta de origem não registrada)" : "";
  return bullet(
    `Dispositivo: ${party.dispositivo ?? "não identificado"}. Endereço IP ${party.ip ?? "não registrado"}${port}.`,
  );
}

/**
 * The consent accepted: version, the text itself — when this server knows that version and the
 * text hashes to the SHA-256 recorded with the signature, so only the very text accepted is
 * printed — and its SHA-256.
 */
export function consentLine(consent: RegistryParty["consentimento"]): string {
  if (!consent) return "Aceite do termo de assinatura eletrônica.";
  const text = CONSENT_TEXTS[consent.versao];
  const known = text !== undefined && createHash("sha256").update(text).digest("hex") === consent.sha256;
  const opened =
    CONSENT_VERSIONS_WITH_DETAIL.has(consent.versao) && typeof consent.detalhe_aberto === "boolean"
      ? ` A caixa mostrava só a primeira frase; o texto completo abria em “Saiba mais”, ${consent.detalhe_aberto ? "que o signatário abriu" : "que o signatário não abriu"} (registrado pelo aparelho do signatário, não conferido).`
      : "";
  return `Aceite do termo de assinatura eletrônica, versão ${consent.versao}${known ? `: “${text}”` : ""} (SHA-256 do texto ${consent.sha256}).${opened}`;
}

/**
 * "Esse e-mail está no cadastro do paciente desde 01/10/2026 09:00:00 (criação do cadastro, por
 * Maria Souza), segundo a trilha de auditoria da clínica lida ao selar este PDF." — what ties the contact to the patient.
 */
export function contactSinceLine(
  since: ContactSince,
  channel: CodeChannelUsed | null,
  owner: "responsavel" | null = null,
): string {
  const noun = `${channel ? CHANNEL_NOUN[channel] : "contato"}${owner === "responsavel" ? " do responsável legal" : ""}`;
  const how = since.como === "cadastro" ? "criação do cadastro" : "última alteração desse contato";
  return (
    `Esse ${noun} está no cadastro do paciente desde ${formatSaoPaulo(new Date(since.em))} (${how}` +
    `${since.por ? `, por ${since.por}` : ""}), segundo a trilha de auditoria da clínica lida ao selar este PDF.`
  );
}

function partyBlock(party: RegistryParty): Content {
  if (party.tipoAssinatura === "senha") return professionalBlock(party);
  const code = (): string => {
    if (!party.otpVerificado)
      return `Código de verificação: não exigido${party.motivoSimples ? ` — ${withoutFinalStop(party.motivoSimples)}` : ""}.`;
    if (party.codigoCanal === "caixa_de_saida") {
      return "Código de verificação de uso único gerado e deixado na caixa de saída deste servidor de desenvolvimento (nenhuma mensagem foi enviada), digitado corretamente antes da assinatura.";
    }
    return `Código de verificação de uso único enviado ${codeDestination(party)} e digitado corretamente antes da assinatura.`;
  };
  const checked: Content[] = [
    bullet(
      party.nomeDigitado
        ? `Nome digitado “${party.nomeDigitado}” igual ao nome cadastrado “${party.nome}” (sem diferenciar maiúsculas, acentos e espaços).`
        : `Nome digitado igual ao nome cadastrado “${party.nome}” (sem diferenciar maiúsculas, acentos e espaços).`,
    ),
    bullet(`CPF ${formatCpf(party.cpf)} igual ao CPF cadastrado.`),
    bullet(code()),
    ...(party.otpVerificado && party.contatoDesde
      ? [bullet(contactSinceLine(party.contatoDesde, party.codigoCanal ?? null, party.codigoContatoDe ?? null))]
      : []),
    bullet(consentLine(party.consentimento)),
    bullet("A página de assinatura recebeu o conteúdo com o SHA-256 abaixo e o devolveu igual ao assinar."),
  ];
  const contact = [
    party.email ? `e-mail ${party.email}` : "",
    party.telefone ? `telefone ${formatPhone(party.telefone)}` : "",
  ]
    .filter(Boolean)
    .join(", ");
  const proven =
    party.otpVerificado && party.codigoCanal !== "caixa_de_saida"
      ? ` (o contato comprovado pelo código é o ${party.codigoCanal ? CHANNEL_NOUN[party.codigoCanal] : "contato"}${ofGuardian(party)} cadastrado${party.codigoEnviadoPara ? `, ${party.codigoEnviadoPara}` : ""}).`
      : ".";
  const recorded: Content[] = [
    bullet(
      `Assinatura ${party.tipoAssinatura === "digitada" ? "digitada (nome escrito pelo signatário, para quem não pode desenhar)" : "desenhada na tela"}` +
        (party.assinaturaSha256 ? `; SHA-256 da imagem ${party.assinaturaSha256}.` : "."),
    ),
    networkLine(party),
    ...(party.presencialPor
      ? [
          bullet(
            `Assinatura presencial, no aparelho de ${party.presencialPor} (equipe da clínica), com a sessão da equipe bloqueada neste aparelho.`,
          ),
        ]
      : []),
    ...(party.aRogo ? aRogoLines(party.aRogo).map((line) => bullet(line)) : []),
    ...(party.incorporadoEm
      ? [
          bullet(
            `Assinado em página incorporada em ${party.incorporadoEm} — informado pela página; o endereço consta dos sites que a clínica autorizou a incorporar a assinatura.`,
          ),
        ]
      : []),
    ...(contact
      ? [
          bullet(
            `Contato informado pelo signatário: ${contact} — registrado como informado, não conferido com o cadastro${proven}`,
          ),
        ]
      : []),
  ];
  return {
    table: {
      widths: ["*"],
      body: [
        [
          {
            stack: [
              {
                text: [
                  { text: party.nome, bold: true },
                  {
                    text: `   assinou em ${formatSaoPaulo(party.assinouEm)} (America/Sao_Paulo, relógio do servidor)`,
                    color: MUTED,
                  },
                ],
                fontSize: 8.5,
              },
              ...(party.qualidade
                ? [{ text: `${capacityLine(party.qualidade)}.`, fontSize: 8, margin: [0, 1, 0, 0] } as Content]
                : []),
              {
                text: levelText(party),
                fontSize: 8,
                bold: true,
                color: party.nivel === "avancada" && party.codigoCanal !== "caixa_de_saida" ? "#047857" : "#92400e",
                margin: [0, 2, 0, 0],
              },
              label("Conferido pelo servidor no momento da assinatura"),
              ...checked,
              ...comprehensionBlock(party.compreensao ?? null),
              ...(party.audio ? [bullet(audioEvidenceLine(party.audio))] : []),
              label("Registrado (não conferido)"),
              ...recorded,
              ...readingBlock(party.leitura ?? null),
            ],
            margin: [6, 4, 6, 4],
          },
        ],
      ],
    },
    layout: { hLineWidth: () => 0.6, vLineWidth: () => 0.6, hLineColor: () => RULE, vLineColor: () => RULE },
    unbreakable: true,
    margin: [0, 0, 0, 6],
  } as ContentTable;
}

export const COMPREHENSION_HEADING = "Perguntas de compreensão (respostas conferidas pelo servidor)";

function comprehensionBlock(compreensao: ComprehensionSummary | null): Content[] {
  if (!compreensao) return [];
  return [label(COMPREHENSION_HEADING), ...comprehensionLines(compreensao).map((line) => bullet(line))];
}

function readingBlock(leitura: ReadingSummary | null): Content[] {
  return [label(READING_HEADING), ...readingLines(leitura).map((line) => bullet(line))];
}

function notes(title: string, items: readonly RegistryNote[], none: string): Content[] {
  return [
    label(title),
    ...(items.length === 0
      ? [bullet(none)]
      : items.map((note) =>
          bullet(
            `${formatSaoPaulo(note.at)} (America/Sao_Paulo) — ${note.actor ?? "membro da equipe não identificado"}: ${note.text}`,
          ),
        )),
  ];
}

/** The registry as pdfmake content, starting on a new page. */
export function registryContent(registry: SignatureRegistry, contentSha256: string): Content[] {
  return [
    { text: REGISTRY_TITLE, fontSize: 13, bold: true, color: ACCENT, pageBreak: "before", margin: [0, 0, 0, 3] },
    {
      text:
        "Evidências da assinatura, incluídas no arquivo antes do selo digital: qualquer alteração posterior do arquivo invalida o selo deste PDF " +
        "para quem o confere. Os mesmos dados estão anexados ao PDF em JSON, para conferência sem o nosso servidor.",
      fontSize: 7.5,
      color: MUTED,
      margin: [0, 0, 0, 3],
    },
    heading(registry.parties.length === 1 ? "Signatário" : "Signatários"),
    ...registry.parties.map(partyBlock),
    heading("Cadeia de eventos do documento (navegador de cada evento em evidencias.json)"),
    chainTable(registry.chain),
    ...notes(
      "Exibições do link de assinatura à equipe",
      registry.linkViews,
      "Nenhuma exibição do link à equipe registrada pelo sistema.",
    ),
    ...notes(
      "Alterações de contato do paciente enquanto o documento aguardava assinatura",
      registry.contactChanges,
      "Nenhuma.",
    ),
    {
      table: {
        widths: ["*", 84],
        body: [
          [
            {
              stack: [
                label("SHA-256 do conteúdo assinado"),
                { text: contentSha256, fontSize: 7.5, characterSpacing: 0.2 },
                label("Hash final da cadeia de eventos"),
                { text: registry.finalHash, fontSize: 7.5, characterSpacing: 0.2 },
                label("SHA-256 do último rascunho em PDF gerado (sem assinaturas; evento “PDF gerado” da cadeia)"),
                {
                  text: registry.draftSha256 ?? "nenhum rascunho em PDF registrado",
                  fontSize: 7.5,
                  characterSpacing: 0.2,
                },
                ...(registry.trailAnchor
                  ? [
                      label("Trilha de auditoria da clínica"),
                      { text: trailAnchorText(registry.trailAnchor), fontSize: 7 },
                    ]
                  : []),
                label("Código de verificação"),
                { text: registry.verificationCode, fontSize: 11, bold: true, characterSpacing: 1.5 },
                label("Verifique a autenticidade em"),
                { text: registry.verificationUrl, fontSize: 7.5, color: ACCENT },
                ...(registry.professionalCertificate
                  ? [
                      label("Assinatura digital do profissional com certificado"),
                      {
                        text:
                          `Assinatura PAdES com o certificado “${registry.professionalCertificate.commonName}” (impressão digital SHA-256 ` +
                          `${registry.professionalCertificate.fingerprintSha256}), ${registry.professionalCertificate.level}, aplicada ao ` +
                          "documento antes do selo pelo servidor do Consentir, que guarda o certificado A1 cifrado e o usa depois da senha do profissional; o selo a preserva" +
                          (registry.professionalCertificate.trust
                            ? `. ${capitalizeFirst(trustText(registry.professionalCertificate.trust))}.`
                            : "."),
                        fontSize: 7,
                      },
                    ]
                  : registry.professionalMissing
                    ? [
                        label("Assinatura digital do profissional com certificado"),
                        { text: `Não aplicada: ${registry.professionalMissing}.`, fontSize: 7 },
                      ]
                    : []),
                label("Selo digital"),
                {
                  text:
                    (registry.clinicSealMissing
                      ? `O certificado da clínica não foi usado: ${registry.clinicSealMissing}. `
                      : "") +
                    `Assinatura PAdES (ETSI.CAdES.detached, SHA-256) com o certificado “${registry.sealCommonName}” ` +
                    `(impressão digital SHA-256 ${registry.sealFingerprint})${registry.sealLevel ? `, ${registry.sealLevel}` : ""}, aplicada ao ` +
                    "arquivo inteiro" +
                    (registry.sealTrust ? `: ${trustText(registry.sealTrust)}` : "") +
                    ". " +
                    (registry.timestamped === false ? `${NO_TIMESTAMP_NOTE}. ` : "") +
                    (registry.timestampAuthority ? `${timestampAuthorityText(registry.timestampAuthority)}. ` : "") +
                    "O SHA-256 do PDF selado é informado na página de verificação (um arquivo não pode conter o próprio resumo).",
                  fontSize: 7,
                },
              ],
              margin: [6, 3, 6, 6],
            },
            { image: registry.qrPngDataUrl, fit: [76, 76], margin: [0, 6, 4, 6] },
          ],
        ],
      },
      layout: {
        hLineWidth: () => 0.6,
        vLineWidth: () => 0.6,
        hLineColor: () => RULE,
        vLineColor: () => RULE,
        fillColor: () => PANEL,
      },
      unbreakable: true,
      margin: [0, 4, 0, 2],
    } as ContentTable,
    // Headings stay with their text (never alone at the foot of a page).
    {
      stack: [
        heading("Como conferir sem o nosso servidor"),
        {
          text: [OFFLINE_CHECK_BEFORE, { text: VERIFY_COMMAND, noWrap: true }, OFFLINE_CHECK_AFTER],
          fontSize: 7,
          alignment: "justify",
          lineHeight: 1.1,
        },
      ],
      unbreakable: true,
    },
    {
      stack: [
        heading("Fundamento legal"),
        {
          text: legalNote(registry.parties, {
            professionalCertificate: !!registry.professionalCertificate,
            icpSignatures: icpSignaturesOf(registry),
          }),
          fontSize: 7,
          alignment: "justify",
          lineHeight: 1.1,
        },
      ],
      unbreakable: true,
    },
  ];
}

/** The ICP-Brasil signatures the file carries: the professional's e-CPF, then the clinic's seal. */
function icpSignaturesOf(registry: SignatureRegistry): IcpSignatureNote[] {
  const out: IcpSignatureNote[] = [];
  const professional = registry.professionalCertificate;
  if (professional?.trust) {
    out.push({ commonName: professional.commonName, role: "do profissional", trust: professional.trust });
  }
  if (registry.sealTrust)
    out.push({ commonName: registry.sealCommonName, role: "selo da clínica", trust: registry.sealTrust });
  return out;
}

/** The responsible professional's in-app signature (decision 015): what the server checked and recorded. */
function professionalBlock(party: RegistryParty): Content {
  return {
    table: {
      widths: ["*"],
      body: [
        [
          {
            stack: [
              {
                text: [
                  { text: party.nome, bold: true },
                  {
                    text: `   assinou em ${formatSaoPaulo(party.assinouEm)} (America/Sao_Paulo, relógio do servidor)`,
                    color: MUTED,
                  },
                ],
                fontSize: 8.5,
              },
              ...(party.qualidade
                ? [{ text: `${capacityLine(party.qualidade)}.`, fontSize: 8, margin: [0, 1, 0, 0] } as Content]
                : []),
              {
                text: levelText(party),
                fontSize: 8,
                bold: true,
                color: professionalWithCode(party) ? "#047857" : ACCENT,
                margin: [0, 2, 0, 0],
              },
              label("Conferido pelo servidor no momento da assinatura"),
              bullet("Sessão do próprio profissional no Consentir; senha digitada de novo e conferida com a da conta."),
              ...(professionalWithCode(party)
                ? [
                    bullet(
                      party.codigoCanal === "caixa_de_saida"
                        ? "Código de verificação de uso único gerado e deixado na caixa de saída deste servidor de desenvolvimento (nenhuma mensagem foi enviada), digitado corretamente antes da assinatura."
                        : `Código de verificação de uso único enviado ao e-mail da conta do profissional${party.codigoEnviadoPara ? ` (${party.codigoEnviadoPara})` : ""} e digitado corretamente antes da assinatura.`,
                    ),
                  ]
                : []),
              bullet("Só o profissional indicado como responsável pelo documento pode assinar esta declaração."),
              bullet("Declaração assinada sobre o conteúdo congelado do documento (SHA-256 abaixo)."),
              label("Registrado (não conferido)"),
              bullet(`CPF ${formatCpf(party.cpf)} e registro profissional conforme o cadastro da clínica.`),
              networkLine(party),
            ],
            margin: [6, 4, 6, 4],
          },
        ],
      ],
    },
    layout: { hLineWidth: () => 0.6, vLineWidth: () => 0.6, hLineColor: () => RULE, vLineColor: () => RULE },
    unbreakable: true,
    margin: [0, 0, 0, 6],
  } as ContentTable;
}

/**
 * An "a rogo" signature in the registry (decision 070): what the server holds (the person named by
 * the clinic signed, on the clinic's device) apart from what the signer declared (the reading).
 */
export function aRogoLines(aRogo: ARogoEvidence): string[] {
  return [
    `Assinatura a rogo: assinou a pedido de ${aRogo.a_pedido_de}, que ${aRogo.motivo_texto} — pessoa e motivo cadastrados pela clínica no documento.`,
    `Leitura em voz alta: o termo foi lido para ${aRogo.a_pedido_de} por ${aRogo.leitura_em_voz_alta.lido_por} — declarado por quem assinou a rogo, não conferido. As duas testemunhas assinam abaixo, cada uma pelo próprio link.`,
  ];
}

/** "Na qualidade de testemunha", "Assinou a rogo de Maria …" (decision 070). */
function capacityLine(qualidade: string): string {
  return qualidade.startsWith("a rogo de ") ? `Assinou ${qualidade}` : `Na qualidade de ${qualidade}`;
}
