/**
 * Download name of a document's PDF (spec part 1 §9: "file name = contract title with
 * non-alphanumerics replaced by underscores plus a timestamp").
 *
 * - Accented letters are first written without their accent ("Aplicação" → "Aplicacao"): they are
 *   letters, and dropping only the mark keeps the name readable while leaving it pure ASCII, which
 *   every file system, e-mail client, Content-Disposition header and the clinic system accept.
 * - Then every character that is not A–Z, a–z or 0–9 becomes "_", one for one (no collapsing).
 * - The timestamp is the São Paulo wall clock at `at`, as yyyyMMdd_HHmmss, so names sort by time.
 * - A title with nothing left is named "documento"; very long titles are cut at 120 characters.
 */
import { CLINIC_TIME_ZONE } from "../shared/dates/sao-paulo.js";

const MAX_TITLE_CHARS = 120;

const stampFormatter = new Intl.DateTimeFormat("en-CA", {
  timeZone: CLINIC_TIME_ZONE,
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
  hour: "2-digit",
  minute: "2-digit",
  second: "2-digit",
  hourCycle: "h23",
});

/** yyyyMMdd_HHmmss in São Paulo. */
export function fileTimestamp(at: Date): string {
  const p: Record<string, string> = {};
  for (const part of stampFormatter.formatToParts(at)) p[part.type] = part.value;
  return `${p.year}${p.month}${p.day}_${p.hour}${p.minute}${p.second}`;
}

/** The title as a file-name stem: accents dropped, other non-alphanumerics → "_". */
export function safeFileStem(title: string): string {
  const ascii = title.normalize("NFD").replace(/\p{M}/gu, "");
  const stem = Array.from(ascii, (ch) => (/^[A-Za-z0-9]$/.test(ch) ? ch : "_"))
    .slice(0, MAX_TITLE_CHARS)
    .join("");
  return /[A-Za-z0-9]/.test(stem) ? stem : "documento";
}

export function pdfFileName(title: string, at: Date): string {
  return `${safeFileStem(title)}_${fileTimestamp(at)}.pdf`;
}

/**
 * The draft's download name says it is a draft: "<título>-rascunho_<yyyyMMdd_HHmmss>.pdf" (issue
 * 11). The hyphen never occurs in a stem (safeFileStem turns it into "_"), so the marker cannot
 * come from a title.
 */
export function draftPdfFileName(title: string, at: Date): string {
  return `${safeFileStem(title)}-rascunho_${fileTimestamp(at)}.pdf`;
}

/** Drafts stored before drafts were watermarked lack the marker in their name (they are drawn again). */
export function isWatermarkedDraftName(name: string): boolean {
  return /-rascunho_\d{8}_\d{6}\.pdf$/.test(name);
}
