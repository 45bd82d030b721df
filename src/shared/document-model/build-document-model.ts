/**
 * structure + variables → DocumentModel. Pure: resolved values stay plain strings and no HTML is
 * produced; escaping is the renderer's job. Unresolved placeholders are reported, never blanked.
 */
import type { SectionType, TemplateStructure } from "./structure.js";
import { formatInlines, listMarkerOf, type Piece, type StyledInline, unescapeLineStart } from "./formatting.js";
import { MAY_BE_EMPTY_VARIABLES, placeholderRegex, resolveVariableName, variableNamesFor } from "./variables.js";
import type { DocumentQuestion } from "./comprehension.js";

export type Inline = StyledInline;

/** A block of a paragraph section that holds a list (decision 034). */
export type SectionBlock =
  { kind: "paragraph"; inlines: Inline[] } | { kind: "list"; ordered: boolean; start: number; items: Inline[][] };

export interface DocumentSection {
  id: string;
  type: SectionType;
  title: string;
  /** paragraph, patient_data and signature sections: paragraphs split on blank lines. */
  paragraphs?: Inline[][];
  /** bullet_list and numbered_list sections: one entry per non-blank line, marker dropped. */
  items?: Inline[][];
  /**
   * A paragraph section with "- " or "1. " lines: its paragraphs and lists in order (then
   * `paragraphs` is absent). Read both through `sectionBlocks`.
   */
  blocks?: SectionBlock[];
}

export { sectionBlocks } from "./section-blocks.js";

/** An optional consent as offered in the document (decision 057): its stable id, title and text. */
export interface DocumentOptionalConsent {
  id: string;
  title: string;
  paragraphs: Inline[][];
}

export interface DocumentModel {
  title: string;
  introduction: Inline[];
  sections: DocumentSection[];
  /**
   * The separate optional consents the signer answers Sim/Não (decision 057); absent when the
   * template offers none, so the models (and SHA-256) of such documents are what they were.
   */
  optional_consents?: DocumentOptionalConsent[];
  /**
   * Comprehension questions with their right option (decision 061); absent when the template asks
   * none. The public page gets them without the right option.
   */
  comprehension?: DocumentQuestion[];
  /** Distinct placeholder names (as written) that had no value, in order of appearance. */
  unresolved: string[];
}

export type VariableValues = Record<string, string | undefined>;

/**
 * Value for a placeholder: the name as written, then its canonical name, then every alias of that
 * canonical name. A blank value (empty or spaces only) counts as missing, except for the
 * MAY_BE_EMPTY_VARIABLES filled as empty (they resolve to nothing).
 */
export function lookupVariable(name: string, values: VariableValues): string | undefined {
  const candidates = [name, ...variableNamesFor(name)];
  let empty = false;
  for (const key of candidates) {
    if (!Object.prototype.hasOwnProperty.call(values, key)) continue;
    const value = values[key];
    if (value !== undefined && value.trim() !== "") return value;
    if (value !== undefined) empty = true;
  }
  // Filled as empty on purpose (the guardian's line of an adult): nothing, not a gap.
  return empty && MAY_BE_EMPTY_VARIABLES.has(resolveVariableName(name)) ? "" : undefined;
}

function pushPiece(out: Piece[], piece: Piece): void {
  if (piece.kind === "text") {
    if (piece.text === "") return;
    const last = out[out.length - 1];
    if (last?.kind === "text" && last.literal === piece.literal) {
      last.text += piece.text;
      return;
    }
  }
  out.push({ ...piece });
}

const source = (text: string): Piece => ({ kind: "text", text });

/**
 * Splits template text into pieces, substituting values: the template's own text (read for
 * formatting markers later), values as literal text (never re-scanned for placeholders nor
 * markers) and missing placeholders.
 */
export function resolvePieces(text: string, values: VariableValues, unresolved: string[] = []): Piece[] {
  const out: Piece[] = [];
  let last = 0;
  for (const match of text.matchAll(placeholderRegex())) {
    const name = match[1] ?? "";
    pushPiece(out, source(text.slice(last, match.index)));
    last = match.index + match[0].length;
    const value = lookupVariable(name, values);
    if (value === undefined) {
      out.push({ kind: "missing", name });
      if (!unresolved.includes(name)) unresolved.push(name);
    } else {
      pushPiece(out, { kind: "text", text: value, literal: true });
    }
  }
  pushPiece(out, source(text.slice(last)));
  return out.map((piece) => (piece.kind === "text" ? { ...piece, text: piece.text.replace(/\r\n?/g, "\n") } : piece));
}

/** Text with its placeholders substituted and its formatting read, as inlines. */
export function resolveInlines(text: string, values: VariableValues, unresolved: string[] = []): Inline[] {
  return formatInlines(resolvePieces(text, values, unresolved));
}

/** Plain-text form of inlines: a missing placeholder is written back as {{name}}. */
export function inlinesToText(inlines: readonly Inline[]): string {
  return inlines.map((i) => (i.kind === "text" ? i.text : `{{${i.name}}}`)).join("");
}

/** Splits pieces into lines at "\n" inside text pieces. */
function splitLines(pieces: readonly Piece[]): Piece[][] {
  const lines: Piece[][] = [[]];
  for (const piece of pieces) {
    if (piece.kind === "missing") {
      lines[lines.length - 1]!.push(piece);
      continue;
    }
    piece.text.split("\n").forEach((part, index) => {
      if (index > 0) lines.push([]);
      if (part !== "") lines[lines.length - 1]!.push({ ...piece, text: part });
    });
  }
  return lines;
}

function isBlank(line: readonly Piece[]): boolean {
  return line.every((i) => i.kind === "text" && i.text.trim() === "");
}

/** Trims leading whitespace of the first piece and trailing whitespace of the last. */
function trimLine(line: readonly Piece[]): Piece[] {
  const out = line.map((i) => ({ ...i }));
  const first = out[0];
  if (first?.kind === "text") {
    first.text = first.text.replace(/^\s+/, "");
    if (first.text === "") out.shift();
  }
  const last = out[out.length - 1];
  if (last?.kind === "text") {
    last.text = last.text.replace(/\s+$/, "");
    if (last.text === "") out.pop();
  }
  return out;
}

/** A leading bullet (•, -, *, –, —) or number (1. 1) 1-) and the spaces after it. */
const LIST_MARKER = /^\s*(?:[•\-*–—]|\d+\s*[.)-](?!\d))\s*/u;

/** Replaces the text of the first piece (dropping it when it becomes empty). */
function withFirstText(line: Piece[], text: string): Piece[] {
  const first = line[0] as Piece & { kind: "text" };
  return text === "" ? line.slice(1) : [{ ...first, text }, ...line.slice(1)];
}

function stripMarker(line: Piece[]): Piece[] {
  const first = line[0];
  if (first?.kind !== "text") return line;
  // "*itálico* …" and "**negrito** …" start with formatting, not with a bullet.
  if (!first.literal && /^\s*\*(?!\s)/.test(first.text) && inlinesToText(formatInlines(line)) !== piecesText(line))
    return line;
  return withFirstText(line, first.text.replace(LIST_MARKER, ""));
}

function piecesText(line: readonly Piece[]): string {
  return line.map((i) => (i.kind === "text" ? i.text : `{{${i.name}}}`)).join("");
}

/** List content: one item per non-blank line, leading markers dropped. */
export function toListItems(pieces: readonly Piece[]): Inline[][] {
  const items: Inline[][] = [];
  for (const line of splitLines(pieces)) {
    if (isBlank(line)) continue;
    const item = trimLine(stripMarker(trimLine(line)));
    if (item.length > 0) items.push(formatInlines(item));
  }
  return items;
}

/** The list marker of a line of a paragraph section, read from the template's own text only. */
function lineListMarker(line: readonly Piece[]) {
  const first = line[0];
  return first?.kind === "text" && !first.literal ? listMarkerOf(first.text) : null;
}

/**
 * Paragraph-like content: blocks separated by blank lines; single newlines stay inside the text.
 * With `lists`, runs of "- " / "1. " lines become list blocks.
 */
export function toBlocks(pieces: readonly Piece[], lists: boolean): SectionBlock[] {
  const blocks: SectionBlock[] = [];
  let current: Piece[][] = [];
  const flush = (): void => {
    if (current.length === 0) return;
    const joined: Piece[] = [];
    current.forEach((line, index) => {
      if (index > 0) pushPiece(joined, source("\n"));
      for (const piece of line) pushPiece(joined, piece);
    });
    const trimmed = trimLine(joined);
    if (trimmed.length > 0) blocks.push({ kind: "paragraph", inlines: formatInlines(trimmed) });
    current = [];
  };
  for (const line of splitLines(pieces)) {
    if (isBlank(line)) {
      flush();
      continue;
    }
    const marker = lists ? lineListMarker(line) : null;
    if (!marker) {
      const first = line[0];
      current.push(
        lists && first?.kind === "text" && !first.literal ? withFirstText(line, unescapeLineStart(first.text)) : line,
      );
      continue;
    }
    flush();
    const item = formatInlines(trimLine(withFirstText(line, (line[0] as { text: string }).text.slice(marker.length))));
    if (item.length === 0) continue;
    const last = blocks[blocks.length - 1];
    if (last?.kind === "list" && last.ordered === marker.ordered) last.items.push(item);
    else blocks.push({ kind: "list", ordered: marker.ordered, start: marker.number ?? 1, items: [item] });
  }
  flush();
  return blocks;
}

/** Paragraph content (no lists): paragraphs separated by blank lines. */
export function toParagraphs(pieces: readonly Piece[]): Inline[][] {
  return toBlocks(pieces, false).map((block) => (block.kind === "paragraph" ? block.inlines : []));
}

function resolvePlainTitle(text: string, values: VariableValues, unresolved: string[]): string {
  return piecesText(resolvePieces(text, values, unresolved));
}

/**
 * Builds the document model. Titles are plain strings: their placeholders are substituted, and a
 * missing one stays written as {{name}} and is reported in `unresolved`. Section content and the
 * introduction carry the formatting of decision 034.
 */
export function buildDocumentModel(structure: TemplateStructure, values: VariableValues): DocumentModel {
  const unresolved: string[] = [];
  const title = resolvePlainTitle(structure.title, values, unresolved);
  const introduction = formatInlines(trimLine(resolvePieces(structure.introduction, values, unresolved)));
  const sections = structure.sections.map((section): DocumentSection => {
    const sectionTitle = resolvePlainTitle(section.title, values, unresolved);
    const content = resolvePieces(section.content, values, unresolved);
    const base = { id: section.id, type: section.type, title: sectionTitle };
    if (section.type === "bullet_list" || section.type === "numbered_list") {
      return { ...base, items: toListItems(content) };
    }
    const blocks = toBlocks(content, section.type === "paragraph");
    if (blocks.some((block) => block.kind === "list")) return { ...base, blocks };
    return { ...base, paragraphs: blocks.map((block) => (block.kind === "paragraph" ? block.inlines : [])) };
  });
  const optional_consents = (structure.optional_consents ?? []).map((item): DocumentOptionalConsent => ({
    id: item.id,
    title: resolvePlainTitle(item.title, values, unresolved),
    paragraphs: toParagraphs(resolvePieces(item.text, values, unresolved)),
  }));
  const comprehension = (structure.comprehension ?? []).map((q): DocumentQuestion => ({
    id: q.id,
    section_id: q.section_id,
    text: resolvePlainTitle(q.text, values, unresolved),
    options: q.options.map((option) => resolvePlainTitle(option, values, unresolved)),
    correct: q.correct,
  }));
  return {
    title,
    introduction,
    sections,
    ...(optional_consents.length > 0 ? { optional_consents } : {}),
    ...(comprehension.length > 0 ? { comprehension } : {}),
    unresolved,
  };
}
