import { sql } from "drizzle-orm";
import { rawRows } from "../../src/db/raw.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { professionalSignUp } from "../helpers/factories.js";
import { latestMail } from "../helpers/outbox.js";
import { createTestApp, sessionCookieFrom, type TestContext } from "../helpers/test-app.js";

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp({ env: { PUBLIC_URL: "https://app.consentir.test" } });
});
afterAll(async () => {
  await ctx.close();
});

async function latestResetLink(email: string): Promise<string> {
  const body = (await latestMail(ctx, email))?.text ?? "";
  const match = /https:\/\/app\.consentir\.test\/auth\/redefinir-senha\?token=([A-Za-z0-9_-]+)/.exec(body);
  if (!match?.[1]) throw new Error(`no reset link in: ${body}`);
  return match[1];
}

describe("password reset", () => {
  it("builds the link from PUBLIC_URL, never from a forged Host or X-Forwarded-Host", async () => {
    const user = professionalSignUp();
    await ctx.app.inject({ method: "POST", url: "/api/auth/sign-up", payload: user });
    const response = await ctx.app.inject({
      method: "POST",
      url: "/api/auth/password-reset/request",
      headers: { host: "evil.example", "x-forwarded-host": "evil.example", "x-forwarded-proto": "http" },
      payload: { email: user.email },
    });
    expect(response.statusCode).toBe(202);
    const opened = await latestMail(ctx, user.email);
    const mail = JSON.stringify({ text: opened?.text, html: opened?.html });
    expect(mail).toContain("https://app.consentir.test/auth/redefinir-senha?token=");
    expect(mail).not.toContain("evil.example");
  });

  it("without PUBLIC_URL (development) links point at this machine's port, whatever the Host", async () => {
    const dev = await createTestApp({ env: { PORT: "3456" } });
    try {
      const user = professionalSignUp();
      await dev.app.inject({ method: "POST", url: "/api/auth/sign-up", payload: user });
      await dev.app.inject({
        method: "POST",
        url: "/api/auth/password-reset/request",
        headers: { host: "evil.example" },
        payload: { email: user.email },
      });
      const body = String((await latestMail(dev, user.email))?.text);
      expect(body).toContain("http://localhost:3456/auth/redefinir-senha?token=");
      expect(body).not.toContain("evil.example");
    } finally {
      await dev.close();
    }
  });

  it("e-mails a link that sets a new password once and ends the old sessions", async () => {
    const user = professionalSignUp();
    await ctx.app.inject({ method: "POST", url: "/api/auth/sign-up", payload: user });
    const oldSession = sessionCookieFrom(
      await ctx.app.inject({
        method: "POST",
        url: "/api/auth/sign-in",
        payload: { email: user.email, password: user.password },
      }),
    );

    const request = await ctx.app.inject({
      method: "POST",
      url: "/api/auth/password-reset/request",
      payload: { email: user.email },
    });
    expect(request.statusCode).toBe(202);
    const token = await latestResetLink(user.email);

    const confirm = await ctx.app.inject({
      method: "POST",
      url: "/api/auth/password-reset/confirm",
      payload: { token, password: "nova-senha-forte", confirmPassword: "nova-senha-forte" },
    });
    expect(confirm.statusCode).toBe(200);

    const signIn = (password: string) =>
      ctx.app.inject({ method: "POST", url: "/api/auth/sign-in", payload: { email: user.email, password } });
    expect((await signIn(user.password)).statusCode).toBe(401);
    expect((await signIn("nova-senha-forte")).statusCode).toBe(200);
    expect(
      (await ctx.app.inject({ method: "GET", url: "/api/auth/me", headers: { cookie: oldSession } })).statusCode,
    ).toBe(401);

    const reuse = await ctx.app.inject({
      method: "POST",
      url: "/api/auth/password-reset/confirm",
      payload: { token, password: "outra-senha", confirmPassword: "outra-senha" },
    });
    expect(reuse.statusCode).toBe(400);
    expect(reuse.json().code).toBe("RESET_TOKEN_INVALID");
  });

  it("answers the same for an unknown e-mail and sends nothing", async () => {
    const before = await rawRows(ctx.database.db, sql`select count(*)::int as n from email_outbox`);
    const response = await ctx.app.inject({
      method: "POST",
      url: "/api/auth/password-reset/request",
      payload: { email: "ninguem.aqui@consentir.test" },
    });
    expect(response.statusCode).toBe(202);
    const after = await rawRows(ctx.database.db, sql`select count(*)::int as n from email_outbox`);
    expect(after[0]).toEqual(before[0]);
  });

  it("refuses a new password under 8 characters or on the common list, and keeps the link usable", async () => {
    const user = professionalSignUp();
    await ctx.app.inject({ method: "POST", url: "/api/auth/sign-up", payload: user });
    await ctx.app.inject({ method: "POST", url: "/api/auth/password-reset/request", payload: { email: user.email } });
    const token = await latestResetLink(user.email);
    const confirm = (password: string) =>
      ctx.app.inject({
        method: "POST",
        url: "/api/auth/password-reset/confirm",
        payload: { token, password, confirmPassword: password },
      });

    const short = await confirm("abc1234");
    expect(short.statusCode).toBe(400);
    expect(short.json().issues).toContainEqual({
      path: "password",
      message: "A senha deve ter pelo menos 8 caracteres",
    });
    for (const common of ["12345678", "senha123", "brasil123", "Flamengo"]) {
      const response = await confirm(common);
      expect(response.statusCode, common).toBe(400);
      expect(response.json().issues, common).toEqual([
        { path: "password", message: "Esta senha é muito comum e fácil de adivinhar. Escolha outra." },
      ]);
    }
    expect((await confirm("linha-azul-7")).statusCode).toBe(200);
  });

  it("refuses an expired link and a mismatched confirmation", async () => {
    const user = professionalSignUp();
    await ctx.app.inject({ method: "POST", url: "/api/auth/sign-up", payload: user });
    await ctx.app.inject({ method: "POST", url: "/api/auth/password-reset/request", payload: { email: user.email } });
    const token = await latestResetLink(user.email);

    const mismatch = await ctx.app.inject({
      method: "POST",
      url: "/api/auth/password-reset/confirm",
      payload: { token, password: "linha-azul-7", confirmPassword: "linha-azul-8" },
    });
    expect(mismatch.statusCode).toBe(400);
    expect(mismatch.json().issues).toContainEqual({ path: "confirmPassword", message: "As senhas não coincidem" });

    await rawRows(ctx.database.db, sql`update password_reset_tokens set expires_at = now() - interval '1 second'`);
    const expired = await ctx.app.inject({
      method: "POST",
      url: "/api/auth/password-reset/confirm",
      payload: { token, password: "linha-azul-7", confirmPassword: "linha-azul-7" },
    });
    expect(expired.statusCode).toBe(400);
    expect(expired.json().message).toBe("O link de redefinição de senha é inválido ou expirou. Peça um novo.");
  });
});
