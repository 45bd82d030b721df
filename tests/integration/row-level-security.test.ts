import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rawRows } from "../../src/db/raw.js";
import { withTenant } from "../../src/db/tenant-scope.js";
import { insertDocument, insertPatient } from "../helpers/documents.js";
import { newClinic, type SignedIn } from "../helpers/sessions.js";
import { publishedTemplateVersion } from "../helpers/signing.js";
import { createTestApp, type TestContext } from "../helpers/test-app.js";

/**
 * Row-level security is the second wall behind every WHERE tenant_id = … (decision 004). A new
 * table with a tenant_id and no policy would let one clinic's transaction read another's rows the
 * moment a query forgets its filter: the catalogue is checked here, table by table.
 */
let ctx: TestContext;
let a: SignedIn;
let b: SignedIn;

beforeAll(async () => {
  ctx = await createTestApp();
  a = await newClinic(ctx.app);
  b = await newClinic(ctx.app);
  const versionId = await publishedTemplateVersion(ctx.app, b);
  const patientId = await insertPatient(ctx.database, b.tenantId);
  await insertDocument(ctx.database, { tenantId: b.tenantId, pacienteId: patientId, templateVersionId: versionId });
});
afterAll(async () => {
  await ctx.close();
});

interface TableRow {
  table_name: string;
  rls: boolean;
  policies: string[];
  can_read: boolean;
  can_write: boolean;
}

async function tenantTables(): Promise<TableRow[]> {
  return rawRows<TableRow>(
    ctx.database.db,
    sql`select c.table_name, cl.relrowsecurity as rls,
          coalesce((select array_agg(p.cmd || ' ' || array_to_string(p.roles, ',') || ' ' || coalesce(p.qual, '') || ' ' || coalesce(p.with_check, p.qual, ''))
             from pg_policies p where p.schemaname = 'public' and p.tablename = c.table_name), '{}') as policies,
          has_table_privilege('consentir_app', cl.oid, 'SELECT') as can_read,
          has_table_privilege('consentir_app', cl.oid, 'UPDATE') or has_table_privilege('consentir_app', cl.oid, 'DELETE') as can_write
        from information_schema.columns c
        join pg_class cl on cl.relname = c.table_name and cl.relkind = 'r'
        join pg_namespace n on n.oid = cl.relnamespace and n.nspname = 'public'
        where c.table_schema = 'public' and c.column_name = 'tenant_id'
        order by 1`,
  );
}

describe("row-level security on every table with a tenant_id", () => {
  it("each one either has RLS with the tenant policy for the app role, or the app role cannot read or change it", async () => {
    const tables = await tenantTables();
    expect(tables.length).toBeGreaterThan(30);
    const isolation = "ALL consentir_app (tenant_id = app_current_tenant()) (tenant_id = app_current_tenant())";
    const unguarded = tables
      .filter((t) => !(t.rls && t.policies.includes(isolation)))
      .filter((t) => t.can_read || t.can_write)
      .map((t) => t.table_name);
    expect(unguarded).toEqual([]);
    // Those kept away from the app role altogether (worker and owner only): not readable at all.
    const ownerOnly = tables.filter((t) => !t.rls).map((t) => t.table_name);
    expect(ownerOnly.sort()).toEqual(["audit_anchors", "audit_chain_heads", "jobs"]);
  });

  it("the clinics table itself is isolated by its id", async () => {
    const [row] = await rawRows<{ rls: boolean; qual: string }>(
      ctx.database.db,
      sql`select cl.relrowsecurity as rls, p.qual from pg_class cl join pg_policies p on p.tablename = cl.relname
          where cl.relname = 'tenants' and p.schemaname = 'public'`,
    );
    expect(row).toEqual({ rls: true, qual: "(id = app_current_tenant())" });
  });

  it("a clinic's transaction sees none of another clinic's rows even without a WHERE on tenant", async () => {
    const tables = (await tenantTables()).filter((t) => t.can_read).map((t) => t.table_name);
    const seen = await withTenant(ctx.database.db, a.tenantId, async (tx) => {
      const out: Record<string, number> = {};
      for (const table of tables) {
        const [row] = await rawRows<{ n: number }>(
          tx,
          sql`select count(*)::int as n from ${sql.identifier(table)} where tenant_id = ${b.tenantId}`,
        );
        if (row && row.n > 0) out[table] = row.n;
      }
      const [other] = await rawRows<{ n: number }>(
        tx,
        sql`select count(*)::int as n from tenants where id = ${b.tenantId}`,
      );
      if (other && other.n > 0) out.tenants = other.n;
      return out;
    });
    expect(seen).toEqual({});
    // As the owner role the same rows are there: the count above is RLS at work, not an empty table.
    const [owner] = await rawRows<{ n: number }>(
      ctx.database.db,
      sql`select (select count(*) from pacientes where tenant_id = ${b.tenantId})::int
           + (select count(*) from contratos where tenant_id = ${b.tenantId})::int
           + (select count(*) from profiles where tenant_id = ${b.tenantId})::int as n`,
    );
    expect(owner?.n).toBeGreaterThanOrEqual(3);
  });
});
