/**
 * Document model → PDF (A4), drawn with pdfmake from the same DocumentModel the React preview draws
 * (DESIGN.md §2, §6; decision 005). User text only ever reaches pdfmake as text nodes: nothing is
 * parsed as HTML or markup, so "<script>" prints as written.
 *
 * Page: A4 (595.28 × 841.89 pt). The spec's margin of 20 px on each side (part 1 §9) is CSS pixels,
 * 1/96 in, so 20 px = 15 pt (× 72/96): nothing is drawn closer than 15 pt to the paper edge. The
 * header and footer bands sit inside that edge; the text column is inset a further 25 pt on each
 * side (40 pt ≈ 14 mm from the edge) so lines stay around 95 characters long, and the body starts
 * below the header band and ends above the footer band.
 */
import type { Content, ContentTable, ContentText, Style, TDocumentDefinitions } from "pdfmake/interfaces.js";
import { formatCnpj } from "../shared/br/cnpj.js";
import { formatCpf } from "../shared/br/cpf.js";
import { formatPhone } from "../shared/br/phone.js";
import { formatDateTimeSeconds } from "../shared/format/index.js";
import type {
  DocumentModel,
  DocumentSection,
  Inline,
  SectionBlock,
} from "../shared/document-model/build-document-model.js";
import { sectionBlocks } from "../shared/document-model/section-blocks.js";
import { councilRegistration } from "../shared/document-model/document-variables.js";
import { shortDocumentId } from "../shared/schemas/document.js";
import { fastPathsEnabled } from "./fast-paths.js";
import { PDF_FONT, pdfEngine } from "./fonts.js";
import { opaqueOnWhite } from "./opaque-png.js";
import { registryContent, type SignatureRegistry } from "./signature-registry.js";
import { signaturePlaceholder } from "../shared/signing-method.js";
import { answerLabel, OPTIONAL_CONSENT_MESSAGES } from "../shared/document-model/optional-consents.js";

export interface DocumentPdfClinic {
  nome: string;
  razao_social: string | null;
  cnpj: string | null;
  cnes: string | null;
  endereco: string | null;
  telefone: string | null;
  /** The clinic's logo as the server re-encoded it (an opaque PNG), drawn left of the name. */
  logo?: PdfLogo | null;
}

export interface PdfLogo {
  /** data:image/png;base64,… (a string survives the worker pool's structured clone as is). */
  pngDataUrl: string;
  /** Pixels, for the aspect ratio. */
  width: number;
  height: number;
}

export interface DocumentPdfPhysician {
  nome: string;
  conselho_tipo: string | null;
  conselho_numero: string | null;
  conselho_uf: string | null;
  rqe: string | null;
  especialidade: string | null;
}

export interface DocumentPdfSignature {
  nome: string;
  cpf: string;
  email: string | null;
  telefone: string | null;
  assinou_em: Date;
  /** "eletronica" or "ICP-Brasil" (spec part 1 §3 metodo_assinatura). */
  metodo: string;
  imagePng: Buffer | null;
  ip: string | null;
  userAgent: string | null;
  /** The capacity printed with the name: "responsável legal de …", "testemunha" (decision 021). */
  qualidade?: string | null;
  /** paciente, responsavel, profissional or testemunha: whose signature line it fills. */
  papel?: string;
}

export interface DocumentPdfInput {
  model: DocumentModel;
  documentId: string;
  contentSha256: string;
  createdAt: Date;
  clinic: DocumentPdfClinic;
  physician: DocumentPdfPhysician | null;
  signatures?: DocumentPdfSignature[];
  /**
   * The signer's Sim/Não to the model's optional consents (decision 057), printed with each item;
   * absent before signing (the block then says the answer is given when signing).
   */
  optionalAnswers?: { id: string; aceito: boolean }[];
  /** The final PDF's last page(s): "Registro de assinaturas" (src/pdf/signature-registry.ts). */
  registry?: SignatureRegistry;
  /**
   * Text drawn diagonally across every page, light grey and translucent over the content (which
   * stays readable): the draft carries DRAFT_WATERMARK; the final, sealed PDF never sets it.
   */
  watermark?: string;
  /** Files embedded as associated files (the final PDF's evidence JSON, decision 014). */
  attachments?: PdfAttachment[];
}

/** An embedded file: its text (UTF-8) is stored byte for byte (compressed in the PDF stream). */
export interface PdfAttachment {
  name: string;
  description: string;
  mimeType: string;
  /** /AFRelationship of the file specification (PDF 2.0, PDF/A-3). */
  relationship: "Data" | "Source" | "Supplement" | "Alternative" | "Unspecified";
  content: string;
}

/**
 * pdfmake's `files` (pdfkit's doc.file): a data URL (pdfmake resolves a Buffer `src` as a URL),
 * dated with the document so the same input draws the same bytes.
 */
function embeddedFiles(attachments: readonly PdfAttachment[], createdAt: Date): TDocumentDefinitions["files"] {
  return Object.fromEntries(
    attachments.map((a) => [
      a.name,
      {
        src: `data:${a.mimeType};base64,${Buffer.from(a.content, "utf8").toString("base64")}`,
        name: a.name,
        description: a.description,
        relationship: a.relationship,
        creationDate: createdAt,
        modifiedDate: createdAt,
      },
    ]),
  );
}

/** What every draft PDF (GET /api/documents/:id/pdf) says across each page. */
export const DRAFT_WATERMARK = "RASCUNHO – sem validade";

/** 20 CSS px (1/96 in) in PDF points (1/72 in). */
export const EDGE_PT = (20 * 72) / 96;
/** Extra inset of the text column inside the edge. */
const TEXT_INSET_PT = 25;
const SIDE_PT = EDGE_PT + TEXT_INSET_PT;
const HEADER_BAND_PT = 62;
/** The logo's box in the header band: it never pushes the rule below the band. */
const LOGO_FIT_PT: [number, number] = [110, 34];
const FOOTER_BAND_PT = 40;
const PAGE_MARGINS: [number, number, number, number] = [
  SIDE_PT,
  EDGE_PT + HEADER_BAND_PT,
  SIDE_PT,
  EDGE_PT + FOOTER_BAND_PT,
];
const A4_WIDTH_PT = 595.28;
const COLUMN_WIDTH_PT = A4_WIDTH_PT - 2 * SIDE_PT;

const INK = "#1f2937";
const MUTED = "#6b7280";
const RULE = "#d1d5db";
const ACCENT = "#1e3a5f";
const PANEL = "#f5f7fa";

export { shortDocumentId };

/** "CRM-SP 123456" with the parts that exist (the same text as the {{profissional_crm}} variable). */
export function councilLine(p: DocumentPdfPhysician): string {
  return councilRegistration(p.conselho_tipo, p.conselho_uf, p.conselho_numero);
}

/** dd/mm/aaaa hh:mm:ss in São Paulo, with the zone named (evidence must not be ambiguous). */
function formatDateTime(at: Date): string {
  return `${formatDateTimeSeconds(at)} (horário de Brasília)`;
}

/** Bold/italic of a run (decision 034) as pdfmake flags; an unstyled run gets none. */
function styleFlags(inline: Inline): Pick<ContentText, "bold" | "italics"> {
  return { ...(inline.bold ? { bold: true } : {}), ...(inline.italic ? { italics: true } : {}) };
}

function inlineNodes(inlines: readonly Inline[]): ContentText[] {
  return inlines.map((inline) =>
    inline.kind === "text"
      ? { text: inline.text, ...styleFlags(inline) }
      : { text: `[${inline.name}]`, style: "missing", ...styleFlags(inline) },
  );
}

function paragraph(inlines: readonly Inline[], style = "body"): ContentText {
  // pdfmake's justification widens the gap at every change of font inside a line ("Silva ,"):
  // a paragraph with bold or italic runs is set ragged-right instead.
  const styled = inlines.some((inline) => inline.bold || inline.italic);
  return styled ? { text: inlineNodes(inlines), style, alignment: "left" } : { text: inlineNodes(inlines), style };
}

/** Splits a paragraph at its "\n" (kept by the model inside paragraphs) into lines. */
function splitLines(inlines: readonly Inline[]): Inline[][] {
  const lines: Inline[][] = [[]];
  for (const inline of inlines) {
    if (inline.kind === "missing") {
      lines[lines.length - 1]!.push(inline);
      continue;
    }
    inline.text.split("\n").forEach((part, index) => {
      if (index > 0) lines.push([]);
      if (part !== "") lines[lines.length - 1]!.push({ ...inline, text: part });
    });
  }
  return lines.filter((line) => line.length > 0);
}

/**
 * A patient-data line "Rótulo: valor" gets its label in bold; the label is the text before the
 * first ": " of the line's first text run (short, without a placeholder in it).
 */
function labelledLine(line: readonly Inline[]): ContentText {
  const first = line[0];
  if (first?.kind === "text") {
    const match = /^([^:]{1,48}):\s/.exec(first.text);
    if (match) {
      const rest = first.text.slice(match[0].length);
      const tail: Inline[] = rest === "" ? line.slice(1) : [{ ...first, text: rest }, ...line.slice(1)];
      return { text: [{ text: `${match[1]}: `, bold: true }, ...inlineNodes(tail)], style: "dataLine" };
    }
  }
  return { text: inlineNodes(line), style: "dataLine" };
}

function sectionTitle(title: string): Content[] {
  return title.trim() === "" ? [] : [{ text: title, style: "sectionTitle" }];
}

/** Printed on a signature line once that party has signed electronically (no pen needed, none missing). */
export const SIGNED_ON_LINE = "Assinado eletronicamente: ver Assinaturas e o registro ao final";

function signatureLine(label: string, detail: string[], signed = false): Content {
  return {
    stack: [
      signed
        ? { text: SIGNED_ON_LINE, style: "signDetail", italics: true, margin: [0, 24, 0, 2] }
        : { text: "", margin: [0, 34, 0, 0] },
      {
        canvas: [{ type: "line", x1: 0, y1: 0, x2: 220, y2: 0, lineWidth: 0.7, lineColor: INK }],
        margin: [0, 0, 0, 3],
      },
      { text: label, style: "signLabel" },
      ...detail.filter(Boolean).map((text): Content => ({ text, style: "signDetail" })),
    ],
    unbreakable: true,
  };
}

function physicianDetails(physician: DocumentPdfPhysician | null): string[] {
  if (!physician) return [];
  const council = councilLine(physician);
  return [
    physician.nome,
    [council, physician.rqe ? `RQE ${physician.rqe}` : ""].filter(Boolean).join(" · "),
    physician.especialidade ? `Especialidade: ${physician.especialidade}` : "",
  ];
}

/** Which signature lines are already signed electronically (the parties in the Signatures block). */
interface SignedLines {
  patient: boolean;
  professional: boolean;
}

function signedLines(signatures: readonly DocumentPdfSignature[]): SignedLines {
  return {
    patient: signatures.some((s) => s.papel === "paciente" || s.papel === "responsavel"),
    professional: signatures.some((s) => s.papel === "profissional"),
  };
}

/** The professional's identification (CFM Res. 2.299/2021 art. 2) and the two signature lines. */
function signatureArea(physician: DocumentPdfPhysician | null, signed: SignedLines): Content[] {
  const out: Content[] = [];
  if (physician) {
    const council = councilLine(physician);
    out.push({
      table: {
        widths: ["*"],
        body: [
          [
            {
              stack: [
                { text: "Profissional responsável", style: "panelLabel" },
                { text: physician.nome, bold: true, margin: [0, 1, 0, 1] },
                {
                  text: [
                    council ? `Conselho: ${council}` : "Conselho: não informado",
                    physician.rqe ? `   ·   RQE: ${physician.rqe}` : "",
                    physician.especialidade ? `   ·   Especialidade: ${physician.especialidade}` : "",
                  ].join(""),
                  style: "small",
                },
              ],
              fillColor: PANEL,
              margin: [8, 6, 8, 6],
            },
          ],
        ],
      },
      layout: "noBorders",
      margin: [0, 10, 0, 0],
      unbreakable: true,
    } satisfies ContentTable);
  }
  out.push({
    columns: [
      signatureLine("Paciente ou responsável legal", [], signed.patient),
      signatureLine("Profissional responsável", physicianDetails(physician), signed.professional),
    ],
    columnGap: 30,
    margin: [0, 6, 0, 0],
  });
  return out;
}

/** Characters of inline text, to decide whether a block is short enough to keep together. */
function lengthOf(inlines: readonly Inline[]): number {
  return inlines.reduce(
    (sum, inline) => sum + (inline.kind === "text" ? inline.text.length : inline.name.length + 2),
    0,
  );
}

/** Blocks short enough to move whole to the next page rather than split (keeps titles with them). */
const KEEP_TOGETHER_CHARS = 700;

/**
 * A section title never ends a page alone: it is kept with the first block under it (when that
 * block is short enough to move as a whole).
 */
function withTitle(title: string, first: Content | undefined, firstLength: number, rest: Content[]): Content[] {
  const heading = sectionTitle(title);
  if (first === undefined) return heading;
  if (heading.length === 0 || firstLength > KEEP_TOGETHER_CHARS) return [...heading, first, ...rest];
  return [{ stack: [...heading, first], unbreakable: true }, ...rest];
}

function listSection(section: DocumentSection, ordered: boolean): Content[] {
  const items = (section.items ?? []).map((item) => paragraph(item, "listItem"));
  if (items.length === 0) return sectionTitle(section.title);
  const firstLength = lengthOf(section.items![0]!);
  const list = (entries: ContentText[], start: number): Content =>
    ordered ? { ol: entries, start, style: "list" } : { ul: entries, style: "list" };
  if (section.title.trim() === "" || firstLength > KEEP_TOGETHER_CHARS)
    return [...sectionTitle(section.title), list(items, 1)];
  // The first item travels with the title; the rest continue the same list (numbering goes on).
  const [first, ...rest] = items;
  const tail = rest.length > 0 ? [{ ...(list(rest, 2) as object), margin: [4, -2.5, 0, 5] } as Content] : [];
  return withTitle(section.title, list([first!], 1), firstLength, tail);
}

/** One block of a paragraph section: a paragraph, or a list (decision 034). */
function blockContent(block: SectionBlock): { content: Content; length: number } {
  if (block.kind === "paragraph") return { content: paragraph(block.inlines), length: lengthOf(block.inlines) };
  const entries = block.items.map((item) => paragraph(item, "listItem"));
  const length = block.items.reduce((sum, item) => sum + lengthOf(item), 0);
  return {
    content: block.ordered ? { ol: entries, start: block.start, style: "list" } : { ul: entries, style: "list" },
    length,
  };
}

function sectionContent(
  section: DocumentSection,
  physician: DocumentPdfPhysician | null,
  signed: SignedLines,
): Content[] {
  const paragraphs = section.paragraphs ?? [];
  switch (section.type) {
    case "bullet_list":
      return listSection(section, false);
    case "numbered_list":
      return listSection(section, true);
    case "patient_data": {
      const lines = paragraphs.flatMap((p, index) => {
        const drawn: Content[] = splitLines(p).map(labelledLine);
        if (index > 0 && drawn[0]) (drawn[0] as ContentText).margin = [0, 5, 0, 0];
        return drawn;
      });
      const box: ContentTable = {
        table: {
          widths: ["*"],
          body: [[{ stack: lines.length > 0 ? lines : [{ text: " " }], margin: [9, 7, 9, 7] }]],
        },
        layout: {
          hLineWidth: () => 0.6,
          vLineWidth: () => 0.6,
          hLineColor: () => RULE,
          vLineColor: () => RULE,
          fillColor: () => PANEL,
        },
        margin: [0, 2, 0, 6],
      };
      return withTitle(
        section.title,
        box,
        paragraphs.reduce((sum, p) => sum + lengthOf(p), 0),
        [],
      );
    }
    case "signature":
      return [
        {
          stack: [
            ...sectionTitle(section.title),
            ...paragraphs.map((p) => paragraph(p, "signText")),
            ...signatureArea(physician, signed),
          ],
          unbreakable: paragraphs.length <= 8,
        },
      ];
    default: {
      // paragraph (and any future type): paragraphs of text, and the lists written in them.
      const [first, ...rest] = sectionBlocks(section).map((block) => blockContent(block));
      return withTitle(
        section.title,
        first?.content,
        first?.length ?? 0,
        rest.map((b) => b.content),
      );
    }
  }
}

function metodoLabel(metodo: string): string {
  return /icp/i.test(metodo) ? "ICP-Brasil" : "Eletrônica";
}

/** The spec's signatures block (part 1 §2): one panel per party that signed. */
function signaturesBlock(signatures: readonly DocumentPdfSignature[]): Content[] {
  if (signatures.length === 0) return [];
  const rows = signatures.map((s): Content => {
    const image: Content = s.imagePng
      ? // Drawn on white (no fill in this table): composited here, embedded without a soft mask.
        {
          image: `data:image/png;base64,${(fastPathsEnabled() ? opaqueOnWhite(s.imagePng) : s.imagePng).toString("base64")}`,
          fit: [150, 64],
        }
      : {
          text: signaturePlaceholder({ metodo_assinatura: s.metodo, papel: s.papel }),
          italics: true,
          color: MUTED,
          margin: [0, 24, 0, 0],
        };
    const detail = (label: string, value: string | null): ContentText | null =>
      value ? { text: [{ text: `${label}: `, bold: true }, { text: value }], style: "small" } : null;
    return {
      table: {
        widths: [160, "*"],
        body: [
          [
            { stack: [image], margin: [4, 4, 4, 4] },
            {
              stack: [
                {
                  text: [
                    { text: s.nome, bold: true },
                    { text: "   Assinado", style: "badge" },
                    { text: `   ${metodoLabel(s.metodo)}`, style: "badgeMuted" },
                  ],
                },
                detail("Qualidade", s.qualidade ?? null),
                detail("CPF", formatCpf(s.cpf)),
                detail("Data/hora", formatDateTime(s.assinou_em)),
                detail("E-mail", s.email),
                detail("Telefone", s.telefone ? formatPhone(s.telefone) : null),
                detail("Endereço IP", s.ip),
                detail("Navegador", s.userAgent),
              ].filter((node): node is ContentText => node !== null),
              margin: [4, 4, 4, 4],
            },
          ],
        ],
      },
      layout: {
        hLineWidth: () => 0.6,
        vLineWidth: () => 0.6,
        hLineColor: () => RULE,
        vLineColor: () => RULE,
      },
      margin: [0, 0, 0, 6],
      unbreakable: true,
    };
  });
  const [first, ...rest] = rows;
  return [
    { stack: [{ text: "Assinaturas", style: "sectionTitle", margin: [0, 14, 0, 6] }, first!], unbreakable: true },
    ...rest,
  ];
}

function header(clinic: DocumentPdfClinic): Content {
  const name = clinic.razao_social?.trim() || clinic.nome;
  const ids = [clinic.cnpj ? `CNPJ ${formatCnpj(clinic.cnpj)}` : "", clinic.cnes ? `CNES ${clinic.cnes}` : ""]
    .filter(Boolean)
    .join("   ·   ");
  const contact = [clinic.endereco ?? "", clinic.telefone ? `Tel. ${formatPhone(clinic.telefone)}` : ""]
    .filter(Boolean)
    .join("   ·   ");
  const fantasia =
    clinic.razao_social?.trim() && clinic.nome.trim() && clinic.nome.trim() !== name ? clinic.nome.trim() : "";
  const lines: Content[] = [
    { text: [{ text: name, style: "clinicName" }, fantasia ? { text: `   ${fantasia}`, style: "headerMuted" } : ""] },
    ids ? { text: ids, style: "headerText" } : [],
    contact ? { text: contact, style: "headerText" } : [],
  ];
  const rule: Content = {
    canvas: [{ type: "line", x1: 0, y1: 0, x2: COLUMN_WIDTH_PT, y2: 0, lineWidth: 0.8, lineColor: ACCENT }],
    margin: [0, 5, 0, 0],
  };
  const logo = clinic.logo;
  const identity: Content = logo
    ? {
        columns: [
          { image: logo.pngDataUrl, fit: LOGO_FIT_PT, width: logoWidthPt(logo) },
          { stack: lines, width: "*" },
        ],
        columnGap: 10,
      }
    : { stack: lines };
  return { stack: [identity, rule], margin: [SIDE_PT, EDGE_PT + 4, SIDE_PT, 0] };
}

/** The width the logo takes once fitted in LOGO_FIT_PT, so the text starts right after it. */
function logoWidthPt(logo: PdfLogo): number {
  const [maxWidth, maxHeight] = LOGO_FIT_PT;
  return Math.min(maxWidth, (maxHeight * logo.width) / logo.height);
}

function footer(documentId: string, sha256: string) {
  return (currentPage: number, pageCount: number): Content => ({
    stack: [
      { canvas: [{ type: "line", x1: 0, y1: 0, x2: COLUMN_WIDTH_PT, y2: 0, lineWidth: 0.5, lineColor: RULE }] },
      {
        columns: [
          {
            stack: [
              { text: `Documento ${shortDocumentId(documentId)}`, style: "footerStrong" },
              { text: `SHA-256 do conteúdo: ${sha256}`, style: "footerText" },
            ],
            width: "*",
          },
          {
            text: `Página ${currentPage} de ${pageCount}`,
            style: "footerStrong",
            alignment: "right",
            width: 80,
            margin: [0, 4, 0, 0],
          },
        ],
        margin: [0, 4, 0, 0],
      },
    ],
    margin: [SIDE_PT, 6, SIDE_PT, 0],
  });
}

const STYLES: Record<string, Style> = {
  clinicName: { fontSize: 10.5, bold: true, color: ACCENT },
  headerMuted: { fontSize: 8, color: MUTED },
  headerText: { fontSize: 7.5, color: MUTED, lineHeight: 1.15 },
  footerStrong: { fontSize: 7.5, color: INK, bold: true },
  footerText: { fontSize: 6.5, color: MUTED },
  title: { fontSize: 14.5, bold: true, alignment: "center", color: ACCENT, margin: [0, 4, 0, 12], lineHeight: 1.15 },
  introduction: { alignment: "justify", margin: [0, 0, 0, 6], lineHeight: 1.3 },
  sectionTitle: { fontSize: 10.5, bold: true, color: ACCENT, margin: [0, 10, 0, 4] },
  body: { alignment: "justify", margin: [0, 0, 0, 5], lineHeight: 1.3 },
  list: { margin: [4, 0, 0, 5] },
  listItem: { alignment: "justify", margin: [0, 0, 0, 2.5], lineHeight: 1.25 },
  dataLine: { lineHeight: 1.3 },
  signText: { alignment: "justify", margin: [0, 0, 0, 4], lineHeight: 1.3 },
  signLabel: { fontSize: 8.5, bold: true },
  signDetail: { fontSize: 8, color: MUTED },
  panelLabel: { fontSize: 7.5, color: MUTED, bold: true },
  small: { fontSize: 8, lineHeight: 1.2 },
  badge: { fontSize: 7.5, bold: true, color: "#047857" },
  badgeMuted: { fontSize: 7.5, bold: true, color: MUTED },
  missing: { background: "#fde68a", color: "#92400e", bold: true },
};

/** "Consentimentos opcionais" (decision 057): each item as offered, with the signer's answer. */
export function optionalConsentsBlock(
  items: DocumentModel["optional_consents"],
  answers: readonly { id: string; aceito: boolean }[] | undefined,
): Content[] {
  if (!items || items.length === 0) return [];
  const answerOf = new Map((answers ?? []).map((a) => [a.id, a.aceito]));
  return [
    ...sectionTitle(OPTIONAL_CONSENT_MESSAGES.heading),
    { text: OPTIONAL_CONSENT_PDF_NOTE, style: "signDetail", margin: [0, 0, 0, 4] },
    ...items.map((item): Content => {
      const aceito = answerOf.get(item.id);
      return {
        stack: [
          { text: item.title, bold: true, margin: [0, 2, 0, 1] },
          ...item.paragraphs.map((p) => paragraph(p)),
          aceito === undefined
            ? { text: OPTIONAL_CONSENT_UNANSWERED, style: "signDetail", italics: true }
            : {
                text: [
                  { text: "Resposta: ", bold: true },
                  { text: answerLabel(aceito), bold: true },
                ],
                style: "body",
              },
        ],
        unbreakable: true,
        margin: [0, 0, 0, 4],
      };
    }),
  ];
}

const OPTIONAL_CONSENT_PDF_NOTE =
  "Cada item abaixo foi respondido separadamente, com Sim ou Não, e não altera o consentimento deste termo.";
const OPTIONAL_CONSENT_UNANSWERED = "Resposta: dada pelo signatário ao assinar (Sim ou Não).";

/** The pdfmake document definition (exported for tests and the benchmark). */
export function documentDefinition(input: DocumentPdfInput): TDocumentDefinitions {
  const { model, clinic, physician } = input;
  const signed = signedLines(input.signatures ?? []);
  // The optional consents go before the signature section (or after the last section).
  const optional = optionalConsentsBlock(model.optional_consents, input.optionalAnswers);
  const signatureAt = model.sections.findIndex((section) => section.type === "signature");
  const sections = model.sections.flatMap((section, index) => [
    ...(index === signatureAt ? optional : []),
    ...sectionContent(section, physician, signed),
  ]);
  if (signatureAt === -1) sections.push(...optional);
  const hasSignatureSection = model.sections.some((section) => section.type === "signature");
  const content: Content[] = [
    { text: model.title, style: "title" },
    ...(model.introduction.length > 0 ? [paragraph(model.introduction, "introduction")] : []),
    ...sections,
    ...(hasSignatureSection
      ? []
      : [{ stack: signatureArea(physician, signed), unbreakable: true, margin: [0, 12, 0, 0] } as Content]),
    ...signaturesBlock(input.signatures ?? []),
    ...(input.registry ? registryContent(input.registry, input.contentSha256) : []),
  ];
  const author = clinic.razao_social?.trim() || clinic.nome;
  return {
    pageSize: "A4",
    pageOrientation: "portrait",
    pageMargins: PAGE_MARGINS,
    language: "pt-BR",
    info: {
      title: model.title,
      author,
      subject: `Documento ${shortDocumentId(input.documentId)} · SHA-256 ${input.contentSha256}`,
      keywords: "termo de consentimento, assinatura eletrônica",
      creator: "Consentir",
      producer: "Consentir (pdfmake)",
      creationDate: input.createdAt,
      // Read back by the verifier (src/server/services/sealing/verify-signed-pdf.ts).
      ...(input.registry ? { EvidenciasCadeiaSha256: input.registry.finalHash } : {}),
    },
    ...(input.attachments && input.attachments.length > 0
      ? { files: embeddedFiles(input.attachments, input.createdAt) }
      : {}),
    header: header(clinic),
    footer: footer(input.documentId, input.contentSha256),
    content,
    ...(input.watermark
      ? { watermark: { text: input.watermark, color: "#9ca3af", opacity: 0.2, bold: true, fontSize: 60 } }
      : {}),
    styles: STYLES,
    defaultStyle: { font: PDF_FONT, fontSize: 10, color: INK },
  };
}

export async function renderDocumentPdf(input: DocumentPdfInput): Promise<Buffer> {
  return pdfEngine().createPdf(documentDefinition(input)).getBuffer();
}
