/**
 * Reading a section's blocks, for the renderers. Its own small module (types only imported), so the
 * public signing bundle, which draws frozen models, does not pull in the model builder.
 */
import type { DocumentSection, SectionBlock } from "./build-document-model.js";

/** The blocks of a paragraph-like section: `blocks` when it has lists, else its paragraphs. */
export function sectionBlocks(section: DocumentSection): SectionBlock[] {
  return section.blocks ?? (section.paragraphs ?? []).map((inlines) => ({ kind: "paragraph", inlines }));
}
