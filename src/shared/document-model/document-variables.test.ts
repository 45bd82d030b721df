import { describe, expect, it } from "vitest";
import { buildDocumentModel, inlinesToText } from "./build-document-model.js";
import {
  contentLines,
  councilRegistration,
  type DocumentVariableSources,
  fillDocumentVariables,
  formatAddress,
  formatIsoDate,
  storedDocumentVariables,
} from "./document-variables.js";
import { VARIABLE_ALIASES } from "./variables.js";

const sources = (overrides: Partial<DocumentVariableSources> = {}): DocumentVariableSources => ({
  titulo: " TCLE - Blefaroplastia ",
  procedimento: "Blefaroplastia superior",
  data_procedimento: "2026-12-03",
  patient: {
    nome: "Ana Luíza Conceição",
    cpf: "52998224725",
    data_nascimento: "1990-11-22",
    email: "ana@exemplo.com.br",
    telefone: "11987654321",
    responsavel_nome: null,
    responsavel_cpf: null,
  },
  physician: {
    nome: "Dr. João Carvalho",
    cpf: "11144477735",
    conselho_tipo: "CRM",
    conselho_numero: "123456",
    conselho_uf: "SP",
    rqe: "7890",
    especialidade: "Cirurgia Plástica",
  },
  clinic: {
    nome: "Clínica Bem Viver",
    logradouro: "Av. Paulista",
    numero: "1000",
    complemento: "sala 501",
    bairro: "Bela Vista",
    cidade: "São Paulo",
    estado: "SP",
    cep: "01310100",
    telefone: "1134567890",
  },
  selected: [
    { tipo: "riscos", titulo: "Hematoma", descricao: "Acúmulo de sangue\nna pálpebra" },
    { tipo: "beneficios", titulo: "Campo visual", descricao: "Melhora do campo visual" },
    { tipo: "cuidados_pos", titulo: "Compressas frias", descricao: "Compressas frias" },
    { tipo: "riscos", titulo: "Infecção", descricao: "" },
  ],
  custom: { valor_procedimento: "R$ 4.500,00", riscos_personalizados: "  Cicatriz aparente \n\n" },
  // 2026-11-22 13:05 in São Paulo (UTC-3).
  createdAt: new Date("2026-11-22T16:05:00Z"),
  expiresAt: new Date("2026-11-29T16:05:00Z"),
  ...overrides,
});

describe("fillDocumentVariables", () => {
  const values = fillDocumentVariables(sources());

  it("formats the patient, the professional with council data, the clinic and the dates in pt-BR", () => {
    expect(values).toMatchObject({
      titulo: "TCLE - Blefaroplastia",
      procedimento: "Blefaroplastia superior",
      data_procedimento: "03/12/2026",
      valor_procedimento: "R$ 4.500,00",
      paciente_nome: "Ana Luíza Conceição",
      paciente_cpf: "529.982.247-25",
      paciente_idade: "36 anos",
      paciente_data_nascimento: "22/11/1990",
      paciente_email: "ana@exemplo.com.br",
      paciente_telefone: "(11) 98765-4321",
      profissional_nome: "Dr. João Carvalho",
      profissional_cpf: "111.444.777-35",
      profissional_crm: "CRM-SP 123456",
      profissional_especialidade: "Cirurgia Plástica",
      profissional_rqe: "7890",
      profissional_conselho_tipo: "CRM",
      profissional_conselho_numero: "123456",
      profissional_conselho_uf: "SP",
      unidade_nome: "Clínica Bem Viver",
      unidade_endereco: "Av. Paulista, 1000, sala 501 - Bela Vista, São Paulo - SP, 01310-100",
      unidade_telefone: "(11) 3456-7890",
      data_atual: "22/11/2026",
      data_criacao: "22/11/2026",
      hora_atual: "13:05",
      data_vencimento: "29/11/2026",
    });
  });

  it("lists the chosen items of each kind, then the custom lines, blank lines dropped", () => {
    expect(values.riscos_personalizados).toBe("Hematoma: Acúmulo de sangue na pálpebra\nInfecção\nCicatriz aparente");
    expect(values.beneficios_personalizados).toBe("Campo visual: Melhora do campo visual");
    expect(values.cuidados_personalizados).toBe("Compressas frias");
  });

  it("leaves unknown data empty so the model reports it, and counts the age on the São Paulo date", () => {
    const partial = fillDocumentVariables(
      sources({ physician: null, patient: { ...sources().patient, cpf: null, data_nascimento: "1990-11-23" } }),
    );
    expect(partial.profissional_nome).toBe("");
    expect(partial.profissional_crm).toBe("");
    expect(partial.paciente_cpf).toBe("");
    expect(partial.paciente_idade).toBe("35 anos");
    const model = buildDocumentModel(
      { title: "T", introduction: "{{medico_nome}} e {{paciente_cpf}}", sections: [] },
      partial,
    );
    expect(model.unresolved).toEqual(["medico_nome", "paciente_cpf"]);
  });

  it("resolves every alias of the table to the same value as its canonical variable", () => {
    const stored = storedDocumentVariables(values);
    for (const [alias, canonical] of Object.entries(VARIABLE_ALIASES)) {
      const model = buildDocumentModel(
        { title: "T", introduction: `{{${alias}}}|{{${canonical}}}`, sections: [] },
        stored,
      );
      const [left, right] = inlinesToText(model.introduction).split("|");
      expect(model.unresolved, alias).toEqual([]);
      expect(left, alias).toBe(right);
      expect(left, alias).not.toBe("");
    }
  });

  it("keeps the spec's medico_* names in the stored variables", () => {
    const stored = storedDocumentVariables(values);
    expect(stored.medico_nome).toBe("Dr. João Carvalho");
    expect(stored.medico_crm).toBe("CRM-SP 123456");
    expect(stored.medico_conselho_uf).toBe("SP");
    expect(stored.paciente_nome).toBe("Ana Luíza Conceição");
  });
});

describe("small formatters", () => {
  it("formats ISO dates without shifting the day", () => {
    expect(formatIsoDate("2026-01-01")).toBe("01/01/2026");
    expect(formatIsoDate(null)).toBe("");
    expect(formatIsoDate("01/01/2026")).toBe("");
  });

  it("builds the council registration from the parts that exist", () => {
    expect(councilRegistration("CRO", "RJ", "54321")).toBe("CRO-RJ 54321");
    expect(councilRegistration("CRM", null, "1")).toBe("CRM 1");
    expect(councilRegistration(null, null, null)).toBe("");
  });

  it("skips missing address parts", () => {
    const empty = {
      logradouro: null,
      numero: null,
      complemento: null,
      bairro: null,
      cidade: null,
      estado: null,
      cep: null,
      telefone: null,
      nome: "X",
    };
    expect(formatAddress(empty)).toBe("");
    expect(formatAddress({ ...empty, cidade: "Recife", estado: "PE" })).toBe("Recife - PE");
  });

  it("writes only the title when the description repeats it or is empty", () => {
    expect(contentLines([{ tipo: "riscos", titulo: "Dor", descricao: "Dor" }], "riscos", null)).toBe("Dor");
    expect(contentLines([], "riscos", "a\r\nb")).toBe("a\nb");
  });
});
