import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rawRows } from "../../src/db/raw.js";
import { newClinic, newStaff, type SignedIn } from "../helpers/sessions.js";
import { createTestApp, type TestContext } from "../helpers/test-app.js";

let ctx: TestContext;
let clinic: SignedIn;
let other: SignedIn;

beforeAll(async () => {
  ctx = await createTestApp();
  clinic = await newClinic(ctx.app);
  other = await newClinic(ctx.app);
});
afterAll(async () => {
  await ctx.close();
});

const KINDS = ["riscos", "beneficios", "cuidados"] as const;
type Kind = (typeof KINDS)[number];

const call = (who: SignedIn | null, method: "GET" | "POST" | "PUT" | "DELETE", url: string, payload?: unknown) =>
  ctx.app.inject({ method, url, payload: payload as object, headers: who ? { cookie: who.cookie } : {} });

async function create(who: SignedIn, kind: Kind, overrides: Record<string, unknown> = {}) {
  const response = await call(who, "POST", `/api/content/${kind}`, {
    titulo: "Edema",
    descricao: "Inchaço local nos primeiros dias",
    categoria: "Comum",
    periodo: "7 dias",
    ...overrides,
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json();
}

const idsOf = (response: { json(): { items: { id: string }[] } }) => response.json().items.map((p) => p.id);

describe("content items: create, read, update, delete", () => {
  for (const kind of KINDS) {
    it(`keeps ${kind}: creates, lists, updates and deletes, with audit events`, async () => {
      const created = await create(clinic, kind, { titulo: `  Item de ${kind}  ` });
      expect(created).toMatchObject({
        kind,
        titulo: `Item de ${kind}`,
        descricao: "Inchaço local nos primeiros dias",
        // Risks and benefits keep a category; aftercare items a period.
        categoria: kind === "cuidados" ? null : "Comum",
        periodo: kind === "cuidados" ? "7 dias" : null,
      });
      expect(idsOf(await call(clinic, "GET", `/api/content/${kind}`))).toContain(created.id);

      const updated = await call(clinic, "PUT", `/api/content/${kind}/${created.id}`, {
        titulo: "Novo",
        descricao: "Nova descrição",
      });
      expect(updated.statusCode).toBe(200);
      expect(updated.json()).toMatchObject({
        id: created.id,
        titulo: "Novo",
        descricao: "Nova descrição",
        categoria: null,
        periodo: null,
      });

      expect((await call(clinic, "DELETE", `/api/content/${kind}/${created.id}`)).statusCode).toBe(204);
      expect(idsOf(await call(clinic, "GET", `/api/content/${kind}`))).not.toContain(created.id);
      expect((await call(clinic, "DELETE", `/api/content/${kind}/${created.id}`)).statusCode).toBe(404);
      const events = await rawRows<{ action: string }>(
        ctx.database.db,
        sql`select action from audit_events where entity_id = ${created.id} order by created_at`,
      );
      expect(events.map((e) => e.action)).toEqual(["content.created", "content.updated", "content.deleted"]);
    });
  }

  it("keeps each kind apart: an id of one kind is not found under another", async () => {
    const risk = await create(clinic, "riscos");
    expect(
      (await call(clinic, "PUT", `/api/content/beneficios/${risk.id}`, { titulo: "X", descricao: "Y" })).statusCode,
    ).toBe(404);
    expect((await call(clinic, "DELETE", `/api/content/cuidados/${risk.id}`)).statusCode).toBe(404);
    expect(idsOf(await call(clinic, "GET", "/api/content/beneficios"))).not.toContain(risk.id);
  });

  it("refuses a missing title or description and overlong fields with pt-BR messages", async () => {
    const cases: [Record<string, unknown>, string, string][] = [
      [{ descricao: "D" }, "titulo", "Informe o título"],
      [{ titulo: "  ", descricao: "D" }, "titulo", "Informe o título"],
      [{ titulo: "T" }, "descricao", "Informe a descrição"],
      [{ titulo: "T", descricao: "   " }, "descricao", "Informe a descrição"],
      [{ titulo: "x".repeat(201), descricao: "D" }, "titulo", "Use no máximo 200 caracteres"],
      [{ titulo: "T", descricao: "x".repeat(5001) }, "descricao", "Use no máximo 5000 caracteres"],
      [{ titulo: "T", descricao: "D", categoria: "x".repeat(121) }, "categoria", "Use no máximo 120 caracteres"],
    ];
    for (const kind of KINDS) {
      for (const [body, path, message] of cases) {
        const response = await call(clinic, "POST", `/api/content/${kind}`, body);
        expect(response.statusCode, `${kind} ${JSON.stringify(body)}`).toBe(400);
        expect(response.json().issues, `${kind} ${JSON.stringify(body)}`).toContainEqual({ path, message });
      }
    }
  });

  it("answers malformed bodies, ids and kinds with 400", async () => {
    const notJson = await ctx.app.inject({
      method: "POST",
      url: "/api/content/riscos",
      headers: { cookie: clinic.cookie, "content-type": "application/json" },
      payload: "{titulo",
    });
    expect(notJson.statusCode).toBe(400);
    expect((await call(clinic, "POST", "/api/content/riscos", { titulo: 1, descricao: 2 })).statusCode).toBe(400);
    expect((await call(clinic, "POST", "/api/content/riscos", ["titulo"])).statusCode).toBe(400);
    expect(
      (await call(clinic, "PUT", "/api/content/riscos/nao-e-uuid", { titulo: "T", descricao: "D" })).statusCode,
    ).toBe(400);
    expect((await call(clinic, "GET", "/api/content/vacinas")).statusCode).toBe(400);
    expect((await call(clinic, "POST", "/api/content/vacinas", { titulo: "T", descricao: "D" })).statusCode).toBe(400);
  });

  it("lists by title and searches title, description and category or period, ignoring case and accents", async () => {
    const library = await newClinic(ctx.app);
    const infeccao = await create(library, "riscos", { titulo: "Infecção", descricao: "Raro", categoria: "Grave" });
    const alergia = await create(library, "riscos", {
      titulo: "Alergia",
      descricao: "Reação ao anestésico",
      categoria: "Moderado",
    });
    const repouso = await create(library, "cuidados", {
      titulo: "Repouso",
      descricao: "Evitar esforço",
      periodo: "Primeira semana",
    });
    expect(idsOf(await call(library, "GET", "/api/content/riscos"))).toEqual([alergia.id, infeccao.id]);
    expect(idsOf(await call(library, "GET", "/api/content/riscos?q=INFECCAO"))).toEqual([infeccao.id]);
    expect(idsOf(await call(library, "GET", "/api/content/riscos?q=anestesico"))).toEqual([alergia.id]);
    expect(idsOf(await call(library, "GET", "/api/content/riscos?q=grave"))).toEqual([infeccao.id]);
    expect(idsOf(await call(library, "GET", "/api/content/cuidados?q=semana"))).toEqual([repouso.id]);
    expect(idsOf(await call(library, "GET", "/api/content/cuidados?q=grave"))).toEqual([]);
    expect((await call(library, "GET", "/api/content/riscos")).json().truncated).toBe(false);
  });
});

describe("content items: roles, tenants and sessions", () => {
  it("lets the care team and front desk write; auditors and legal staff only read", async () => {
    const item = await create(clinic, "beneficios");
    for (const role of ["profissional", "admin", "atendente", "pro_saude"] as const) {
      const staff = await newStaff(ctx.app, ctx.database, clinic.tenantId, role);
      const created = await call(staff, "POST", "/api/content/beneficios", { titulo: `De ${role}`, descricao: "D" });
      expect(created.statusCode, role).toBe(201);
      expect((await call(staff, "DELETE", `/api/content/beneficios/${created.json().id}`)).statusCode, role).toBe(204);
    }
    for (const role of ["auditor", "juridico"] as const) {
      const staff = await newStaff(ctx.app, ctx.database, clinic.tenantId, role);
      expect(idsOf(await call(staff, "GET", "/api/content/beneficios"))).toContain(item.id);
      expect(
        (await call(staff, "POST", "/api/content/beneficios", { titulo: "T", descricao: "D" })).statusCode,
        role,
      ).toBe(403);
      expect(
        (await call(staff, "PUT", `/api/content/beneficios/${item.id}`, { titulo: "T", descricao: "D" })).statusCode,
        role,
      ).toBe(403);
      expect((await call(staff, "DELETE", `/api/content/beneficios/${item.id}`)).statusCode, role).toBe(403);
    }
  });

  it("never shows or changes another clinic's item (404), and RLS agrees", async () => {
    for (const kind of KINDS) {
      const mine = await create(clinic, kind, { titulo: "Exclusivo" });
      const put = await call(other, "PUT", `/api/content/${kind}/${mine.id}`, { titulo: "Invasor", descricao: "X" });
      expect(put.statusCode, kind).toBe(404);
      expect(put.json()).toEqual({ code: "NOT_FOUND", message: "Item não encontrado" });
      expect((await call(other, "DELETE", `/api/content/${kind}/${mine.id}`)).statusCode, kind).toBe(404);
      expect(idsOf(await call(other, "GET", `/api/content/${kind}`))).not.toContain(mine.id);
      expect(idsOf(await call(other, "GET", `/api/content/${kind}?q=exclusivo`))).not.toContain(mine.id);
      expect(idsOf(await call(clinic, "GET", `/api/content/${kind}?q=exclusivo`))).toContain(mine.id);
    }
    for (const table of ["riscos", "beneficios", "cuidados_pos"]) {
      const seen = await ctx.database.db.transaction(async (tx) => {
        await tx.execute(sql`select set_config('app.tenant_id', ${other.tenantId}, true)`);
        await tx.execute(sql`set local role consentir_app`);
        return rawRows<{ n: number }>(
          tx,
          sql`select count(*)::int as n from ${sql.identifier(table)} where tenant_id = ${clinic.tenantId}`,
        );
      });
      expect(seen[0]?.n, table).toBe(0);
    }
  });

  it("asks for a session", async () => {
    const id = crypto.randomUUID();
    const body = { titulo: "T", descricao: "D" };
    for (const [method, url, payload] of [
      ["GET", "/api/content/riscos", undefined],
      ["POST", "/api/content/beneficios", body],
      ["PUT", `/api/content/cuidados/${id}`, body],
      ["DELETE", `/api/content/riscos/${id}`, undefined],
    ] as const) {
      const response = await call(null, method, url, payload);
      expect(response.statusCode, `${method} ${url}`).toBe(401);
      expect(response.json().code).toBe("UNAUTHENTICATED");
    }
  });
});
