import { describe, expect, it } from "vitest";
import {
  buildDocumentModel,
  inlinesToText,
  lookupVariable,
  resolveInlines,
  type Inline,
} from "./build-document-model.js";
import type { TemplateSection, TemplateStructure } from "./structure.js";
import { PREVIEW_SAMPLE_VALUES, VARIABLE_ALIASES, resolveVariableName } from "./variables.js";

const text = (t: string): Inline => ({ kind: "text", text: t });
const missing = (name: string): Inline => ({ kind: "missing", name });

function structure(sections: Omit<TemplateSection, "id">[], extra: Partial<TemplateStructure> = {}): TemplateStructure {
  return {
    title: "Termo",
    introduction: "",
    sections: sections.map((s, i) => ({ id: String(i + 1), ...s })),
    ...extra,
  };
}

function one(section: Omit<TemplateSection, "id">, values: Record<string, string | undefined> = {}) {
  const model = buildDocumentModel(structure([section]), values);
  const first = model.sections[0];
  if (!first) throw new Error("no section");
  return { model, section: first };
}

describe("buildDocumentModel: substitution", () => {
  it("substitutes canonical values and keeps text plain", () => {
    const model = buildDocumentModel(
      structure([], { introduction: "Eu, {{paciente_nome}}, CPF {{paciente_cpf}}, autorizo." }),
      { paciente_nome: "Maria", paciente_cpf: "123.456.789-09" },
    );
    expect(model.introduction).toEqual([text("Eu, Maria, CPF 123.456.789-09, autorizo.")]);
    expect(model.unresolved).toEqual([]);
  });

  it("tolerates spaces inside the braces", () => {
    const model = buildDocumentModel(structure([], { introduction: "Eu, {{ paciente_nome }}." }), {
      paciente_nome: "Maria",
    });
    expect(model.introduction).toEqual([text("Eu, Maria.")]);
  });

  it("finds a value given under the canonical name for an alias placeholder", () => {
    const model = buildDocumentModel(structure([], { introduction: "{{medico}} / {{crm}} / {{preco}}" }), {
      profissional_nome: "Dr. Ricardo",
      profissional_crm: "CRM-SP 1",
      valor_procedimento: "R$ 10,00",
    });
    expect(model.introduction).toEqual([text("Dr. Ricardo / CRM-SP 1 / R$ 10,00")]);
  });

  it("finds a value given under an alias for a canonical placeholder", () => {
    const model = buildDocumentModel(
      structure([], { introduction: "{{profissional_nome}} {{riscos_personalizados}}" }),
      {
        medico_nome: "Dra. Ana",
        riscos: "Dor",
      },
    );
    expect(model.introduction).toEqual([text("Dra. Ana Dor")]);
  });

  it("finds a value given under one alias for a placeholder written with another alias", () => {
    const model = buildDocumentModel(structure([], { introduction: "{{doutor}}" }), { medico_nome: "Dr. X" });
    expect(model.introduction).toEqual([text("Dr. X")]);
  });

  it.each(Object.keys(VARIABLE_ALIASES))("resolves alias {{%s}} from the preview sample set", (alias) => {
    const model = buildDocumentModel(structure([], { introduction: `{{${alias}}}` }), PREVIEW_SAMPLE_VALUES);
    expect(model.unresolved).toEqual([]);
    expect(inlinesToText(model.introduction)).toBe(PREVIEW_SAMPLE_VALUES[resolveVariableName(alias)]?.trim());
  });

  it("prefers the value under the exact name written", () => {
    expect(lookupVariable("medico", { medico: "A", profissional_nome: "B" })).toBe("A");
    expect(lookupVariable("profissional_nome", { medico: "A", profissional_nome: "B" })).toBe("B");
  });

  it("treats undefined and blank values as missing", () => {
    expect(lookupVariable("paciente_nome", { paciente_nome: undefined })).toBeUndefined();
    expect(lookupVariable("paciente_nome", { paciente_nome: "  " })).toBeUndefined();
    expect(lookupVariable("paciente_nome", { paciente_nome: "", paciente: "Maria" })).toBe("Maria");
  });

  it("does not look values up through the object prototype", () => {
    const model = buildDocumentModel(structure([], { introduction: "{{constructor}} {{toString}}" }), {});
    expect(model.unresolved).toEqual(["constructor", "toString"]);
  });

  it("keeps <script> and other HTML as literal text, in values and in the template", () => {
    const model = buildDocumentModel(
      structure([{ type: "paragraph", title: "<b>T</b>", content: "<script>alert(1)</script> {{paciente_nome}}" }], {
        introduction: "{{paciente_nome}}",
      }),
      { paciente_nome: '<script>alert("x")</script>&amp;' },
    );
    expect(model.introduction).toEqual([text('<script>alert("x")</script>&amp;')]);
    expect(model.sections[0]?.title).toBe("<b>T</b>");
    expect(model.sections[0]?.paragraphs).toEqual([
      [text('<script>alert(1)</script> <script>alert("x")</script>&amp;')],
    ]);
  });

  it("never re-scans a value for placeholders", () => {
    const model = buildDocumentModel(structure([], { introduction: "{{paciente_nome}}" }), {
      paciente_nome: "{{paciente_cpf}}",
      paciente_cpf: "123",
    });
    expect(model.introduction).toEqual([text("{{paciente_cpf}}")]);
    expect(model.unresolved).toEqual([]);
  });

  it("leaves text with unmatched braces alone", () => {
    const model = buildDocumentModel(structure([], { introduction: "a {{ b {c} }}" }), {});
    expect(model.introduction).toEqual([text("a {{ b {c} }}")]);
    expect(model.unresolved).toEqual([]);
  });
});

describe("buildDocumentModel: unresolved placeholders", () => {
  it("marks missing placeholders and reports distinct names in order of appearance", () => {
    const model = buildDocumentModel(
      structure(
        [
          { type: "paragraph", title: "Sobre {{procedimento}}", content: "{{campo_desconhecido}} e {{paciente_cpf}}" },
          { type: "bullet_list", title: "", content: "- {{ paciente_cpf }}\n- {{riscos}}" },
        ],
        { title: "Termo {{titulo}}", introduction: "Eu, {{paciente_nome}}, {{paciente_nome}}." },
      ),
      { titulo: "de Cirurgia" },
    );
    expect(model.title).toBe("Termo de Cirurgia");
    expect(model.introduction).toEqual([
      text("Eu, "),
      missing("paciente_nome"),
      text(", "),
      missing("paciente_nome"),
      text("."),
    ]);
    expect(model.sections[0]?.title).toBe("Sobre {{procedimento}}");
    expect(model.sections[0]?.paragraphs).toEqual([
      [missing("campo_desconhecido"), text(" e "), missing("paciente_cpf")],
    ]);
    expect(model.sections[1]?.items).toEqual([[missing("paciente_cpf")], [missing("riscos")]]);
    expect(model.unresolved).toEqual(["paciente_nome", "procedimento", "campo_desconhecido", "paciente_cpf", "riscos"]);
  });

  it("reports an unknown placeholder even when other values are present", () => {
    const model = buildDocumentModel(structure([], { introduction: "{{ nao_existe }}" }), PREVIEW_SAMPLE_VALUES);
    expect(model.introduction).toEqual([missing("nao_existe")]);
    expect(model.unresolved).toEqual(["nao_existe"]);
  });

  it("resolveInlines appends to a given unresolved list without duplicates", () => {
    const unresolved = ["x"];
    expect(resolveInlines("{{x}}{{y}}{{y}}", {}, unresolved)).toEqual([missing("x"), missing("y"), missing("y")]);
    expect(unresolved).toEqual(["x", "y"]);
  });
});

describe("buildDocumentModel: list sections", () => {
  it("drops leading bullet markers and ignores blank lines", () => {
    const { section } = one({
      type: "bullet_list",
      title: "Riscos",
      content: "• Dor\n- Inchaço\n\n* Hematoma\n   \n– Infecção\nSem marcador",
    });
    expect(section.items).toEqual([
      [text("Dor")],
      [text("Inchaço")],
      [text("Hematoma")],
      [text("Infecção")],
      [text("Sem marcador")],
    ]);
    expect(section.paragraphs).toBeUndefined();
  });

  it("drops leading numbers (1. 1) 1-) in numbered lists", () => {
    const { section } = one({
      type: "numbered_list",
      title: "",
      content: "1. Jejum\n2) Exames\n10- Acompanhante\n  3 . Chegar cedo\n4.Sem espaço",
    });
    expect(section.items).toEqual([
      [text("Jejum")],
      [text("Exames")],
      [text("Acompanhante")],
      [text("Chegar cedo")],
      [text("Sem espaço")],
    ]);
  });

  it("drops only one marker and keeps decimals", () => {
    const { section } = one({ type: "bullet_list", title: "", content: "- - duplo\n1.5 mg de dipirona\n-5 graus" });
    expect(section.items).toEqual([[text("- duplo")], [text("1.5 mg de dipirona")], [text("5 graus")]]);
  });

  it("splits a multi-line value into items and drops its markers", () => {
    const { section, model } = one(
      { type: "bullet_list", title: "Riscos", content: "{{riscos}}\n- Outro: {{paciente_nome}}" },
      { riscos_personalizados: "- Dor\r\n\r\n• Sangramento\n" },
    );
    expect(section.items).toEqual([[text("Dor")], [text("Sangramento")], [text("Outro: "), missing("paciente_nome")]]);
    expect(model.unresolved).toEqual(["paciente_nome"]);
  });

  it("keeps an item that starts with a missing placeholder", () => {
    const { section } = one({ type: "numbered_list", title: "", content: "1. {{procedimento}} hoje" });
    expect(section.items).toEqual([[missing("procedimento"), text(" hoje")]]);
  });

  it("gives an empty list for empty content", () => {
    expect(one({ type: "bullet_list", title: "", content: " \n\n " }).section.items).toEqual([]);
  });
});

describe("buildDocumentModel: paragraph sections", () => {
  it("splits on blank lines and keeps single newlines inside a paragraph", () => {
    const { section } = one({
      type: "paragraph",
      title: "",
      content: "Primeira linha\nsegunda linha\n\n\n  Outro parágrafo  \n \nÚltimo",
    });
    expect(section.paragraphs).toEqual([
      [text("Primeira linha\nsegunda linha")],
      [text("Outro parágrafo")],
      [text("Último")],
    ]);
    expect(section.items).toBeUndefined();
  });

  it("keeps an escaped bullet marker in a paragraph as text (decision 034: '- ' lines are lists)", () => {
    expect(one({ type: "paragraph", title: "", content: "\\- não é lista" }).section.paragraphs).toEqual([
      [text("- não é lista")],
    ]);
    expect(one({ type: "paragraph", title: "", content: "-5 graus não é lista" }).section.paragraphs).toEqual([
      [text("-5 graus não é lista")],
    ]);
  });

  it("builds paragraphs for patient_data and signature sections and keeps ids, types and titles", () => {
    const model = buildDocumentModel(
      structure([
        { type: "patient_data", title: "Dados do Paciente", content: "Nome: {{paciente_nome}}\nCPF: {{paciente_cpf}}" },
        { type: "signature", title: "Assinatura", content: "" },
      ]),
      { paciente_nome: "Maria", paciente_cpf: "1" },
    );
    expect(model.sections).toEqual([
      { id: "1", type: "patient_data", title: "Dados do Paciente", paragraphs: [[text("Nome: Maria\nCPF: 1")]] },
      { id: "2", type: "signature", title: "Assinatura", paragraphs: [] },
    ]);
  });
});

describe("inlinesToText", () => {
  it("writes missing placeholders back in braces", () => {
    expect(inlinesToText([text("a "), missing("b")])).toBe("a {{b}}");
  });
});
