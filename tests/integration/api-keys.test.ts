/**
 * API keys (decision 058): created and revoked in Configurações with a session, shown once,
 * stored as SHA-256; `Authorization: Bearer <key>` gives the same tenant scope and role policy as
 * a session of the key's role; one 401 for every bad key; 404 across clinics; a limit per key;
 * every audit event made through a key names it; a key never manages keys.
 */
import { createHash } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiKeys, auditEvents } from "../../src/db/schema.js";
import { rawRows } from "../../src/db/raw.js";
import { ERRORS } from "../../src/shared/errors.js";
import { API_KEY_PATTERN } from "../../src/shared/schemas/api-keys.js";
import { newClinic, newStaff, type SignedIn } from "../helpers/sessions.js";
import { entryText, unzipEntries } from "../helpers/data-rights.js";
import { createTestApp, type TestContext } from "../helpers/test-app.js";
import { newEstablishment } from "./users-helpers.js";

let ctx: TestContext;
let owner: SignedIn;
let other: SignedIn;

beforeAll(async () => {
  ctx = await createTestApp({ env: { RATE_LIMIT_API_KEY_PER_MINUTE: "1000" } });
  owner = await newClinic(ctx.app);
  other = await newClinic(ctx.app);
});
afterAll(async () => {
  await ctx.close();
});

type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
const withCookie = (who: { cookie: string }, method: Method, url: string, payload?: unknown) =>
  ctx.app.inject({
    method,
    url,
    headers: { cookie: who.cookie },
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
const withKey = (key: string, method: Method, url: string, payload?: unknown, headers: Record<string, string> = {}) =>
  ctx.app.inject({
    method,
    url,
    headers: { authorization: `Bearer ${key}`, ...headers },
    ...(payload === undefined ? {} : { payload: payload as object }),
  });

async function createKey(who: SignedIn, body: Record<string, unknown>) {
  const response = await withCookie(who, "POST", "/api/settings/api-keys", body);
  expect(response.statusCode, response.body).toBe(201);
  return response.json() as { chave: { id: string; prefixo: string; nome: string; status: string }; segredo: string };
}

const invalidKeyBody = { code: "API_KEY_INVALID", message: ERRORS.API_KEY_INVALID.message };

describe("creating, listing and revoking keys (session only)", () => {
  it("shows the secret once, keeps only its SHA-256 and a visible prefix, and lists creator, use and status", async () => {
    const created = await createKey(owner, { nome: "Sistema da recepção", role: "atendente" });
    expect(created.segredo).toMatch(API_KEY_PATTERN);
    expect(created.chave).toMatchObject({
      nome: "Sistema da recepção",
      role: "atendente",
      status: "ativa",
      prefixo: created.segredo.slice(0, 17),
      criada_por: { id: owner.profileId },
      ultimo_uso_em: null,
      expira_em: null,
    });
    expect(created.chave.prefixo).toMatch(/^csk_live_[A-Za-z0-9_-]{8}$/);

    const [row] = await ctx.database.db.select().from(apiKeys).where(eq(apiKeys.id, created.chave.id));
    expect(row?.token_hash).toBe(createHash("sha256").update(created.segredo).digest("hex"));
    const [asText] = await rawRows<{ t: string }>(
      ctx.database.db,
      sql`select row_to_json(k)::text as t from api_keys k where id = ${created.chave.id}`,
    );
    expect(asText?.t).not.toContain(created.segredo);
    expect(asText?.t).not.toContain(created.segredo.slice(17));

    const list = await withCookie(owner, "GET", "/api/settings/api-keys");
    expect(list.statusCode).toBe(200);
    expect(list.body).not.toContain(created.segredo.slice(17));
    expect(list.body).not.toContain(row?.token_hash);
    expect(list.json()).toContainEqual(expect.objectContaining({ id: created.chave.id, status: "ativa" }));

    // Used: last use is set, and not written again within the minute.
    expect((await withKey(created.segredo, "GET", "/api/patients")).statusCode).toBe(200);
    const [used] = await ctx.database.db.select().from(apiKeys).where(eq(apiKeys.id, created.chave.id));
    expect(used?.last_used_at).toBeInstanceOf(Date);
    expect((await withKey(created.segredo, "GET", "/api/patients")).statusCode).toBe(200);
    const [again] = await ctx.database.db.select().from(apiKeys).where(eq(apiKeys.id, created.chave.id));
    expect(again?.last_used_at?.getTime()).toBe(used?.last_used_at?.getTime());
    const listed = (await withCookie(owner, "GET", "/api/settings/api-keys")).json() as {
      id: string;
      ultimo_uso_em: string;
    }[];
    expect(listed.find((k) => k.id === created.chave.id)?.ultimo_uso_em).toBe(used?.last_used_at?.toISOString());

    // Creating and revoking are audited (with the person's session, no key named).
    const revoked = await withCookie(owner, "POST", `/api/settings/api-keys/${created.chave.id}/revoke`);
    expect(revoked.statusCode, revoked.body).toBe(200);
    expect(revoked.json()).toMatchObject({ status: "revogada" });
    expect(revoked.json().revogada_em).toEqual(expect.any(String));
    const again2 = await withCookie(owner, "POST", `/api/settings/api-keys/${created.chave.id}/revoke`);
    expect(again2.json()).toMatchObject({ status: "revogada", revogada_em: revoked.json().revogada_em });
    const events = await ctx.database.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.tenant_id, owner.tenantId), eq(auditEvents.entity_id, created.chave.id)));
    expect(events.map((e) => e.action).sort()).toEqual(["api_key.created", "api_key.revoked"]);
    expect(events.every((e) => e.actor_profile_id === owner.profileId && !("chave_api" in e.data))).toBe(true);
  });

  it("is for the owner and administrators; a key never acts above its creator", async () => {
    const clinic = await newEstablishment(ctx.app);
    const admin = await newStaff(ctx.app, ctx.database, clinic.tenantId, "admin");
    const atendente = await newStaff(ctx.app, ctx.database, clinic.tenantId, "atendente");
    expect((await withCookie(atendente, "GET", "/api/settings/api-keys")).statusCode).toBe(403);
    const refused = await withCookie(atendente, "POST", "/api/settings/api-keys", { nome: "X", role: "auditor" });
    expect(refused.statusCode).toBe(403);

    // An administrator may not hand out a professional's permissions (private procedures, own e-CPF).
    for (const role of ["profissional", "pro_saude"]) {
      const above = await withCookie(admin, "POST", "/api/settings/api-keys", { nome: "X", role });
      expect(above.statusCode, role).toBe(403);
      expect(above.json()).toEqual({ code: "API_KEY_ROLE_ABOVE", message: ERRORS.API_KEY_ROLE_ABOVE.message });
    }
    for (const role of ["admin", "atendente", "juridico", "auditor"]) {
      expect((await withCookie(admin, "POST", "/api/settings/api-keys", { nome: `A ${role}`, role })).statusCode).toBe(
        201,
      );
    }
    // The owner may choose any role of the table.
    expect(
      (await withCookie(clinic, "POST", "/api/settings/api-keys", { nome: "P", role: "profissional" })).statusCode,
    ).toBe(201);

    // The creator deactivated: their keys stop working.
    const key = await createKey(admin, { nome: "Do administrador", role: "auditor" });
    expect((await withKey(key.segredo, "GET", "/api/patients")).statusCode).toBe(200);
    const off = await withCookie(clinic, "PATCH", `/api/users/${admin.profileId}/status`, { is_active: false });
    expect(off.statusCode, off.body).toBe(200);
    const after = await withKey(key.segredo, "GET", "/api/patients");
    expect(after.statusCode).toBe(401);
    expect(after.json()).toEqual(invalidKeyBody);
  });

  it("answers malformed bodies and ids with 400, and no session with 401", async () => {
    const bodies: unknown[] = [
      {},
      { nome: "   ", role: "atendente" },
      { nome: "X" },
      { nome: "X", role: "saas_admin" },
      { nome: "X", role: "dono" },
      { nome: "X", role: "atendente", expira_em: "2031-02-30" },
      { nome: "X", role: "atendente", expira_em: "amanhã" },
      { nome: "X", role: "atendente", expira_em: "2020-01-01" },
      { nome: "x".repeat(101), role: "atendente" },
      [],
    ];
    for (const body of bodies) {
      const response = await withCookie(owner, "POST", "/api/settings/api-keys", body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json().message, JSON.stringify(body)).toEqual(expect.any(String));
    }
    const notJson = await ctx.app.inject({
      method: "POST",
      url: "/api/settings/api-keys",
      headers: { cookie: owner.cookie, "content-type": "application/json" },
      payload: "{nome:",
    });
    expect(notJson.statusCode).toBe(400);
    expect((await withCookie(owner, "POST", "/api/settings/api-keys/nao-e-um-id/revoke")).statusCode).toBe(400);
    expect((await ctx.app.inject({ method: "GET", url: "/api/settings/api-keys" })).statusCode).toBe(401);

    // A key valid for the whole of today (São Paulo) and one with a later last day.
    const today = new Intl.DateTimeFormat("en-CA", { timeZone: "America/Sao_Paulo" }).format(new Date());
    const todayKey = await createKey(owner, { nome: "Hoje", role: "auditor", expira_em: today });
    expect(todayKey.chave).toMatchObject({ expira_em: today, status: "ativa" });
    expect((await withKey(todayKey.segredo, "GET", "/api/patients")).statusCode).toBe(200);
  });
});

describe("Bearer requests", () => {
  it("act with the key's role in the creator's clinic, through the same routes and policy", async () => {
    const patient = await withCookie(owner, "POST", "/api/patients", { nome: "Paciente da Chave" });
    expect(patient.statusCode).toBe(201);
    const writer = await createKey(owner, { nome: "Prontuário", role: "atendente" });
    const reader = await createKey(owner, { nome: "Auditoria externa", role: "auditor" });
    const ownerName = (await withCookie(owner, "GET", "/api/auth/me")).json().profile.nome as string;

    const read = await withKey(reader.segredo, "GET", `/api/patients/${patient.json().id}`);
    expect(read.statusCode, read.body).toBe(200);
    expect(read.json()).toMatchObject({ nome: "Paciente da Chave" });

    // The auditor's role may read, not write: 403 as a session of that role would get.
    const denied = await withKey(reader.segredo, "POST", "/api/patients", { nome: "Não pode" });
    expect(denied.statusCode).toBe(403);
    expect(denied.json().code).toBe("FORBIDDEN");
    const deleteDenied = await withKey(writer.segredo, "DELETE", `/api/patients/${patient.json().id}`);
    expect(deleteDenied.statusCode).toBe(403);
    // An owner-only action: a key is never the owner.
    const ownerKey = await createKey(owner, { nome: "Admin", role: "admin" });
    expect((await withKey(ownerKey.segredo, "GET", "/api/users")).statusCode).toBe(403);

    // Writes through the key: bad bodies are 400 as always; a cross-site Origin does not matter.
    expect((await withKey(writer.segredo, "POST", "/api/patients", { nome: "" })).statusCode).toBe(400);
    const created = await withKey(
      writer.segredo,
      "POST",
      "/api/patients",
      { nome: "Criada pela Integração" },
      {
        origin: "https://outro-sistema.example",
        "sec-fetch-site": "cross-site",
      },
    );
    expect(created.statusCode, created.body).toBe(201);
    // …while a cookie request from that origin is still refused.
    const cookieCrossSite = await ctx.app.inject({
      method: "POST",
      url: "/api/patients",
      headers: { cookie: owner.cookie, origin: "https://outro-sistema.example" },
      payload: { nome: "Não" },
    });
    expect(cookieCrossSite.statusCode).toBe(403);
    expect(cookieCrossSite.json().code).toBe("ORIGIN_MISMATCH");

    // Every audit event made through the key names it (id, name, prefix).
    const events = await ctx.database.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.tenant_id, owner.tenantId), eq(auditEvents.entity_id, created.json().id)));
    expect(events.length).toBeGreaterThan(0);
    for (const event of events) {
      expect(event.data.chave_api, event.action).toEqual({
        id: writer.chave.id,
        nome: "Prontuário",
        prefixo: writer.chave.prefixo,
      });
      expect(event.actor_profile_id).toBe(owner.profileId);
    }
    const readEvents = await ctx.database.db
      .select()
      .from(auditEvents)
      .where(
        and(
          eq(auditEvents.tenant_id, owner.tenantId),
          eq(auditEvents.entity_id, patient.json().id),
          eq(auditEvents.action, "patient.viewed"),
        ),
      );
    // The read left its event in the trail, naming the key too.
    expect(readEvents.length).toBeGreaterThan(0);
    for (const event of readEvents) expect((event.data.chave_api as { id: string }).id).toBe(reader.chave.id);
    // The patient's access log (LGPD export) says the key read the record, and who created it.
    const exported = await withCookie(owner, "GET", `/api/patients/${patient.json().id}/export`);
    expect(exported.statusCode).toBe(200);
    const log = JSON.parse(entryText(unzipEntries(exported.rawPayload), "registro-de-acessos.json")) as {
      quem: string;
    }[];
    expect(log.map((entry) => entry.quem)).toContain(
      `Chave de API “Auditoria externa” (${reader.chave.prefixo}…), criada por ${ownerName}`,
    );
    // The chain still verifies with those events in it.
    const verify = await withCookie(owner, "GET", "/api/audit/verify");
    expect(verify.statusCode, verify.body).toBe(200);
    expect(verify.json()).toMatchObject({ intact: true, problems: [] });
  });

  it("answers one 401, with no hint which, for unknown, malformed, revoked and expired keys", async () => {
    const revoked = await createKey(owner, { nome: "Revogada", role: "auditor" });
    expect((await withKey(revoked.segredo, "GET", "/api/patients")).statusCode).toBe(200);
    await withCookie(owner, "POST", `/api/settings/api-keys/${revoked.chave.id}/revoke`);
    const expired = await createKey(owner, { nome: "Expirada", role: "auditor" });
    expect((await withKey(expired.segredo, "GET", "/api/patients")).statusCode).toBe(200);
    await ctx.database.db
      .update(apiKeys)
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where(eq(apiKeys.id, expired.chave.id));
    const list = (await withCookie(owner, "GET", "/api/settings/api-keys")).json() as { id: string; status: string }[];
    expect(list.find((k) => k.id === expired.chave.id)?.status).toBe("expirada");

    const unknown = `csk_live_${"A".repeat(43)}`;
    const cases = [
      revoked.segredo,
      expired.segredo,
      unknown,
      `${revoked.segredo}x`,
      "csk_live_curta",
      "não é uma chave",
      "",
      revoked.chave.prefixo,
    ];
    for (const key of cases) {
      const response = await ctx.app.inject({
        method: "GET",
        url: "/api/patients",
        headers: { authorization: `Bearer ${key}` },
      });
      expect(response.statusCode, key).toBe(401);
      expect(response.json(), key).toEqual(invalidKeyBody);
    }
    // The same for a write with a body: refused before the body is looked at.
    const write = await withKey(revoked.segredo, "POST", "/api/patients", { nome: "X" });
    expect(write.statusCode).toBe(401);
    expect(write.json()).toEqual(invalidKeyBody);
  });

  it("keeps clinics apart: another clinic's ids are 404, its keys are not listed nor revocable", async () => {
    const patientA = await withCookie(owner, "POST", "/api/patients", { nome: "Paciente da Clínica A" });
    const keyA = await createKey(owner, { nome: "Clínica A", role: "atendente" });
    const keyB = await createKey(other, { nome: "Clínica B", role: "admin" });

    const cross = await withKey(keyB.segredo, "GET", `/api/patients/${patientA.json().id}`);
    expect(cross.statusCode).toBe(404);
    const crossWrite = await withKey(keyB.segredo, "PUT", `/api/patients/${patientA.json().id}`, { nome: "Trocado" });
    expect(crossWrite.statusCode).toBe(404);
    const listB = await withKey(keyB.segredo, "GET", "/api/patients?busca=Paciente%20da%20Cl%C3%ADnica%20A");
    expect(listB.statusCode).toBe(200);
    expect(listB.body).not.toContain("Paciente da Clínica A");

    const revokeAcross = await withCookie(other, "POST", `/api/settings/api-keys/${keyA.chave.id}/revoke`);
    expect(revokeAcross.statusCode).toBe(404);
    expect(revokeAcross.json().code).toBe("API_KEY_NOT_FOUND");
    const keysOfB = (await withCookie(other, "GET", "/api/settings/api-keys")).json() as { id: string }[];
    expect(keysOfB.map((k) => k.id)).toContain(keyB.chave.id);
    expect(keysOfB.map((k) => k.id)).not.toContain(keyA.chave.id);
    expect((await withKey(keyA.segredo, "GET", "/api/patients")).statusCode).toBe(200);
  });

  it("never manages keys, nor a person's own session or signature; a key with a cookie is refused", async () => {
    const key = await createKey(owner, { nome: "Tenta criar chaves", role: "admin" });
    const attempts: [Method, string, unknown?][] = [
      ["GET", "/api/settings/api-keys"],
      ["POST", "/api/settings/api-keys", { nome: "Filha", role: "admin" }],
      ["POST", `/api/settings/api-keys/${key.chave.id}/revoke`],
      ["GET", "/api/auth/me"],
      ["PATCH", "/api/profile", {}],
      ["POST", "/api/profile/password", {}],
      ["GET", "/api/me/template-defaults"],
      ["GET", "/api/events"],
      ["POST", "/api/documents/professional-signatures/code", {}],
      ["GET", "/api/certificates"],
    ];
    for (const [method, url, body] of attempts) {
      const response = await withKey(key.segredo, method, url, body);
      expect(response.statusCode, url).toBe(403);
      expect(response.json(), url).toEqual({
        code: "API_KEY_SESSION_ONLY",
        message: ERRORS.API_KEY_SESSION_ONLY.message,
      });
    }
    const [row] = await ctx.database.db.select().from(apiKeys).where(eq(apiKeys.id, key.chave.id));
    expect(row?.revoked_at).toBeNull();
    const count = await rawRows<{ n: number }>(
      ctx.database.db,
      sql`select count(*)::int as n from api_keys where tenant_id = ${owner.tenantId} and nome = 'Filha'`,
    );
    expect(count[0]?.n).toBe(0);

    const both = await ctx.app.inject({
      method: "GET",
      url: "/api/patients",
      headers: { authorization: `Bearer ${key.segredo}`, cookie: owner.cookie },
    });
    expect(both.statusCode).toBe(400);
    expect(both.json().code).toBe("API_KEY_WITH_SESSION");
  });
});

describe("rate limit per key", () => {
  it("counts each key on its own and answers 429 with Retry-After past the limit", async () => {
    const limited = await createTestApp({ database: ctx.database, env: { RATE_LIMIT_API_KEY_PER_MINUTE: "3" } });
    try {
      const clinic = await newClinic(limited.app);
      const make = async (nome: string) => {
        const response = await limited.app.inject({
          method: "POST",
          url: "/api/settings/api-keys",
          headers: { cookie: clinic.cookie },
          payload: { nome, role: "auditor" },
        });
        return (response.json() as { segredo: string }).segredo;
      };
      const first = await make("Primeira");
      const second = await make("Segunda");
      const get = (key: string) =>
        limited.app.inject({ method: "GET", url: "/api/patients", headers: { authorization: `Bearer ${key}` } });
      for (let i = 0; i < 3; i += 1) expect((await get(first)).statusCode).toBe(200);
      const over = await get(first);
      expect(over.statusCode).toBe(429);
      expect(over.json()).toEqual({ code: "API_KEY_RATE_LIMITED", message: ERRORS.API_KEY_RATE_LIMITED.message });
      expect(Number(over.headers["retry-after"])).toBeGreaterThan(0);
      expect(Number(over.headers["retry-after"])).toBeLessThanOrEqual(60);
      // Another key of the same clinic, and the person's session, are not held back.
      expect((await get(second)).statusCode).toBe(200);
      const session = await limited.app.inject({
        method: "GET",
        url: "/api/patients",
        headers: { cookie: clinic.cookie },
      });
      expect(session.statusCode).toBe(200);
    } finally {
      await limited.close();
    }
  });
});
