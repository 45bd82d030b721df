/**
 * The "Registro de assinaturas" page(s) of the final PDF (DESIGN §3, issue 11, decision 014):
 * per signer, the level reached in words and exactly what the server checked (and what it only
 * recorded); the document's own event chain (sequence, time in UTC and in São Paulo, who, IP,
 * previous hash / hash; each user agent is in the embedded evidencias.json); the staff's views of the signing link; contact changes; the
 * hashes (content, final chain hash, draft PDF); the verification code with link and QR code; the
 * seal; how to check the file without our server; the legal basis matching the level reached.
 * Drawn by the same renderer, as the last page(s), BEFORE the PAdES seal is applied.
 */
import type { Content, ContentTable, TableCell } from "pdfmake/interfaces.js";
import { formatCpf } from "../shared/br/cpf.js";
import { formatPhone } from "../shared/br/phone.js";
import { formatDateTimeSeconds } from "../shared/format/index.js";
import { DOCUMENT_FILE, EVIDENCE_FILE } from "../shared/evidence/file-names.js";

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
  /** Masked registered e-mail the verified code was sent to (null: no code verified). */
  codigoEnviadoPara: string | null;
  otpVerificado: boolean;
  consentimento: { versao: string; sha256: string } | null;
  tipoAssinatura: string;
  assinaturaSha256: string | null;
  dispositivo: string | null;
  /** Front-desk signing: the staff member whose device was handed over (issue 13). */
  presencialPor?: string | null;
  ip: string | null;
  porta: number | null;
  userAgent: string | null;
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
  /** The professional's ICP-Brasil signature applied before the seal (issue 12). */
  professionalCertificate?: { commonName: string; fingerprintSha256: string; level: string } | null;
  /** Why the professional's chosen ICP-Brasil signature could not be applied. */
  professionalMissing?: string | null;
}

export const REGISTRY_TITLE = "Registro de assinaturas";

const LEGAL_TAIL =
  "o servidor registrou endereço IP, porta de origem, navegador e horário; o documento está vinculado ao conteúdo por seu " +
  "resumo SHA-256 e selado digitalmente, de modo que qualquer modificação posterior é detectável. As partes admitem este " +
  "meio de comprovação da autoria e da integridade do documento, conforme o art. 10, § 2º, da Medida Provisória nº 2.200-2/2001.";

/** The legal note when every signer reached 'avançada'. */
export const LEGAL_NOTE =
  "Assinatura eletrônica avançada, nos termos do art. 4º, inciso II, da Lei nº 14.063/2020: o paciente (ou seu responsável " +
  "legal) informou nome e CPF iguais aos do cadastro da clínica e digitou o código de verificação enviado ao e-mail ou celular " +
  "cadastrado, o que associa a assinatura a quem controla esse contato; o profissional responsável, quando houver, assinou " +
  "autenticado na própria conta, digitando de novo a própria senha; " +
  LEGAL_TAIL;

/** The legal note when a signer signed without a verified code. */
export const LEGAL_NOTE_SIMPLE =
  "Assinatura eletrônica simples, nos termos do art. 4º, inciso I, da Lei nº 14.063/2020: o signatário informou nome e CPF " +
  "iguais aos do cadastro da clínica, sem código de verificação (o motivo está registrado acima), o que não comprova o " +
  "controle exclusivo de um meio de contato; " +
  LEGAL_TAIL;

export function legalNote(parties: readonly Pick<RegistryParty, "nivel">[]): string {
  return parties.length > 0 && parties.every((p) => p.nivel === "avancada") ? LEGAL_NOTE : LEGAL_NOTE_SIMPLE;
}

export const OFFLINE_CHECK_NOTE =
  `Este PDF traz anexados (arquivos associados) ${DOCUMENT_FILE}, o conteúdo congelado em JSON canônico (RFC 8785), e ` +
  `${EVIDENCE_FILE}, as partes e a cadeia de eventos acima. Sem depender do nosso servidor, o verificador do Consentir ` +
  "(npm run verify -- arquivo.pdf) ou a página /verificar conferem: que o selo cobre o arquivo inteiro e é válido; que o " +
  `SHA-256 de ${DOCUMENT_FILE} é o SHA-256 do conteúdo impresso aqui; que cada evento traz o hash do anterior e a cadeia ` +
  "termina no hash final impresso aqui. Compare a impressão digital do certificado do selo com a publicada pela clínica.";

const MUTED = "#6b7280";
const RULE = "#d1d5db";
const ACCENT = "#1e3a5f";
const PANEL = "#f5f7fa";

/** "2026-03-07 17:04:09" (UTC; the column header names the zone) */
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
    { text: entry.actor ? [{ text: entry.label, bold: true }, { text: `\npor ${entry.actor}`, color: MUTED }] : { text: entry.label, bold: true } },
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
      body: [head, ...(rows.length > 0 ? rows : [[{ text: "Nenhum evento registrado.", colSpan: 5, italics: true }, {}, {}, {}, {}]])],
    },
    layout: TABLE_LAYOUT,
    fontSize: 6.5,
    margin: [0, 0, 0, 6],
  } as ContentTable;
}

const heading = (text: string): Content => ({ text, fontSize: 9, bold: true, color: ACCENT, margin: [0, 3, 0, 2] });
const label = (text: string): Content => ({ text, fontSize: 7, bold: true, color: MUTED, margin: [0, 2, 0, 0.5] });
const bullet = (parts: string | Content[]): Content => ({ text: parts as never, fontSize: 7, margin: [0, 0, 0, 1] });

/** The level reached, in words. */
export function levelText(party: Pick<RegistryParty, "nivel" | "codigoEnviadoPara" | "motivoSimples" | "tipoAssinatura">): string {
  if (party.tipoAssinatura === "senha") {
    return "Assinatura eletrônica avançada — profissional autenticado na própria conta, com a senha digitada de novo para assinar";
  }
  if (party.nivel === "avancada") {
    const to = party.codigoEnviadoPara ? ` (${party.codigoEnviadoPara})` : "";
    return `Assinatura eletrônica avançada — código de verificação enviado ao contato cadastrado${to} e confirmado pelo signatário`;
  }
  return `Assinatura eletrônica simples — sem código de verificação${party.motivoSimples ? `: ${party.motivoSimples}` : ""}`;
}

function partyBlock(party: RegistryParty): Content {
  if (party.tipoAssinatura === "senha") return professionalBlock(party);
  const checked: Content[] = [
    bullet(
      party.nomeDigitado
        ? `Nome digitado “${party.nomeDigitado}” igual ao nome cadastrado “${party.nome}” (sem diferenciar maiúsculas, acentos e espaços).`
        : `Nome digitado igual ao nome cadastrado “${party.nome}” (sem diferenciar maiúsculas, acentos e espaços).`,
    ),
    bullet(`CPF ${formatCpf(party.cpf)} igual ao CPF cadastrado.`),
    bullet(
      party.otpVerificado
        ? `Código de verificação de uso único enviado ao contato cadastrado${party.codigoEnviadoPara ? ` (${party.codigoEnviadoPara})` : ""} e digitado corretamente antes da assinatura.`
        : `Código de verificação: não exigido${party.motivoSimples ? ` — ${party.motivoSimples}` : ""}.`,
    ),
    bullet(
      party.consentimento
        ? `Aceite do termo de assinatura eletrônica, versão ${party.consentimento.versao} (SHA-256 do texto ${party.consentimento.sha256}).`
        : "Aceite do termo de assinatura eletrônica.",
    ),
    bullet("Conteúdo assinado igual ao exibido ao signatário (mesmo SHA-256 do conteúdo, abaixo)."),
  ];
  const contact = [party.email ? `e-mail ${party.email}` : "", party.telefone ? `telefone ${formatPhone(party.telefone)}` : ""].filter(Boolean).join(", ");
  const recorded: Content[] = [
    bullet(
      `Assinatura ${party.tipoAssinatura === "digitada" ? "digitada (nome escrito pelo signatário, para quem não pode desenhar)" : "desenhada na tela"}` +
        (party.assinaturaSha256 ? `; SHA-256 da imagem ${party.assinaturaSha256}.` : "."),
    ),
    bullet(`Dispositivo: ${party.dispositivo ?? "não identificado"}. Endereço IP ${party.ip ?? "não registrado"}${party.porta ? `, porta de origem ${party.porta}` : ""}.`),
    ...(party.presencialPor
      ? [bullet(`Assinatura presencial, no aparelho de ${party.presencialPor} (equipe da clínica), entregue ao signatário com o sistema bloqueado.`)]
      : []),
    ...(contact
      ? [
          bullet(
            `Contato informado pelo signatário: ${contact} — registrado como informado, não conferido com o cadastro` +
              (party.otpVerificado ? " (o e-mail cadastrado é o comprovado pelo código)." : "."),
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
              { text: [{ text: party.nome, bold: true }, { text: `   assinou em ${formatSaoPaulo(party.assinouEm)} (America/Sao_Paulo)`, color: MUTED }], fontSize: 8.5 },
              ...(party.qualidade ? [{ text: `Na qualidade de ${party.qualidade}.`, fontSize: 8, margin: [0, 1, 0, 0] } as Content] : []),
              { text: levelText(party), fontSize: 8, bold: true, color: party.nivel === "avancada" ? "#047857" : "#92400e", margin: [0, 2, 0, 0] },
              label("Conferido pelo servidor no momento da assinatura"),
              ...checked,
              label("Registrado (não conferido)"),
              ...recorded,
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

function notes(title: string, items: readonly RegistryNote[], none: string): Content[] {
  return [
    label(title),
    ...(items.length === 0
      ? [bullet(none)]
      : items.map((note) => bullet(`${formatSaoPaulo(note.at)} (America/Sao_Paulo) — ${note.actor ?? "membro da equipe não identificado"}: ${note.text}`))),
  ];
}

/** The registry as pdfmake content, starting on a new page. */
export function registryContent(registry: SignatureRegistry, contentSha256: string): Content[] {
  return [
    { text: REGISTRY_TITLE, fontSize: 13, bold: true, color: ACCENT, pageBreak: "before", margin: [0, 0, 0, 3] },
    {
      text:
        "Evidências da assinatura, incluídas no arquivo antes do selo digital: qualquer alteração posterior invalida o selo deste PDF. " +
        "Os mesmos dados estão anexados ao PDF em JSON, para conferência sem o nosso servidor.",
      fontSize: 7.5,
      color: MUTED,
      margin: [0, 0, 0, 3],
    },
    heading(registry.parties.length === 1 ? "Signatário" : "Signatários"),
    ...registry.parties.map(partyBlock),
    heading("Cadeia de eventos do documento (navegador de cada evento em evidencias.json)"),
    chainTable(registry.chain),
    ...notes("Exibições do link de assinatura à equipe", registry.linkViews, "Nenhuma: o link não foi exibido nem copiado por membros da equipe."),
    ...notes("Alterações de contato do paciente enquanto o documento aguardava assinatura", registry.contactChanges, "Nenhuma."),
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
                label("SHA-256 do PDF sem assinaturas (rascunho gerado antes do envio)"),
                { text: registry.draftSha256 ?? "nenhum PDF foi gerado antes da assinatura", fontSize: 7.5, characterSpacing: 0.2 },
                label("Código de verificação"),
                { text: registry.verificationCode, fontSize: 11, bold: true, characterSpacing: 1.5 },
                label("Verifique a autenticidade em"),
                { text: registry.verificationUrl, fontSize: 7.5, color: ACCENT },
                ...(registry.professionalCertificate
                  ? [
                      label("Assinatura digital do profissional (ICP-Brasil)"),
                      {
                        text:
                          `Assinatura PAdES com o certificado “${registry.professionalCertificate.commonName}” (impressão digital SHA-256 ` +
                          `${registry.professionalCertificate.fingerprintSha256}), ${registry.professionalCertificate.level}, aplicada ao ` +
                          "documento antes do selo; o selo a preserva.",
                        fontSize: 7,
                      },
                    ]
                  : registry.professionalMissing
                    ? [label("Assinatura digital do profissional (ICP-Brasil)"), { text: `Não aplicada: ${registry.professionalMissing}.`, fontSize: 7 }]
                    : []),
                label("Selo digital"),
                {
                  text:
                    `Assinatura PAdES (ETSI.CAdES.detached, SHA-256) com o certificado “${registry.sealCommonName}” ` +
                    `(impressão digital SHA-256 ${registry.sealFingerprint})${registry.sealLevel ? `, ${registry.sealLevel}` : ""}, aplicada ao ` +
                    "arquivo inteiro. O SHA-256 do PDF selado é informado na página de verificação (um arquivo não pode conter o próprio resumo).",
                  fontSize: 7,
                },
              ],
              margin: [6, 3, 6, 6],
            },
            { image: registry.qrPngDataUrl, fit: [76, 76], margin: [0, 6, 4, 6] },
          ],
        ],
      },
      layout: { hLineWidth: () => 0.6, vLineWidth: () => 0.6, hLineColor: () => RULE, vLineColor: () => RULE, fillColor: () => PANEL },
      unbreakable: true,
      margin: [0, 4, 0, 2],
    } as ContentTable,
    // Headings stay with their text (never alone at the foot of a page).
    { stack: [heading("Como conferir sem o nosso servidor"), { text: OFFLINE_CHECK_NOTE, fontSize: 7, alignment: "justify", lineHeight: 1.1 }], unbreakable: true },
    { stack: [heading("Fundamento legal"), { text: legalNote(registry.parties), fontSize: 7, alignment: "justify", lineHeight: 1.1 }], unbreakable: true },
  ];
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
              { text: [{ text: party.nome, bold: true }, { text: `   assinou em ${formatSaoPaulo(party.assinouEm)} (America/Sao_Paulo)`, color: MUTED }], fontSize: 8.5 },
              ...(party.qualidade ? [{ text: `Na qualidade de ${party.qualidade}.`, fontSize: 8, margin: [0, 1, 0, 0] } as Content] : []),
              { text: levelText(party), fontSize: 8, bold: true, color: "#047857", margin: [0, 2, 0, 0] },
              label("Conferido pelo servidor no momento da assinatura"),
              bullet("Sessão do próprio profissional no Consentir; senha digitada de novo e conferida com a da conta."),
              bullet(`Só o profissional responsável pelo documento pode assinar esta declaração; CPF ${formatCpf(party.cpf)}.`),
              bullet("Conteúdo assinado igual ao do documento (mesmo SHA-256 do conteúdo, abaixo)."),
              label("Registrado (não conferido)"),
              bullet(`Dispositivo: ${party.dispositivo ?? "não identificado"}. Endereço IP ${party.ip ?? "não registrado"}${party.porta ? `, porta de origem ${party.porta}` : ""}.`),
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
