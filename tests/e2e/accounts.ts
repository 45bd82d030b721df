import { validCnpj, validCpf } from "../helpers/factories.js";
import { uniqueEmail } from "../helpers/test-env.js";
import type { Page } from "playwright-core";
import { baseUrl } from "./browser.js";

/**
 * Registers a professional through the API (for tests whose subject is not sign-up), on the lane's
 * server or on `base` (a test's own app).
 */
export async function registerProfessional(
  base: string = baseUrl(),
): Promise<{ email: string; password: string; nome: string }> {
  const account = { email: uniqueEmail("e2e"), password: "segredo123", nome: "Dra. Marina Costa Lima" };
  const response = await fetch(`${base}/api/auth/sign-up`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      profile_type: "profissional_independente",
      nome: account.nome,
      cpf: validCpf(),
      email: account.email,
      password: account.password,
      confirmPassword: account.password,
      conselho_tipo: "CRO",
      conselho_numero: "54321",
      conselho_uf: "RJ",
      especialidades: [{ especialidade: "implantodontia", areas_atuacao: [], rqe: null }],
    }),
  });
  if (response.status !== 201) throw new Error(`sign-up failed: ${response.status} ${await response.text()}`);
  return account;
}

/** Registers an establishment (clinic) through the API; returns its owner's account. */
export async function registerEstablishment(): Promise<{
  email: string;
  password: string;
  nome: string;
  clinica: string;
}> {
  const account = {
    email: uniqueEmail("e2e-clinica"),
    password: "segredo123",
    nome: "Dr. Ricardo Almeida Souza",
    clinica: "Clínica Bem Viver",
  };
  const response = await fetch(`${baseUrl()}/api/auth/sign-up`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      profile_type: "estabelecimento",
      tipo_estabelecimento: "clinica",
      razao_social: "Clínica Bem Viver Ltda",
      nome_fantasia: account.clinica,
      cnpj: validCnpj(),
      cep: "01310-100",
      estado: "SP",
      cidade: "São Paulo",
      bairro: "Bela Vista",
      logradouro: "Avenida Paulista",
      numero: "1000",
      nome: account.nome,
      cpf: validCpf(),
      email: account.email,
      password: account.password,
      confirmPassword: account.password,
      conselho_tipo: "CRM",
      conselho_numero: "98765",
      conselho_uf: "SP",
      especialidades: [{ especialidade: "cirurgia_plastica", areas_atuacao: [], rqe: "12345" }],
    }),
  });
  if (response.status !== 201) throw new Error(`sign-up failed: ${response.status} ${await response.text()}`);
  return account;
}

export { validCnpj, validCpf };

/** Signs in through the /auth screen and waits for the dashboard. */
export async function signIn(page: Page, email: string, password: string): Promise<void> {
  await page.goto("/auth");
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Senha").fill(password);
  await page.getByRole("button", { name: "Entrar", exact: true }).click();
  await page.getByRole("heading", { name: "Dashboard" }).waitFor();
}
