import { describe, expect, it } from "vitest";
import { TEMPLATE_CATEGORIES, templateInputSchema } from "../schemas/template.js";
import { buildDocumentModel } from "./build-document-model.js";
import { SAMPLE_TEMPLATE } from "./sample-template.js";
import { SECTION_TYPES, TemplateStructureSchema } from "./structure.js";
import { PREVIEW_SAMPLE_VALUES, findPlaceholders, isKnownVariable } from "./variables.js";

const { estrutura } = SAMPLE_TEMPLATE;

/** Every text of the structure that may hold placeholders. */
function allTexts(): string[] {
  return [estrutura.title, estrutura.introduction, ...estrutura.sections.flatMap((s) => [s.title, s.content])];
}

const placeholders = [...new Set(allTexts().flatMap(findPlaceholders))];

/** Variables a document fills at creation (spec part 2 §3), with the catalogue names that alias them. */
const FILLED_AT_CREATION: Record<string, string> = {
  valor_procedimento: "R$ 1.000,00",
  riscos_personalizados: "Dor",
  beneficios_personalizados: "Melhora",
  cuidados_personalizados: "Repouso",
  medico_nome: "Dra. Ana",
  medico_cpf: "111.444.777-35",
  medico_crm: "CRM-SP 1",
  medico_especialidade: "Dermatologia",
  medico_rqe: "1",
  medico_conselho_tipo: "CRM",
  medico_conselho_numero: "1",
  medico_conselho_uf: "SP",
  paciente_nome: "João",
  paciente_cpf: "529.982.247-25",
  paciente_data_nascimento: "01/01/1990",
  paciente_telefone: "(11) 91234-5678",
  paciente_email: "joao@exemplo.com.br",
  titulo: "Termo",
  procedimento: "Peeling",
  data_procedimento: "10/08/2025",
  data_criacao: "01/08/2025",
};

describe("SAMPLE_TEMPLATE", () => {
  it("is a Consentimento template with a title", () => {
    expect(SAMPLE_TEMPLATE.categoria).toBe("Consentimento");
    expect(TEMPLATE_CATEGORIES).toContain(SAMPLE_TEMPLATE.categoria);
    expect(SAMPLE_TEMPLATE.titulo.trim()).not.toBe("");
  });

  it("is a valid template structure, unchanged by parsing", () => {
    const parsed = TemplateStructureSchema.safeParse(estrutura);
    expect(parsed.success).toBe(true);
    expect(parsed.data).toEqual(estrutura);
  });

  it("passes the create-template input schema (sizes, unique section ids)", () => {
    const parsed = templateInputSchema.safeParse({ ...SAMPLE_TEMPLATE, especialidade: "Dermatologia" });
    expect(parsed.error?.issues ?? []).toEqual([]);
  });

  it("has stable, unique, readable section ids", () => {
    const ids = estrutura.sections.map((s) => s.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^sec-[a-z0-9-]+$/);
  });

  it("uses every one of the five section types", () => {
    const types = new Set(estrutura.sections.map((s) => s.type));
    for (const type of SECTION_TYPES) expect(types, type).toContain(type);
  });

  it("uses only known variables", () => {
    expect(placeholders.length).toBeGreaterThan(0);
    expect(placeholders.filter((name) => !isKnownVariable(name))).toEqual([]);
  });

  it("uses the six variables the spec names, and the four content tags", () => {
    for (const name of [
      "paciente_nome",
      "paciente_cpf",
      "procedimento",
      "profissional_nome",
      "profissional_crm",
      "data_procedimento",
      "riscos",
      "beneficios",
      "cuidados_pos",
      "valor_procedimento",
    ]) {
      expect(placeholders, name).toContain(name);
    }
  });

  it("resolves completely with the preview sample values", () => {
    const model = buildDocumentModel(estrutura, PREVIEW_SAMPLE_VALUES);
    expect(model.unresolved).toEqual([]);
    expect(model.title).toBe("Termo de Consentimento Livre e Esclarecido - Blefaroplastia superior");
    const riscos = model.sections.find((s) => s.id === "sec-riscos");
    expect(riscos?.items).toHaveLength(4);
    const declaracoes = model.sections.find((s) => s.id === "sec-declaracoes");
    expect(declaracoes?.items?.length).toBeGreaterThanOrEqual(5);
  });

  it("resolves completely with only the variables a document fills at creation", () => {
    expect(buildDocumentModel(estrutura, FILLED_AT_CREATION).unresolved).toEqual([]);
  });

  it("reports its placeholders when no value is given (nothing is hard-coded)", () => {
    const { unresolved } = buildDocumentModel(estrutura, {});
    expect(unresolved).toEqual(expect.arrayContaining(["paciente_nome", "riscos", "valor_procedimento"]));
  });

  it("covers the legal content of a TCLE", () => {
    const text = allTexts().join("\n");
    for (const fragment of [
      "Recomendação CFM nº 1/2016",
      "Código de Ética Médica",
      "Código de Defesa do Consumidor",
      "Lei nº 13.709/2018",
      "revogar este consentimento",
      "alternativas",
    ]) {
      expect(text, fragment).toContain(fragment);
    }
  });
});
