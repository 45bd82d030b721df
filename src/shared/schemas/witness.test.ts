import { describe, expect, it } from "vitest";
import { WITNESS_MESSAGES, witnessInputSchema } from "./witness.js";

describe("witnessInputSchema", () => {
  it("takes a name, a valid CPF (digits kept) and an e-mail or a mobile", () => {
    expect(
      witnessInputSchema.parse({ nome: " Carla Dias ", cpf: "529.982.247-25", email: "Carla@Exemplo.com" }),
    ).toEqual({
      nome: "Carla Dias",
      cpf: "52998224725",
      email: "carla@exemplo.com",
      telefone: undefined,
    });
    expect(
      witnessInputSchema.parse({ nome: "Carla Dias", cpf: "52998224725", telefone: "(11) 98888-7777" }).telefone,
    ).toBe("11988887777");
  });

  it("refuses a bad CPF, a blank name and a witness nobody can reach, in pt-BR", () => {
    const issues = (input: unknown) =>
      witnessInputSchema.safeParse(input).error?.issues.map((issue) => issue.message) ?? [];
    expect(issues({ nome: "Carla Dias", cpf: "111.111.111-11", email: "c@exemplo.com" })).toEqual(["CPF inválido"]);
    expect(issues({ nome: " ", cpf: "52998224725", email: "c@exemplo.com" })).toEqual([WITNESS_MESSAGES.nameRequired]);
    expect(issues({ nome: "Carla Dias", cpf: "52998224725" })).toEqual([WITNESS_MESSAGES.contactRequired]);
    expect(issues({ nome: "Carla Dias", cpf: "52998224725", email: "não-é-email" })).toContain("E-mail inválido");
    expect(issues({ nome: "Carla Dias", cpf: "52998224725", telefone: "123" })).toContain("Telefone inválido");
  });
});
