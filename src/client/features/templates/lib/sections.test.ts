import { describe, expect, it } from "vitest";
import type { TemplateStructure } from "@shared/document-model/structure";
import {
  addSection,
  hasContent,
  insertPlaceholder,
  matchesVariable,
  moveSection,
  newSectionId,
  removeSection,
  updateSection,
} from "./sections";

const base: TemplateStructure = {
  title: "Termo",
  introduction: "",
  sections: [
    { id: "a", type: "paragraph", title: "A", content: "" },
    { id: "b", type: "bullet_list", title: "B", content: "" },
    { id: "c", type: "signature", title: "C", content: "" },
  ],
};
const ids = (s: TemplateStructure) => s.sections.map((x) => x.id);

describe("template editor sections", () => {
  it("adds a paragraph at the end with a time-based id", () => {
    const next = addSection(base);
    expect(ids(next).slice(0, 3)).toEqual(["a", "b", "c"]);
    expect(next.sections[3]).toMatchObject({ type: "paragraph", title: "", content: "" });
    expect(next.sections[3]!.id).toMatch(/^secao-\d{13,}$/);
    expect(base.sections).toHaveLength(3);
  });

  it("builds unique ids even within the same millisecond", () => {
    const first = newSectionId(1_700_000_000_000);
    const second = newSectionId(1_700_000_000_000);
    expect(first).not.toBe(second);
  });

  it("moves up and down by one and refuses to leave the ends", () => {
    expect(ids(moveSection(base, "b", -1))).toEqual(["b", "a", "c"]);
    expect(ids(moveSection(base, "b", 1))).toEqual(["a", "c", "b"]);
    expect(moveSection(base, "a", -1)).toBe(base);
    expect(moveSection(base, "c", 1)).toBe(base);
  });

  it("updates and removes one section", () => {
    expect(updateSection(base, "b", { content: "x" }).sections[1]!.content).toBe("x");
    expect(ids(removeSection(base, "b"))).toEqual(["a", "c"]);
  });

  it("inserts a placeholder at the caret or over the selection", () => {
    expect(insertPlaceholder("Olá, !", "paciente_nome", 5)).toEqual({ text: "Olá, {{paciente_nome}}!", caret: 22 });
    expect(insertPlaceholder("Olá XXX", "a", 4, 7)).toEqual({ text: "Olá {{a}}", caret: 9 });
    expect(insertPlaceholder("", "a", 10)).toEqual({ text: "{{a}}", caret: 5 });
  });

  it("knows when there is content to lose", () => {
    expect(hasContent({ title: "T", introduction: " ", sections: [] })).toBe(false);
    expect(
      hasContent({ title: "T", introduction: "", sections: [{ id: "1", type: "paragraph", title: "", content: "x" }] }),
    ).toBe(true);
  });

  it("matches variables case-insensitively by substring", () => {
    expect(matchesVariable("paciente_nome", "NOME")).toBe(true);
    expect(matchesVariable("paciente_nome", "crm")).toBe(false);
    expect(matchesVariable("paciente_nome", " ")).toBe(true);
  });
});
