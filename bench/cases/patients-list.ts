import { sql } from "drizzle-orm";
import type { Db } from "../../src/db/client.js";
import type { BenchCase } from "../run.js";
import { round, summarize } from "../stats.js";
import { benchClinic, benchDatabases, startBenchTarget, timeRequests } from "../support/bench-app.js";

const PATIENTS = 50_000;
const OTHER_TENANTS = 2;
const OTHER_PATIENTS = 5_000;
const WARMUP = 20;
const SAMPLES = 200;
/** What a receptionist types to find one patient: name fragments, a CPF or phone fragment, an e-mail. */
const SEARCHES = [
  "silva",
  "maria oli",
  "teixeira",
  "123.456",
  "9000123",
  "paciente1234",
  "joão",
  "carvalho",
  "987.65",
  "ana c",
];

/** Inserts n realistic patients for a tenant in one statement. */
export async function fillPatients(db: Db, tenantId: string, n: number, seed: number) {
  await db.execute(sql`
    insert into pacientes (tenant_id, nome, cpf, data_nascimento, sexo, telefone, email, created_at)
    select ${tenantId}::uuid,
      (array['Maria','José','Ana','João','Antônio','Francisca','Carlos','Paulo','Lúcia','Pedro','Juliana','Marcos','Patrícia','Rafael','Camila'])[1 + (i * 7 + ${seed}) % 15]
        || ' ' || (array['da Silva','dos Santos','Oliveira','Souza','Rodrigues','Ferreira','Alves','Pereira','Lima','Gomes','Costa','Ribeiro','Martins','Carvalho','Almeida'])[1 + (i * 11 + ${seed}) % 15]
        || ' ' || (array['Conceição','Nascimento','Araújo','Barbosa','Cardoso','Teixeira'])[1 + (i * 3) % 6],
      lpad(((i * 7919 + ${seed} * 104729) % 99999999999)::text, 11, '0'),
      date '1940-01-01' + ((i * 37) % 29000),
      (array['feminino','masculino','outro','nao_informado'])[1 + i % 4],
      '11' || lpad(((900000000 + i * 13) % 999999999)::text, 9, '9'),
      'paciente' || i || '.' || ${seed} || (array['@gmail.com','@hotmail.com','@uol.com.br','@exemplo.com.br'])[1 + i % 4],
      now() - (i || ' minutes')::interval
    from generate_series(1, ${n}) as i
  `);
}

export default {
  name: "patients-list",
  description: "Lista de pacientes com 50.000 numa clínica: primeira página e busca pela API HTTP (p95 < 50 ms)",
  async run() {
    const results: Record<string, unknown> = {};
    let headline: { median: number; p95: number } | undefined;
    for (const label of benchDatabases()) {
      const target = await startBenchTarget(label);
      try {
        const clinic = await benchClinic(target, 1);
        const started = performance.now();
        await fillPatients(target.database.db, clinic.tenantId, PATIENTS, 1);
        for (let t = 0; t < OTHER_TENANTS; t++) {
          const other = await benchClinic(target, 100 + t);
          await fillPatients(target.database.db, other.tenantId, OTHER_PATIENTS, 100 + t);
        }
        await target.database.db.execute(sql`analyze pacientes`);
        console.error(`[${label}] ${PATIENTS} pacientes inseridos em ${Math.round(performance.now() - started)} ms`);

        await timeRequests(target, clinic.cookie, WARMUP, () => "/api/patients");
        const firstPage = summarize(await timeRequests(target, clinic.cookie, SAMPLES, () => "/api/patients"));
        await timeRequests(
          target,
          clinic.cookie,
          WARMUP,
          (i) => `/api/patients?q=${encodeURIComponent(SEARCHES[i % SEARCHES.length] ?? "")}`,
        );
        const search = summarize(
          await timeRequests(
            target,
            clinic.cookie,
            SAMPLES,
            (i) => `/api/patients?q=${encodeURIComponent(SEARCHES[i % SEARCHES.length] ?? "")}`,
          ),
        );
        const prefix = label === "pglite" ? "" : "postgres_";
        results[`${prefix}first_page_median_ms`] = round(firstPage.median);
        results[`${prefix}first_page_p95_ms`] = round(firstPage.p95);
        results[`${prefix}search_median_ms`] = round(search.median);
        results[`${prefix}search_p95_ms`] = round(search.p95);
        if (!headline) headline = { median: firstPage.median, p95: Math.max(firstPage.p95, search.p95) };
      } finally {
        await target.close();
      }
    }
    return {
      median_ms: round(headline?.median ?? 0),
      p95_ms: round(headline?.p95 ?? 0),
      patients: PATIENTS,
      other_tenants_patients: OTHER_TENANTS * OTHER_PATIENTS,
      samples: SAMPLES,
      target_p95_ms: 50,
      ...results,
    };
  },
} satisfies BenchCase;
