/**
 * Templates at the size limits (decision 012), for the limit, render-time and pool tests: every
 * limit used at once — 100 sections of every type, MAX_TEMPLATE_TEXT_CHARS characters,
 * MAX_TEMPLATE_LINE_BREAKS line breaks — with Portuguese prose and placeholders, the shape that
 * costs the renderer most per character (many short blocks, lists and data lines).
 */
import type { DocumentModel, Inline } from "../../src/shared/document-model/build-document-model.js";
import { templateTextSize } from "../../src/shared/document-model/size.js";
import {
  MAX_DOCUMENT_LINES,
  MAX_DOCUMENT_TEXT_CHARS,
  MAX_TEMPLATE_LINE_BREAKS,
  MAX_TEMPLATE_SECTIONS,
  MAX_TEMPLATE_TEXT_CHARS,
} from "../../src/shared/reference/limits.js";

const WORDS = (
  "o paciente declara que foi informado de forma clara e acessível sobre os riscos benefícios e " +
  "alternativas do procedimento incluindo complicações raras como hematoma edema infecção assimetria " +
  "nódulos e reação alérgica além dos cuidados necessários após a aplicação e do retorno agendado"
).split(" ");

/** Prose of exactly `chars` characters (no line break, words of at most 12 letters). */
export function prose(chars: number, seed = 0): string {
  let out = "";
  for (let i = seed; out.length < chars; i++) out += `${WORDS[i % WORDS.length]} `;
  return out.slice(0, chars).replace(/ $/, ".");
}

const TYPES = ["paragraph", "bullet_list", "numbered_list", "patient_data", "paragraph"] as const;

type Section = { id: string; type: (typeof TYPES)[number] | "signature"; title: string; content: string };

/** A template structure exactly at the limits (characters, line breaks and sections). */
export function templateAtLimit(): { title: string; introduction: string; sections: Section[] } {
  const title = "Termo de Consentimento Livre e Esclarecido — {{procedimento}}";
  const introduction = "Eu, {{paciente_nome}}, CPF {{cpf_paciente}}, autorizo {{medico}} a realizar {{procedimento}}.";
  const breaksPer = MAX_TEMPLATE_LINE_BREAKS / MAX_TEMPLATE_SECTIONS; // 8
  const sections: Section[] = [];
  for (let k = 0; k < MAX_TEMPLATE_SECTIONS; k++) {
    const type = k === MAX_TEMPLATE_SECTIONS - 1 ? "signature" : TYPES[k % TYPES.length]!;
    sections.push({ id: `s${k + 1}`, type, title: `${k + 1}. Seção ${type}`, content: "" });
  }
  // Spread what is left of the character budget over the sections' blocks.
  const fixed =
    title.length +
    introduction.length +
    sections.reduce((sum, s) => sum + s.title.length, 0) +
    MAX_TEMPLATE_LINE_BREAKS;
  let budget = MAX_TEMPLATE_TEXT_CHARS - fixed;
  sections.forEach((section, k) => {
    const share = Math.floor(budget / (MAX_TEMPLATE_SECTIONS - k));
    budget -= share;
    const paragraphs = section.type === "paragraph" || section.type === "signature";
    // Paragraphs: 5 blocks separated by blank lines (8 breaks); lists and data: 9 lines (8 breaks).
    const blocks = paragraphs ? breaksPer / 2 + 1 : breaksPer + 1;
    const separator = paragraphs ? "\n\n" : "\n";
    const textChars = share - (blocks - 1) * separator.length + breaksPer; // breaks were counted in `fixed`
    const parts = Array.from({ length: blocks }, (_, j) => {
      const size = Math.floor(textChars / blocks) + (j < textChars % blocks ? 1 : 0);
      const lead = section.type === "patient_data" ? "Campo: " : section.type.endsWith("_list") ? "- " : "";
      return lead + prose(size - lead.length, k + j);
    });
    section.content = parts.join(separator);
  });
  const size = templateTextSize({ title, introduction, sections });
  if (size.chars !== MAX_TEMPLATE_TEXT_CHARS || size.lines !== MAX_TEMPLATE_LINE_BREAKS) {
    throw new Error(`templateAtLimit: ${size.chars} caracteres, ${size.lines} quebras`);
  }
  return { title, introduction, sections };
}

/**
 * A filled document model exactly at the document limits (MAX_DOCUMENT_TEXT_CHARS characters in
 * MAX_DOCUMENT_LINES blocks over 100 sections of every type): what document creation still
 * accepts when chosen content and custom texts fill a template.
 */
export function documentModelAtLimit(): DocumentModel {
  const blocksPer = MAX_DOCUMENT_LINES / MAX_TEMPLATE_SECTIONS; // 10
  const sections: DocumentModel["sections"] = [];
  const titleOf = (k: number) => `${k + 1}. Seção`;
  const titleChars = Array.from({ length: MAX_TEMPLATE_SECTIONS }, (_, k) => titleOf(k).length).reduce(
    (a, b) => a + b,
    0,
  );
  const title = "Termo de Consentimento";
  let budget = MAX_DOCUMENT_TEXT_CHARS - title.length - titleChars;
  for (let k = 0; k < MAX_TEMPLATE_SECTIONS; k++) {
    const type = k === MAX_TEMPLATE_SECTIONS - 1 ? "signature" : TYPES[k % TYPES.length]!;
    const share = Math.floor(budget / (MAX_TEMPLATE_SECTIONS - k));
    budget -= share;
    const blocks: Inline[][] = Array.from({ length: blocksPer }, (_, j) => {
      const size = Math.floor(share / blocksPer) + (j < share % blocksPer ? 1 : 0);
      return [{ kind: "text", text: type === "patient_data" ? `Campo: ${prose(size - 7, j)}` : prose(size, k + j) }];
    });
    const list = type === "bullet_list" || type === "numbered_list";
    sections.push({ id: `s${k + 1}`, type, title: titleOf(k), ...(list ? { items: blocks } : { paragraphs: blocks }) });
  }
  return { title, introduction: [], sections, unresolved: [] };
}
