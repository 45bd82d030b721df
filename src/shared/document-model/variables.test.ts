import { describe, expect, it } from "vitest";
import {
  CANONICAL_VARIABLES,
  EXTRA_VARIABLES,
  PREVIEW_SAMPLE_VALUES,
  VARIABLE_ALIASES,
  VARIABLE_GROUPS,
  findPlaceholders,
  isKnownVariable,
  resolveVariableName,
  variableLabel,
  variableNamesFor,
} from "./variables.js";

const groupNames = (label: string): string[] =>
  VARIABLE_GROUPS.find((g) => g.label === label)?.variables.map((v) => v.name) ?? [];

describe("VARIABLE_GROUPS", () => {
  it("follows the spec's groups exactly", () => {
    expect(VARIABLE_GROUPS.map((g) => g.label)).toEqual([
      "Paciente",
      "Procedimento",
      "Profissional",
      "Unidade",
      "Data/Hora",
    ]);
    expect(groupNames("Paciente")).toEqual([
      "paciente_nome",
      "paciente_cpf",
      "paciente_idade",
      "paciente_email",
      "paciente_telefone",
      "responsavel_nome",
      "responsavel_cpf",
    ]);
    expect(groupNames("Procedimento")).toEqual([
      "procedimento",
      "data_procedimento",
      "valor_procedimento",
      "riscos",
      "beneficios",
      "cuidados_pos",
    ]);
    expect(groupNames("Profissional")).toEqual(["profissional_nome", "profissional_crm", "profissional_especialidade"]);
    expect(groupNames("Unidade")).toEqual(["unidade_nome", "unidade_endereco", "unidade_telefone"]);
    expect(groupNames("Data/Hora")).toEqual(["data_atual", "hora_atual", "data_procedimento", "data_vencimento"]);
  });

  it("gives every variable a non-empty label", () => {
    for (const def of [...VARIABLE_GROUPS.flatMap((g) => g.variables), ...EXTRA_VARIABLES]) {
      expect(def.label.trim()).not.toBe("");
    }
    expect(variableLabel("paciente_nome")).toBe("Nome do paciente");
    expect(variableLabel("medico")).toBe("Nome do profissional");
    expect(variableLabel("nao_existe")).toBeUndefined();
  });
});

describe("alias table", () => {
  const expected: Record<string, string> = {
    medico: "profissional_nome",
    doutor: "profissional_nome",
    doctor: "profissional_nome",
    profissional: "profissional_nome",
    crm: "profissional_crm",
    especialidade: "profissional_especialidade",
    riscos: "riscos_personalizados",
    beneficios: "beneficios_personalizados",
    cuidados: "cuidados_personalizados",
    cuidados_pos: "cuidados_personalizados",
    cuidados_pos_operatorio: "cuidados_personalizados",
    valor: "valor_procedimento",
    preco: "valor_procedimento",
    paciente: "paciente_nome",
    patient: "paciente_nome",
    nome_paciente: "paciente_nome",
    cpf_paciente: "paciente_cpf",
    telefone_paciente: "paciente_telefone",
    email_paciente: "paciente_email",
    data_nascimento_paciente: "paciente_data_nascimento",
    medico_nome: "profissional_nome",
    medico_cpf: "profissional_cpf",
    medico_crm: "profissional_crm",
    medico_especialidade: "profissional_especialidade",
    medico_rqe: "profissional_rqe",
    medico_conselho_tipo: "profissional_conselho_tipo",
    medico_conselho_numero: "profissional_conselho_numero",
    medico_conselho_uf: "profissional_conselho_uf",
  };

  it.each(Object.entries(expected))("resolves %s to %s", (alias, canonical) => {
    expect(resolveVariableName(alias)).toBe(canonical);
    expect(VARIABLE_ALIASES[alias]).toBe(canonical);
  });

  it("maps every alias to a canonical variable, never to another alias", () => {
    for (const [alias, target] of Object.entries(VARIABLE_ALIASES)) {
      expect(CANONICAL_VARIABLES, alias).toContain(target);
      expect(VARIABLE_ALIASES[target], alias).toBeUndefined();
      expect(CANONICAL_VARIABLES, alias).not.toContain(alias);
    }
  });

  it("leaves canonical and unknown names unchanged (normalised)", () => {
    expect(resolveVariableName("paciente_nome")).toBe("paciente_nome");
    expect(resolveVariableName("  Paciente_Nome ")).toBe("paciente_nome");
    expect(resolveVariableName(" MEDICO ")).toBe("profissional_nome");
    expect(resolveVariableName("campo_inexistente")).toBe("campo_inexistente");
  });

  it("knows every document variable filled at creation", () => {
    const documentVariables = [
      "valor_procedimento",
      "riscos_personalizados",
      "beneficios_personalizados",
      "cuidados_personalizados",
      "medico_nome",
      "medico_cpf",
      "medico_crm",
      "medico_especialidade",
      "medico_rqe",
      "medico_conselho_tipo",
      "medico_conselho_numero",
      "medico_conselho_uf",
      "paciente_nome",
      "paciente_cpf",
      "paciente_data_nascimento",
      "paciente_telefone",
      "paciente_email",
      "titulo",
      "procedimento",
      "data_procedimento",
      "data_criacao",
    ];
    for (const name of documentVariables) expect(isKnownVariable(name), name).toBe(true);
    expect(isKnownVariable("xyz")).toBe(false);
  });

  it("lists a canonical variable with all its aliases", () => {
    expect(variableNamesFor("crm").sort()).toEqual(
      ["crm", "medico_crm", "profissional_crm", "profissional_registro"].sort(),
    );
    expect(variableNamesFor("valor")[0]).toBe("valor_procedimento");
  });
});

describe("PREVIEW_SAMPLE_VALUES", () => {
  it("has a non-empty sample for every canonical variable and nothing else", () => {
    for (const name of CANONICAL_VARIABLES) {
      expect(PREVIEW_SAMPLE_VALUES[name]?.trim(), name).toBeTruthy();
    }
    expect(Object.keys(PREVIEW_SAMPLE_VALUES).sort()).toEqual([...CANONICAL_VARIABLES].sort());
  });

  it("covers every catalogue variable and alias through resolution", () => {
    const names = [...VARIABLE_GROUPS.flatMap((g) => g.variables.map((v) => v.name)), ...Object.keys(VARIABLE_ALIASES)];
    for (const name of names) expect(PREVIEW_SAMPLE_VALUES[resolveVariableName(name)], name).toBeDefined();
  });

  it("includes the personalised lists as several lines", () => {
    for (const name of ["riscos_personalizados", "beneficios_personalizados", "cuidados_personalizados"]) {
      expect(PREVIEW_SAMPLE_VALUES[name]?.split("\n").length, name).toBeGreaterThan(1);
    }
  });
});

describe("findPlaceholders", () => {
  it("returns the names inside double braces in order, without duplicates", () => {
    expect(findPlaceholders("Eu, {{paciente_nome}}, CPF {{paciente_cpf}}, {{paciente_nome}}")).toEqual([
      "paciente_nome",
      "paciente_cpf",
    ]);
  });

  it("tolerates spaces inside the braces", () => {
    expect(findPlaceholders("{{ paciente_nome }} e {{medico  }}")).toEqual(["paciente_nome", "medico"]);
  });

  it("ignores single braces, empty braces and names with spaces", () => {
    expect(findPlaceholders("{paciente_nome} {{}} {{ dois nomes }} texto")).toEqual([]);
  });

  it("returns nothing for plain text", () => {
    expect(findPlaceholders("Sem variáveis aqui.")).toEqual([]);
  });
});
