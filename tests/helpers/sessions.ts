import type { FastifyInstance } from "fastify";
import { profiles } from "../../src/db/schema.js";
import type { Database } from "../../src/db/client.js";
import { hashPassword } from "../../src/server/lib/passwords.js";
import { professionalSignUp, validCpf } from "./factories.js";
import { sessionCookieFrom } from "./test-app.js";
import { uniqueEmail } from "./test-env.js";

export interface SignedIn {
  cookie: string;
  /** The user's password (to re-enter it, e.g. for the professional's signature). */
  password: string;
  tenantId: string;
  profileId: string;
  email: string;
}

async function signIn(app: FastifyInstance, email: string, password: string): Promise<string> {
  const response = await app.inject({ method: "POST", url: "/api/auth/sign-in", payload: { email, password } });
  if (response.statusCode !== 200) throw new Error(`sign-in failed: ${response.statusCode} ${response.body}`);
  return sessionCookieFrom(response);
}

/** A new clinic (independent professional) and its owner's session cookie. */
export async function newClinic(app: FastifyInstance): Promise<SignedIn> {
  const payload = professionalSignUp();
  const response = await app.inject({ method: "POST", url: "/api/auth/sign-up", payload });
  if (response.statusCode !== 201) throw new Error(`sign-up failed: ${response.statusCode} ${response.body}`);
  const { tenant_id, profile_id } = response.json();
  return {
    cookie: await signIn(app, payload.email, payload.password),
    password: payload.password,
    tenantId: tenant_id,
    profileId: profile_id,
    email: payload.email,
  };
}

/** A staff member with `role` in an existing clinic, signed in. */
export async function newStaff(
  app: FastifyInstance,
  database: Database,
  tenantId: string,
  role: "profissional" | "admin" | "atendente" | "juridico" | "auditor" | "pro_saude",
): Promise<SignedIn> {
  const email = uniqueEmail(role);
  const [row] = await database.db
    .insert(profiles)
    .values({
      tenant_id: tenantId,
      nome: `Equipe ${role}`,
      email,
      cpf: validCpf(),
      role,
      password_hash: await hashPassword("senha-equipe"),
    })
    .returning({ id: profiles.id });
  return {
    cookie: await signIn(app, email, "senha-equipe"),
    password: "senha-equipe",
    tenantId,
    profileId: row?.id ?? "",
    email,
  };
}
