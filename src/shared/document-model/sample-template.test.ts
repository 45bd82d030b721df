import { describe, expect, it } from "vitest";
import { TEMPLATE_CATEGORIES, templateInputSchema } from "../schemas/template.js";
import { buildDocumentModel } from "./build-document-model.js";
import { type DocumentVariableSources, fillDocumentVariables } from "./document-variables.js";
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
  // An adult without a guardian: filled as empty at creation (the line disappears).
  responsavel_linha: "",
};

/** Creation values from a patient record (the same function the server runs). */
const created = (patient: Partial<DocumentVariableSources["patient"]> = {}) =>
  fillDocumentVariables({
    titulo: "TCLE",
    procedimento: "Peeling",
    data_procedimento: "2026-12-10",
    patient: {
      nome: "Pedro Souza",
      cpf: "52998224725",
      data_nascimento: "1990-01-01",
      email: "pedro@exemplo.com.br",
      telefone: "11987654321",
      responsavel_nome: null,
      responsavel_cpf: null,
      ...patient,
    },
    physician: {
      nome: "Dra. Ana",
      cpf: "11144477735",
      conselho_tipo: "CRM",
      conselho_numero: "1",
      conselho_uf: "SP",
      rqe: null,
      especialidade: "Dermatologia",
    },
    clinic: {
      nome: "Clínica",
      logradouro: null,
      numero: null,
      complemento: null,
      bairro: null,
      cidade: null,
      estado: null,
      cep: null,
      telefone: null,
    },
    selected: [
      { tipo: "riscos", titulo: "Dor", descricao: "Dor" },
      { tipo: "beneficios", titulo: "Melhora", descricao: "Melhora" },
      { tipo: "cuidados_pos", titulo: "Repouso", descricao: "Repouso" },
    ],
    custom: { valor_procedimento: "R$ 1.000,00" },
    createdAt: new Date("2026-12-01T15:00:00Z"),
    expiresAt: new Date("2026-12-08T15:00:00Z"),
  });

const signatureText = (values: Record<string, string>) => {
  const section = buildDocumentModel(estrutura, values).sections.find((s) => s.id === "sec-assinaturas");
  return JSON.stringify(section);
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

  it("prints the guardian's name and CPF in the signatures when the record names a guardian", () => {
    const values = created({
      data_nascimento: "2015-05-05",
      responsavel_nome: "Maria Souza",
      responsavel_cpf: "11144477735",
    });
    expect(buildDocumentModel(estrutura, values).unresolved).toEqual([]);
    expect(signatureText(values)).toContain("Responsável legal: Maria Souza - CPF 111.444.777-35");
    expect(signatureText(values)).not.toContain("____");
  });

  it("has no guardian line and no unresolved placeholder for an adult signing alone", () => {
    const values = created();
    const model = buildDocumentModel(estrutura, values);
    expect(model.unresolved).toEqual([]);
    expect(signatureText(values)).not.toContain("Responsável legal");
    expect(signatureText(values)).not.toContain("____");
    expect(JSON.stringify(model)).not.toContain("{{");
    // No empty paragraph left where the line was.
    expect(signatureText(values)).not.toMatch(/"text":""/);
  });

  it("reports the guardian line as unresolved when nothing fills it (a template preview without values)", () => {
    expect(buildDocumentModel(estrutura, {}).unresolved).toContain("responsavel_linha");
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
