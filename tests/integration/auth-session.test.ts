import { sql } from "drizzle-orm";
import { rawRows } from "../../src/db/raw.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { professionalSignUp } from "../helpers/factories.js";
import { createTestApp, sessionCookieFrom, type TestContext, uniqueEmail } from "../helpers/test-app.js";

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(async () => {
  await ctx.close();
});

async function registered() {
  const payload = professionalSignUp();
  const response = await ctx.app.inject({ method: "POST", url: "/api/auth/sign-up", payload });
  expect(response.statusCode).toBe(201);
  return payload;
}

const signIn = (email: string, password: string, cookie?: string) =>
  ctx.app.inject({
    method: "POST",
    url: "/api/auth/sign-in",
    payload: { email, password },
    headers: cookie ? { cookie } : {},
  });

const me = (cookie?: string) =>
  ctx.app.inject({ method: "GET", url: "/api/auth/me", headers: cookie ? { cookie } : {} });

describe("sessions", () => {
  it("signs in, sets an httpOnly SameSite=Lax cookie and answers who is signed in", async () => {
    const user = await registered();
    const response = await signIn(user.email.toUpperCase(), user.password);
    expect(response.statusCode).toBe(200);
    const cookie = response.cookies.find((c) => c.name === "consentir_session");
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: "Lax", path: "/" });
    expect(cookie?.value).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(response.json().profile).toMatchObject({ email: user.email, is_proprietario: true });
    expect(JSON.stringify(response.json())).not.toContain("argon2");

    const who = await me(sessionCookieFrom(response));
    expect(who.statusCode).toBe(200);
    expect(who.json().profile.nome).toBe(user.nome);
    expect(who.json().tenant.tipo_perfil).toBe("profissional_independente");
  });

  it("stores only the hash of the session token", async () => {
    const user = await registered();
    const response = await signIn(user.email, user.password);
    const token = sessionCookieFrom(response).split("=")[1] ?? "";
    const rows = await rawRows(
      ctx.database.db,
      sql`select count(*)::int as n from sessions where token_hash = ${token}`,
    );
    expect(rows[0]).toEqual({ n: 0 });
  });

  it("refuses a wrong password and an unknown e-mail alike", async () => {
    const user = await registered();
    const wrong = await signIn(user.email, "senha-errada");
    const unknown = await signIn(uniqueEmail("ninguem"), "qualquer");
    for (const response of [wrong, unknown]) {
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({ code: "INVALID_CREDENTIALS", message: "E-mail ou senha incorretos." });
      expect(response.cookies).toHaveLength(0);
    }
  });

  it("validates the sign-in body", async () => {
    const response = await ctx.app.inject({ method: "POST", url: "/api/auth/sign-in", payload: { email: "" } });
    expect(response.statusCode).toBe(400);
    expect(response.json().issues).toEqual(
      expect.arrayContaining([
        { path: "email", message: "Informe o e-mail" },
        { path: "password", message: "Informe a senha" },
      ]),
    );
  });

  it("refuses a deactivated account", async () => {
    const user = await registered();
    await rawRows(ctx.database.db, sql`update profiles set is_active = false where lower(email) = ${user.email}`);
    const response = await signIn(user.email, user.password);
    expect(response.statusCode).toBe(403);
    expect(response.json().code).toBe("ACCOUNT_INACTIVE");
  });

  it("rotates the session at sign-in: the old cookie stops working", async () => {
    const user = await registered();
    const first = sessionCookieFrom(await signIn(user.email, user.password));
    const second = sessionCookieFrom(await signIn(user.email, user.password, first));
    expect(second).not.toBe(first);
    expect((await me(first)).statusCode).toBe(401);
    expect((await me(second)).statusCode).toBe(200);
  });

  it("signs out: the cookie is cleared and the session is gone on the server", async () => {
    const user = await registered();
    const cookie = sessionCookieFrom(await signIn(user.email, user.password));
    const out = await ctx.app.inject({ method: "POST", url: "/api/auth/sign-out", headers: { cookie } });
    expect(out.statusCode).toBe(200);
    const cleared = out.cookies.find((c) => c.name === "consentir_session");
    expect(cleared?.value).toBe("");
    expect((await me(cookie)).statusCode).toBe(401);
  });

  it("answers 401 on a protected route without a session, or with a forged or expired one", async () => {
    expect((await me()).statusCode).toBe(401);
    expect((await me("consentir_session=forjado")).json()).toEqual({
      code: "UNAUTHENTICATED",
      message: "Sua sessão expirou. Entre novamente.",
    });
    const user = await registered();
    const cookie = sessionCookieFrom(await signIn(user.email, user.password));
    await rawRows(
      ctx.database.db,
      sql`update sessions set expires_at = now() - interval '1 minute'
          where profile_id = (select id from profiles where lower(email) = ${user.email})`,
    );
    expect((await me(cookie)).statusCode).toBe(401);
  });

  it("refuses state-changing requests from another origin", async () => {
    const user = await registered();
    const response = await ctx.app.inject({
      method: "POST",
      url: "/api/auth/sign-in",
      payload: { email: user.email, password: user.password },
      headers: { origin: "https://evil.example", host: "localhost:3000" },
    });
    expect(response.statusCode).toBe(403);
    expect(response.json().code).toBe("ORIGIN_MISMATCH");

    const same = await ctx.app.inject({
      method: "POST",
      url: "/api/auth/sign-in",
      payload: { email: user.email, password: user.password },
      headers: { origin: "http://localhost:3000", host: "localhost:3000" },
    });
    expect(same.statusCode).toBe(200);
  });
});

describe("idle timeout (SESSION_IDLE_HOURS, default 12)", () => {
  const profileOf = (email: string) => sql`(select id from profiles where lower(email) = ${email})`;

  it("refuses and deletes a session unused for longer than the idle time", async () => {
    const user = await registered();
    const cookie = sessionCookieFrom(await signIn(user.email, user.password));
    await rawRows(
      ctx.database.db,
      sql`update sessions set last_seen_at = now() - interval '12 hours 1 minute' where profile_id = ${profileOf(user.email)}`,
    );
    const response = await me(cookie);
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ code: "UNAUTHENTICATED", message: "Sua sessão expirou. Entre novamente." });
    const left = await rawRows(
      ctx.database.db,
      sql`select count(*)::int as n from sessions where profile_id = ${profileOf(user.email)}`,
    );
    expect(left[0]).toEqual({ n: 0 });
  });

  it("keeps a session used within the idle time, and notes the use", async () => {
    const user = await registered();
    const cookie = sessionCookieFrom(await signIn(user.email, user.password));
    await rawRows(
      ctx.database.db,
      sql`update sessions set last_seen_at = now() - interval '11 hours' where profile_id = ${profileOf(user.email)}`,
    );
    expect((await me(cookie)).statusCode).toBe(200);
    const rows = await rawRows<{ idle: boolean }>(
      ctx.database.db,
      sql`select last_seen_at > now() - interval '1 minute' as idle from sessions where profile_id = ${profileOf(user.email)}`,
    );
    expect(rows[0]?.idle).toBe(true);
  });

  it("follows SESSION_IDLE_HOURS", async () => {
    const short = await createTestApp({ env: { SESSION_IDLE_HOURS: "1" }, database: ctx.database });
    try {
      const user = await registered();
      const login = await short.app.inject({
        method: "POST",
        url: "/api/auth/sign-in",
        payload: { email: user.email, password: user.password },
      });
      const cookie = sessionCookieFrom(login);
      await rawRows(
        ctx.database.db,
        sql`update sessions set last_seen_at = now() - interval '61 minutes' where profile_id = ${profileOf(user.email)}`,
      );
      expect((await short.app.inject({ method: "GET", url: "/api/auth/me", headers: { cookie } })).statusCode).toBe(
        401,
      );
    } finally {
      await short.close();
    }
  });

  it("keeps the absolute lifetime of SESSION_DAYS (30) however active the session is", async () => {
    const user = await registered();
    const response = await signIn(user.email, user.password);
    const expires = response.cookies.find((c) => c.name === "consentir_session")?.expires;
    const days = ((expires?.getTime() ?? 0) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(29.9);
    expect(days).toBeLessThanOrEqual(30);
  });
});

describe("Cache-Control", () => {
  it("answers no-store on authenticated API answers, errors and the session probe", async () => {
    const user = await registered();
    const cookie = sessionCookieFrom(await signIn(user.email, user.password));
    const answers = [
      await me(cookie),
      await ctx.app.inject({ method: "GET", url: "/api/patients", headers: { cookie } }),
      await ctx.app.inject({ method: "GET", url: "/api/auth/session", headers: { cookie } }),
      await me(),
      await signIn(user.email, "senha-errada-9"),
      await ctx.app.inject({ method: "GET", url: "/api/nao-existe" }),
    ];
    for (const response of answers) expect(response.headers["cache-control"], response.body).toBe("no-store");
    expect(answers[0]?.statusCode).toBe(200);
    expect(answers[1]?.statusCode).toBe(200);
  });
});

describe("rate limit", () => {
  it("answers the spec's message after too many attempts", async () => {
    const limited = await createTestApp({ env: { RATE_LIMIT_AUTH_PER_MINUTE: "3" }, database: ctx.database });
    try {
      const codes: number[] = [];
      let last;
      for (let i = 0; i < 4; i++) {
        last = await limited.app.inject({
          method: "POST",
          url: "/api/auth/sign-in",
          payload: { email: uniqueEmail("x"), password: "x" },
        });
        codes.push(last.statusCode);
      }
      expect(codes).toEqual([401, 401, 401, 429]);
      expect(last?.json()).toEqual({
        code: "RATE_LIMITED",
        message: "Muitas tentativas. Aguarde alguns minutos antes de tentar novamente.",
      });
    } finally {
      await limited.close();
    }
  });
});

describe("GET /api/auth/session", () => {
  it("answers null when signed out and the user when signed in, never 401", async () => {
    const out = await ctx.app.inject({ method: "GET", url: "/api/auth/session" });
    expect(out.statusCode).toBe(200);
    expect(out.json()).toEqual({ user: null });
    const user = await registered();
    const cookie = sessionCookieFrom(await signIn(user.email, user.password));
    const inside = await ctx.app.inject({ method: "GET", url: "/api/auth/session", headers: { cookie } });
    expect(inside.json().user.profile.email).toBe(user.email);
  });
});
