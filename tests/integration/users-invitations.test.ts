import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rawRows } from "../../src/db/raw.js";
import { hashToken } from "../../src/server/lib/tokens.js";
import { latestMail } from "../helpers/outbox.js";
import type { SignedIn } from "../helpers/sessions.js";
import { createTestApp, sessionCookieFrom, type TestContext } from "../helpers/test-app.js";
import { invitedAttendant, newEstablishment, professionalUser } from "./users-helpers.js";

let ctx: TestContext;
let owner: SignedIn;

beforeAll(async () => {
  ctx = await createTestApp({ env: { PUBLIC_URL: "https://app.consentir.test" } });
  owner = await newEstablishment(ctx.app);
});
afterAll(async () => {
  await ctx.close();
});

const call = (who: { cookie: string }, method: "GET" | "POST" | "PATCH", url: string, payload?: unknown) =>
  ctx.app.inject({
    method,
    url,
    headers: { cookie: who.cookie },
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
const lookup = (token: string) =>
  ctx.app.inject({ method: "POST", url: "/api/invitations/lookup", payload: { token } });
const accept = (token: string, password = "caneta-verde-77") =>
  ctx.app.inject({
    method: "POST",
    url: "/api/invitations/accept",
    payload: { token, password, confirmPassword: password },
  });
const signIn = (email: string, password: string) =>
  ctx.app.inject({ method: "POST", url: "/api/auth/sign-in", payload: { email, password } });

async function inviteMail(email: string): Promise<{ subject: string; text: string; token: string }> {
  const row = await latestMail(ctx, email);
  const token = row ? /https:\/\/app\.consentir\.test\/convite\/([A-Za-z0-9_-]+)/.exec(row.text)?.[1] : undefined;
  if (!row || !token) throw new Error(`no invitation e-mail for ${email}`);
  return { subject: row.subject, text: row.text, token };
}

describe("invitations", () => {
  it("invite → e-mail with a link from PUBLIC_URL → the person sets a password, is signed in, and signs in again later", async () => {
    const body = invitedAttendant();
    const created = await ctx.app.inject({
      method: "POST",
      url: "/api/users",
      headers: { cookie: owner.cookie, host: "evil.example", "x-forwarded-host": "evil.example" },
      payload: body,
    });
    expect(created.statusCode, created.body).toBe(201);
    const user = created.json();
    expect(user.convite).toMatchObject({ status: "pendente" });
    const days = (Date.parse(user.convite.expires_at) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(6.99);
    expect(days).toBeLessThanOrEqual(7);

    const mail = await inviteMail(body.email);
    expect(mail.subject).toBe("Consentir — convite para a equipe de Clínica Vida Plena");
    expect(mail.text).toContain("Olá, Paulo Henrique Mendes.");
    expect(mail.text).toContain("com a função Atendente");
    expect(mail.text).not.toContain("evil.example");
    // Only the SHA-256 of the token is stored.
    const stored = await rawRows<{ token_hash: string }>(
      ctx.database.db,
      sql`select token_hash from user_invitations where profile_id = ${user.id}`,
    );
    expect(stored).toEqual([{ token_hash: hashToken(mail.token) }]);
    expect(JSON.stringify(stored)).not.toContain(mail.token);

    // Until accepted, no password works (the account's password is random and unknown).
    expect((await signIn(body.email, "caneta-verde-77")).statusCode).toBe(401);

    const info = await lookup(mail.token);
    expect(info.statusCode).toBe(200);
    expect(info.json()).toMatchObject({
      nome: "Paulo Henrique Mendes",
      email: body.email,
      clinica: "Clínica Vida Plena",
    });

    const accepted = await accept(mail.token);
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(accepted.json().profile).toMatchObject({ id: user.id, role: "atendente", email: body.email });
    const session = { cookie: sessionCookieFrom(accepted) };
    expect((await call(session, "GET", "/api/auth/me")).json().profile.id).toBe(user.id);
    expect((await call(session, "GET", "/api/patients")).statusCode).toBe(200);
    expect((await signIn(body.email, "caneta-verde-77")).statusCode).toBe(200);

    // Single use.
    const again = await accept(mail.token, "outra-senha-boa-9");
    expect(again.statusCode).toBe(410);
    expect(again.json()).toMatchObject({
      code: "INVITATION_INVALID",
      message: "Este convite é inválido, expirou ou já foi usado. Peça um novo convite ao responsável pela clínica.",
    });
    expect((await lookup(mail.token)).statusCode).toBe(410);
    expect((await signIn(body.email, "outra-senha-boa-9")).statusCode).toBe(401);

    const listed = (await call(owner, "GET", `/api/users?q=${encodeURIComponent(body.email)}`)).json().items[0];
    expect(listed.convite).toBeNull();
    const actions = await rawRows<{ action: string; actor_profile_id: string }>(
      ctx.database.db,
      sql`select action, actor_profile_id from audit_events where entity_id = ${user.id} order by seq`,
    );
    expect(actions).toEqual([
      { action: "user.created", actor_profile_id: owner.profileId },
      { action: "user.invited", actor_profile_id: owner.profileId },
      { action: "user.invitation_accepted", actor_profile_id: user.id },
    ]);
  });

  it("refuses an expired link, an unknown one, and one whose user was deactivated; the list says 'expirado'", async () => {
    const body = invitedAttendant();
    const user = (await call(owner, "POST", "/api/users", body)).json();
    const { token } = await inviteMail(body.email);
    await ctx.database.db.execute(
      sql`update user_invitations set expires_at = now() - interval '1 minute' where profile_id = ${user.id}`,
    );
    expect((await lookup(token)).statusCode).toBe(410);
    expect((await accept(token)).statusCode).toBe(410);
    const listed = (await call(owner, "GET", `/api/users?q=${encodeURIComponent(body.email)}`)).json().items[0];
    expect(listed.convite).toMatchObject({ status: "expirado" });

    // The owner sends a new one: the old link stays dead, the new one works.
    const resent = await call(owner, "POST", `/api/users/${user.id}/invitation`);
    expect(resent.statusCode).toBe(202);
    expect(resent.json().convite.status).toBe("pendente");
    const fresh = await inviteMail(body.email);
    expect(fresh.token).not.toBe(token);
    expect((await accept(token)).statusCode).toBe(410);
    expect((await accept(fresh.token)).statusCode).toBe(200);
    const notPending = await call(owner, "POST", `/api/users/${user.id}/invitation`);
    expect(notPending.statusCode).toBe(409);
    expect(notPending.json().code).toBe("USER_INVITATION_NOT_PENDING");

    expect((await lookup("x".repeat(43))).statusCode).toBe(410);
    const malformed = await ctx.app.inject({
      method: "POST",
      url: "/api/invitations/accept",
      payload: { token: "curto", password: "123", confirmPassword: "456" },
    });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().issues).toEqual(
      expect.arrayContaining([
        { path: "token", message: "Link inválido" },
        { path: "password", message: "A senha deve ter pelo menos 8 caracteres" },
      ]),
    );

    const deactivated = invitedAttendant();
    const victim = (await call(owner, "POST", "/api/users", deactivated)).json();
    const link = await inviteMail(deactivated.email);
    await call(owner, "PATCH", `/api/users/${victim.id}/status`, { is_active: false });
    expect((await lookup(link.token)).statusCode).toBe(410);
    expect((await accept(link.token)).statusCode).toBe(410);
    // Refused, not spent: reactivated, the same link works.
    await call(owner, "PATCH", `/api/users/${victim.id}/status`, { is_active: true });
    expect((await accept(link.token)).statusCode).toBe(200);
  });

  it("a user added with a password has no invitation to resend; another clinic's user is 404", async () => {
    const body = professionalUser();
    const user = (await call(owner, "POST", "/api/users", body)).json();
    expect(user.convite).toBeNull();
    expect((await call(owner, "POST", `/api/users/${user.id}/invitation`)).json().code).toBe(
      "USER_INVITATION_NOT_PENDING",
    );
    const other = await newEstablishment(ctx.app);
    expect((await call(other, "POST", `/api/users/${user.id}/invitation`)).statusCode).toBe(404);
    expect((await call(owner, "POST", `/api/users/${owner.profileId}/invitation`)).statusCode).toBe(409);
  });
});
