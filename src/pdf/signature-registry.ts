/**
 * The "Registro de assinaturas" page of the final PDF (DESIGN §3): every audit event of the
 * document with its time in UTC and in São Paulo, IP and user agent; the SHA-256 of the content
 * that was signed; the verification code with its link and QR code; the seal; the legal basis.
 * It is drawn by the same renderer, as the last page(s), BEFORE the PAdES seal is applied.
 */
import type { Content, ContentTable, TableCell } from "pdfmake/interfaces.js";
import { CLINIC_TIME_ZONE } from "../shared/dates/sao-paulo.js";

export interface RegistryEvent {
  at: Date;
  /** pt-BR label of the event (src/shared/audit/labels.ts). */
  label: string;
  ip: string | null;
  userAgent: string | null;
}

export interface SignatureRegistry {
  events: RegistryEvent[];
  verificationCode: string;
  /** `${origin}/verificar/${code}` */
  verificationUrl: string;
  /** QR code of verificationUrl as a PNG data URL. */
  qrPngDataUrl: string;
  /** Common name of the certificate that seals the file. */
  sealCommonName: string;
}

export const REGISTRY_TITLE = "Registro de assinaturas";

export const LEGAL_NOTE =
  "Assinatura eletrônica avançada, nos termos do art. 4º, inciso II, da Lei nº 14.063/2020: associada ao signatário de " +
  "maneira unívoca (nome, CPF, e-mail e telefone informados e conferidos com o cadastro), sob seu controle exclusivo (link " +
  "pessoal de uso único), com endereço IP, navegador e horário registrados pelo servidor, e vinculada ao conteúdo por seu " +
  "resumo SHA-256, de modo que qualquer modificação posterior é detectável. As partes admitem este meio de comprovação da " +
  "autoria e da integridade do documento, conforme o art. 10, § 2º, da Medida Provisória nº 2.200-2/2001.";

const MUTED = "#6b7280";
const RULE = "#d1d5db";
const ACCENT = "#1e3a5f";
const PANEL = "#f5f7fa";

const saoPaulo = new Intl.DateTimeFormat("pt-BR", {
  timeZone: CLINIC_TIME_ZONE,
  day: "2-digit",
  month: "2-digit",
  year: "numeric",
  hour: "2-digit",
  minute: "2-digit",
  second: "2-digit",
  hourCycle: "h23",
});

/** "2026-03-07 17:04:09" (UTC; the column header names the zone) */
export function formatUtc(at: Date): string {
  return at.toISOString().slice(0, 19).replace("T", " ");
}

/** "07/03/2026 14:04:09" (America/Sao_Paulo) */
export function formatSaoPaulo(at: Date): string {
  return saoPaulo.format(at).replace(",", "");
}

function eventsTable(events: readonly RegistryEvent[]): ContentTable {
  const head = ["Evento", "Data/hora (UTC)", "Data/hora (America/Sao_Paulo)", "Endereço IP", "Navegador (user agent)"].map(
    (text): TableCell => ({ text, bold: true, fontSize: 7, color: ACCENT, fillColor: PANEL }),
  );
  const rows = events.map((event): TableCell[] => [
    { text: event.label, bold: true },
    { text: formatUtc(event.at) },
    { text: formatSaoPaulo(event.at) },
    { text: event.ip ?? "—" },
    { text: event.userAgent ?? "—", fontSize: 6, color: MUTED },
  ]);
  return {
    table: {
      headerRows: 1,
      dontBreakRows: true,
      widths: [86, 70, 70, 58, "*"],
      body: [head, ...(rows.length > 0 ? rows : [[{ text: "Nenhum evento registrado.", colSpan: 5, italics: true }, {}, {}, {}, {}]])],
    },
    layout: {
      hLineWidth: () => 0.5,
      vLineWidth: () => 0,
      hLineColor: () => RULE,
      paddingTop: () => 3,
      paddingBottom: () => 3,
    },
    fontSize: 7,
    margin: [0, 0, 0, 10],
  } as ContentTable;
}

const label = (text: string): Content => ({ text, fontSize: 7.5, bold: true, color: MUTED, margin: [0, 4, 0, 1] });

/** The registry as pdfmake content, starting on a new page. */
export function registryContent(registry: SignatureRegistry, contentSha256: string): Content[] {
  return [
    { text: REGISTRY_TITLE, fontSize: 13, bold: true, color: ACCENT, pageBreak: "before", margin: [0, 0, 0, 4] },
    {
      text: "Trilha de auditoria do documento, incluída no arquivo antes do selo digital: qualquer alteração posterior invalida a assinatura deste PDF.",
      fontSize: 8,
      color: MUTED,
      margin: [0, 0, 0, 8],
    },
    eventsTable(registry.events),
    {
      table: {
        widths: ["*", 104],
        body: [
          [
            {
              stack: [
                label("SHA-256 do conteúdo assinado"),
                { text: contentSha256, fontSize: 8, characterSpacing: 0.2 },
                label("Código de verificação"),
                { text: registry.verificationCode, fontSize: 12, bold: true, characterSpacing: 1.5 },
                label("Verifique a autenticidade em"),
                { text: registry.verificationUrl, fontSize: 8, color: ACCENT },
                label("Selo digital"),
                {
                  text:
                    `Assinatura PAdES (ETSI.CAdES.detached, SHA-256) com o certificado “${registry.sealCommonName}”, aplicada ao arquivo inteiro. ` +
                    "O SHA-256 do PDF selado é informado na página de verificação (um arquivo não pode conter o próprio resumo).",
                  fontSize: 7.5,
                },
              ],
              margin: [8, 4, 8, 8],
            },
            { image: registry.qrPngDataUrl, fit: [96, 96], margin: [0, 6, 4, 6] },
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
      margin: [0, 0, 0, 10],
    } as ContentTable,
    { text: "Fundamento legal", fontSize: 9, bold: true, color: ACCENT, margin: [0, 2, 0, 3] },
    { text: LEGAL_NOTE, fontSize: 8, alignment: "justify", lineHeight: 1.25 },
  ];
}
