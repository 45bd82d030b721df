import { describe, expect, it } from "vitest";
import { clinicSettingsInputSchema, documentValidityDays } from "./clinic-settings.js";

const establishment = {
  tipo_perfil: "estabelecimento",
  tipo_estabelecimento: "clinica",
  razao_social: "Clínica Vida Plena Ltda",
  nome_fantasia: "",
  cnpj: "11.222.333/0001-81",
  cnes: "",
  cep: "01310-100",
  estado: "SP",
  cidade: "São Paulo",
  bairro: "Bela Vista",
  logradouro: "Avenida Paulista",
  numero: "1000",
  complemento: "",
  telefone: "",
  validade_documento_dias: 7,
};
const messages = (value: unknown) =>
  (clinicSettingsInputSchema.safeParse(value).error?.issues ?? []).map((i) => `${i.path.join(".")}: ${i.message}`);

describe("clinicSettingsInputSchema", () => {
  it("takes an establishment's data with sign-up's rules", () => {
    expect(clinicSettingsInputSchema.parse(establishment)).toMatchObject({
      cnpj: "11222333000181",
      cep: "01310100",
      nome_fantasia: undefined,
      telefone: undefined,
    });
    expect(
      messages({ ...establishment, razao_social: "", cnpj: "11.222.333/0001-82", cnes: "12", cep: "123", numero: "" }),
    ).toEqual(
      expect.arrayContaining([
        "razao_social: Informe a razão social",
        "cnpj: CNPJ inválido",
        "cnes: O CNES tem 7 dígitos",
        "cep: CEP inválido",
        "numero: Informe o número",
      ]),
    );
  });

  it("takes an independent professional's phone and optional office address only", () => {
    expect(
      clinicSettingsInputSchema.parse({
        tipo_perfil: "profissional_independente",
        telefone: "(11) 3333-4444",
        validade_documento_dias: 15,
      }),
    ).toEqual({
      tipo_perfil: "profissional_independente",
      telefone: "1133334444",
      validade_documento_dias: 15,
    });
    expect(messages({ tipo_perfil: "profissional_independente", cep: "1", validade_documento_dias: 7 })).toEqual([
      "cep: CEP inválido",
    ]);
  });

  it("keeps the validity between 1 and 90 whole days", () => {
    for (const bad of [0, 91, 2.5, "7", null]) {
      expect(messages({ ...establishment, validade_documento_dias: bad }), String(bad)).toEqual([
        "validade_documento_dias: Informe um prazo entre 1 e 90 dias",
      ]);
    }
  });
});

describe("documentValidityDays", () => {
  it("reads the clinic's setting and falls back to the spec's 7 days", () => {
    expect(documentValidityDays({ documentos: { validade_dias: 15 } })).toBe(15);
    expect(documentValidityDays({})).toBe(7);
    expect(documentValidityDays(null)).toBe(7);
    expect(documentValidityDays({ documentos: { validade_dias: 0 } })).toBe(7);
    expect(documentValidityDays({ documentos: { validade_dias: "30" } })).toBe(7);
  });
});
