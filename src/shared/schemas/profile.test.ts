import { describe, expect, it } from "vitest";
import { councilRoleIssues } from "./council.js";
import { changesIdentity, passwordChangeSchema, profileUpdateSchema } from "./profile.js";
import { userUpdateSchema } from "./users.js";

const base = {
  nome: "Dra. Helena Prado",
  telefone: "(11) 98765-4321",
  email: "Helena@Exemplo.com.br",
  cpf: "529.982.247-25",
  conselho_tipo: "CRM",
  conselho_numero: "123456",
  conselho_uf: "SP",
  especialidades: [{ especialidade: "dermatologia", areas_atuacao: ["hansenologia"], rqe: "45678" }],
};
const messages = (result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) =>
  (result.error?.issues ?? []).map((i) => `${i.path.join(".")}: ${i.message}`);

describe("profileUpdateSchema", () => {
  it("normalizes what sign-up normalizes and drops council data without a council", () => {
    const parsed = profileUpdateSchema.parse({ ...base, senha_atual: "" });
    expect(parsed).toMatchObject({
      email: "helena@exemplo.com.br",
      cpf: "52998224725",
      telefone: "11987654321",
      senha_atual: undefined,
    });
    const none = profileUpdateSchema.parse({
      ...base,
      conselho_tipo: "",
      conselho_numero: "9",
      especialidades: [{ especialidade: "", areas_atuacao: [], rqe: "" }],
    });
    expect(none).toMatchObject({
      conselho_tipo: undefined,
      conselho_numero: undefined,
      conselho_uf: undefined,
      especialidades: [],
    });
  });

  it("applies sign-up's rules and messages", () => {
    expect(
      messages(profileUpdateSchema.safeParse({ ...base, nome: " ", cpf: "111.111.111-11", telefone: "123" })),
    ).toEqual(
      expect.arrayContaining(["nome: Informe o nome completo", "cpf: CPF inválido", "telefone: Telefone inválido"]),
    );
    expect(messages(profileUpdateSchema.safeParse({ ...base, conselho_numero: "", conselho_uf: "" }))).toEqual(
      expect.arrayContaining(["conselho_numero: Informe o número do conselho", "conselho_uf: Selecione a UF"]),
    );
    expect(messages(profileUpdateSchema.safeParse({ ...base, especialidades: [] }))).toEqual([
      "especialidades: Selecione pelo menos uma especialidade",
    ]);
    const three = [
      ...base.especialidades,
      { especialidade: "cirurgia_plastica", areas_atuacao: [], rqe: "1" },
      { especialidade: "pediatria", areas_atuacao: [], rqe: "2" },
    ];
    expect(messages(profileUpdateSchema.safeParse({ ...base, especialidades: three }))).toEqual([
      "especialidades: Máximo de 2 especialidades permitidas",
    ]);
    expect(
      messages(
        profileUpdateSchema.safeParse({
          ...base,
          especialidades: [{ especialidade: "dermatologia", areas_atuacao: ["neonatologia"], rqe: "1" }],
        }),
      ),
    ).toEqual(["especialidades.0.areas_atuacao: Área de atuação não pertence à especialidade"]);
  });
});

describe("councilRoleIssues", () => {
  const crmWithoutRqe = {
    conselho_tipo: "CRM" as const,
    especialidades: [{ especialidade: "dermatologia", areas_atuacao: [], rqe: null }],
  };
  it("asks care roles for a council and a CRM RQE of everyone but administrators", () => {
    expect(councilRoleIssues("profissional", { especialidades: [] })).toEqual([
      { path: "conselho_tipo", message: "Selecione o conselho" },
    ]);
    expect(councilRoleIssues("atendente", { especialidades: [] })).toEqual([]);
    expect(councilRoleIssues("profissional", crmWithoutRqe)).toEqual([
      { path: "especialidades.0.rqe", message: "RQE é obrigatório para cada especialidade do CRM" },
    ]);
    expect(councilRoleIssues("admin", crmWithoutRqe)).toEqual([]);
  });

  it("is part of the owner's edit-user schema", () => {
    const result = userUpdateSchema.safeParse({
      nome: "Ana",
      role: "profissional",
      ...crmWithoutRqe,
      conselho_numero: "1",
      conselho_uf: "SP",
    });
    expect(messages(result)).toEqual(["especialidades.0.rqe: RQE é obrigatório para cada especialidade do CRM"]);
    expect(
      userUpdateSchema.safeParse({
        nome: "Ana",
        role: "admin",
        ...crmWithoutRqe,
        conselho_numero: "1",
        conselho_uf: "SP",
      }).success,
    ).toBe(true);
    expect(messages(userUpdateSchema.safeParse({ nome: "Ana", role: "pro_saude", especialidades: [] }))).toEqual([
      "conselho_tipo: Selecione o conselho",
    ]);
  });
});

describe("passwordChangeSchema", () => {
  it("needs the current password, a new one under the shared rule, confirmed and different", () => {
    expect(
      messages(
        passwordChangeSchema.safeParse({
          senha_atual: "",
          nova_senha: "jardim-azul-42",
          confirmar_senha: "jardim-azul-42",
        }),
      ),
    ).toEqual(["senha_atual: Informe sua senha atual"]);
    expect(
      messages(
        passwordChangeSchema.safeParse({ senha_atual: "x", nova_senha: "senha123", confirmar_senha: "senha123" }),
      ),
    ).toEqual(["nova_senha: Esta senha é muito comum e fácil de adivinhar. Escolha outra."]);
    expect(
      messages(passwordChangeSchema.safeParse({ senha_atual: "x", nova_senha: "curta", confirmar_senha: "curta" })),
    ).toEqual(["nova_senha: A senha deve ter pelo menos 8 caracteres"]);
    expect(
      messages(
        passwordChangeSchema.safeParse({
          senha_atual: "x",
          nova_senha: "jardim-azul-42",
          confirmar_senha: "jardim-azul-43",
        }),
      ),
    ).toEqual(["confirmar_senha: As senhas não coincidem"]);
    expect(
      messages(
        passwordChangeSchema.safeParse({
          senha_atual: "jardim-azul-42",
          nova_senha: "jardim-azul-42",
          confirmar_senha: "jardim-azul-42",
        }),
      ),
    ).toEqual(["nova_senha: A nova senha deve ser diferente da atual"]);
  });
});

describe("changesIdentity", () => {
  it("ignores case, spaces and the CPF's punctuation", () => {
    const current = { email: "ana@exemplo.com.br", cpf: "52998224725" };
    expect(changesIdentity(current, { email: " ANA@exemplo.com.br", cpf: "529.982.247-25" })).toBe(false);
    expect(changesIdentity(current, { email: "ana2@exemplo.com.br", cpf: "52998224725" })).toBe(true);
    expect(changesIdentity(current, { email: "ana@exemplo.com.br", cpf: "11144477735" })).toBe(true);
  });
});
