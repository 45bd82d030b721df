import { isValidCnpj } from "../../src/shared/br/cnpj.js";
import { isValidCpf } from "../../src/shared/br/cpf.js";
import { uniqueEmail } from "./test-env.js";

function randomDigits(count: number): string {
  let out = "";
  for (let i = 0; i < count; i++) out += Math.floor(Math.random() * 10).toString();
  return out;
}

/** A random CPF with valid check digits (found by the validator itself). */
export function validCpf(): string {
  for (;;) {
    const base = randomDigits(9);
    for (let suffix = 0; suffix < 100; suffix++) {
      const candidate = base + suffix.toString().padStart(2, "0");
      if (isValidCpf(candidate)) return candidate;
    }
  }
}

/** A random numeric CNPJ (branch 0001) with valid check digits. */
export function validCnpj(): string {
  for (;;) {
    const base = `${randomDigits(8)}0001`;
    for (let suffix = 0; suffix < 100; suffix++) {
      const candidate = base + suffix.toString().padStart(2, "0");
      if (isValidCnpj(candidate)) return candidate;
    }
  }
}

export function professionalSignUp(overrides: Record<string, unknown> = {}) {
  return {
    profile_type: "profissional_independente",
    nome: "Dra. Helena Martins Prado",
    cpf: validCpf(),
    email: uniqueEmail("prof"),
    telefone: "(11) 98765-4321",
    password: "segredo123",
    confirmPassword: "segredo123",
    conselho_tipo: "CRM",
    conselho_numero: "123456",
    conselho_uf: "SP",
    especialidades: [{ especialidade: "dermatologia", areas_atuacao: [], rqe: "45678" }],
    ...overrides,
  };
}

export function establishmentSignUp(overrides: Record<string, unknown> = {}) {
  return {
    profile_type: "estabelecimento",
    tipo_estabelecimento: "clinica",
    razao_social: "Clínica Vida Plena Ltda",
    nome_fantasia: "Clínica Vida Plena",
    cnpj: validCnpj(),
    cnes: "1234567",
    cep: "01310-100",
    estado: "SP",
    cidade: "São Paulo",
    bairro: "Bela Vista",
    logradouro: "Avenida Paulista",
    numero: "1000",
    complemento: "Conjunto 101",
    nome: "Dr. Ricardo Almeida Souza",
    cpf: validCpf(),
    email: uniqueEmail("clinica"),
    telefone: "(11) 3456-7890",
    password: "segredo123",
    confirmPassword: "segredo123",
    conselho_tipo: "CRM",
    conselho_numero: "98765",
    conselho_uf: "SP",
    especialidades: [{ especialidade: "cirurgia_plastica", areas_atuacao: [], rqe: "12345" }],
    ...overrides,
  };
}
