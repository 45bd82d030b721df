import { sql } from "drizzle-orm";
import type { Db } from "../../src/db/client.js";
import { rawRows } from "../../src/db/raw.js";
import { withTenant } from "../../src/db/tenant-scope.js";
import { noticeAudience } from "../../src/shared/notices/notice-audience.js";
import { signedNoticesSince } from "../../src/shared/notices/notice-kinds.js";
import { isRead, noticeRows } from "../../src/server/services/notices/notice-sources.js";
import type { BenchCase } from "../run.js";
import { round, summarize } from "../stats.js";
import { benchClinic, benchDatabases, startBenchTarget, timeRequests } from "../support/bench-app.js";
import { fillPatients } from "./patients-list.js";

const DOCUMENTS = 100_000;
const PATIENTS = 5_000;
const FAILED_EMAILS = 2_000;
const FAILED_UPLOADS = 500;
const WARMUP = 20;
const SAMPLES = 200;

/** One published template version, straight into the tables. */
async function templateVersion(db: Db, tenantId: string): Promise<string> {
  const [row] = await rawRows<{ id: string }>(
    db,
    sql`
    with t as (
      insert into templates (tenant_id, titulo, especialidade, categoria, status)
      values (${tenantId}::uuid, 'TCLE Geral', 'Cirurgia Plástica', 'Consentimento', 'published') returning id
    )
    insert into template_versions (tenant_id, template_id, version_number, conteudo_html, variaveis_json, changelog, hash_modelo, published_at)
    select ${tenantId}::uuid, t.id, 1, '{}', '{"title":"TCLE","introduction":"","sections":[]}'::jsonb, 'Versão inicial', repeat('0', 64), now() from t
    returning id`,
  );
  if (!row) throw new Error("template version not created");
  return row.id;
}

/**
 * A year of a busy clinic: 100k documents, one every ~5 minutes, each status with the dates it
 * implies (viewed_at, signed_at), expiring 7 days after creation; undelivered e-mails and failed
 * Feegow uploads spread over the same year.
 */
async function fillClinic(db: Db, tenantId: string, versionId: string): Promise<void> {
  await db.execute(sql`
    insert into contratos (tenant_id, paciente_id, template_version_id, titulo, procedimento, status, documento, conteudo_sha256,
      expiracao_at, sent_at, viewed_at, signed_at, created_at, updated_at)
    select ${tenantId}::uuid, p.id, ${versionId}::uuid, 'Termo de Consentimento ' || i, 'Blefaroplastia',
      s.status, '{}'::jsonb, repeat('0', 64),
      c.at + interval '7 days',
      case when s.status <> 'draft' then c.at + interval '1 minute' end,
      case when s.status in ('viewed', 'signed') then c.at + interval '2 hours' end,
      case when s.status = 'signed' then c.at + interval '5 hours' end,
      c.at, c.at
    from generate_series(1, ${DOCUMENTS}) as i
    cross join lateral (select now() - (i * 5 || ' minutes')::interval as at) c
    cross join lateral (select (array['draft','sent','viewed','signed','signed','signed','cancelled','expired'])[1 + i % 8] as status) s
    join (select id, row_number() over (order by id) as rn from pacientes where tenant_id = ${tenantId}::uuid) p on p.rn = 1 + i % ${PATIENTS}
  `);
  await db.execute(sql`
    insert into email_outbox (tenant_id, to_address, subject, text_body, status, attempts, created_at)
    select ${tenantId}::uuid, 'paciente' || i || '@exemplo.com.br', 'Documento para assinatura', '…',
      case when i % 10 = 0 then 'failed' else 'sent' end,
      jsonb_build_array(jsonb_build_object('at', to_char((now() - (i * 2 || ' hours')::interval) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'), 'error', '550')),
      now() - (i * 2 || ' hours')::interval
    from generate_series(1, ${FAILED_EMAILS * 10}) as i
  `);
  await db.execute(sql`
    insert into feegow_uploads (tenant_id, contrato_id, file_id, file_sha256, idempotency_key, origem, status, ultimo_erro, motivo, created_at, updated_at)
    select ${tenantId}::uuid, c.id, gen_random_uuid(), repeat('0', 64), c.id || ':' || i, 'assinado',
      case when i % 10 = 0 then 'falhou' else 'enviado' end, 'Paciente não encontrado no Feegow', 'sem_paciente', c.created_at, c.created_at
    from (select id, created_at, row_number() over (order by created_at desc) as i from contratos where tenant_id = ${tenantId}::uuid and status = 'signed' limit ${FAILED_UPLOADS * 10}) c
  `);
}

/** The unread-count query's plan under row-level security, as the API runs it. */
async function countPlan(db: Db, tenantId: string, profileId: string): Promise<string> {
  const now = new Date();
  const scope = {
    tenantId,
    profileId,
    audience: noticeAudience({ role: "profissional", isOwner: true }),
    now,
    signedSince: signedNoticesSince({ previousVisitAt: null }, now),
  };
  return withTenant(db, tenantId, async (tx) => {
    const rows = await rawRows<{ "QUERY PLAN": string }>(
      tx,
      sql`explain (analyze, costs off, timing off, summary on)
        select count(*)::int as n from (select 1 from (${noticeRows(scope)}) k where not ${isRead(scope, null)} limit 100) unread`,
    );
    return rows.map((row) => row["QUERY PLAN"]).join("\n");
  });
}

export default {
  name: "notices-count",
  description:
    "Avisos com 100.000 documentos numa clínica: contagem de não lidos e primeira página pela API HTTP, e o plano (EXPLAIN)",
  async run() {
    const results: Record<string, unknown> = {};
    let headline: { median: number; p95: number } | undefined;
    for (const label of benchDatabases()) {
      const target = await startBenchTarget(label);
      try {
        const clinic = await benchClinic(target, 1);
        const db = target.database.db;
        const started = performance.now();
        await fillPatients(db, clinic.tenantId, PATIENTS, 1);
        await fillClinic(db, clinic.tenantId, await templateVersion(db, clinic.tenantId));
        for (const table of ["contratos", "email_outbox", "feegow_uploads", "pacientes"])
          await db.execute(sql.raw(`analyze ${table}`));
        console.error(`[${label}] ${DOCUMENTS} documentos inseridos em ${Math.round(performance.now() - started)} ms`);

        const [owner] = await rawRows<{ id: string }>(
          db,
          sql`select id from profiles where tenant_id = ${clinic.tenantId}::uuid limit 1`,
        );
        const plan = await countPlan(db, clinic.tenantId, owner?.id ?? "");
        console.error(`[${label}] plano da contagem de não lidos:\n${plan}`);

        // The fill took minutes: a kept-alive socket from sign-up may have been closed by the server.
        await fetch(`${target.baseUrl}/api/health`).catch(() => undefined);
        await timeRequests(target, clinic.cookie, WARMUP, () => "/api/notices/unread-count");
        const count = summarize(await timeRequests(target, clinic.cookie, SAMPLES, () => "/api/notices/unread-count"));
        await timeRequests(target, clinic.cookie, WARMUP, () => "/api/notices");
        const firstPage = summarize(await timeRequests(target, clinic.cookie, SAMPLES, () => "/api/notices"));
        // Same machine, same moment: the documents' counters (/api/documents/counters) for scale.
        const baseline = summarize(await timeRequests(target, clinic.cookie, SAMPLES, () => "/api/documents/counters"));
        const prefix = label === "pglite" ? "" : "postgres_";
        results[`${prefix}count_query_execution_ms`] = Number(
          /Execution Time: ([\d.]+) ms/.exec(plan)?.[1] ?? Number.NaN,
        );
        results[`${prefix}count_query_planning_ms`] = Number(
          /Planning Time: ([\d.]+) ms/.exec(plan)?.[1] ?? Number.NaN,
        );
        results[`${prefix}baseline_document_counters_p95_ms`] = round(baseline.p95);
        results[`${prefix}unread_count_median_ms`] = round(count.median);
        results[`${prefix}unread_count_p95_ms`] = round(count.p95);
        results[`${prefix}first_page_median_ms`] = round(firstPage.median);
        results[`${prefix}first_page_p95_ms`] = round(firstPage.p95);
        results[`${prefix}contratos_seq_scan`] = /Seq Scan on contratos/.test(plan);
        if (!headline) headline = { median: count.median, p95: Math.max(count.p95, firstPage.p95) };
      } finally {
        await target.close();
      }
    }
    return {
      median_ms: round(headline?.median ?? 0),
      p95_ms: round(headline?.p95 ?? 0),
      documents: DOCUMENTS,
      samples: SAMPLES,
      target_p95_ms: 50,
      ...results,
    };
  },
} satisfies BenchCase;
