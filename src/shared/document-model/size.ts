/**
 * The size of a template structure and of a filled document model, as the PDF renderer feels it
 * (decision 012): characters of text, line breaks (or, in the model, paragraphs + list items +
 * lines inside them) and the longest run of characters without white space. The limits live in
 * src/shared/reference/limits.ts; the template schema and document creation enforce them.
 */
import {
  MAX_DOCUMENT_LINES,
  MAX_DOCUMENT_TEXT_CHARS,
  MAX_TEMPLATE_LINE_BREAKS,
  MAX_TEMPLATE_TEXT_CHARS,
  MAX_WORD_CHARS,
} from "../reference/limits.js";
import type { DocumentModel, Inline } from "./build-document-model.js";

export interface TextSize {
  /** Characters (UTF-16 units, as String.length and the schemas' max count them). */
  chars: number;
  /** Template: "\n" count. Model: paragraphs + list items + "\n" inside them. */
  lines: number;
  /** Longest run without white space. */
  longestWord: number;
}

const formatter = new Intl.NumberFormat("pt-BR");
const n = (value: number) => formatter.format(value);

function longestRun(text: string): number {
  let longest = 0;
  let run = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    // White space as String.prototype.trim sees it (ASCII fast path first).
    const space = code === 32 || (code >= 9 && code <= 13) || (code > 127 && /\s/.test(text[i]!));
    if (space) run = 0;
    else if (++run > longest) longest = run;
  }
  return longest;
}

function countBreaks(text: string): number {
  let count = 0;
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) count++;
  return count;
}

function add(size: TextSize, text: string): void {
  size.chars += text.length;
  size.lines += countBreaks(text);
  size.longestWord = Math.max(size.longestWord, longestRun(text));
}

/** Size of a template structure (input shape: any object with these text fields). */
export function templateTextSize(structure: {
  title: string;
  introduction: string;
  sections: ReadonlyArray<{ title: string; content: string }>;
  optional_consents?: ReadonlyArray<{ title: string; text: string }> | undefined;
}): TextSize {
  const size: TextSize = { chars: 0, lines: 0, longestWord: 0 };
  add(size, structure.title);
  add(size, structure.introduction);
  for (const section of structure.sections) {
    add(size, section.title);
    add(size, section.content);
  }
  for (const item of structure.optional_consents ?? []) {
    add(size, item.title);
    add(size, item.text);
  }
  return size;
}

function addInlines(size: TextSize, inlines: readonly Inline[]): void {
  // A missing placeholder prints as "[name]".
  add(size, inlines.map((i) => (i.kind === "text" ? i.text : `[${i.name}]`)).join(""));
}

/** Size of a filled document model (what the renderer draws, before signatures and registry). */
export function documentModelSize(model: DocumentModel): TextSize {
  const size: TextSize = { chars: 0, lines: 0, longestWord: 0 };
  add(size, model.title);
  addInlines(size, model.introduction);
  for (const section of model.sections) {
    add(size, section.title);
    const lists = (section.blocks ?? []).flatMap((block) => (block.kind === "list" ? block.items : [block.inlines]));
    for (const block of [...(section.paragraphs ?? []), ...(section.items ?? []), ...lists]) {
      size.lines += 1;
      addInlines(size, block);
    }
  }
  for (const item of model.optional_consents ?? []) {
    add(size, item.title);
    for (const paragraph of item.paragraphs) {
      size.lines += 1;
      addInlines(size, paragraph);
    }
  }
  return size;
}

export const SIZE_MESSAGES = {
  templateChars: (chars: number) =>
    `O template tem ${n(chars)} caracteres; use no máximo ${n(MAX_TEMPLATE_TEXT_CHARS)} somando introdução e seções`,
  templateLines: (lines: number) =>
    `O template tem ${n(lines)} quebras de linha; use no máximo ${n(MAX_TEMPLATE_LINE_BREAKS)}`,
  word: (chars: number) =>
    `Há um trecho de ${n(chars)} caracteres sem espaço; use no máximo ${n(MAX_WORD_CHARS)} caracteres seguidos sem espaço`,
  documentChars: (chars: number) =>
    `O documento ficou com ${n(chars)} caracteres; o máximo é ${n(MAX_DOCUMENT_TEXT_CHARS)}. Escolha menos conteúdos ou encurte os textos personalizados.`,
  documentLines: (lines: number) =>
    `O documento ficou com ${n(lines)} parágrafos, itens e linhas; o máximo é ${n(MAX_DOCUMENT_LINES)}. Escolha menos conteúdos ou encurte os textos personalizados.`,
  documentWord: (chars: number) =>
    `O documento tem um trecho de ${n(chars)} caracteres sem espaço; o máximo é ${n(MAX_WORD_CHARS)}. Corrija os textos personalizados ou o template.`,
} as const;

/** The first template limit the structure breaks, as a pt-BR message, or null. */
export function templateSizeProblem(size: TextSize): string | null {
  if (size.chars > MAX_TEMPLATE_TEXT_CHARS) return SIZE_MESSAGES.templateChars(size.chars);
  if (size.lines > MAX_TEMPLATE_LINE_BREAKS) return SIZE_MESSAGES.templateLines(size.lines);
  if (size.longestWord > MAX_WORD_CHARS) return SIZE_MESSAGES.word(size.longestWord);
  return null;
}

/** The first document limit a model of this size breaks, as a pt-BR message, or null. */
export function documentSizeProblem(size: TextSize): string | null {
  if (size.chars > MAX_DOCUMENT_TEXT_CHARS) return SIZE_MESSAGES.documentChars(size.chars);
  if (size.lines > MAX_DOCUMENT_LINES) return SIZE_MESSAGES.documentLines(size.lines);
  if (size.longestWord > MAX_WORD_CHARS) return SIZE_MESSAGES.documentWord(size.longestWord);
  return null;
}
