import type { FastifyInstance } from "fastify";
import { establishmentSignUp, validCpf } from "../helpers/factories.js";
import type { SignedIn } from "../helpers/sessions.js";
import { sessionCookieFrom, uniqueEmail } from "../helpers/test-app.js";

/** A new establishment (clinic) and its owner's session cookie. */
export async function newEstablishment(app: FastifyInstance): Promise<SignedIn & { password: string }> {
  const payload = establishmentSignUp();
  const response = await app.inject({ method: "POST", url: "/api/auth/sign-up", payload });
  if (response.statusCode !== 201) throw new Error(`sign-up failed: ${response.statusCode} ${response.body}`);
  const { tenant_id, profile_id } = response.json();
  const signIn = await app.inject({
    method: "POST",
    url: "/api/auth/sign-in",
    payload: { email: payload.email, password: payload.password },
  });
  return {
    cookie: sessionCookieFrom(signIn),
    tenantId: tenant_id,
    profileId: profile_id,
    email: payload.email,
    password: payload.password,
  };
}

/** The add-user dialog's body for a CRM professional with a specialty, its areas and RQE. */
export function professionalUser(overrides: Record<string, unknown> = {}) {
  return {
    nome: "Dra. Camila Ribeiro Torres",
    email: uniqueEmail("medica"),
    cpf: validCpf(),
    role: "profissional",
    acesso: "senha",
    password: "jardim-azul-42",
    conselho_tipo: "CRM",
    conselho_numero: "112233",
    conselho_uf: "SP",
    especialidades: [{ especialidade: "dermatologia", areas_atuacao: [], rqe: "7788" }],
    ...overrides,
  };
}

/** An attendant invited by e-mail (no council, no password). */
export function invitedAttendant(overrides: Record<string, unknown> = {}) {
  return {
    nome: "Paulo Henrique Mendes",
    email: uniqueEmail("atendente"),
    cpf: validCpf(),
    role: "atendente",
    acesso: "convite",
    ...overrides,
  };
}
