import { like, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rawRows } from "../../src/db/raw.js";
import { emailOutbox, profiles } from "../../src/db/schema.js";
import { hashPassword } from "../../src/server/lib/passwords.js";
import { throttleKey } from "../../src/server/services/auth/sign-in-throttle.js";
import { outboxMails } from "../helpers/outbox.js";
import { professionalSignUp, validCpf } from "../helpers/factories.js";
import { createTestApp, type TestContext, uniqueEmail } from "../helpers/test-app.js";

// Per-account sign-in throttling (decision 011). The per-IP limit is lifted by the
// test env (RATE_LIMIT_AUTH_PER_MINUTE=10000), so every 429 here is the per-account one.
let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp({ env: { PUBLIC_URL: "https://app.consentir.test" } });
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

const signIn = (email: string, password: string) =>
  ctx.app.inject({ method: "POST", url: "/api/auth/sign-in", payload: { email, password } });

async function failTimes(email: string, times: number) {
  const codes: number[] = [];
  for (let i = 0; i < times; i++) codes.push((await signIn(email, `errada-${i}-senha`)).statusCode);
  return codes;
}

async function lockMail(email: string) {
  return outboxMails(ctx, email);
}

/** Moves the address's lock (and last failure) into the past, as if the wait were over. */
async function endLock(email: string) {
  await rawRows(
    ctx.database.db,
    sql`update sign_in_throttles set locked_until = now() - interval '1 second' where email_hash = ${throttleKey(email)}`,
  );
}

async function throttleRow(email: string) {
  const rows = await rawRows<{ failures: number; locked_until: Date | string | null }>(
    ctx.database.db,
    sql`select failures, locked_until from sign_in_throttles where email_hash = ${throttleKey(email)}`,
  );
  return rows[0];
}

const LOCK_MESSAGE =
  /^Muitas tentativas de entrar nesta conta\. Por segurança, aguarde \d+ minutos? e tente novamente\.$/;

describe("per-account sign-in throttling", () => {
  it("after 5 failures refuses even the right password with 429, a pt-BR wait and Retry-After", async () => {
    const user = await registered();
    expect(await failTimes(user.email, 5)).toEqual([401, 401, 401, 401, 401]);

    const locked = await signIn(user.email, user.password);
    expect(locked.statusCode).toBe(429);
    expect(locked.json()).toMatchObject({
      code: "SIGN_IN_LOCKED",
      message: "Muitas tentativas de entrar nesta conta. Por segurança, aguarde 1 minuto e tente novamente.",
    });
    const retryAfter = Number(locked.headers["retry-after"]);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(locked.json().details.retry_after_seconds).toBe(retryAfter);
    expect(locked.cookies).toHaveLength(0);

    // Another letter case is the same account.
    expect((await signIn(user.email.toUpperCase(), user.password)).statusCode).toBe(429);
    // Attempts during the lock are not counted.
    expect((await throttleRow(user.email))?.failures).toBe(5);
  });

  it("doubles the lock with each failure after it ends (1, 2, 4 … minutes, at most 60)", async () => {
    const user = await registered();
    await failTimes(user.email, 5);
    const minutes: number[] = [];
    for (let i = 0; i < 8; i++) {
      await endLock(user.email);
      expect((await signIn(user.email, "ainda-errada")).statusCode).toBe(401);
      const locked = await signIn(user.email, user.password);
      expect(locked.statusCode).toBe(429);
      expect(locked.json().message).toMatch(LOCK_MESSAGE);
      minutes.push(Math.round(Number(locked.headers["retry-after"]) / 60));
    }
    expect(minutes).toEqual([2, 4, 8, 16, 32, 60, 60, 60]);
  });

  it("e-mails the account exactly once when the lock starts, saying what to do", async () => {
    const user = await registered();
    await failTimes(user.email, 4);
    expect(await lockMail(user.email)).toHaveLength(0);
    await failTimes(user.email, 1);
    await signIn(user.email, user.password); // refused: locked
    await endLock(user.email);
    await failTimes(user.email, 1); // a longer lock, no second e-mail
    const mails = await lockMail(user.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]?.subject).toBe("Consentir — várias tentativas de entrar na sua conta");
    expect(mails[0]?.text).toContain("Detectamos várias tentativas de entrar na sua conta");
    expect(mails[0]?.text).toContain("https://app.consentir.test/auth");
    expect(mails[0]?.text).toContain("Esqueci minha senha");
  });

  it("answers an unknown e-mail exactly like a real one, and sends nothing", async () => {
    const user = await registered();
    const unknown = uniqueEmail("ninguem");
    const before = await rawRows(ctx.database.db, sql`select count(*)::int as n from email_outbox`);
    const real: { status: number; body: unknown; retry?: string | string[] | number }[] = [];
    const ghost: typeof real = [];
    for (let i = 0; i < 6; i++) {
      const a = await signIn(user.email, "senha-errada-1");
      const b = await signIn(unknown, "senha-errada-1");
      real.push({ status: a.statusCode, body: a.json(), retry: a.headers["retry-after"] });
      ghost.push({ status: b.statusCode, body: b.json(), retry: b.headers["retry-after"] });
    }
    expect(ghost.map((r) => r.status)).toEqual([401, 401, 401, 401, 401, 429]);
    expect(ghost.map((r) => r.status)).toEqual(real.map((r) => r.status));
    expect(ghost.slice(0, 5).map((r) => r.body)).toEqual(real.slice(0, 5).map((r) => r.body));
    expect((ghost[5]?.body as { message: string }).message).toBe((real[5]?.body as { message: string }).message);
    expect(ghost[5]?.retry).toBeDefined();
    // One e-mail in all: the lock notice of the real account.
    const after = await rawRows(ctx.database.db, sql`select count(*)::int as n from email_outbox`);
    expect(Number((after[0] as { n: number }).n)).toBe(Number((before[0] as { n: number }).n) + 1);
    expect(await lockMail(user.email)).toHaveLength(1);
    // Only a hash of the address is kept, never the address typed.
    const stored = await rawRows(ctx.database.db, sql`select email_hash from sign_in_throttles`);
    expect(JSON.stringify(stored)).not.toContain(unknown);
  });

  it("spends an argon2 check on an unknown e-mail too (similar timing)", async () => {
    const user = await registered();
    const time = async (email: string) => {
      const start = performance.now();
      await signIn(email, "senha-errada-2");
      return performance.now() - start;
    };
    await time(uniqueEmail("aquecer")); // the dummy hash is made once
    const real = await time(user.email);
    const ghost = await time(uniqueEmail("ninguem"));
    expect(ghost).toBeGreaterThan(real / 4);
  });

  it("forgets the failures after a successful sign-in", async () => {
    const user = await registered();
    await failTimes(user.email, 4);
    expect((await signIn(user.email, user.password)).statusCode).toBe(200);
    expect(await throttleRow(user.email)).toBeUndefined();
    expect(await failTimes(user.email, 4)).toEqual([401, 401, 401, 401]);
    expect((await signIn(user.email, user.password)).statusCode).toBe(200);
  });

  it("lifts the lock when the password is reset through the e-mailed link", async () => {
    const user = await registered();
    await failTimes(user.email, 5);
    expect((await signIn(user.email, user.password)).statusCode).toBe(429);
    const request = await ctx.app.inject({
      method: "POST",
      url: "/api/auth/password-reset/request",
      payload: { email: user.email },
    });
    expect(request.statusCode).toBe(202);
    const [mail] = await outboxMails(ctx, user.email, like(emailOutbox.subject, "%redefinição%"));
    const token = /token=([A-Za-z0-9_-]+)/.exec(mail?.text ?? "")?.[1] ?? "";
    const confirm = await ctx.app.inject({
      method: "POST",
      url: "/api/auth/password-reset/confirm",
      payload: { token, password: "trilha-serra-42", confirmPassword: "trilha-serra-42" },
    });
    expect(confirm.statusCode).toBe(200);
    expect((await signIn(user.email, "trilha-serra-42")).statusCode).toBe(200);
  });

  it("forgets failures older than 24 hours", async () => {
    const user = await registered();
    await failTimes(user.email, 4);
    await rawRows(
      ctx.database.db,
      sql`update sign_in_throttles set last_failure_at = now() - interval '25 hours' where email_hash = ${throttleKey(user.email)}`,
    );
    expect(await failTimes(user.email, 1)).toEqual([401]);
    expect((await throttleRow(user.email))?.failures).toBe(1);
    expect((await signIn(user.email, user.password)).statusCode).toBe(200);
  });

  it("lets only 5 of many simultaneous wrong guesses be checked before the lock", async () => {
    const user = await registered();
    const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => signIn(user.email, `paralela-${i}-x`)));
    const codes = answers.map((a) => a.statusCode).sort();
    expect(codes.filter((c) => c === 401)).toHaveLength(5);
    expect(codes.filter((c) => c === 429)).toHaveLength(7);
    expect(await lockMail(user.email)).toHaveLength(1);
  });

  it("keeps the per-IP limit as well", async () => {
    const limited = await createTestApp({ env: { RATE_LIMIT_AUTH_PER_MINUTE: "2" }, database: ctx.database });
    try {
      const codes: number[] = [];
      for (let i = 0; i < 3; i++) {
        const response = await limited.app.inject({
          method: "POST",
          url: "/api/auth/sign-in",
          payload: { email: uniqueEmail("ip"), password: "qualquer-coisa" },
        });
        codes.push(response.statusCode);
      }
      expect(codes).toEqual([401, 401, 429]);
    } finally {
      await limited.close();
    }
  });
});

describe("passwords of existing accounts", () => {
  it("still signs in an account whose password has 6 characters (made before the 8-character rule)", async () => {
    const tenant = (
      await ctx.app.inject({ method: "POST", url: "/api/auth/sign-up", payload: professionalSignUp() })
    ).json();
    const email = uniqueEmail("antiga");
    await ctx.database.db.insert(profiles).values({
      tenant_id: tenant.tenant_id,
      nome: "Conta Antiga",
      email,
      cpf: validCpf(),
      role: "atendente",
      password_hash: await hashPassword("abc123"),
    });
    expect((await signIn(email, "abc123")).statusCode).toBe(200);
  });
});
