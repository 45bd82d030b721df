/**
 * Compares two versions of a template structure (Histórico de Versões): the document's title and
 * introduction, then each section — matched by id, which the editor keeps across saves — as
 * added, removed, changed (type, title or content, with a word diff) or unchanged.
 */
import type { SectionType, TemplateSection, TemplateStructure } from "./structure.js";
import { type DiffPart, diffWords } from "./word-diff.js";

export type ChangeStatus = "added" | "removed" | "changed" | "unchanged";

export interface FieldDiff {
  status: ChangeStatus;
  parts: DiffPart[];
}

export interface SectionDiff {
  id: string;
  status: ChangeStatus;
  /** Position (1-based) in the older and the newer version, when the section is there. */
  before?: { index: number; type: SectionType; title: string };
  after?: { index: number; type: SectionType; title: string };
  typeChanged: boolean;
  title: FieldDiff;
  content: FieldDiff;
}

export interface StructureDiff {
  title: FieldDiff;
  introduction: FieldDiff;
  sections: SectionDiff[];
  /** Sections added, removed and changed. */
  counts: Record<Exclude<ChangeStatus, "unchanged">, number>;
}

function field(before: string | undefined, after: string | undefined): FieldDiff {
  if (before === undefined) return { status: "added", parts: after ? [{ kind: "added", text: after }] : [] };
  if (after === undefined) return { status: "removed", parts: before ? [{ kind: "removed", text: before }] : [] };
  if (before === after) return { status: "unchanged", parts: before ? [{ kind: "same", text: before }] : [] };
  return { status: "changed", parts: diffWords(before, after) };
}

function sectionDiff(
  before: TemplateSection | undefined,
  after: TemplateSection | undefined,
  beforeIndex: number,
  afterIndex: number,
): SectionDiff {
  const title = field(before?.title, after?.title);
  const content = field(before?.content, after?.content);
  const typeChanged = before !== undefined && after !== undefined && before.type !== after.type;
  const status: ChangeStatus =
    before === undefined
      ? "added"
      : after === undefined
        ? "removed"
        : typeChanged || title.status === "changed" || content.status === "changed"
          ? "changed"
          : "unchanged";
  return {
    id: (after ?? before)!.id,
    status,
    ...(before ? { before: { index: beforeIndex + 1, type: before.type, title: before.title } } : {}),
    ...(after ? { after: { index: afterIndex + 1, type: after.type, title: after.title } } : {}),
    typeChanged,
    title,
    content,
  };
}

/**
 * `before` → `after`. Sections come in the newer version's order; a removed section is listed
 * where it stood in the older one (after the sections that preceded it there).
 */
export function diffStructures(before: TemplateStructure, after: TemplateStructure): StructureDiff {
  const oldById = new Map(before.sections.map((section, index) => [section.id, { section, index }]));
  const newIds = new Set(after.sections.map((section) => section.id));
  const sections: SectionDiff[] = [];
  const removedAfter = new Map<number, SectionDiff[]>();
  // A removed section goes after the newer position of the nearest older section kept before it.
  let lastKeptNewIndex = -1;
  const newIndexOf = new Map(after.sections.map((section, index) => [section.id, index]));
  before.sections.forEach((section, index) => {
    if (newIds.has(section.id)) {
      lastKeptNewIndex = newIndexOf.get(section.id)!;
      return;
    }
    const list = removedAfter.get(lastKeptNewIndex) ?? [];
    list.push(sectionDiff(section, undefined, index, -1));
    removedAfter.set(lastKeptNewIndex, list);
  });
  sections.push(...(removedAfter.get(-1) ?? []));
  after.sections.forEach((section, index) => {
    const old = oldById.get(section.id);
    sections.push(sectionDiff(old?.section, section, old?.index ?? -1, index));
    sections.push(...(removedAfter.get(index) ?? []));
  });
  const counts = { added: 0, removed: 0, changed: 0 };
  for (const section of sections) if (section.status !== "unchanged") counts[section.status] += 1;
  return {
    title: field(before.title, after.title),
    introduction: field(before.introduction, after.introduction),
    sections,
    counts,
  };
}
