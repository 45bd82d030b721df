import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rawRows } from "../../src/db/raw.js";
import { procedimentos } from "../../src/db/schema.js";
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

const call = (who: SignedIn | null, method: "GET" | "POST" | "PUT" | "DELETE", url: string, payload?: unknown) =>
  ctx.app.inject({ method, url, payload: payload as object, headers: who ? { cookie: who.cookie } : {} });

async function create(who: SignedIn, overrides: Record<string, unknown> = {}) {
  const response = await call(who, "POST", "/api/procedures", {
    nome: "Toxina Botulínica",
    descricao: "Aplicação em rugas dinâmicas",
    especialidade: "dermatologia",
    ...overrides,
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json();
}

async function item(who: SignedIn, kind: "riscos" | "beneficios" | "cuidados", titulo: string) {
  const response = await call(who, "POST", `/api/content/${kind}`, { titulo, descricao: `Descrição de ${titulo}` });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().id as string;
}

const idsOf = (response: { json(): { items: { id: string }[] } }) => response.json().items.map((p) => p.id);

describe("procedures: create, read, update, delete", () => {
  it("creates, reads, updates and deletes a procedure, with audit events", async () => {
    const created = await create(clinic, { nome: "  Preenchimento Labial  " });
    expect(created).toMatchObject({
      nome: "Preenchimento Labial",
      descricao: "Aplicação em rugas dinâmicas",
      especialidade: "dermatologia",
      is_private: false,
      created_by: clinic.profileId,
    });
    expect((await call(clinic, "GET", `/api/procedures/${created.id}`)).json()).toEqual(created);

    const updated = await call(clinic, "PUT", `/api/procedures/${created.id}`, {
      nome: "Preenchimento",
      descricao: "",
    });
    expect(updated.statusCode).toBe(200);
    expect(updated.json()).toMatchObject({ nome: "Preenchimento", descricao: null, especialidade: null });

    expect((await call(clinic, "DELETE", `/api/procedures/${created.id}`)).statusCode).toBe(204);
    expect((await call(clinic, "GET", `/api/procedures/${created.id}`)).statusCode).toBe(404);
    const events = await rawRows<{ action: string }>(
      ctx.database.db,
      sql`select action from audit_events where entity_id = ${created.id} order by created_at`,
    );
    expect(events.map((e) => e.action)).toEqual(["procedure.created", "procedure.updated", "procedure.deleted"]);
  });

  it("keeps a price typed in reais as centavos: shown back, kept when left out, cleared when blank, refused when not an amount", async () => {
    const created = await create(clinic, { nome: "Bioestimulador", valor: "R$ 2.450,50" });
    expect(created.valor_centavos).toBe(245050);
    const path = `/api/procedures/${created.id}`;
    const kept = await call(clinic, "PUT", path, { nome: "Bioestimulador de colágeno" });
    expect(kept.json()).toMatchObject({ nome: "Bioestimulador de colágeno", valor_centavos: 245050 });
    const changed = await call(clinic, "PUT", path, { nome: "Bioestimulador", valor: "3000" });
    expect(changed.json().valor_centavos).toBe(300000);
    const [audited] = await rawRows<{ data: { campos: string[] } }>(
      ctx.database.db,
      sql`select data from audit_events where entity_id = ${created.id} and action = 'procedure.updated' order by seq desc limit 1`,
    );
    expect(audited!.data.campos).toEqual(["nome", "valor_centavos"]);
    expect((await call(clinic, "PUT", path, { nome: "Bioestimulador", valor: "" })).json().valor_centavos).toBeNull();

    for (const valor of ["12.5", "abc", "-10", "1,234.56"]) {
      const refused = await call(clinic, "PUT", path, { nome: "Bioestimulador", valor });
      expect(refused.statusCode).toBe(400);
      expect(refused.json().issues).toEqual([{ path: "valor", message: "Informe um valor em reais, como 1.234,56" }]);
    }
    const tooLarge = await call(clinic, "POST", "/api/procedures", { nome: "Caro demais", valor: "99.999.999,00" });
    expect(tooLarge.statusCode).toBe(400);
    expect(tooLarge.json().issues[0].message).toBe("O valor máximo é R$ 20.000.000,00");
    const wrongType = await call(clinic, "POST", "/api/procedures", { nome: "Tipo errado", valor: 1000 });
    expect(wrongType.statusCode).toBe(400);
  });

  it("refuses a missing name and overlong fields with pt-BR messages", async () => {
    const cases: [Record<string, unknown>, string, string][] = [
      [{}, "nome", "Informe o nome do procedimento"],
      [{ nome: "   " }, "nome", "Informe o nome do procedimento"],
      [{ nome: "x".repeat(161) }, "nome", "Use no máximo 160 caracteres"],
      [{ nome: "A", descricao: "x".repeat(2001) }, "descricao", "Use no máximo 2000 caracteres"],
      [{ nome: "A", especialidade: "x".repeat(121) }, "especialidade", "Use no máximo 120 caracteres"],
      // Chosen from the reference list (a slug), never typed.
      [{ nome: "A", especialidade: "Dermatologia" }, "especialidade", "Escolha uma especialidade da lista."],
      [{ nome: "A", especialidade: "cirurgia-plastica" }, "especialidade", "Escolha uma especialidade da lista."],
    ];
    for (const [body, path, message] of cases) {
      const response = await call(clinic, "POST", "/api/procedures", body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json().issues, JSON.stringify(body)).toContainEqual({ path, message });
    }
  });

  it("answers malformed bodies and ids with 400", async () => {
    const notJson = await ctx.app.inject({
      method: "POST",
      url: "/api/procedures",
      headers: { cookie: clinic.cookie, "content-type": "application/json" },
      payload: "{nome",
    });
    expect(notJson.statusCode).toBe(400);
    expect((await call(clinic, "POST", "/api/procedures", { nome: 42 })).statusCode).toBe(400);
    expect((await call(clinic, "POST", "/api/procedures", { nome: "A", is_private: "sim" })).statusCode).toBe(400);
    expect((await call(clinic, "POST", "/api/procedures", ["nome"])).statusCode).toBe(400);
    expect((await call(clinic, "GET", "/api/procedures/nao-e-uuid")).statusCode).toBe(400);
    expect((await call(clinic, "GET", `/api/procedures?q=${"x".repeat(101)}`)).statusCode).toBe(400);
  });

  it("lists by name and searches name, description and specialty, ignoring case and accents", async () => {
    const searcher = await newClinic(ctx.app);
    const ortho = await create(searcher, {
      nome: "Rinoplastia",
      descricao: "Cirurgia do nariz",
      especialidade: "cirurgia_plastica",
    });
    const derm = await create(searcher, {
      nome: "Ácido hialurônico",
      descricao: "Preenchimento",
      especialidade: "dermatologia",
    });
    const peel = await create(searcher, {
      nome: "Peeling químico",
      descricao: "100% seguro",
      especialidade: "dermatologia",
    });
    const all = await call(searcher, "GET", "/api/procedures");
    expect(all.json().truncated).toBe(false);
    expect(idsOf(all)).toEqual([derm.id, peel.id, ortho.id]);
    expect(idsOf(await call(searcher, "GET", "/api/procedures?q=ACIDO%20HIALURONICO"))).toEqual([derm.id]);
    expect(idsOf(await call(searcher, "GET", "/api/procedures?q=nariz"))).toEqual([ortho.id]);
    expect(idsOf(await call(searcher, "GET", "/api/procedures?q=dermato"))).toEqual([derm.id, peel.id]);
    expect(idsOf(await call(searcher, "GET", "/api/procedures?q=%25"))).toEqual([peel.id]);
    expect(idsOf(await call(searcher, "GET", "/api/procedures?q=_"))).toEqual([]);
    // The specialty by its name, not its slug.
    expect(idsOf(await call(searcher, "GET", `/api/procedures?q=${encodeURIComponent("CIRURGIA PLÁS")}`))).toEqual([
      ortho.id,
    ]);
    expect(idsOf(await call(searcher, "GET", "/api/procedures?q=cirurgia_plastica"))).toEqual([]);
  });

  it("keeps an older free-text specialty: shown, searched and saved again as it is, but not typed anew", async () => {
    const legacy = await newClinic(ctx.app);
    const row = await create(legacy, { nome: "Drenagem linfática" });
    await ctx.database.db
      .update(procedimentos)
      .set({ especialidade: "Estética avançada" })
      .where(eq(procedimentos.id, row.id));
    const listed = (await call(legacy, "GET", "/api/procedures")).json().items[0];
    expect(listed.especialidade).toBe("Estética avançada");
    expect(idsOf(await call(legacy, "GET", "/api/procedures?q=estetica%20avanc"))).toEqual([row.id]);
    const kept = await call(legacy, "PUT", `/api/procedures/${row.id}`, {
      nome: "Drenagem",
      especialidade: "Estética avançada",
    });
    expect(kept.statusCode, kept.body).toBe(200);
    const typed = await call(legacy, "PUT", `/api/procedures/${row.id}`, {
      nome: "Drenagem",
      especialidade: "Estética nova",
    });
    expect(typed.statusCode).toBe(400);
    expect(typed.json()).toMatchObject({
      code: "PROCEDURE_SPECIALTY_UNKNOWN",
      issues: [{ path: "especialidade", message: "Escolha uma especialidade da lista." }],
    });
    const chosen = await call(legacy, "PUT", `/api/procedures/${row.id}`, {
      nome: "Drenagem",
      especialidade: "fisioterapia_dermatofuncional",
    });
    expect(chosen.json().especialidade).toBe("fisioterapia_dermatofuncional");
  });
});

describe("procedures: the private/shared rule", () => {
  it("forces shared for an atendente (and other roles that may not make private), and says so", async () => {
    for (const role of ["atendente", "admin", "pro_saude"] as const) {
      const staff = await newStaff(ctx.app, ctx.database, clinic.tenantId, role);
      const created = await create(staff, { nome: `De ${role}`, is_private: true });
      expect(created.is_private, role).toBe(false);
      const updated = await call(staff, "PUT", `/api/procedures/${created.id}`, {
        nome: `De ${role}`,
        is_private: true,
      });
      expect(updated.json().is_private, role).toBe(false);
    }
  });

  it("lets a profissional make a procedure private: invisible to another profissional, visible to the owner", async () => {
    const pro = await newStaff(ctx.app, ctx.database, clinic.tenantId, "profissional");
    const colleague = await newStaff(ctx.app, ctx.database, clinic.tenantId, "profissional");
    const atendente = await newStaff(ctx.app, ctx.database, clinic.tenantId, "atendente");
    const mine = await create(pro, { nome: "Técnica própria", is_private: true });
    expect(mine.is_private).toBe(true);

    for (const who of [colleague, atendente]) {
      expect(idsOf(await call(who, "GET", "/api/procedures"))).not.toContain(mine.id);
      expect(idsOf(await call(who, "GET", "/api/procedures?q=propria"))).not.toContain(mine.id);
      for (const [method, url, body] of [
        ["GET", `/api/procedures/${mine.id}`, undefined],
        ["PUT", `/api/procedures/${mine.id}`, { nome: "Invasor" }],
        ["DELETE", `/api/procedures/${mine.id}`, undefined],
        ["GET", `/api/procedures/${mine.id}/associations`, undefined],
        ["PUT", `/api/procedures/${mine.id}/associations`, { riscos: [], beneficios: [], cuidados: [] }],
      ] as const) {
        const response = await call(who, method, url, body);
        expect(response.statusCode, `${method} ${url}`).toBe(404);
        expect(response.json()).toEqual({ code: "NOT_FOUND", message: "Procedimento não encontrado" });
      }
    }
    expect(idsOf(await call(pro, "GET", "/api/procedures"))).toContain(mine.id);
    expect(idsOf(await call(clinic, "GET", "/api/procedures"))).toContain(mine.id);
    expect((await call(clinic, "GET", `/api/procedures/${mine.id}`)).json().is_private).toBe(true);

    // Shared again: everyone sees it.
    const shared = await call(pro, "PUT", `/api/procedures/${mine.id}`, { nome: "Técnica própria", is_private: false });
    expect(shared.json().is_private).toBe(false);
    expect((await call(colleague, "GET", `/api/procedures/${mine.id}`)).statusCode).toBe(200);
    // A colleague may not make someone else's procedure private (it would vanish for its creator's peers but not for them).
    const attempt = await call(colleague, "PUT", `/api/procedures/${mine.id}`, {
      nome: "Técnica própria",
      is_private: true,
    });
    expect(attempt.json().is_private).toBe(false);
    // The owner may make any procedure private.
    const byOwner = await call(clinic, "PUT", `/api/procedures/${mine.id}`, {
      nome: "Técnica própria",
      is_private: true,
    });
    expect(byOwner.json().is_private).toBe(true);
    expect((await call(pro, "GET", `/api/procedures/${mine.id}`)).statusCode).toBe(200);
  });

  it("follows the role policy: auditors and legal staff only read", async () => {
    const procedure = await create(clinic, { nome: "Leitura apenas" });
    for (const role of ["auditor", "juridico"] as const) {
      const staff = await newStaff(ctx.app, ctx.database, clinic.tenantId, role);
      expect((await call(staff, "GET", `/api/procedures/${procedure.id}`)).statusCode).toBe(200);
      expect((await call(staff, "GET", `/api/procedures/${procedure.id}/associations`)).statusCode).toBe(200);
      const denied = await call(staff, "POST", "/api/procedures", { nome: "Não pode" });
      expect(denied.statusCode).toBe(403);
      expect(denied.json().message).toBe("Você não tem permissão para esta ação.");
      expect((await call(staff, "PUT", `/api/procedures/${procedure.id}`, { nome: "X" })).statusCode).toBe(403);
      expect((await call(staff, "DELETE", `/api/procedures/${procedure.id}`)).statusCode).toBe(403);
      expect(
        (
          await call(staff, "PUT", `/api/procedures/${procedure.id}/associations`, {
            riscos: [],
            beneficios: [],
            cuidados: [],
          })
        ).statusCode,
      ).toBe(403);
    }
  });
});

describe("procedures: associations", () => {
  it("saves and replaces the links; deleting a procedure or an item removes its links only", async () => {
    const procedure = await create(clinic, { nome: "Blefaroplastia" });
    const r1 = await item(clinic, "riscos", "Hematoma");
    const r2 = await item(clinic, "riscos", "Infecção");
    const b1 = await item(clinic, "beneficios", "Rejuvenescimento");
    const c1 = await item(clinic, "cuidados", "Compressas frias");
    const url = `/api/procedures/${procedure.id}/associations`;
    expect((await call(clinic, "GET", url)).json()).toEqual({ riscos: [], beneficios: [], cuidados: [] });

    const saved = await call(clinic, "PUT", url, { riscos: [r1, r2, r1], beneficios: [b1], cuidados: [c1] });
    expect(saved.statusCode, saved.body).toBe(200);
    const expected = { riscos: [r1, r2].sort(), beneficios: [b1], cuidados: [c1] };
    expect(saved.json()).toEqual(expected);
    expect((await call(clinic, "GET", url)).json()).toEqual(expected);

    const replaced = await call(clinic, "PUT", url, { riscos: [r2], beneficios: [], cuidados: [c1] });
    expect(replaced.json()).toEqual({ riscos: [r2], beneficios: [], cuidados: [c1] });

    expect((await call(clinic, "DELETE", `/api/content/cuidados/${c1}`)).statusCode).toBe(204);
    expect((await call(clinic, "GET", url)).json()).toEqual({ riscos: [r2], beneficios: [], cuidados: [] });

    expect((await call(clinic, "DELETE", `/api/procedures/${procedure.id}`)).statusCode).toBe(204);
    const links = await rawRows<{ n: number }>(
      ctx.database.db,
      sql`select count(*)::int as n from procedimento_riscos where procedimento_id = ${procedure.id}`,
    );
    expect(links[0]?.n).toBe(0);
    const risks = await call(clinic, "GET", "/api/content/riscos");
    expect(idsOf(risks)).toEqual(expect.arrayContaining([r1, r2]));
    const events = await rawRows<{ action: string }>(
      ctx.database.db,
      sql`select action from audit_events where entity_id = ${procedure.id} order by created_at`,
    );
    expect(events.map((e) => e.action)).toEqual([
      "procedure.created",
      "procedure.associations_saved",
      "procedure.associations_saved",
      "procedure.deleted",
    ]);
  });

  it("refuses another clinic's item, an unknown id or an item of the wrong kind, changing nothing", async () => {
    const procedure = await create(clinic, { nome: "Lipoaspiração" });
    const mine = await item(clinic, "riscos", "Seroma");
    const benefit = await item(clinic, "beneficios", "Contorno corporal");
    const theirs = await item(other, "riscos", "Risco alheio");
    const url = `/api/procedures/${procedure.id}/associations`;
    await call(clinic, "PUT", url, { riscos: [mine], beneficios: [benefit], cuidados: [] });

    for (const body of [
      { riscos: [theirs], beneficios: [], cuidados: [] },
      { riscos: [mine, crypto.randomUUID()], beneficios: [], cuidados: [] },
      { riscos: [], beneficios: [], cuidados: [benefit] },
    ]) {
      const refused = await call(clinic, "PUT", url, body);
      expect(refused.statusCode, JSON.stringify(body)).toBe(400);
      expect(refused.json()).toMatchObject({
        code: "ASSOCIATION_ITEM_UNKNOWN",
        message: "Um ou mais itens selecionados não existem mais. Recarregue a página e tente novamente.",
      });
      expect((await call(clinic, "GET", url)).json()).toEqual({ riscos: [mine], beneficios: [benefit], cuidados: [] });
    }
  });

  it("refuses malformed association bodies with 400", async () => {
    const procedure = await create(clinic, { nome: "Malformado" });
    const url = `/api/procedures/${procedure.id}/associations`;
    for (const body of [
      {},
      { riscos: ["nao-e-uuid"], beneficios: [], cuidados: [] },
      { riscos: "x", beneficios: [], cuidados: [] },
      [],
    ]) {
      expect((await call(clinic, "PUT", url, body)).statusCode, JSON.stringify(body)).toBe(400);
    }
  });
});

describe("procedures: tenants and sessions", () => {
  it("never shows or changes another clinic's procedure (404), and RLS agrees", async () => {
    const mine = await create(clinic, { nome: "Só desta clínica" });
    for (const [method, url, body] of [
      ["GET", `/api/procedures/${mine.id}`, undefined],
      ["PUT", `/api/procedures/${mine.id}`, { nome: "Invasor" }],
      ["DELETE", `/api/procedures/${mine.id}`, undefined],
      ["GET", `/api/procedures/${mine.id}/associations`, undefined],
      ["PUT", `/api/procedures/${mine.id}/associations`, { riscos: [], beneficios: [], cuidados: [] }],
    ] as const) {
      const response = await call(other, method, url, body);
      expect(response.statusCode, `${method} ${url}`).toBe(404);
    }
    expect(idsOf(await call(other, "GET", "/api/procedures"))).not.toContain(mine.id);
    expect(idsOf(await call(other, "GET", "/api/procedures?q=clinica"))).not.toContain(mine.id);
    expect((await call(clinic, "GET", `/api/procedures/${mine.id}`)).json().nome).toBe("Só desta clínica");

    // Under the app role, another tenant sees no row even without a WHERE on tenant.
    const seen = await ctx.database.db.transaction(async (tx) => {
      await tx.execute(sql`select set_config('app.tenant_id', ${other.tenantId}, true)`);
      await tx.execute(sql`set local role consentir_app`);
      return rawRows<{ n: number }>(tx, sql`select count(*)::int as n from procedimentos where id = ${mine.id}`);
    });
    expect(seen[0]?.n).toBe(0);
  });

  it("asks for a session", async () => {
    const id = crypto.randomUUID();
    const links = { riscos: [], beneficios: [], cuidados: [] };
    for (const [method, url, body] of [
      ["GET", "/api/procedures", undefined],
      ["POST", "/api/procedures", { nome: "X" }],
      ["GET", `/api/procedures/${id}`, undefined],
      ["PUT", `/api/procedures/${id}`, { nome: "X" }],
      ["DELETE", `/api/procedures/${id}`, undefined],
      ["GET", `/api/procedures/${id}/associations`, undefined],
      ["PUT", `/api/procedures/${id}/associations`, links],
    ] as const) {
      const response = await call(null, method, url, body);
      expect(response.statusCode, `${method} ${url}`).toBe(401);
      expect(response.json().code).toBe("UNAUTHENTICATED");
    }
  });
});
