import { describe, expect, it } from "vitest";
import { type Patient, patientInputSchema } from "@shared/schemas/patient";
import { EMPTY_PATIENT_FORM, hasGuardian, patientToFormValues } from "./form-values";

const patient: Patient = {
  id: "p1",
  nome: "Lucas Andrade",
  cpf: "52998224725",
  data_nascimento: "2012-04-03",
  sexo: "masculino",
  telefone: "11987654321",
  email: "lucas@example.com",
  cep: "01310100",
  logradouro: "Avenida Paulista",
  numero: "1578",
  complemento: null,
  bairro: "Bela Vista",
  cidade: "São Paulo",
  uf: "SP",
  endereco: "Avenida Paulista, 1578 - Bela Vista, São Paulo/SP",
  responsavel_nome: "Helena Andrade",
  responsavel_cpf: "11144477735",
  responsavel_email: "helena@example.com",
  responsavel_telefone: "11912341234",
  contratos_count: 0,
  created_at: "2025-01-10T12:00:00.000Z",
  updated_at: "2025-01-10T12:00:00.000Z",
};

describe("patientToFormValues", () => {
  it("masks what the inputs mask and turns nulls into blanks", () => {
    expect(patientToFormValues(patient)).toEqual({
      nome: "Lucas Andrade",
      cpf: "529.982.247-25",
      data_nascimento: "2012-04-03",
      sexo: "masculino",
      telefone: "(11) 98765-4321",
      email: "lucas@example.com",
      cep: "01310-100",
      logradouro: "Avenida Paulista",
      numero: "1578",
      complemento: "",
      bairro: "Bela Vista",
      cidade: "São Paulo",
      uf: "SP",
      responsavel_nome: "Helena Andrade",
      responsavel_cpf: "111.444.777-35",
      responsavel_email: "helena@example.com",
      responsavel_telefone: "(11) 91234-1234",
    });
  });

  it("gives values the shared schema accepts back unchanged", () => {
    const parsed = patientInputSchema.parse(patientToFormValues(patient));
    expect(parsed).toMatchObject({
      cpf: "52998224725",
      telefone: "11987654321",
      cep: "01310100",
      uf: "SP",
      responsavel_email: "helena@example.com",
      responsavel_telefone: "11912341234",
    });
    expect(parsed.complemento).toBeUndefined();
  });
});

describe("EMPTY_PATIENT_FORM", () => {
  it("only needs a name to pass the schema", () => {
    expect(patientInputSchema.safeParse(EMPTY_PATIENT_FORM).success).toBe(false);
    expect(patientInputSchema.safeParse({ ...EMPTY_PATIENT_FORM, nome: "Ana" }).success).toBe(true);
  });
});

describe("hasGuardian", () => {
  it("looks at both guardian fields", () => {
    expect(hasGuardian({ responsavel_nome: " ", responsavel_cpf: "" })).toBe(false);
    expect(hasGuardian({ responsavel_nome: "Helena", responsavel_cpf: "" })).toBe(true);
    expect(hasGuardian({ responsavel_nome: undefined, responsavel_cpf: "111" })).toBe(true);
    expect(hasGuardian({ responsavel_nome: "", responsavel_cpf: "", responsavel_email: "h@example.com" })).toBe(true);
  });
});

describe("guardian contacts in the schema", () => {
  it("refuses a malformed guardian e-mail or mobile with pt-BR messages", () => {
    const result = patientInputSchema.safeParse({
      ...EMPTY_PATIENT_FORM,
      nome: "Ana",
      responsavel_email: "helena@",
      responsavel_telefone: "(11) 3456-7890",
    });
    expect(result.error?.issues.map((i) => [i.path.join("."), i.message])).toEqual([
      ["responsavel_email", "E-mail do responsável inválido"],
      ["responsavel_telefone", "Celular do responsável inválido"],
    ]);
  });
});
