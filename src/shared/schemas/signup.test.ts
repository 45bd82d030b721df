import { describe, expect, it } from "vitest";
import { establishmentSignUpSchema, MESSAGES, professionalSignUpSchema, signUpSchema } from "./signup.js";

const professional = {
  profile_type: "profissional_independente",
  nome: "Dra. Helena Prado",
  cpf: "529.982.247-25",
  email: " Helena@Exemplo.com ",
  password: "segredo123",
  confirmPassword: "segredo123",
  conselho_tipo: "CRM",
  conselho_numero: "123456",
  conselho_uf: "SP",
  especialidades: [{ especialidade: "dermatologia", areas_atuacao: [], rqe: "4567" }],
};

const establishment = {
  ...professional,
  profile_type: "estabelecimento",
  tipo_estabelecimento: "clinica",
  razao_social: "Clínica Exemplo Ltda",
  cnpj: "11.222.333/0001-81",
  cep: "01310-100",
  estado: "SP",
  cidade: "São Paulo",
  bairro: "Bela Vista",
  logradouro: "Avenida Paulista",
  numero: "1000",
};

function issues(
  schema: {
    safeParse(v: unknown): { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } };
  },
  value: unknown,
) {
  const result = schema.safeParse(value);
  return (result.error?.issues ?? []).map((i) => ({ path: i.path.join("."), message: i.message }));
}

describe("sign-up rules (spec part 1 §5)", () => {
  it("accepts a valid professional and normalizes CPF and e-mail", () => {
    const parsed = professionalSignUpSchema.parse(professional);
    expect(parsed.cpf).toBe("52998224725");
    expect(parsed.email).toBe("helena@exemplo.com");
  });

  it("accepts a valid establishment, optional fields left out", () => {
    const parsed = establishmentSignUpSchema.parse(establishment);
    expect(parsed.cnpj).toBe("11222333000181");
    expect(parsed.nome_fantasia).toBeUndefined();
    expect(parsed.cnes).toBeUndefined();
    expect(parsed.complemento).toBeUndefined();
  });

  it("requires a password of at least 8 characters (decision 011), not a common one, and a matching confirmation", () => {
    expect(
      issues(professionalSignUpSchema, { ...professional, password: "abc1234", confirmPassword: "abc1234" }),
    ).toContainEqual({
      path: "password",
      message: "A senha deve ter pelo menos 8 caracteres",
    });
    for (const common of ["12345678", "senha123", "brasil123", "Password1", "qwertyuiop"]) {
      expect(
        issues(professionalSignUpSchema, { ...professional, password: common, confirmPassword: common }),
        common,
      ).toEqual([{ path: "password", message: "Esta senha é muito comum e fácil de adivinhar. Escolha outra." }]);
    }
    expect(
      professionalSignUpSchema.safeParse({ ...professional, password: "abc12345x", confirmPassword: "abc12345x" })
        .success,
    ).toBe(true);
    expect(issues(professionalSignUpSchema, { ...professional, confirmPassword: "outra" })).toEqual([
      { path: "confirmPassword", message: MESSAGES.passwordsDiffer },
    ]);
  });

  it("needs an RQE for each CRM specialty but not for CRO", () => {
    expect(
      issues(professionalSignUpSchema, {
        ...professional,
        especialidades: [{ especialidade: "dermatologia", areas_atuacao: [], rqe: "" }],
      }),
    ).toEqual([{ path: "especialidades.0.rqe", message: MESSAGES.rqeRequired }]);
    expect(
      professionalSignUpSchema.safeParse({
        ...professional,
        conselho_tipo: "CRO",
        especialidades: [{ especialidade: "implantodontia", areas_atuacao: [], rqe: "" }],
      }).success,
    ).toBe(true);
  });

  it("needs a specialty for CRM and CRO, with each form's wording, and none for the other councils", () => {
    expect(issues(professionalSignUpSchema, { ...professional, especialidades: [] })).toEqual([
      { path: "especialidades", message: MESSAGES.specialtyRequiredProfessional },
    ]);
    expect(
      issues(establishmentSignUpSchema, {
        ...establishment,
        conselho_tipo: "CRO",
        especialidades: [{ especialidade: "", areas_atuacao: [] }],
      }),
    ).toEqual([{ path: "especialidades", message: MESSAGES.specialtyRequiredEstablishment }]);
    for (const conselho_tipo of ["COREN", "CREFITO", "CRBM"]) {
      expect(
        professionalSignUpSchema.safeParse({ ...professional, conselho_tipo, especialidades: [] }).success,
        conselho_tipo,
      ).toBe(true);
    }
  });

  it("allows at most 2 specialties and 3 areas each, from the council's own lists", () => {
    const three = [1, 2, 3].map((n) => ({
      especialidade: ["dermatologia", "pediatria", "cardiologia"][n - 1] ?? "",
      areas_atuacao: [],
      rqe: String(n),
    }));
    expect(issues(professionalSignUpSchema, { ...professional, especialidades: three })).toContainEqual({
      path: "especialidades",
      message: MESSAGES.tooManySpecialties,
    });
    expect(
      issues(professionalSignUpSchema, {
        ...professional,
        especialidades: [{ especialidade: "pediatria", areas_atuacao: ["a", "b", "c", "d"], rqe: "1" }],
      }),
    ).toContainEqual({ path: "especialidades.0.areas_atuacao", message: MESSAGES.tooManyAreas });
    expect(
      issues(professionalSignUpSchema, {
        ...professional,
        especialidades: [{ especialidade: "pediatria", areas_atuacao: ["hansenologia"], rqe: "1" }],
      }),
    ).toEqual([{ path: "especialidades.0.areas_atuacao", message: "Área de atuação não pertence à especialidade" }]);
  });

  it("requires the establishment's type, razão social, CNPJ and full address", () => {
    const paths = issues(establishmentSignUpSchema, {
      ...establishment,
      tipo_estabelecimento: "",
      razao_social: "",
      cnpj: "11.222.333/0001-80",
      cep: "",
      estado: "",
      cidade: "",
      bairro: "",
      logradouro: "",
      numero: "",
    }).map((i) => i.path);
    expect(paths.sort()).toEqual([
      "bairro",
      "cep",
      "cidade",
      "cnpj",
      "estado",
      "logradouro",
      "numero",
      "razao_social",
      "tipo_estabelecimento",
    ]);
  });

  it("tells the two kinds apart by profile_type", () => {
    expect(signUpSchema.safeParse(professional).success).toBe(true);
    expect(signUpSchema.safeParse(establishment).success).toBe(true);
    expect(signUpSchema.safeParse({ ...professional, profile_type: "outro" }).success).toBe(false);
  });
});
