import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rawRows } from "../../src/db/raw.js";
import { escapeLike } from "../../src/server/lib/search-text.js";
import { searchCandidates } from "../../src/server/services/documents/document-search-candidates.js";
import { COUNT_WINDOW, FILTERED_COUNT_CAP, SEARCH_WINDOW } from "../../src/server/services/documents/list-documents.js";
import { insertPatient } from "../helpers/documents.js";
import { newClinic, type SignedIn } from "../helpers/sessions.js";
import { publishedTemplateVersion } from "../helpers/signing.js";
import { createTestApp, type TestContext } from "../helpers/test-app.js";

/**
 * Search at 1M documents (decision 036): a frequent term's page comes from the newest SEARCH_WINDOW
 * documents, a rare one's from the trigram index, and the total of a filtered list stops at
 * FILTERED_COUNT_CAP ("mais de 1.000"). Oracle: the same filter as plain SQL over the clinic's rows.
 *
 * 6,000 documents, one a minute back from now: every 4th is "Toxina botulínica" (1,500: past the
 * cap), every 200th "Implante dentário" (30: fills a page inside the window), three old ones
 * "Rinoplastia" (only past the window), the rest "Extração de siso". Another clinic has 50
 * "Toxina botulínica" documents that must never show.
 *
 * Patients' names (decision 036): older than all of those, documents made out to "Maria Silva"
 * (30), "Maria Silvana", "Maria da Silva Conceição", "João Silva Santos" (the patient renamed since),
 * "Silva Oliveira" after the procedure "Preenchimento Maria" (a match across procedure and name), a
 * title "Termo Maria Silva" for "Ana Maria" (a match in the title), and two recent "Ana Maria"
 * documents inside the window. A third clinic has the same names and procedures.
 */
const DOCUMENTS = 6_000;
let ctx: TestContext;
let clinic: SignedIn;
let other: SignedIn;
let third: SignedIn;

async function fill(owner: SignedIn, n: number, procedure: string) {
  const versionId = await publishedTemplateVersion(ctx.app, owner);
  const patientId = await insertPatient(ctx.database, owner.tenantId);
  await ctx.database.db.execute(sql`
    insert into contratos (tenant_id, paciente_id, template_version_id, titulo, procedimento, status, variaveis_preenchidas, documento, conteudo_sha256, expiracao_at, created_at, updated_at)
    select ${owner.tenantId}::uuid, ${patientId}::uuid, ${versionId}::uuid, 'Termo ' || i,
      case when ${procedure}::text <> '' then ${procedure}::text
           when i in (5500, 5600, 5700) then 'Rinoplastia'
           when i % 200 = 1 then 'Implante dentário'
           when i % 4 = 0 then 'Toxina botulínica'
           else 'Extração de siso' end,
      'draft', '{}'::jsonb, '{}'::jsonb, repeat('0', 64),
      now() + interval '7 days', now() - (i || ' minutes')::interval, now() - (i || ' minutes')::interval
    from generate_series(1, ${n}) as i`);
}

/** Documents made out to named patients: [frozen name, current name, procedure, title, minutes ago, how many]. */
type Named = [string, string, string, string, number, number];
const NAMED: Named[] = [
  ["Maria Silva", "Maria Silva", "Otoplastia", "Termo", 7000, 30],
  ["Maria Silvana", "Maria Silvana", "Peeling químico", "Termo", 7100, 3],
  ["Maria da Silva Conceição", "Maria da Silva Conceição", "Otoplastia", "Termo", 7200, 10],
  ["João Silva Santos", "João Santos", "Mamoplastia", "Termo", 7300, 2],
  ["Silva Oliveira", "Silva Oliveira", "Preenchimento Maria", "Termo", 7400, 2],
  ["Ana Maria", "Ana Maria", "Peeling químico", "Termo Maria Silva", 7500, 1],
  ["Ana Maria", "Ana Maria", "Peeling químico", "Termo", 0.5, 2],
];

async function fillNamed(owner: SignedIn) {
  const versionId = await publishedTemplateVersion(ctx.app, owner);
  const patients = new Map<string, string>();
  for (const [frozen, current, procedure, title, minutes, n] of NAMED) {
    const patientId = patients.get(current) ?? (await insertPatient(ctx.database, owner.tenantId, current));
    patients.set(current, patientId);
    await ctx.database.db.execute(sql`
      insert into contratos (tenant_id, paciente_id, template_version_id, titulo, procedimento, status, variaveis_preenchidas, documento, conteudo_sha256, expiracao_at, created_at, updated_at)
      select ${owner.tenantId}::uuid, ${patientId}::uuid, ${versionId}::uuid, ${title}::text, ${procedure}::text, 'draft',
        jsonb_build_object('paciente_nome', ${frozen}::text), '{}'::jsonb, repeat('0', 64), now() + interval '7 days',
        now() - ((${minutes}::float8 + i / 100.0) || ' minutes')::interval, now()
      from generate_series(1, ${n}) as i`);
  }
}

beforeAll(async () => {
  ctx = await createTestApp();
  clinic = await newClinic(ctx.app);
  other = await newClinic(ctx.app);
  await fill(clinic, DOCUMENTS, "");
  await fillNamed(clinic);
  await fill(other, 50, "Toxina botulínica");
  third = await newClinic(ctx.app);
  await fillNamed(third);
  await ctx.database.db.execute(sql`analyze contratos`);
}, 120_000);
afterAll(async () => {
  await ctx.close();
});

/** The clinic's documents whose busca holds `term` as the list compares it, newest first (the oracle). */
async function expectedSearch(term: string): Promise<string[]> {
  const rows = await rawRows<{ id: string }>(
    ctx.database.db,
    sql`select id from contratos where tenant_id = ${clinic.tenantId} and busca like '%' || app_search_text(${escapeLike(term)}) || '%' order by created_at desc, id desc`,
  );
  return rows.map((row) => row.id);
}

/** Every page of a search, following next_cursor; each page's total must be the capped count of all. */
async function allPages(q: string, all: number) {
  const ids: string[] = [];
  let cursor: string | undefined;
  for (let i = 0; i < 100; i++) {
    const result = await page(q, cursor);
    expect(result).toMatchObject({ total: Math.min(all, FILTERED_COUNT_CAP), total_capped: all > FILTERED_COUNT_CAP });
    ids.push(...result.items.map((item) => item.id));
    if (!result.next_cursor) return ids;
    cursor = result.next_cursor;
  }
  throw new Error("too many pages");
}

async function hasCandidates(q: string): Promise<boolean> {
  return ctx.database.db.transaction(async (tx) => (await searchCandidates(tx, clinic.tenantId, q)) !== null);
}

/** The clinic's documents whose procedure is `procedure`, newest first (the oracle). */
async function expected(procedure: string): Promise<string[]> {
  const rows = await rawRows<{ id: string }>(
    ctx.database.db,
    sql`select id from contratos where tenant_id = ${clinic.tenantId} and procedimento = ${procedure} order by created_at desc, id desc`,
  );
  return rows.map((row) => row.id);
}

async function page(q: string, cursor?: string) {
  const query = new URLSearchParams({ q, ...(cursor ? { cursor } : {}) });
  const response = await ctx.app.inject({
    method: "GET",
    url: `/api/documents?${query}`,
    headers: { cookie: clinic.cookie },
  });
  expect(response.statusCode).toBe(200);
  return response.json() as {
    items: { id: string }[];
    total: number;
    total_capped: boolean;
    next_cursor: string | null;
  };
}

describe("documents search at scale", () => {
  it("the windows and the cap are what this data set exercises", () => {
    expect(DOCUMENTS).toBeGreaterThan(SEARCH_WINDOW);
    expect(DOCUMENTS).toBeLessThan(COUNT_WINDOW);
    expect(DOCUMENTS / 4).toBeGreaterThan(FILTERED_COUNT_CAP);
  });

  it("a frequent term: the newest matches page after page, and the total stops at the cap", async () => {
    const all = await expected("Toxina botulínica");
    const first = await page("toxina");
    expect(first.items.map((item) => item.id)).toEqual(all.slice(0, 20));
    expect(first).toMatchObject({ total: FILTERED_COUNT_CAP, total_capped: true });
    const second = await page("toxina", first.next_cursor ?? "");
    expect(second.items.map((item) => item.id)).toEqual(all.slice(20, 40));
    expect(second).toMatchObject({ total: FILTERED_COUNT_CAP, total_capped: true });
  });

  it("a term that fills a page inside the window but matches fewer than the cap: exact total", async () => {
    const all = await expected("Implante dentário");
    expect(all).toHaveLength(30);
    const first = await page("implante");
    expect(first.items.map((item) => item.id)).toEqual(all.slice(0, 20));
    expect(first).toMatchObject({ total: 30, total_capped: false });
    const second = await page("implante", first.next_cursor ?? "");
    expect(second.items.map((item) => item.id)).toEqual(all.slice(20));
    expect(second.next_cursor).toBeNull();
  });

  it("a rare term found only past the window comes from the trigram index, with its exact total", async () => {
    const all = await expected("Rinoplastia");
    expect(all).toHaveLength(3);
    const result = await page("rinoplastia");
    expect(result.items.map((item) => item.id)).toEqual(all);
    expect(result).toMatchObject({ total: 3, total_capped: false, next_cursor: null });
  });

  it("a term nobody has: an empty page, total 0", async () => {
    expect(await page("blefaroplastia")).toMatchObject({ items: [], total: 0, total_capped: false, next_cursor: null });
  });

  it("never shows another clinic's documents, whichever path answers", async () => {
    const theirs = new Set(
      (
        await rawRows<{ id: string }>(
          ctx.database.db,
          sql`select id from contratos where tenant_id = ${other.tenantId}`,
        )
      ).map((r) => r.id),
    );
    expect(theirs.size).toBe(50);
    let cursor: string | undefined;
    for (let i = 0; i < 5; i++) {
      const result = await page("toxina", cursor);
      expect(result.items.some((item) => theirs.has(item.id))).toBe(false);
      cursor = result.next_cursor ?? undefined;
    }
  });

  it("a patient's name: the candidates (title part, names) answer it, every page and total as the oracle says", async () => {
    // [term, read from the candidates, matches (null: depends on the random ids)]: "maria silva" is
    // 30 "Maria Silva" + 3 "Maria Silvana" + 2 across procedure and name + 1 in a title.
    const cases: [string, boolean, number | null][] = [
      ["maria silva", true, 36],
      ["Maria Silva", true, 36],
      ["maria silvana", true, 3],
      ["maria da silva conceição", true, 10],
      ["maria da silva conceicao", true, 10],
      ["joão silva", true, 2],
      ["joao silva santos", true, 2],
      ["joão santos", true, 0],
      ["preenchimento maria silva", true, 2],
      ["maria silva oliveira", true, 2],
      ["otoplastia maria", true, 40],
      ["termo maria silva", true, 1],
      ["quimico ana maria", true, 3],
      ["ana maria", true, 3],
      ["silva oliv", true, 2],
      ["nobody here at all", true, 0],
      ["maria silva 1", true, null],
      ["silva c", true, null],
      ["termo 1234", true, 1],
      ["5aa5", false, null],
    ];
    // Matches that reach the id: a "Maria Silva" document's name and the start of its id.
    const [maria] = await rawRows<{ id: string }>(
      ctx.database.db,
      sql`select id from contratos where tenant_id = ${clinic.tenantId} and variaveis_preenchidas ->> 'paciente_nome' = 'Maria Silva' limit 1`,
    );
    cases.push(
      [`silva ${maria!.id.slice(0, 6)}`, true, null],
      [`otoplastia maria silva ${maria!.id.slice(0, 11)}`, true, null],
      [`silva ${maria!.id}`, true, 1],
    );
    for (const [term, candidates, n] of cases) {
      const all = await expectedSearch(term);
      if (n !== null) expect(all, term).toHaveLength(n);
      if (term.startsWith("silva ") && term.length > 10) expect(all, term).toContain(maria!.id);
      expect(await hasCandidates(term), term).toBe(candidates);
      expect(await allPages(term, all.length), term).toEqual(all);
    }
  });

  it("a patient's name never brings another clinic's documents, though it has the same names", async () => {
    const theirs = new Set(
      (
        await rawRows<{ id: string }>(
          ctx.database.db,
          sql`select id from contratos where tenant_id = ${third.tenantId}`,
        )
      ).map((r) => r.id),
    );
    expect(theirs.size).toBe(50);
    for (const term of ["maria silva", "preenchimento maria silva", "joão silva", "ana maria"]) {
      const ids = await allPages(term, (await expectedSearch(term)).length);
      expect(ids.length, term).toBeGreaterThan(0);
      expect(
        ids.some((id) => theirs.has(id)),
        term,
      ).toBe(false);
    }
  });

  it("contrato_nomes follows the documents: a renamed document moves, the last document takes its name away", async () => {
    const names = async () =>
      rawRows<{ nome: string; n: number }>(
        ctx.database.db,
        sql`select nome, n from contrato_nomes where tenant_id = ${clinic.tenantId} and nome like '%silvana%' order by nome`,
      );
    expect(await names()).toEqual([{ nome: "maria silvana", n: 3 }]);
    const [first, second, third] = await rawRows<{ id: string }>(
      ctx.database.db,
      sql`select id from contratos where tenant_id = ${clinic.tenantId} and variaveis_preenchidas ->> 'paciente_nome' = 'Maria Silvana' order by id`,
    );
    await ctx.database.db.execute(
      sql`update contratos set variaveis_preenchidas = jsonb_build_object('paciente_nome', 'Maria Silvana Prado') where id = ${first!.id}`,
    );
    expect(await names()).toEqual([
      { nome: "maria silvana", n: 2 },
      { nome: "maria silvana prado", n: 1 },
    ]);
    expect(await allPages("silvana prado", 1)).toEqual([first!.id]);
    await ctx.database.db.execute(sql`update contratos set status = 'cancelled' where id = ${second!.id}`);
    expect(await names()).toEqual([
      { nome: "maria silvana", n: 2 },
      { nome: "maria silvana prado", n: 1 },
    ]);
    await ctx.database.db.execute(sql`delete from contratos where id in (${first!.id}, ${second!.id}, ${third!.id})`);
    expect(await names()).toEqual([]);
    expect(await allPages("maria silvana", 0)).toEqual([]);
  });
});
