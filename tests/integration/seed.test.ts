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
    const second = await seedDemoClinic(ctx.database.db);
    expect(second).toEqual({ created: false, tenantId: first.tenantId });

    const staff = await rawRows<{ role: string; is_proprietario: boolean }>(
      ctx.database.db,
      sql`select role, is_proprietario from profiles where tenant_id = ${first.tenantId} order by role`,
    );
    expect(staff).toHaveLength(4);
    expect(staff.filter((p) => p.is_proprietario)).toHaveLength(1);
    const patients = await rawRows<{ n: number }>(ctx.database.db, sql`select count(*)::int as n from pacientes where tenant_id = ${first.tenantId}`);
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
});
