import { describe, expect, it } from "vitest";
import {
  LEGACY_SECTION_ID,
  SECTION_TYPES,
  SECTION_TYPE_LABEL,
  TemplateStructureSchema,
  emptyTemplate,
  parseTemplateContent,
} from "./structure.js";

const valid = {
  title: "Termo de Consentimento",
  introduction: "Eu, {{paciente_nome}}, declaro:",
  sections: [
    { id: "1719830000000", type: "paragraph", title: "Objetivo", content: "Texto", variables: [] },
    { id: "1719830000001", type: "bullet_list", title: "Riscos", content: "- a\n- b" },
    { id: "1719830000002", type: "numbered_list", title: "Passos", content: "1. a" },
    { id: "1719830000003", type: "patient_data", title: "Dados", content: "" },
    { id: "1719830000004", type: "signature", title: "Assinatura", content: "" },
  ],
};

describe("SECTION_TYPE_LABEL", () => {
  it("labels the five section types in pt-BR", () => {
    expect(SECTION_TYPES).toEqual(["paragraph", "bullet_list", "numbered_list", "patient_data", "signature"]);
    expect(SECTION_TYPE_LABEL).toEqual({
      paragraph: "Parágrafo",
      bullet_list: "Lista com Bullets",
      numbered_list: "Lista Numerada",
      patient_data: "Dados do Paciente",
      signature: "Seção de Assinatura",
    });
  });
});

describe("TemplateStructureSchema", () => {
  it("accepts a valid structure", () => {
    expect(TemplateStructureSchema.safeParse(valid).success).toBe(true);
  });

  it("rejects an unknown section type", () => {
    const bad = { ...valid, sections: [{ id: "1", type: "table", title: "", content: "" }] };
    expect(TemplateStructureSchema.safeParse(bad).success).toBe(false);
  });

  it("rejects a missing introduction", () => {
    const { introduction: _ignored, ...bad } = valid;
    expect(TemplateStructureSchema.safeParse(bad).success).toBe(false);
  });

  it("turns a numeric id into a string", () => {
    const parsed = TemplateStructureSchema.parse({
      ...valid,
      sections: [{ id: 1719830000000, type: "paragraph", title: "", content: "x" }],
    });
    expect(parsed.sections[0]?.id).toBe("1719830000000");
  });
});

describe("parseTemplateContent", () => {
  it("parses a valid JSON structure", () => {
    const result = parseTemplateContent(JSON.stringify(valid), "Fallback");
    expect(result.title).toBe("Termo de Consentimento");
    expect(result.introduction).toBe("Eu, {{paciente_nome}}, declaro:");
    expect(result.sections.map((s) => s.type)).toEqual(SECTION_TYPES);
    expect(result.sections[0]?.variables).toEqual([]);
    expect(result.sections[1]?.variables).toBeUndefined();
  });

  it("accepts an already-parsed object", () => {
    expect(parseTemplateContent(valid, "Fallback").title).toBe("Termo de Consentimento");
  });

  it("turns text that is not JSON into one paragraph section holding the text", () => {
    const raw = "Eu, {{paciente_nome}}, autorizo o procedimento.\n\nSegundo parágrafo.";
    expect(parseTemplateContent(raw, "Termo antigo")).toEqual({
      title: "Termo antigo",
      introduction: "",
      sections: [{ id: LEGACY_SECTION_ID, type: "paragraph", title: "", content: raw }],
    });
  });

  it("treats broken JSON as text", () => {
    const raw = '{"title": "x", "sections": [';
    const result = parseTemplateContent(raw, "T");
    expect(result.sections).toHaveLength(1);
    expect(result.sections[0]?.content).toBe(raw);
    expect(result.sections[0]?.type).toBe("paragraph");
  });

  it("replaces valid JSON with an old or invalid structure by an empty template using the title", () => {
    const cases: unknown[] = [
      JSON.stringify({ blocks: [] }),
      JSON.stringify({
        title: "x",
        introduction: "y",
        sections: [{ id: "1", type: "heading", title: "", content: "" }],
      }),
      JSON.stringify({ title: "x", sections: [] }),
      JSON.stringify([1, 2, 3]),
      '"apenas uma string"',
      "42",
      "null",
      { title: 1, introduction: "", sections: [] },
      null,
      undefined,
      123,
    ];
    for (const raw of cases) {
      expect(parseTemplateContent(raw, "Meu Termo")).toEqual(emptyTemplate("Meu Termo"));
    }
    expect(emptyTemplate("Meu Termo")).toEqual({ title: "Meu Termo", introduction: "", sections: [] });
  });

  it("gives an empty template for blank text", () => {
    expect(parseTemplateContent("   ", "T")).toEqual(emptyTemplate("T"));
  });
});
