import type { SectionType, TemplateSection, TemplateStructure } from "@shared/document-model/structure";

/**
 * Pure edits of a structured template (spec part 2 §2 Template editor): each returns a new
 * structure and leaves the given one untouched.
 */

let lastId = 0;

/** A section id built from the current time, unique even when two are made in the same millisecond. */
export function newSectionId(now: number = Date.now()): string {
  lastId = now > lastId ? now : lastId + 1;
  return `secao-${lastId}`;
}

export function addSection(
  structure: TemplateStructure,
  type: SectionType = "paragraph",
  id: string = newSectionId(),
): TemplateStructure {
  return { ...structure, sections: [...structure.sections, { id, type, title: "", content: "" }] };
}

export function updateSection(
  structure: TemplateStructure,
  id: string,
  patch: Partial<Omit<TemplateSection, "id">>,
): TemplateStructure {
  return { ...structure, sections: structure.sections.map((s) => (s.id === id ? { ...s, ...patch } : s)) };
}

export function removeSection(structure: TemplateStructure, id: string): TemplateStructure {
  return { ...structure, sections: structure.sections.filter((s) => s.id !== id) };
}

/** Moves a section one place up (-1) or down (+1); the first cannot go up nor the last down. */
export function moveSection(structure: TemplateStructure, id: string, direction: -1 | 1): TemplateStructure {
  const index = structure.sections.findIndex((s) => s.id === id);
  const target = index + direction;
  if (index < 0 || target < 0 || target >= structure.sections.length) return structure;
  const sections = [...structure.sections];
  [sections[index], sections[target]] = [sections[target]!, sections[index]!];
  return { ...structure, sections };
}

/** Text with `{{name}}` put in place of the selection [start, end); answers the caret after it. */
export function insertPlaceholder(
  text: string,
  name: string,
  start: number,
  end: number = start,
): { text: string; caret: number } {
  const from = Math.max(0, Math.min(start, text.length));
  const to = Math.max(from, Math.min(end, text.length));
  const tag = `{{${name}}}`;
  return { text: text.slice(0, from) + tag + text.slice(to), caret: from + tag.length };
}

/** True when the editor holds something worth a confirmation before it is replaced. */
export function hasContent(structure: TemplateStructure): boolean {
  return (
    structure.introduction.trim() !== "" ||
    structure.sections.some((s) => s.title.trim() !== "" || s.content.trim() !== "")
  );
}

/** Variable names matching the search (case-insensitive substring on the name). */
export function matchesVariable(name: string, search: string): boolean {
  const term = search.trim().toLowerCase();
  return term === "" || name.toLowerCase().includes(term);
}
