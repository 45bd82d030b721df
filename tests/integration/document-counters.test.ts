import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rawRows } from "../../src/db/raw.js";
import { countDocuments } from "../../src/server/services/documents/count-documents.js";
import { startOfMonthInSaoPaulo } from "../../src/shared/dates/sao-paulo.js";
import { insertDocument, insertPatient } from "../helpers/documents.js";
import { newClinic, type SignedIn } from "../helpers/sessions.js";
import { publishedTemplateVersion } from "../helpers/signing.js";
import { createTestApp, type TestContext } from "../helpers/test-app.js";

/**
 * the documents counters come from trigger-kept buckets plus an index read of what the
 * clock expired. Oracle: the same figures computed by scanning the clinic's documents, after
 * inserts, status changes, signing, month boundaries, deletes and concurrent updates.
 */
let ctx: TestContext;
let clinic: SignedIn;
let versionId: string;
let patientId: string;

beforeAll(async () => {
  ctx = await createTestApp();
  clinic = await newClinic(ctx.app);
  versionId = await publishedTemplateVersion(ctx.app, clinic);
  patientId = await insertPatient(ctx.database, clinic.tenantId);
});
afterAll(async () => {
  await ctx.close();
});

const actor = () => ({
  tenantId: clinic.tenantId,
  profileId: clinic.profileId,
  role: "profissional" as const,
  isOwner: true,
});

/** The counters by scanning every document (what count-documents did before the buckets). */
async function scanned(now: Date) {
  const thisMonth = startOfMonthInSaoPaulo(now);
  const lastMonth = startOfMonthInSaoPaulo(new Date(thisMonth.getTime() - 86_400_000));
  const [row] = await rawRows<Record<string, number>>(
    ctx.database.db,
    sql`select count(*)::int as total,
               (count(*) filter (where status = 'signed'))::int as assinados,
               (count(*) filter (where status = 'sent' and expiracao_at > ${now}))::int as pendentes,
               (count(*) filter (where status = 'viewed' and expiracao_at > ${now}))::int as visualizados,
               (count(*) filter (where status = 'expired' or (status in ('sent', 'viewed') and expiracao_at <= ${now})))::int as expirados,
               (count(*) filter (where created_at >= ${thisMonth}))::int as criados_este_mes,
               (count(*) filter (where created_at >= ${lastMonth} and created_at < ${thisMonth}))::int as criados_mes_passado,
               (count(*) filter (where status = 'signed' and signed_at >= ${thisMonth}))::int as assinados_este_mes,
               (count(*) filter (where status = 'signed' and signed_at >= ${lastMonth} and signed_at < ${thisMonth}))::int as assinados_mes_passado,
               coalesce(sum(case when status in ('sent', 'viewed') and expiracao_at > ${now} and medico_responsavel_id is not null
                 and not exists (select 1 from contrato_partes p where p.contrato_id = c.id and p.papel = 'profissional') then 1 else 0 end), 0)::int as aguardando_profissional,
               coalesce(sum(case when status in ('sent', 'viewed') and expiracao_at > ${now} and medico_responsavel_id = ${clinic.profileId}::uuid
                 and not exists (select 1 from contrato_partes p where p.contrato_id = c.id and p.papel = 'profissional') then 1 else 0 end), 0)::int as aguardando_minha_assinatura,
               (count(*) filter (where status = 'recusado'))::int as recusados,
               (count(*) filter (where revogado_at is not null))::int as revogados
          from contratos c where tenant_id = ${clinic.tenantId}`,
  );
  return row;
}

async function expectSameAsScan(now = new Date()) {
  expect(await countDocuments(ctx.database.db, actor(), now)).toEqual(await scanned(now));
}

describe("documents counters kept by the database", () => {
  it("match a scan of the clinic's documents through every change", async () => {
    const now = new Date();
    const lastMonth = new Date(startOfMonthInSaoPaulo(now).getTime() - 3 * 86_400_000);
    const ids: string[] = [];
    for (const [status, createdAt] of [
      ["draft", now],
      ["sent", now],
      ["viewed", now],
      ["sent", lastMonth],
      ["expired", lastMonth],
      ["cancelled", now],
    ] as const) {
      ids.push(
        await insertDocument(ctx.database, {
          tenantId: clinic.tenantId,
          pacienteId: patientId,
          templateVersionId: versionId,
          status,
          createdAt,
        }),
      );
    }
    await expectSameAsScan();

    // Signing this month and last month; a viewed document past its deadline (not yet swept).
    await ctx.database.db.execute(sql`update contratos set status = 'signed', signed_at = now() where id = ${ids[1]}`);
    await ctx.database.db.execute(
      sql`update contratos set status = 'signed', signed_at = ${lastMonth} where id = ${ids[3]}`,
    );
    await ctx.database.db.execute(
      sql`update contratos set expiracao_at = now() - interval '1 minute' where id = ${ids[2]}`,
    );
    await expectSameAsScan();

    // The sweep marks it expired; an update that changes nothing counted; a draft deleted.
    await ctx.database.db.execute(sql`update contratos set status = 'expired' where id = ${ids[2]}`);
    await ctx.database.db.execute(
      sql`update contratos set titulo = 'Outro título' where tenant_id = ${clinic.tenantId}`,
    );
    await ctx.database.db.execute(sql`delete from contratos where id = ${ids[0]}`);
    await expectSameAsScan();
    // Next month, this month's figures become last month's.
    await expectSameAsScan(new Date(startOfMonthInSaoPaulo(now).getTime() + 40 * 86_400_000));

    // Many documents changed at once, by concurrent transactions: no count is lost, no deadlock.
    const many = await Promise.all(
      Array.from({ length: 30 }, () =>
        insertDocument(ctx.database, {
          tenantId: clinic.tenantId,
          pacienteId: patientId,
          templateVersionId: versionId,
          status: "sent",
        }),
      ),
    );
    await Promise.all(
      many.map((id, i) =>
        ctx.database.db.transaction(async (tx) => {
          await tx.execute(sql`update contratos set status = 'viewed' where id = ${id}`);
          if (i % 2 === 0)
            await tx.execute(sql`update contratos set status = 'signed', signed_at = now() where id = ${id}`);
        }),
      ),
    );
    await expectSameAsScan();
    const api = await ctx.app.inject({
      method: "GET",
      url: "/api/documents/counters",
      headers: { cookie: clinic.cookie },
    });
    expect(api.json()).toEqual(await scanned(new Date()));
  });

  it("counts only the session's clinic", async () => {
    const other = await newClinic(ctx.app);
    const otherVersion = await publishedTemplateVersion(ctx.app, other);
    const otherPatient = await insertPatient(ctx.database, other.tenantId);
    await insertDocument(ctx.database, {
      tenantId: other.tenantId,
      pacienteId: otherPatient,
      templateVersionId: otherVersion,
      status: "sent",
    });
    const mine = (
      await ctx.app.inject({ method: "GET", url: "/api/documents/counters", headers: { cookie: clinic.cookie } })
    ).json();
    const theirs = (
      await ctx.app.inject({ method: "GET", url: "/api/documents/counters", headers: { cookie: other.cookie } })
    ).json();
    expect(theirs).toMatchObject({ total: 1, pendentes: 1 });
    expect(mine.total).toBeGreaterThan(1);
    expect(mine).toEqual(await scanned(new Date()));
  });
});
