import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rawRows } from "../../src/db/raw.js";
import { DEMO_EMAIL, DEMO_PASSWORD, seedDemoClinic } from "../../src/db/seed/demo-clinic.js";
import { createTestApp, type TestContext } from "../helpers/test-app.js";

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(async () => {
  await ctx.close();
});

describe("npm run seed", () => {
  it("creates the demo clinic once; its owner and staff sign in", async () => {
    const first = await seedDemoClinic(ctx.database.db);
    const countsAfterFirst = await rowCounts(first.tenantId);
    const second = await seedDemoClinic(ctx.database.db);
    expect(second).toEqual({ created: false, tenantId: first.tenantId });
    expect(await rowCounts(first.tenantId)).toEqual(countsAfterFirst);

    const staff = await rawRows<{ role: string; is_proprietario: boolean }>(
      ctx.database.db,
      sql`select role, is_proprietario from profiles where tenant_id = ${first.tenantId} order by role`,
    );
    expect(staff).toHaveLength(4);
    expect(staff.filter((p) => p.is_proprietario)).toHaveLength(1);
    const patients = await rawRows<{ n: number }>(
      ctx.database.db,
      sql`select count(*)::int as n from pacientes where tenant_id = ${first.tenantId}`,
    );
    expect(patients[0]?.n).toBe(8);

    for (const email of [DEMO_EMAIL, "secretaria@consentir.test"]) {
      const response = await ctx.app.inject({
        method: "POST",
        url: "/api/auth/sign-in",
        payload: { email, password: DEMO_PASSWORD },
      });
      expect(response.statusCode, email).toBe(200);
      expect(response.json().tenant.nome).toBe("Clínica Bem Viver");
    }
  });

  it("gives the demo clinic a library: procedures linked to risks, benefits and aftercare", async () => {
    const { tenantId } = await seedDemoClinic(ctx.database.db);
    const procedures = await rawRows<{
      nome: string;
      especialidade: string | null;
      is_private: boolean;
      riscos: number;
      beneficios: number;
      cuidados: number;
    }>(
      ctx.database.db,
      sql`select p.nome, p.especialidade, p.is_private,
            (select count(*)::int from procedimento_riscos l where l.tenant_id = p.tenant_id and l.procedimento_id = p.id) as riscos,
            (select count(*)::int from procedimento_beneficios l where l.tenant_id = p.tenant_id and l.procedimento_id = p.id) as beneficios,
            (select count(*)::int from procedimento_cuidados l where l.tenant_id = p.tenant_id and l.procedimento_id = p.id) as cuidados
          from procedimentos p where p.tenant_id = ${tenantId} order by p.nome`,
    );
    expect(procedures.length).toBeGreaterThanOrEqual(12);
    for (const p of procedures) {
      expect(p.riscos, p.nome).toBeGreaterThanOrEqual(1);
      expect(p.beneficios, p.nome).toBeGreaterThanOrEqual(1);
      expect(p.cuidados, p.nome).toBeGreaterThanOrEqual(1);
      expect(p.especialidade, p.nome).toBeTruthy();
    }
    expect(procedures.filter((p) => p.is_private)).toHaveLength(1);

    // Every item was created by the owner, and the library lives only in the demo clinic.
    const owner = await rawRows<{ id: string }>(
      ctx.database.db,
      sql`select id from profiles where lower(email) = ${DEMO_EMAIL}`,
    );
    const creators = await rawRows<{ created_by: string | null }>(
      ctx.database.db,
      sql`select distinct created_by from (
            select created_by from procedimentos where tenant_id = ${tenantId}
            union all select created_by from riscos where tenant_id = ${tenantId}
            union all select created_by from beneficios where tenant_id = ${tenantId}
            union all select created_by from cuidados_pos where tenant_id = ${tenantId}) items`,
    );
    expect(creators).toEqual([{ created_by: owner[0]?.id }]);
  });

  it("gives the demo clinic documents made from its published template, with their procedures' content", async () => {
    const { tenantId } = await seedDemoClinic(ctx.database.db);
    const sign = await ctx.app.inject({
      method: "POST",
      url: "/api/auth/sign-in",
      payload: { email: DEMO_EMAIL, password: DEMO_PASSWORD },
    });
    const cookie = `consentir_session=${sign.cookies.find((c) => c.name === "consentir_session")?.value}`;
    const list = (await ctx.app.inject({ method: "GET", url: "/api/documents", headers: { cookie } })).json();
    expect(list.total).toBe(3);
    const detail = (
      await ctx.app.inject({ method: "GET", url: `/api/documents/${list.items[0].id}`, headers: { cookie } })
    ).json();
    expect(detail.status).toBe("draft");
    expect(detail.documento.unresolved).toEqual([]);
    expect(detail.conteudo_selecionado.length).toBeGreaterThanOrEqual(3);
    expect(detail.medico.nome).toBe("Dr. Carlos Eduardo Mendes");
    // The PDF is generated on the first download.
    const pdf = await ctx.app.inject({
      method: "GET",
      url: `/api/documents/${list.items[0].id}/pdf`,
      headers: { cookie },
    });
    expect(pdf.statusCode).toBe(200);
    const rows = await rawRows<{ n: number }>(
      ctx.database.db,
      sql`select count(*)::int as n from contratos where tenant_id = ${tenantId}`,
    );
    expect(rows[0]?.n).toBe(3);
  });
});

/** Row counts of everything the demo seed writes for a clinic, to show a second run adds nothing. */
async function rowCounts(tenantId: string): Promise<Record<string, number>> {
  const tables = [
    "profiles",
    "pacientes",
    "procedimentos",
    "riscos",
    "beneficios",
    "cuidados_pos",
    "procedimento_riscos",
    "procedimento_beneficios",
    "procedimento_cuidados",
    "templates",
    "template_versions",
    "contratos",
  ];
  const counts: Record<string, number> = {};
  for (const table of tables) {
    const rows = await rawRows<{ n: number }>(
      ctx.database.db,
      sql`select count(*)::int as n from ${sql.identifier(table)} where tenant_id = ${tenantId}`,
    );
    counts[table] = rows[0]?.n ?? 0;
  }
  return counts;
}
