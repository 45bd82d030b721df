/**
 * `signers-cluster` ("past one machine and faster"): N patients (default 1,000;
 * BENCH_SIGNERS) sign at once across TWO web processes (src/server/main.ts, WORKER=false) while ONE
 * worker process (src/server/worker-main.ts, `npm run worker`) seals the final PDFs, all on one
 * fresh PostgreSQL database (DATABASE_URL names the server; PGlite is one process's database, so
 * this case needs PostgreSQL) and one DATA_DIR.
 *
 * Set-up (not timed): BENCH_CLINICS clinics (default 1) sign up; N documents (+ a few warm-up ones)
 * are created, signed by the professional and sent through the staff API, spread over both
 * processes. Each patient has an e-mail on record, so the clinic's default asks for the one-time
 * code (advanced signature).
 *
 * Timed: every patient does the public flow the signing page does, each request going to the
 * other process than the one before (as a load balancer would spread them):
 *   open    GET  /api/public/sign/:token
 *   code    POST /api/public/sign/:token/code      (the code goes to the e-mail outbox)
 *           — the patient reads the code (the outbox row, straight from the database; not a request
 *             of the app, timed apart as read_code)
 *   verify  POST /api/public/sign/:token/verify-code
 *   sign    POST /api/public/sign/:token            (drawn signature, consent, code)
 * overall = the four requests of one patient; flow = first request to last answer, code reading
 * included. The app runs as published behind a proxy: TRUST_PROXY=true and each patient its own
 * X-Forwarded-For address, so the public rate limits keep their defaults (60/min per address and
 * per link, counted in PostgreSQL across both processes). Load models (decision 035):
 *   - default: all N at the same instant (a burst: it measures the queue, not the service);
 *   - BENCH_RAMP_S: the patients' starts spread evenly over that many seconds (an arrival rate);
 *   - BENCH_THINK_MS="min-max": N concurrent sessions of people, each pausing a uniform (seeded)
 *     min–max before each request — clicking the link, reading the term, reading the e-mail and
 *     typing the code, drawing the signature. With pauses of 15000-45000 every session has opened
 *     before the first one finishes: N sessions open at once, requests arriving as people act.
 *     Pauses are not timed (overall and flow count the requests only).
 *   - BENCH_PHASED=1: everyone opens, then everyone asks for the code, and so on; the CPU of the
 *     web processes, the worker and the app's PostgreSQL backends is reported per request type
 *     (and "seal": the worker after the last signature), and — when the server preloads
 *     pg_stat_statements — the statements each request type runs per patient.
 *
 * Each patient's client does what the signing page does when the server is too busy (decision
 * 040): a 503 with Retry-After is waited out and tried again, for up to the page's budget; the web
 * processes keep their admission defaults (BENCH_ADMISSION=off admits everything, to compare).
 * Meanwhile one member of the staff opens the documents list every 250 ms (staff_list_*).
 *
 * Then it waits for the worker to seal every final PDF and checks: 0 errors; every document signed,
 * by exactly one patient party, one 'document.signed' and one 'document.party_signed' of the
 * patient; exactly one 'document.finalize' job (done), one 'document.sealed' event and one sealed
 * file per document; no stored file without its row (a second seal would leave its bytes behind);
 * a sample of sealed PDFs verifies; every clinic's audit chain verifies (the `npm run audit:verify`
 * logic, and GET /api/audit/verify through a web process).
 *
 * Reported: p50/p95/max of each step (the answer that did the work) and overall, of each request as
 * the patient felt it (felt_*: busy waits included) and how many 503s were given (turned_away), signers/s, the time to seal every final PDF,
 * CPU seconds of each process and of the database's backends during the signing, CPU per signed
 * and sealed document (cpu_ms_per_signer: web + worker + the app's backends; the bench's own
 * client and its queries apart), load average.
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { and, desc, eq, like, sql } from "drizzle-orm";
import { openDatabase, type Database } from "../../src/db/client.js";
import { rawRows } from "../../src/db/raw.js";
import { emailOutbox } from "../../src/db/schema.js";
import { createSecretBox, loadInstanceKey, type SecretBox } from "../../src/server/lib/secret-box.js";
import { openOutboxBody } from "../../src/server/services/email/outbox-body.js";
import { AUDIT_ANCHOR_KEY_PURPOSE } from "../../src/server/services/audit/audit-anchors.js";
import { verifyAllAuditChains } from "../../src/server/services/audit/verify-audit-chain.js";
import { verifyPdfSignature } from "../../src/server/services/sealing/verify-pdf-signature.js";
import { signatureDataUrl } from "../../tests/helpers/signing.js";
import type { BenchCase, BenchResult } from "../run.js";
import { round, summarize } from "../stats.js";
import { BENCH_PASSWORD, benchClinic } from "../support/bench-app.js";
import { callAsThePage } from "../support/busy-retry-call.js";
import {
  type AppProcess,
  cpuSeconds,
  loadAverage,
  scratchDatabase,
  startAppProcess,
  startWorkerProcess,
  stopAppProcess,
  waitFor,
  type WorkerProcess,
} from "../support/app-processes.js";

const SIGNERS = Math.max(1, Number(process.env.BENCH_SIGNERS ?? 1000));
const CLINICS = Math.max(1, Math.min(SIGNERS, Number(process.env.BENCH_CLINICS ?? 1)));
const RAMP_S = Math.max(0, Number(process.env.BENCH_RAMP_S ?? 0));
/** BENCH_THINK_MS="min-max": a person's pause before each request (uniform, seeded), all sessions open at once. */
const THINK_MS = parseRange(process.env.BENCH_THINK_MS);
/** BENCH_PHASED=1: every patient opens, then every patient asks for the code, …: CPU per request type. */
const PHASED = process.env.BENCH_PHASED === "1";
/** BENCH_ADMISSION=off: the web processes admit every public request at once (PUBLIC_MAX_IN_FLIGHT=0), to compare. */
const ADMISSION_OFF = process.env.BENCH_ADMISSION === "off";
const ADMISSION_VARIABLES = ["PUBLIC_MAX_IN_FLIGHT", "PUBLIC_MAX_WAITING", "PUBLIC_MAX_WAIT_MS"] as const;
/** How often a member of the staff opens the documents list while the patients sign (each web process in turn). */
const STAFF_PROBE_MS = 250;
/** Documents signed per web process before the timed run (not timed): first-use costs out of the way. */
const WARMUP_PER_PROCESS = 4;
/** Staff requests in flight while setting up. */
const SEED_CONCURRENCY = 6;
const FINALS_TIMEOUT_MS = Number(process.env.BENCH_FINALS_TIMEOUT_S ?? 1200) * 1000;
const STEPS = ["open", "code", "read_code", "verify", "sign"] as const;
type Step = (typeof STEPS)[number];
const UA =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1";

const log = (message: string) => process.stderr.write(`  [signers-cluster] ${message}\n`);

function parseRange(value: string | undefined): [number, number] | null {
  if (!value) return null;
  const match = /^(\d+)(?:-(\d+))?$/.exec(value.trim());
  if (!match) throw new Error(`BENCH_THINK_MS: "${value}" não é "mín-máx" em ms`);
  const low = Number(match[1]);
  const high = Number(match[2] ?? match[1]);
  return [Math.min(low, high), Math.max(low, high)];
}

/** A small seeded generator (mulberry32): the same pauses on every run. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * The phased mode's gates: nobody makes request k+1 before everyone has made request k; `onGate`
 * runs once per gate, when the last patient arrives (or a patient who failed leaves).
 */
function phaseGates(count: number, onGate: (step: RequestStep) => Promise<void>) {
  let expected = count;
  const gates = new Map<
    RequestStep,
    { arrived: number; open: Promise<void>; release: () => void; released: boolean }
  >();
  const gate = (step: RequestStep) => {
    let entry = gates.get(step);
    if (!entry) {
      let release!: () => void;
      const open = new Promise<void>((resolve) => (release = resolve));
      entry = { arrived: 0, open, release, released: false };
      gates.set(step, entry);
    }
    return entry;
  };
  const check = async (step: RequestStep) => {
    const entry = gate(step);
    if (entry.released || entry.arrived < expected) return;
    entry.released = true;
    await onGate(step);
    entry.release();
  };
  return {
    async arrive(step: RequestStep) {
      gate(step).arrived += 1;
      await check(step);
      await gate(step).open;
    },
    async leave() {
      expected -= 1;
      for (const step of gates.keys()) await check(step);
    },
  };
}

/** Valid CPFs for the patients (check digits computed). */
function cpf(n: number): string {
  const digits = String(200_000_000 + n)
    .slice(0, 9)
    .split("")
    .map(Number);
  for (const length of [9, 10]) {
    const sum = digits.slice(0, length).reduce((acc, d, i) => acc + d * (length + 1 - i), 0);
    const rest = (sum * 10) % 11;
    digits.push(rest === 10 ? 0 : rest);
  }
  return digits.join("");
}

/** A distinct client address per patient (the proxy's X-Forwarded-For). */
const addressOf = (i: number) => `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;

interface Signer {
  i: number;
  token: string;
  nome: string;
  cpf: string;
  email: string;
}

interface Clinic {
  cookie: string;
  tenantId: string;
  profileId: string;
  versionId: string;
}

/** Runs `fn` over `items` with at most `limit` at once. */
async function inPool<T>(
  items: readonly T[],
  limit: number,
  fn: (item: T, index: number) => Promise<void>,
): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) {
        const index = next++;
        await fn(items[index]!, index);
      }
    }),
  );
}

function staffCall(baseUrl: string, cookie: string) {
  return async (method: string, url: string, body?: unknown): Promise<Record<string, any>> => {
    const response = await fetch(`${baseUrl}${url}`, {
      method,
      headers: { cookie, "content-type": "application/json", origin: baseUrl },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`${method} ${url} → ${response.status} ${await response.text()}`);
    return response.json() as Promise<Record<string, any>>;
  };
}

async function setUpClinic(web: AppProcess, n: number): Promise<Clinic> {
  const { cookie, tenantId } = await benchClinic(web, 700 + n);
  const staff = staffCall(web.baseUrl, cookie);
  const me = (await staff("GET", "/api/auth/me")).profile as { id: string };
  const specialties = (await staff("GET", "/api/templates/specialties")).items as string[];
  const template = await staff("POST", "/api/templates", {
    titulo: "TCLE",
    especialidade: specialties[0],
    categoria: "Consentimento",
    estrutura: {
      title: "Termo de Consentimento — {{procedimento}}",
      introduction: "Eu, {{paciente_nome}}, CPF {{paciente_cpf}}, autorizo o procedimento.",
      sections: [{ id: "s1", type: "paragraph", title: "Riscos", content: "Riscos explicados: {{riscos}}" }],
    },
  });
  const { versao_atual_id } = await staff("POST", `/api/templates/${template.id}/status`, { status: "published" });
  return { cookie, tenantId, profileId: me.id, versionId: versao_atual_id as string };
}

/** Patient + document + professional signature + send, through the staff API of `web`. */
async function seedSigner(web: AppProcess, clinic: Clinic, i: number, run: string): Promise<Signer> {
  const staff = staffCall(web.baseUrl, clinic.cookie);
  const nome = `Paciente Carga ${i}`;
  const email = `paciente.${i}.${run}@bench.exemplo.com.br`;
  const patient = await staff("POST", "/api/patients", { nome, cpf: cpf(i), email });
  const document = await staff("POST", "/api/documents", {
    paciente_id: patient.id,
    template_version_id: clinic.versionId,
    titulo: `Termo ${i}`,
    procedimento: "Toxina botulínica",
    medico_responsavel_id: clinic.profileId,
    variaveis: { riscos_personalizados: "Hematoma" },
  });
  await staff("POST", `/api/documents/${document.id}/professional-signature`, { senha: BENCH_PASSWORD });
  const link = await staff("POST", `/api/documents/${document.id}/send`, {});
  return { i, token: new URL(link.link as string).pathname.split("/").pop() ?? "", nome, cpf: cpf(i), email };
}

/** The app's outbox: its rows, and the key their text is sealed with (decision 043). */
interface Outbox {
  database: Database;
  box: SecretBox;
}

/** The newest code e-mailed to `email`, as the patient reads their mail (the outbox row, opened). */
async function readCode(outbox: Outbox, email: string): Promise<string> {
  const [mail] = await outbox.database.db
    .select()
    .from(emailOutbox)
    .where(and(eq(emailOutbox.to_address, email), like(emailOutbox.subject, "%código para assinar%")))
    .orderBy(desc(emailOutbox.created_at))
    .limit(1);
  const code = mail ? openOutboxBody(outbox.box, mail).text.match(/\b(\d{6})\b/)?.[1] : undefined;
  if (!code) throw new Error(`nenhum código no e-mail de ${email}`);
  return code;
}

class StepError extends Error {
  constructor(
    readonly step: Step,
    readonly status: number,
    body: string,
  ) {
    super(`${step} → ${status} ${body.slice(0, 200)}`);
  }
}

interface SignerTiming {
  /** Each request's answer time (the answer that did the work; a 503 turned away before it is not counted here). */
  steps: Partial<Record<Step, number>>;
  /** Each request as the patient felt it: from the first try to the answer, busy waits included. */
  felt: Partial<Record<RequestStep, number>>;
  /** 503 PUBLIC_BUSY answers this patient was given (each followed by the page's wait and a new try). */
  turnedAway: number;
  overall: number;
  flow: number;
}

/** The four requests a patient makes (read_code is the patient reading their mail, not a request). */
const REQUESTS = ["open", "code", "verify", "sign"] as const;
type RequestStep = (typeof REQUESTS)[number];

/**
 * One patient's whole public flow; each request to the next web process in turn. `before` runs
 * before each request (a person's think time, or the phased mode's barrier); its time is not
 * counted in `overall` nor in `flow`.
 */
async function signAsPatient(
  webs: AppProcess[],
  outbox: Outbox,
  signer: Signer,
  signature: string,
  before: (step: RequestStep) => Promise<void> = async () => undefined,
): Promise<SignerTiming> {
  let turn = signer.i;
  let waited = 0;
  const wait = async (step: RequestStep) => {
    const from = performance.now();
    await before(step);
    waited += performance.now() - from;
  };
  const steps: Partial<Record<Step, number>> = {};
  const felt: Partial<Record<RequestStep, number>> = {};
  let turnedAway = 0;
  const headers = { "x-forwarded-for": addressOf(signer.i), "user-agent": UA };
  // As the signing page does (src/client/public-pages/lib/http.ts): a 503 with Retry-After is
  // waited out (growing, spread waits) and tried again, for up to the page's budget.
  const call = async (step: RequestStep, method: "GET" | "POST", suffix: string, body?: unknown): Promise<any> => {
    const first = performance.now();
    let started = first;
    const served = await callAsThePage(() => {
      const web = webs[turn++ % webs.length]!;
      started = performance.now();
      return fetch(`${web.baseUrl}/api/public/sign/${signer.token}${suffix}`, {
        method,
        headers: method === "POST" ? { ...headers, "content-type": "application/json", origin: web.baseUrl } : headers,
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    });
    turnedAway += served.turnedAway;
    if (served.response.status === 503) throw new StepError(step, 503, served.text);
    steps[step] = performance.now() - started;
    felt[step] = performance.now() - first;
    if (served.response.status !== 200) throw new StepError(step, served.response.status, served.text);
    return JSON.parse(served.text);
  };
  await before("open");
  const started = performance.now();
  let page = await call("open", "GET", "");
  let codigo: string | undefined;
  if (page.codigo_obrigatorio) {
    await wait("code");
    await call("code", "POST", "/code", {});
    const readStarted = performance.now();
    codigo = await readCode(outbox, signer.email);
    steps.read_code = performance.now() - readStarted;
    await wait("verify");
    page = await call("verify", "POST", "/verify-code", { codigo });
  }
  await wait("sign");
  await call("sign", "POST", "", {
    nome: signer.nome,
    cpf: signer.cpf,
    email: signer.email,
    assinatura: signature,
    conteudo_sha256: page.documento.conteudo_sha256,
    aceite_eletronico: true,
    ...(codigo ? { codigo } : {}),
  });
  const flow = performance.now() - started - waited;
  const overall = REQUESTS.reduce((sum, step) => sum + (steps[step] ?? 0), 0);
  return { steps, felt, turnedAway, overall, flow };
}

/** Files under DATA_DIR/files (content-addressed: one per distinct SHA-256 stored). */
function storedFiles(root: string): number {
  let count = 0;
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory()) walk(path.join(dir, entry.name));
      else if (entry.isFile() && !entry.name.endsWith(".tmp")) count += 1;
    }
  };
  try {
    walk(root);
  } catch {
    return 0;
  }
  return count;
}

const BENCH_APPLICATION = "consentir-bench";
function withApplicationName(url: string, name: string): string {
  const parsed = new URL(url);
  parsed.searchParams.set("application_name", name);
  return parsed.toString();
}

/** CPU seconds of this database's PostgreSQL backends serving the app (not the bench), by pid (those alive now). */
async function backendCpu(database: Database, name: string): Promise<Map<number, number>> {
  const rows = await rawRows<{ pid: number }>(
    database.db,
    sql`select pid from pg_stat_activity where datname = ${name} and application_name is distinct from ${BENCH_APPLICATION}`,
  );
  return new Map(rows.map((row) => [row.pid, cpuSeconds(row.pid)]));
}

/**
 * The phased mode's statement counts, when the server loads pg_stat_statements
 * (shared_preload_libraries): per phase, the statements run per patient and their time in the
 * server. Otherwise nothing.
 */
async function statementStats(database: Database, name: string) {
  try {
    await rawRows(database.db, sql`create extension if not exists pg_stat_statements`);
    await rawRows(database.db, sql`select pg_stat_statements_reset()`);
  } catch {
    log("pg_stat_statements indisponível (shared_preload_libraries): fases sem contagem de comandos");
    return null;
  }
  return {
    reset: async () => {
      await rawRows(database.db, sql`select pg_stat_statements_reset()`);
    },
    report: async (phase: string, patients: number) => {
      const rows = await rawRows<{ query: string; calls: number; ms: number; rows: number }>(
        database.db,
        sql`select regexp_replace(query, '[[:space:]]+', ' ', 'g') as query, calls::int, round(total_exec_time::numeric, 1)::float as ms, rows::int
              from pg_stat_statements s join pg_database d on d.oid = s.dbid
             where d.datname = ${name} and query not like '%pg_stat_%' and query not like '%pg_stat_activity%'
             order by total_exec_time desc`,
      );
      const calls = rows.reduce((sum, row) => sum + row.calls, 0);
      const ms = rows.reduce((sum, row) => sum + row.ms, 0);
      const commits = rows.filter((row) => /^commit/i.test(row.query)).reduce((sum, row) => sum + row.calls, 0);
      log(
        `fase ${phase}: ${round(calls / patients, 1)} comandos por paciente (${round(commits / patients, 1)} COMMIT), ${round(ms / patients, 2)} ms no servidor por paciente (esperas de lock incluídas):`,
      );
      const frequent = rows.filter((row) => row.calls * 2 >= patients).sort((a, b) => b.calls - a.calls || b.ms - a.ms);
      for (const row of frequent)
        log(
          `    ${String(round(row.calls / patients, 1)).padStart(4)}× ${String(round(row.ms / row.calls, 2)).padStart(8)} ms  ${row.query.slice(0, 140)}`,
        );
    },
  };
}

/** What every check found; throws when anything is off. */
async function checkOutcome(
  database: Database,
  dataDir: string,
  anchorKey: Buffer,
  total: number,
  webs: AppProcess[],
  clinics: Clinic[],
) {
  const db = database.db;
  const [documents] = await rawRows<{ total: number; signed: number; sealed: number }>(
    db,
    sql`select count(*)::int as total, count(*) filter (where status = 'signed')::int as signed,
               count(*) filter (where signed_pdf_file_id is not null)::int as sealed from contratos`,
  );
  const [parties] = await rawRows<{ documents: number; wrong: number }>(
    db,
    sql`select count(*)::int as documents, count(*) filter (where n <> 1)::int as wrong
          from (select contrato_id, count(*) as n from contrato_partes where papel = 'paciente' group by contrato_id) p`,
  );
  const [events] = await rawRows<{ documents: number; wrong: number }>(
    db,
    sql`select count(*)::int as documents,
               count(*) filter (where signed <> 1 or sealed <> 1 or party <> 1)::int as wrong
          from (select entity_id,
                       count(*) filter (where action = 'document.signed') as signed,
                       count(*) filter (where action = 'document.sealed') as sealed,
                       count(*) filter (where action = 'document.party_signed' and data->>'papel' = 'paciente') as party
                  from audit_events where entity_type = 'contrato' group by entity_id) e`,
  );
  const [jobs] = await rawRows<{ documents: number; wrong: number; runs: number }>(
    db,
    sql`select count(*)::int as documents, count(*) filter (where n <> 1 or not done)::int as wrong, coalesce(sum(attempts), 0)::int as runs
          from (select payload->>'contratoId' as contrato, count(*) as n, bool_and(status = 'done') as done, sum(attempts) as attempts
                  from jobs where kind = 'document.finalize' group by 1) j`,
  );
  const [files] = await rawRows<{ sealed_rows: number; distinct_sha: number }>(
    db,
    sql`select (select count(*)::int from files f where f.content_type = 'application/pdf' and f.nome not like '%-rascunho%') as sealed_rows,
               (select count(distinct sha256)::int from files) as distinct_sha`,
  );
  const onDisk = storedFiles(path.join(dataDir, "files"));
  const sample = await rawRows<{ sha256: string }>(
    db,
    sql`select f.sha256 from contratos c join files f on f.id = c.signed_pdf_file_id order by random() limit 5`,
  );
  let sampleValid = 0;
  for (const { sha256 } of sample) {
    const bytes = readFileSync(path.join(dataDir, "files", sha256.slice(0, 2), sha256.slice(2, 4), sha256));
    if (verifyPdfSignature(bytes).valid) sampleValid += 1;
  }
  const chains = await verifyAllAuditChains(db, anchorKey);
  let apiChains = 0;
  for (const [n, clinic] of clinics.entries()) {
    const web = webs[n % webs.length]!;
    const response = await fetch(`${web.baseUrl}/api/audit/verify`, { headers: { cookie: clinic.cookie } });
    const report = (await response.json()) as { intact?: boolean };
    if (response.status === 200 && report.intact === true) apiChains += 1;
  }
  const outcome = {
    documents: documents?.total ?? 0,
    signed: documents?.signed ?? 0,
    sealed: documents?.sealed ?? 0,
    patient_parties_wrong: (parties?.wrong ?? 0) + total - (parties?.documents ?? 0),
    events_wrong: (events?.wrong ?? 0) + total - (events?.documents ?? 0),
    finalize_jobs_wrong: (jobs?.wrong ?? 0) + total - (jobs?.documents ?? 0),
    finalize_attempts: jobs?.runs ?? 0,
    sealed_file_rows: files?.sealed_rows ?? 0,
    stored_files: onDisk,
    distinct_file_sha: files?.distinct_sha ?? 0,
    sample_pdfs_valid: `${sampleValid}/${sample.length}`,
    audit_chains_intact: `${chains.filter((c) => c.intact).length}/${chains.length}`,
    audit_api_intact: `${apiChains}/${clinics.length}`,
  };
  const problems: string[] = [];
  if (outcome.documents !== total || outcome.signed !== total || outcome.sealed !== total)
    problems.push(
      `documentos ${outcome.documents}, assinados ${outcome.signed}, selados ${outcome.sealed} (esperado ${total})`,
    );
  if (outcome.patient_parties_wrong !== 0)
    problems.push(`${outcome.patient_parties_wrong} documento(s) sem exatamente uma assinatura do paciente`);
  if (outcome.events_wrong !== 0)
    problems.push(`${outcome.events_wrong} documento(s) sem exatamente um document.signed/sealed/party_signed`);
  if (outcome.finalize_jobs_wrong !== 0)
    problems.push(`${outcome.finalize_jobs_wrong} documento(s) sem exatamente um job document.finalize concluído`);
  if (outcome.sealed_file_rows !== total)
    problems.push(`${outcome.sealed_file_rows} PDFs selados registrados (esperado ${total})`);
  if (outcome.stored_files !== outcome.distinct_file_sha)
    problems.push(`${outcome.stored_files} arquivos guardados para ${outcome.distinct_file_sha} SHA-256 registrados`);
  if (sampleValid !== sample.length) problems.push(`PDFs selados que não verificam: ${sample.length - sampleValid}`);
  if (chains.some((c) => !c.intact))
    problems.push(
      `trilha quebrada: ${chains
        .filter((c) => !c.intact)
        .map((c) => c.problems.join(" "))
        .join("; ")}`,
    );
  if (apiChains !== clinics.length)
    problems.push(`GET /api/audit/verify não confirmou ${clinics.length - apiChains} clínica(s)`);
  return { outcome, problems };
}

function stepFigures(name: string, values: number[]): Record<string, number> {
  if (values.length === 0) return {};
  const s = summarize(values);
  return { [`${name}_p50_ms`]: round(s.median), [`${name}_p95_ms`]: round(s.p95), [`${name}_max_ms`]: round(s.max) };
}

async function run(): Promise<BenchResult> {
  const adminUrl = process.env.DATABASE_URL;
  if (!adminUrl)
    throw new Error("signers-cluster precisa de DATABASE_URL (PostgreSQL): vários processos não compartilham o PGlite");
  const scratch = await scratchDatabase(adminUrl, "consentir_bench_cluster");
  const dbName = new URL(scratch.url).pathname.slice(1);
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "consentir-bench-cluster-"));
  const appSecret = randomBytes(33).toString("base64url");
  const instanceBox = createSecretBox(loadInstanceKey({ APP_SECRET: appSecret, DATA_DIR: dataDir }));
  const env = {
    DATABASE_URL: scratch.url,
    DATA_DIR: dataDir,
    APP_SECRET: appSecret,
    WORKER: "false",
    TRUST_PROXY: "true",
    // The staff set-up signs in and re-enters the password once per document; the public limits keep their defaults.
    RATE_LIMIT_AUTH_PER_MINUTE: "100000",
    // The public routes' admission gate keeps its defaults (decision 040), or the PUBLIC_MAX_* given
    // to the bench; BENCH_ADMISSION=off turns it off to compare.
    ...Object.fromEntries(
      ADMISSION_VARIABLES.flatMap((name) => (process.env[name] ? [[name, process.env[name]!]] : [])),
    ),
    ...(ADMISSION_OFF ? { PUBLIC_MAX_IN_FLIGHT: "0" } : {}),
  };
  const webs: AppProcess[] = [];
  let worker: WorkerProcess | undefined;
  let database: Database | undefined;
  try {
    // The first process migrates the new database; then the second and the worker start together.
    webs.push(await startAppProcess(env));
    const [second, workerProcess] = await Promise.all([startAppProcess(env), startWorkerProcess(env)]);
    webs.push(second);
    worker = workerProcess;
    // Named, so the backends' CPU counts the app's sessions only (not the bench reading codes and stats).
    database = await openDatabase({
      kind: "postgres",
      url: withApplicationName(scratch.url, BENCH_APPLICATION),
      poolSize: 4,
    });
    log(
      `2 processos web (${webs.map((w) => w.pid).join(", ")}) e 1 worker (${worker.pid}) em ${dbName}; DATA_DIR ${dataDir}`,
    );

    const clinics: Clinic[] = [];
    for (let n = 0; n < CLINICS; n++) clinics.push(await setUpClinic(webs[n % 2]!, n));
    const run = Date.now().toString(36);
    const total = SIGNERS + WARMUP_PER_PROCESS * webs.length;
    const seedStarted = performance.now();
    const signers: Signer[] = [];
    await inPool(
      Array.from({ length: total }, (_, i) => i),
      SEED_CONCURRENCY,
      async (i) => {
        signers[i] = await seedSigner(webs[i % 2]!, clinics[i % CLINICS]!, i, run);
        if ((i + 1) % 200 === 0) log(`${i + 1}/${total} documentos enviados`);
      },
    );
    const seedSeconds = (performance.now() - seedStarted) / 1000;
    log(`${total} documentos enviados em ${round(seedSeconds, 1)} s (${CLINICS} clínica(s))`);

    const signature = signatureDataUrl();
    // Warm-up: a few whole flows per process (first-use costs), not timed.
    for (const signer of signers.slice(SIGNERS))
      await signAsPatient(webs, { database, box: instanceBox }, signer, signature);
    // Let the worker seal the warm-up documents first, so the timed run starts from a quiet queue.
    await waitFor(
      "os PDFs do aquecimento",
      async () => (await sealedCount(database!)) >= total - SIGNERS,
      120_000,
      200,
    );

    const timed = signers.slice(0, SIGNERS);
    const pids = { web1: webs[0]!.pid, web2: webs[1]!.pid, worker: worker.pid };
    const cpuBefore = Object.fromEntries(Object.entries(pids).map(([k, pid]) => [k, cpuSeconds(pid)]));
    const benchCpuBefore = process.cpuUsage();
    const backendsBefore = await backendCpu(database, dbName);
    const loadBefore = loadAverage();
    const model = THINK_MS
      ? ` (sessões abertas juntas, pausas de ${THINK_MS[0]}–${THINK_MS[1]} ms antes de cada pedido)`
      : RAMP_S > 0
        ? ` (chegadas ao longo de ${RAMP_S} s)`
        : PHASED
          ? " (em fases: todos abrem, depois todos pedem o código…)"
          : " ao mesmo tempo";
    log(`${SIGNERS} pacientes assinando${model}; carga ${loadBefore}`);

    // The app's backends' CPU: the last value seen of every backend (a pool closes idle
    // connections, and a backend gone between two looks would take its CPU with it).
    const backendSeen = new Map(backendsBefore);
    const refreshBackends = async () => {
      for (const [pid, value] of await backendCpu(database!, dbName)) backendSeen.set(pid, value);
    };
    const postgresSince = () =>
      [...backendSeen].reduce((sum, [pid, value]) => sum + value - (backendsBefore.get(pid) ?? 0), 0);

    // What the database's sessions are doing, sampled every 100 ms while the patients sign.
    const waits = new Map<string, number>();
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        const rows = await rawRows<{ what: string; n: number }>(
          database!.db,
          sql`select coalesce(wait_event_type || ':' || wait_event, 'cpu') || ' (' || state || ')' as what, count(*)::int as n
                from pg_stat_activity where datname = ${dbName} and pid <> pg_backend_pid() and state <> 'idle' group by 1`,
        ).catch(() => []);
        for (const row of rows) waits.set(row.what, (waits.get(row.what) ?? 0) + row.n);
        await refreshBackends().catch(() => undefined);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    })();
    const timings: SignerTiming[] = [];
    const failures = new Map<string, number>();
    const firstFailures: string[] = [];
    // CPU of every process (and the database's backends) at a moment, for the phased mode.
    const cpuNow = async () => {
      await refreshBackends();
      const postgres = postgresSince();
      return {
        at: performance.now(),
        web: cpuSeconds(pids.web1) + cpuSeconds(pids.web2),
        worker: cpuSeconds(pids.worker),
        postgres,
        bench: (process.cpuUsage().user + process.cpuUsage().system) / 1e6,
      };
    };
    type CpuSnapshot = Awaited<ReturnType<typeof cpuNow>>;
    const phaseMarks: { name: string; at: CpuSnapshot }[] = [];
    const statements = PHASED ? await statementStats(database, dbName) : null;
    const gates = PHASED
      ? phaseGates(timed.length, async (step) => {
          const previous = phaseMarks.at(-1)?.name;
          if (previous) await statements?.report(previous, timed.length);
          phaseMarks.push({ name: step, at: await cpuNow() });
          await statements?.reset();
        })
      : null;
    // A member of the staff at work meanwhile: the documents list, every STAFF_PROBE_MS, over both processes.
    const staffTimes: number[] = [];
    let staffFailures = 0;
    let probing = true;
    const staffProbe = (async () => {
      for (let n = 0; probing; n++) {
        const web = webs[n % webs.length]!;
        const from = performance.now();
        const response = await fetch(`${web.baseUrl}/api/documents?limit=20`, {
          headers: { cookie: clinics[0]!.cookie },
        }).catch(() => null);
        await response?.arrayBuffer();
        if (response?.status === 200) staffTimes.push(performance.now() - from);
        else staffFailures += 1;
        await new Promise((resolve) => setTimeout(resolve, STAFF_PROBE_MS));
      }
    })();
    const started = performance.now();
    const monotonicStart = process.hrtime.bigint() / 1000n;
    await Promise.all(
      timed.map(async (signer, index) => {
        if (RAMP_S > 0) await new Promise((resolve) => setTimeout(resolve, (index * RAMP_S * 1000) / SIGNERS));
        const random = seeded(signer.i + 1);
        const before = async (step: RequestStep) => {
          if (THINK_MS)
            await new Promise((resolve) => setTimeout(resolve, THINK_MS[0] + random() * (THINK_MS[1] - THINK_MS[0])));
          if (gates) await gates.arrive(step);
        };
        try {
          timings.push(await signAsPatient(webs, { database: database!, box: instanceBox }, signer, signature, before));
        } catch (error) {
          const key = error instanceof StepError ? `${error.step}:${error.status}` : "rede";
          failures.set(key, (failures.get(key) ?? 0) + 1);
          if (firstFailures.length < 5) firstFailures.push(error instanceof Error ? error.message : String(error));
          await gates?.leave();
        }
      }),
    );
    if (gates) {
      await statements?.report(phaseMarks.at(-1)?.name ?? "?", timed.length);
      phaseMarks.push({ name: "end", at: await cpuNow() });
      await statements?.reset();
    }
    const signingSeconds = (performance.now() - started) / 1000;
    sampling = false;
    probing = false;
    await staffProbe;
    // The same clock as a V8 CPU profile's timestamps (µs), to cut the profiles to the signing.
    if (process.env.BENCH_CPU_PROF_DIR)
      log(`janela das assinaturas (relógio monotônico, µs): ${monotonicStart} ${process.hrtime.bigint() / 1000n}`);
    await sampler;
    const waitSamples = [...waits].sort((a, b) => b[1] - a[1]).slice(0, 8);
    const loadAfterSigning = loadAverage();
    const cpuSigning = Object.fromEntries(
      Object.entries(pids).map(([k, pid]) => [`cpu_${k}_s`, round(cpuSeconds(pid) - cpuBefore[k]!, 1)]),
    );
    const benchCpu = process.cpuUsage(benchCpuBefore);
    await refreshBackends();
    const postgresCpu = postgresSince();
    const errors = [...failures.values()].reduce((a, b) => a + b, 0);
    log(
      `assinaturas em ${round(signingSeconds, 1)} s; erros ${errors}${errors ? ` ${JSON.stringify(Object.fromEntries(failures))}: ${firstFailures.join(" | ")}` : ""}; carga ${loadAfterSigning}`,
    );

    // The worker seals every final PDF.
    const signed = total - errors;
    const sealedAll = async () => {
      await refreshBackends();
      return (await sealedCount(database!)) >= signed;
    };
    await waitFor("o worker selar todos os PDFs finais", sealedAll, FINALS_TIMEOUT_MS, 500).catch((error: unknown) => {
      log(`saída do worker (fim):\n${worker?.output().slice(-3000)}`);
      throw error;
    });
    const finalsSeconds = (performance.now() - started) / 1000;
    const cpuWorkerTotal = round(cpuSeconds(worker.pid) - cpuBefore.worker!, 1);
    const sealedAt = await cpuNow();
    // CPU per signed and sealed document, every process and the database (the bench's own apart).
    const cpuPerSigner =
      ((sealedAt.web - cpuBefore.web1! - cpuBefore.web2! + (sealedAt.worker - cpuBefore.worker!) + sealedAt.postgres) *
        1000) /
      Math.max(1, timings.length);
    log(
      `CPU por paciente (assinado e selado): ${round(cpuPerSigner, 1)} ms — web ${round(((sealedAt.web - cpuBefore.web1! - cpuBefore.web2!) * 1000) / Math.max(1, timings.length), 1)}, worker ${round(((sealedAt.worker - cpuBefore.worker!) * 1000) / Math.max(1, timings.length), 1)}, postgres ${round((sealedAt.postgres * 1000) / Math.max(1, timings.length), 1)}`,
    );
    const phaseFigures: Record<string, number> = {};
    if (gates) {
      await statements?.report("seal", timed.length);
      phaseMarks.push({ name: "sealed", at: sealedAt });
      // Each request type's CPU (per patient) from its gate to the next; "seal": the worker after the last signature.
      const n = Math.max(1, timings.length);
      for (let k = 0; k + 1 < phaseMarks.length; k++) {
        const from = phaseMarks[k]!;
        const to = phaseMarks[k + 1]!;
        const name = from.name === "end" ? "seal" : from.name;
        const per = (a: number, b: number) => round(((b - a) * 1000) / n, 1);
        const figures = {
          web: per(from.at.web, to.at.web),
          worker: per(from.at.worker, to.at.worker),
          postgres: per(from.at.postgres, to.at.postgres),
          bench: per(from.at.bench, to.at.bench),
        };
        for (const [who, value] of Object.entries(figures)) phaseFigures[`cpu_ms_${name}_${who}`] = value;
        log(
          `fase ${name.padEnd(6)} ${round((to.at.at - from.at.at) / 1000, 1)} s; CPU por paciente: web ${figures.web} ms, worker ${figures.worker} ms, postgres ${figures.postgres} ms (bench ${figures.bench} ms)`,
        );
      }
    }
    log(
      `PDFs finais selados ${round(finalsSeconds, 1)} s após o início (${round(finalsSeconds - signingSeconds, 1)} s após a última assinatura); worker ${cpuWorkerTotal} s de CPU`,
    );

    const anchorKey = instanceBox.deriveKey(AUDIT_ANCHOR_KEY_PURPOSE);
    const { outcome, problems } = await checkOutcome(database, dataDir, anchorKey, total, webs, clinics);
    if (errors > 0) problems.unshift(`${errors} paciente(s) com erro: ${JSON.stringify(Object.fromEntries(failures))}`);

    const figures: Record<string, number> = {};
    for (const step of STEPS)
      Object.assign(
        figures,
        stepFigures(
          step,
          timings.map((t) => t.steps[step]).filter((v): v is number => v !== undefined),
        ),
      );
    const overall = summarize(timings.map((t) => t.overall));
    Object.assign(
      figures,
      stepFigures(
        "flow",
        timings.map((t) => t.flow),
      ),
    );
    for (const step of STEPS) {
      if (figures[`${step}_p50_ms`] !== undefined)
        log(
          `${step.padEnd(9)} p50 ${figures[`${step}_p50_ms`]} ms · p95 ${figures[`${step}_p95_ms`]} ms · máx ${figures[`${step}_max_ms`]} ms`,
        );
    }
    log(
      `total     p50 ${round(overall.median)} ms · p95 ${round(overall.p95)} ms · máx ${round(overall.max)} ms (meta: p95 ≤ 1000 ms, 0 erros)`,
    );
    for (const step of REQUESTS)
      Object.assign(
        figures,
        stepFigures(
          `felt_${step}`,
          timings.map((t) => t.felt[step]).filter((v): v is number => v !== undefined),
        ),
      );
    const turnedAway = timings.reduce((sum, t) => sum + t.turnedAway, 0);
    const signersTurnedAway = timings.filter((t) => t.turnedAway > 0).length;
    log(
      `admissão ${ADMISSION_OFF ? "desligada" : "ligada"}: ${turnedAway} respostas 503 "aguarde" a ${signersTurnedAway} paciente(s); como o paciente sentiu (esperas incluídas): ` +
        REQUESTS.map((step) => `${step} p95 ${figures[`felt_${step}_p95_ms`] ?? "—"} ms`).join(" · "),
    );
    Object.assign(figures, stepFigures("staff_list", staffTimes));
    log(
      `equipe (GET /api/documents a cada ${STAFF_PROBE_MS} ms durante as assinaturas): ${staffTimes.length} respostas, p50 ${figures.staff_list_p50_ms ?? "—"} ms · p95 ${figures.staff_list_p95_ms ?? "—"} ms · máx ${figures.staff_list_max_ms ?? "—"} ms; falhas ${staffFailures}`,
    );
    log(
      `CPU durante as assinaturas: ${JSON.stringify(cpuSigning)}, postgres ~${round(postgresCpu, 1)} s, bench ${round((benchCpu.user + benchCpu.system) / 1e6, 1)} s`,
    );
    log(
      `sessões do PostgreSQL ocupadas (amostras a cada 100 ms, soma): ${waitSamples.map(([what, n]) => `${what} ${n}`).join(", ")}`,
    );
    log(`conferências: ${JSON.stringify(outcome)}`);
    if (problems.length > 0) throw new Error(`signers-cluster: ${problems.join("; ")}`);
    return {
      median_ms: round(overall.median),
      p95_ms: round(overall.p95),
      max_ms: round(overall.max),
      target_p95_ms: 1000,
      errors,
      signers: SIGNERS,
      clinics: CLINICS,
      web_processes: webs.length,
      ramp_s: RAMP_S,
      think_ms: THINK_MS ? THINK_MS.join("-") : 0,
      phased: PHASED,
      admission: !ADMISSION_OFF,
      turned_away: turnedAway,
      signers_turned_away: signersTurnedAway,
      staff_failures: staffFailures,
      cpu_ms_per_signer: round(cpuPerSigner, 1),
      ...phaseFigures,
      signing_s: round(signingSeconds, 1),
      signers_per_s: round(timings.length / signingSeconds, 1),
      finals_s: round(finalsSeconds, 1),
      seed_s: round(seedSeconds, 1),
      ...figures,
      ...cpuSigning,
      cpu_postgres_s: round(postgresCpu, 1),
      cpu_bench_s: round((benchCpu.user + benchCpu.system) / 1e6, 1),
      cpu_worker_until_sealed_s: cpuWorkerTotal,
      pg_busy_samples: Object.fromEntries(waitSamples),
      load_before: loadBefore,
      load_after_signing: loadAfterSigning,
      ...outcome,
    };
  } finally {
    await database?.close().catch(() => undefined);
    await Promise.all([...webs.map((web) => stopAppProcess(web)), worker?.stop()]).catch(() => undefined);
    await scratch.drop().catch((error: unknown) => log(`não consegui apagar ${dbName}: ${String(error)}`));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function sealedCount(database: Database): Promise<number> {
  const [row] = await rawRows<{ n: number }>(
    database.db,
    sql`select count(*)::int as n from contratos where signed_pdf_file_id is not null`,
  );
  return row?.n ?? 0;
}

export default {
  name: "signers-cluster",
  description: `${SIGNERS} pacientes assinando (abrir, código, conferir, assinar) por 2 processos web + 1 worker no mesmo PostgreSQL: erros = 0, p95 ≤ 1 s, cada documento assinado e selado uma vez, trilhas íntegras`,
  run,
} satisfies BenchCase;
