import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rawRows } from "../../src/db/raw.js";
import { COUNT_WINDOW, FILTERED_COUNT_CAP, SEARCH_WINDOW } from "../../src/server/services/documents/list-documents.js";
import { insertPatient } from "../helpers/documents.js";
import { newClinic, type SignedIn } from "../helpers/sessions.js";
import { publishedTemplateVersion } from "../helpers/signing.js";
import { createTestApp, type TestContext } from "../helpers/test-app.js";

/**
 * Issue 16 (search at 1M documents): a frequent term's page comes from the newest SEARCH_WINDOW
 * documents, a rare one's from the trigram index, and the total of a filtered list stops at
 * FILTERED_COUNT_CAP ("mais de 1.000"). Oracle: the same filter as plain SQL over the clinic's rows.
 *
 * 6,000 documents, one a minute back from now: every 4th is "Toxina botulínica" (1,500: past the
 * cap), every 200th "Implante dentário" (30: fills a page inside the window), three old ones
 * "Rinoplastia" (only past the window), the rest "Extração de siso". Another clinic has 50
 * "Toxina botulínica" documents that must never show.
 */
const DOCUMENTS = 6_000;
let ctx: TestContext;
let clinic: SignedIn;
let other: SignedIn;

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

beforeAll(async () => {
  ctx = await createTestApp();
  clinic = await newClinic(ctx.app);
  other = await newClinic(ctx.app);
  await fill(clinic, DOCUMENTS, "");
  await fill(other, 50, "Toxina botulínica");
  await ctx.database.db.execute(sql`analyze contratos`);
}, 120_000);
afterAll(async () => {
  await ctx.close();
});

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
  const response = await ctx.app.inject({ method: "GET", url: `/api/documents?${query}`, headers: { cookie: clinic.cookie } });
  expect(response.statusCode).toBe(200);
  return response.json() as { items: { id: string }[]; total: number; total_capped: boolean; next_cursor: string | null };
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
    const theirs = new Set((await rawRows<{ id: string }>(ctx.database.db, sql`select id from contratos where tenant_id = ${other.tenantId}`)).map((r) => r.id));
    expect(theirs.size).toBe(50);
    let cursor: string | undefined;
    for (let i = 0; i < 5; i++) {
      const result = await page("toxina", cursor);
      expect(result.items.some((item) => theirs.has(item.id))).toBe(false);
      cursor = result.next_cursor ?? undefined;
    }
  });
});
