/**
 * structure + variables → DocumentModel. Pure: resolved values stay plain strings and no HTML is
 * produced; escaping is the renderer's job. Unresolved placeholders are reported, never blanked.
 */
import type { SectionType, TemplateStructure } from "./structure.js";
import { placeholderRegex, variableNamesFor } from "./variables.js";

export type Inline = { kind: "text"; text: string } | { kind: "missing"; name: string };

export interface DocumentSection {
  id: string;
  type: SectionType;
  title: string;
  /** paragraph, patient_data and signature sections: paragraphs split on blank lines. */
  paragraphs?: Inline[][];
  /** bullet_list and numbered_list sections: one entry per non-blank line, marker dropped. */
  items?: Inline[][];
}

export interface DocumentModel {
  title: string;
  introduction: Inline[];
  sections: DocumentSection[];
  /** Distinct placeholder names (as written) that had no value, in order of appearance. */
  unresolved: string[];
}

export type VariableValues = Record<string, string | undefined>;

/**
 * Value for a placeholder: the name as written, then its canonical name, then every alias of that
 * canonical name. A blank value (empty or spaces only) counts as missing.
 */
export function lookupVariable(name: string, values: VariableValues): string | undefined {
  const candidates = [name, ...variableNamesFor(name)];
  for (const key of candidates) {
    if (!Object.prototype.hasOwnProperty.call(values, key)) continue;
    const value = values[key];
    if (value !== undefined && value.trim() !== "") return value;
  }
  return undefined;
}

function pushText(out: Inline[], text: string): void {
  if (text === "") return;
  const last = out[out.length - 1];
  if (last?.kind === "text") last.text += text;
  else out.push({ kind: "text", text });
}

/** Splits text into inlines, substituting values; values are never re-scanned for placeholders. */
export function resolveInlines(
  text: string,
  values: VariableValues,
  unresolved: string[] = [],
): Inline[] {
  const out: Inline[] = [];
  let last = 0;
  for (const match of text.matchAll(placeholderRegex())) {
    const name = match[1] ?? "";
    pushText(out, text.slice(last, match.index));
    last = match.index + match[0].length;
    const value = lookupVariable(name, values);
    if (value === undefined) {
      out.push({ kind: "missing", name });
      if (!unresolved.includes(name)) unresolved.push(name);
    } else {
      pushText(out, value);
    }
  }
  pushText(out, text.slice(last));
  return out;
}

/** Plain-text form of inlines: a missing placeholder is written back as {{name}}. */
export function inlinesToText(inlines: readonly Inline[]): string {
  return inlines.map((i) => (i.kind === "text" ? i.text : `{{${i.name}}}`)).join("");
}

function normaliseNewlines(inlines: Inline[]): Inline[] {
  return inlines.map((i) => (i.kind === "text" ? { kind: "text", text: i.text.replace(/\r\n?/g, "\n") } : i));
}

/** Splits inlines into lines at "\n" inside text inlines. */
function splitLines(inlines: Inline[]): Inline[][] {
  const lines: Inline[][] = [[]];
  for (const inline of normaliseNewlines(inlines)) {
    if (inline.kind === "missing") {
      lines[lines.length - 1]!.push(inline);
      continue;
    }
    const parts = inline.text.split("\n");
    parts.forEach((part, index) => {
      if (index > 0) lines.push([]);
      if (part !== "") lines[lines.length - 1]!.push({ kind: "text", text: part });
    });
  }
  return lines;
}

function isBlank(line: readonly Inline[]): boolean {
  return line.every((i) => i.kind === "text" && i.text.trim() === "");
}

/** Trims leading whitespace of the first inline and trailing whitespace of the last. */
function trimLine(line: Inline[]): Inline[] {
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
const LIST_MARKER = /^\s*(?:[•\-*–—]|\d+\s*[.)\-](?!\d))\s*/u;

function stripMarker(line: Inline[]): Inline[] {
  const first = line[0];
  if (first?.kind !== "text") return line;
  const text = first.text.replace(LIST_MARKER, "");
  return text === "" ? line.slice(1) : [{ kind: "text", text }, ...line.slice(1)];
}

/** List content: one item per non-blank line, leading markers dropped. */
export function toListItems(inlines: Inline[]): Inline[][] {
  const items: Inline[][] = [];
  for (const line of splitLines(inlines)) {
    if (isBlank(line)) continue;
    const item = trimLine(stripMarker(trimLine(line)));
    if (item.length > 0) items.push(item);
  }
  return items;
}

/** Paragraph content: paragraphs separated by blank lines; single newlines stay inside the text. */
export function toParagraphs(inlines: Inline[]): Inline[][] {
  const paragraphs: Inline[][] = [];
  let current: Inline[][] = [];
  const flush = (): void => {
    if (current.length === 0) return;
    const joined: Inline[] = [];
    current.forEach((line, index) => {
      if (index > 0) pushText(joined, "\n");
      for (const inline of line) {
        if (inline.kind === "text") pushText(joined, inline.text);
        else joined.push(inline);
      }
    });
    const trimmed = trimLine(joined);
    if (trimmed.length > 0) paragraphs.push(trimmed);
    current = [];
  };
  for (const line of splitLines(inlines)) {
    if (isBlank(line)) flush();
    else current.push(line);
  }
  flush();
  return paragraphs;
}

function resolvePlainTitle(text: string, values: VariableValues, unresolved: string[]): string {
  return inlinesToText(resolveInlines(text, values, unresolved));
}

/**
 * Builds the document model. Titles are plain strings: their placeholders are substituted, and a
 * missing one stays written as {{name}} and is reported in `unresolved`.
 */
export function buildDocumentModel(structure: TemplateStructure, values: VariableValues): DocumentModel {
  const unresolved: string[] = [];
  const title = resolvePlainTitle(structure.title, values, unresolved);
  const introduction = trimLine(normaliseNewlines(resolveInlines(structure.introduction, values, unresolved)));
  const sections = structure.sections.map((section): DocumentSection => {
    const sectionTitle = resolvePlainTitle(section.title, values, unresolved);
    const content = resolveInlines(section.content, values, unresolved);
    const base = { id: section.id, type: section.type, title: sectionTitle };
    if (section.type === "bullet_list" || section.type === "numbered_list") {
      return { ...base, items: toListItems(content) };
    }
    return { ...base, paragraphs: toParagraphs(content) };
  });
  return { title, introduction, sections, unresolved };
}
