import { describe, expect, it } from "vitest";
import { formatInlines } from "@shared/document-model/formatting";
import { toggleList, toggleWrap } from "./formatting-edits";

describe("toggleWrap", () => {
  it("wraps the selection in ** and keeps it selected", () => {
    expect(toggleWrap("Use protetor solar", 4, 12, "**")).toEqual({
      text: "Use **protetor** solar",
      selectionStart: 6,
      selectionEnd: 14,
    });
  });

  it("keeps the spaces at the selection's edges outside the markers, so the parser reads them", () => {
    const edit = toggleWrap("Use protetor solar", 3, 13, "*");
    expect(edit.text).toBe("Use *protetor* solar");
    expect(formatInlines([{ kind: "text", text: edit.text }])).toContainEqual({
      kind: "text",
      text: "protetor",
      italic: true,
    });
  });

  it("unwraps a selection already wrapped in the same marker", () => {
    expect(toggleWrap("Use **protetor** solar", 6, 14, "**")).toEqual({
      text: "Use protetor solar",
      selectionStart: 4,
      selectionEnd: 12,
    });
    expect(toggleWrap("a *b* c", 3, 4, "*").text).toBe("a b c");
  });

  it("adds italic inside bold (***x***) and removes it again", () => {
    const italic = toggleWrap("**x**", 2, 3, "*");
    expect(italic.text).toBe("***x***");
    expect(toggleWrap(italic.text, italic.selectionStart, italic.selectionEnd, "*").text).toBe("**x**");
  });

  it("puts an empty pair at the caret", () => {
    expect(toggleWrap("ab", 1, 1, "**")).toEqual({ text: "a****b", selectionStart: 3, selectionEnd: 3 });
  });
});

describe("toggleList", () => {
  it("prefixes every line the selection touches, numbering in order and skipping blank lines", () => {
    const text = "Antes\nJejum\n\nRepouso\nDepois";
    const edit = toggleList(text, 8, 16, true);
    expect(edit.text).toBe("Antes\n1. Jejum\n\n2. Repouso\nDepois");
    expect(edit.text.slice(edit.selectionStart, edit.selectionEnd)).toBe("1. Jejum\n\n2. Repouso");
  });

  it("turns a caret's line into a bullet and back", () => {
    const on = toggleList("a\nb", 2, 2, false);
    expect(on.text).toBe("a\n- b");
    expect(toggleList(on.text, 3, 3, false).text).toBe("a\nb");
  });

  it("switches a numbered list to bullets", () => {
    expect(toggleList("1. a\n2. b", 0, 9, false).text).toBe("- a\n- b");
  });
});
