import { sql } from "drizzle-orm";
import type { Db } from "../../src/db/client.js";
import type { BenchCase } from "../run.js";
import { round, summarize } from "../stats.js";
import { benchClinic, benchDatabases, startBenchTarget, timeRequests } from "../support/bench-app.js";
import { fillPatients } from "./patients-list.js";

/** BENCH_DOCUMENTS=1000000 for the "@1M documents" figure (run it with DATABASE_URL and BENCH_DATABASES=postgres). */
const DOCUMENTS = Number(process.env.BENCH_DOCUMENTS ?? 100_000);
const PATIENTS = 5_000;
const OTHER_DOCUMENTS = 10_000;
const WARMUP = 20;
const SAMPLES = 200;
/** What the front desk types: a patient's name, a procedure, a short id fragment. */
const SEARCHES = [
  "maria silva",
  "blefaro",
  "toxina",
  "oliveira",
  "implante",
  "joão",
  "termo 1234",
  "carvalho",
  "ana c",
  "extração",
];

/** One published template version for the tenant, straight into the tables. */
async function templateVersion(db: Db, tenantId: string): Promise<string> {
  const result = await db.execute<{ id: string }>(sql`
    with t as (
      insert into templates (tenant_id, titulo, especialidade, categoria, status)
      values (${tenantId}::uuid, 'TCLE Geral', 'Cirurgia Plástica', 'Consentimento', 'published') returning id
    )
    insert into template_versions (tenant_id, template_id, version_number, conteudo_html, variaveis_json, changelog, hash_modelo, published_at)
    select ${tenantId}::uuid, t.id, 1, '{}', '{"title":"TCLE","introduction":"","sections":[]}'::jsonb, 'Versão inicial', repeat('0', 64), now() from t
    returning id
  `);
  const rows = (result as unknown as { rows?: { id: string }[] }).rows ?? (result as unknown as { id: string }[]);
  const id = rows[0]?.id;
  if (!id) throw new Error("template version not created");
  return id;
}

/** n documents spread over the tenant's patients, statuses and the last months. */
async function fillDocuments(db: Db, tenantId: string, versionId: string, n: number) {
  await db.execute(sql`
    insert into contratos (tenant_id, paciente_id, template_version_id, titulo, procedimento, status, variaveis_preenchidas, documento, conteudo_sha256, expiracao_at, created_at, updated_at)
    select ${tenantId}::uuid, p.id, ${versionId}::uuid,
      'Termo de Consentimento ' || i,
      (array['Blefaroplastia superior','Toxina botulínica','Implante dentário','Extração de siso','Colecistectomia videolaparoscópica','Rinoplastia','Lipoaspiração','Preenchimento labial'])[1 + i % 8],
      (array['draft','sent','viewed','signed','cancelled'])[1 + i % 5],
      jsonb_build_object('paciente_nome', p.nome),
      '{}'::jsonb, repeat('0', 64),
      now() - (i || ' minutes')::interval + interval '7 days',
      now() - (i || ' minutes')::interval,
      now() - (i || ' minutes')::interval
    from generate_series(1, ${n}) as i
    join (select id, nome, row_number() over (order by id) as rn from pacientes where tenant_id = ${tenantId}::uuid) p
      on p.rn = 1 + i % ${PATIENTS}
  `);
}

export default {
  name: "documents-list",
  description: `Lista de documentos com ${DOCUMENTS.toLocaleString("pt-BR")} numa clínica: primeira página e busca pela API HTTP (p95 < 50 ms)`,
  async run() {
    const results: Record<string, unknown> = {};
    let headline: { median: number; p95: number } | undefined;
    for (const label of benchDatabases()) {
      const target = await startBenchTarget(label);
      try {
        const clinic = await benchClinic(target, 1);
        const started = performance.now();
        await fillPatients(target.database.db, clinic.tenantId, PATIENTS, 1);
        await fillDocuments(
          target.database.db,
          clinic.tenantId,
          await templateVersion(target.database.db, clinic.tenantId),
          DOCUMENTS,
        );
        const other = await benchClinic(target, 100);
        await fillPatients(target.database.db, other.tenantId, PATIENTS, 100);
        await fillDocuments(
          target.database.db,
          other.tenantId,
          await templateVersion(target.database.db, other.tenantId),
          OTHER_DOCUMENTS,
        );
        // Documents past their deadline are marked expired by the worker's sweep each minute; the
        // data set is as a running system keeps it (the counters read the not-yet-swept ones from an index).
        // (the sweep's own effect on contratos, without its 36k audit events, which no list reads)
        await target.database.db.execute(
          sql`update contratos set status = 'expired' where status in ('sent', 'viewed') and expiracao_at <= now()`,
        );
        await target.database.db.execute(sql`analyze contratos`);
        await target.database.db.execute(sql`analyze pacientes`);
        console.error(`[${label}] ${DOCUMENTS} documentos inseridos em ${Math.round(performance.now() - started)} ms`);

        await timeRequests(target, clinic.cookie, WARMUP, () => "/api/documents");
        const firstPage = summarize(await timeRequests(target, clinic.cookie, SAMPLES, () => "/api/documents"));
        const searchPath = (i: number) => `/api/documents?q=${encodeURIComponent(SEARCHES[i % SEARCHES.length] ?? "")}`;
        await timeRequests(target, clinic.cookie, WARMUP, searchPath);
        const search = summarize(await timeRequests(target, clinic.cookie, SAMPLES, searchPath));
        await timeRequests(target, clinic.cookie, WARMUP, () => "/api/documents/counters");
        const counters = summarize(await timeRequests(target, clinic.cookie, SAMPLES, () => "/api/documents/counters"));
        // The floor: an authenticated request that reads one row (session + user), same process, same moment.
        await timeRequests(target, clinic.cookie, WARMUP, () => "/api/auth/me");
        const floor = summarize(await timeRequests(target, clinic.cookie, SAMPLES, () => "/api/auth/me"));
        console.error(
          `[${label}] primeira página p95 ${round(firstPage.p95)} ms · busca p95 ${round(search.p95)} ms · contadores p95 ${round(counters.p95)} ms (mediana ${round(counters.median)}) · piso /api/auth/me p95 ${round(floor.p95)} ms`,
        );
        const prefix = label === "pglite" ? "" : "postgres_";
        results[`${prefix}first_page_median_ms`] = round(firstPage.median);
        results[`${prefix}first_page_p95_ms`] = round(firstPage.p95);
        results[`${prefix}search_median_ms`] = round(search.median);
        results[`${prefix}search_p95_ms`] = round(search.p95);
        results[`${prefix}counters_p95_ms`] = round(counters.p95);
        results[`${prefix}counters_median_ms`] = round(counters.median);
        results[`${prefix}auth_me_p95_ms`] = round(floor.p95);
        if (!headline) headline = { median: firstPage.median, p95: Math.max(firstPage.p95, search.p95) };
      } finally {
        await target.close();
      }
    }
    return {
      median_ms: round(headline?.median ?? 0),
      p95_ms: round(headline?.p95 ?? 0),
      documents: DOCUMENTS,
      other_tenant_documents: OTHER_DOCUMENTS,
      samples: SAMPLES,
      target_p95_ms: 50,
      ...results,
    };
  },
} satisfies BenchCase;
