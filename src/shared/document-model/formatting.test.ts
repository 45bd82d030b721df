import { describe, expect, it } from "vitest";
import { buildDocumentModel, sectionBlocks } from "./build-document-model.js";
import { formatInlines, listMarkerOf } from "./formatting.js";
import { documentModelSize } from "./size.js";
import { SAMPLE_TEMPLATE } from "./sample-template.js";
import { PREVIEW_SAMPLE_VALUES } from "./variables.js";

const src = (text: string) => formatInlines([{ kind: "text", text }]);

describe("formatInlines (decision 034)", () => {
  it("reads bold, italic and both", () => {
    expect(src("a **b** c *d* e ***f***")).toEqual([
      { kind: "text", text: "a " },
      { kind: "text", text: "b", bold: true },
      { kind: "text", text: " c " },
      { kind: "text", text: "d", italic: true },
      { kind: "text", text: " e " },
      { kind: "text", text: "f", bold: true, italic: true },
    ]);
  });

  it("nests italic inside bold and bold inside italic", () => {
    expect(src("**a *b* c**")).toEqual([
      { kind: "text", text: "a ", bold: true },
      { kind: "text", text: "b", bold: true, italic: true },
      { kind: "text", text: " c", bold: true },
    ]);
    expect(src("*a **b** c*")).toEqual([
      { kind: "text", text: "a ", italic: true },
      { kind: "text", text: "b", bold: true, italic: true },
      { kind: "text", text: " c", italic: true },
    ]);
  });

  it("never nests a style in itself: the inner markers print as written", () => {
    expect(src("**a **b** c**")).toEqual([
      { kind: "text", text: "a **b", bold: true },
      { kind: "text", text: " c**" },
    ]);
  });

  it("prints unclosed and space-flanked markers literally", () => {
    expect(src("**sem fim")).toEqual([{ kind: "text", text: "**sem fim" }]);
    expect(src("*sem fim")).toEqual([{ kind: "text", text: "*sem fim" }]);
    expect(src("2 * 3 * 4")).toEqual([{ kind: "text", text: "2 * 3 * 4" }]);
    expect(src("* item")).toEqual([{ kind: "text", text: "* item" }]);
    expect(src("****")).toEqual([{ kind: "text", text: "****" }]);
    expect(src("a ** b")).toEqual([{ kind: "text", text: "a ** b" }]);
  });

  it("reads \\* as a literal asterisk", () => {
    expect(src("\\*não itálico\\*")).toEqual([{ kind: "text", text: "*não itálico*" }]);
    expect(src("**nota\\***")).toEqual([{ kind: "text", text: "nota*", bold: true }]);
  });

  it("leaves text without markers as one unstyled run (no style keys)", () => {
    const out = src("Texto comum, sem marcas: 10% <b>não é HTML</b>");
    expect(out).toEqual([{ kind: "text", text: "Texto comum, sem marcas: 10% <b>não é HTML</b>" }]);
    expect(Object.keys(out[0]!)).toEqual(["kind", "text"]);
  });

  it("never reads markers in a value and treats a placeholder as a word", () => {
    expect(
      formatInlines([
        { kind: "text", text: "**" },
        { kind: "text", text: "Ana *Maria*", literal: true },
        { kind: "text", text: "** e " },
        { kind: "missing", name: "x" },
      ]),
    ).toEqual([
      { kind: "text", text: "Ana *Maria*", bold: true },
      { kind: "text", text: " e " },
      { kind: "missing", name: "x" },
    ]);
  });
});

describe("listMarkerOf", () => {
  it("reads '- ', '• ', '1. ' and '2) ' and nothing else", () => {
    expect(listMarkerOf("- a")).toEqual({ ordered: false, length: 2 });
    expect(listMarkerOf("• a")).toEqual({ ordered: false, length: 2 });
    expect(listMarkerOf("12. a")).toEqual({ ordered: true, number: 12, length: 4 });
    expect(listMarkerOf("2) a")).toEqual({ ordered: true, number: 2, length: 3 });
    expect(listMarkerOf("-5 graus")).toBeNull();
    expect(listMarkerOf("1.5 mg")).toBeNull();
    expect(listMarkerOf("\\- a")).toBeNull();
  });
});

const section = (content: string, type: "paragraph" | "bullet_list" | "signature" = "paragraph") =>
  buildDocumentModel(
    { title: "T", introduction: "", sections: [{ id: "s", type, title: "", content }] },
    {
      paciente_nome: "Maria *da* Silva",
      riscos_personalizados: "Hematoma\nInfecção",
    },
  ).sections[0]!;

describe("buildDocumentModel with formatting", () => {
  it("substitutes {{variables}} inside bold, and keeps the value's asterisks literal", () => {
    expect(section("Paciente: **{{paciente_nome}}**").paragraphs).toEqual([
      [
        { kind: "text", text: "Paciente: " },
        { kind: "text", text: "Maria *da* Silva", bold: true },
      ],
    ]);
  });

  it("makes lists of '- ' and '1. ' lines in a paragraph section, in order with the paragraphs", () => {
    const s = section("Antes:\n- um\n- **dois**\n\nMeio\n3. três\n4. quatro\nFim");
    expect(s.paragraphs).toBeUndefined();
    expect(s.blocks).toEqual([
      { kind: "paragraph", inlines: [{ kind: "text", text: "Antes:" }] },
      {
        kind: "list",
        ordered: false,
        start: 1,
        items: [[{ kind: "text", text: "um" }], [{ kind: "text", text: "dois", bold: true }]],
      },
      { kind: "paragraph", inlines: [{ kind: "text", text: "Meio" }] },
      {
        kind: "list",
        ordered: true,
        start: 3,
        items: [[{ kind: "text", text: "três" }], [{ kind: "text", text: "quatro" }]],
      },
      { kind: "paragraph", inlines: [{ kind: "text", text: "Fim" }] },
    ]);
  });

  it("does not make a list of a value's lines, nor in signature sections", () => {
    expect(section("{{riscos}}").paragraphs).toEqual([[{ kind: "text", text: "Hematoma\nInfecção" }]]);
    expect(section("- a", "signature").paragraphs).toEqual([[{ kind: "text", text: "- a" }]]);
  });

  it("reads bold in list sections without taking '**' for a bullet", () => {
    expect(section("**Hematoma**: raro\n* Edema\n- *Dor*", "bullet_list").items).toEqual([
      [
        { kind: "text", text: "Hematoma", bold: true },
        { kind: "text", text: ": raro" },
      ],
      [{ kind: "text", text: "Edema" }],
      [{ kind: "text", text: "Dor", italic: true }],
    ]);
  });

  it("counts the lists of a paragraph section in the document's size (one line per item)", () => {
    const model = buildDocumentModel(
      {
        title: "",
        introduction: "",
        sections: [{ id: "s", type: "paragraph", title: "", content: "Antes\n- um\n- dois" }],
      },
      {},
    );
    expect(documentModelSize(model)).toMatchObject({ lines: 3, chars: "Antes".length + "um".length + "dois".length });
  });

  it("sectionBlocks reads paragraphs of a section without lists", () => {
    expect(sectionBlocks(section("a\n\nb"))).toEqual([
      { kind: "paragraph", inlines: [{ kind: "text", text: "a" }] },
      { kind: "paragraph", inlines: [{ kind: "text", text: "b" }] },
    ]);
  });

  it("builds the sample TCLE with no style flags and no blocks (content without markers is unchanged)", () => {
    const json = JSON.stringify(buildDocumentModel(SAMPLE_TEMPLATE.estrutura, PREVIEW_SAMPLE_VALUES));
    expect(json).not.toMatch(/"bold"|"italic"|"blocks"/);
  });
});
