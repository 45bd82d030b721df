/**
 * `web-vitals` (decision 033): the dashboard (signed in) and the public signing page as a
 * phone sees them. Starts the built app (dist/client: run `npm run build` first) on a fresh PGlite,
 * seeds a clinic and a sent document, then opens each page cold (new browser context, empty cache)
 * RUNS times in Chromium at 390×844 with CDP's 4× CPU slowdown and slow-4G (150 ms latency,
 * 1.6 Mbps down, 750 kbps up). Reports, as medians:
 *   - LCP: the last 'largest-contentful-paint' entry once the page shows its content;
 *   - first-load JS: bytes on the wire (CDP loadingFinished.encodedDataLength) of the scripts
 *     received by then — what the page needed to draw; the screens the sidebar prefetches when
 *     idle afterwards are reported apart (prefetch_kb);
 *   - the content-encoding the scripts came with;
 *   - total blocking time (TBT), as Lighthouse counts it: every long task (a 'longtask'
 *     PerformanceObserver from the start of the page) clipped to the span from the first
 *     contentful paint until the page is quiet, minus 50 ms each, summed. "Quiet": no long task
 *     and no new LCP entry for 5 s, once the network is idle; what the page prefetches when idle
 *     counts, as it blocks a tap on a phone just the same.
 * Targets: LCP ≤ 2.5 s / ≤ 1.5 s, TBT ≤ 200 ms, first-load JS ≤ 150 / 35 KB. median_ms / p95_ms
 * are the dashboard's LCP. Not run in CI.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { type Browser, chromium } from "playwright-core";
import { projectRoot } from "../../src/db/paths.js";
import type { BenchCase } from "../run.js";
import { median, percentile, round } from "../stats.js";
import { BENCH_PASSWORD, benchClinic, startBenchTarget } from "../support/bench-app.js";

const RUNS = Number(process.env.WEB_VITALS_RUNS ?? 5);
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];
const PHONE = { width: 390, height: 844 };
/** Lighthouse's slow 4G: 150 ms round trip, 1.6 Mbps down, 750 kbps up (bytes per second for CDP). */
const SLOW_4G = {
  offline: false,
  latency: 150,
  downloadThroughput: (1.6 * 1024 * 1024) / 8,
  uploadThroughput: (750 * 1024) / 8,
};
const TARGETS = {
  dashboard: { lcp_ms: 2500, tbt_ms: 200, js_kb: 150 },
  signing: { lcp_ms: 1500, tbt_ms: 200, js_kb: 35 },
} as const;
/** The page counts as quiet after this long with no long task and no new LCP entry. */
const QUIET_MS = 5000;

const log = (message: string) => process.stderr.write(`  [web-vitals] ${message}\n`);

interface Load {
  lcpMs: number;
  tbtMs: number;
  jsKb: number;
  prefetchKb: number;
  prefetchFiles: number;
  scripts: number;
  encodings: string[];
}

interface Vitals {
  lcp: number;
  /** performance.now() of the last LCP entry's arrival. */
  lcpSeenAt: number;
  fcp: number;
  longTasks: { start: number; end: number }[];
}

/**
 * Collects, from the start of the page (buffered), the LCP entries, the first contentful paint
 * and the long tasks into window.__vitals.
 */
const VITALS_OBSERVER = `
  window.__vitals = { lcp: 0, lcpSeenAt: 0, fcp: 0, longTasks: [] };
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      window.__vitals.lcp = entry.renderTime || entry.loadTime || entry.startTime;
      window.__vitals.lcpSeenAt = performance.now();
    }
  }).observe({ type: "largest-contentful-paint", buffered: true });
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries())
      if (entry.name === "first-contentful-paint") window.__vitals.fcp = entry.startTime;
  }).observe({ type: "paint", buffered: true });
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries())
      window.__vitals.longTasks.push({ start: entry.startTime, end: entry.startTime + entry.duration });
  }).observe({ type: "longtask", buffered: true });
`;

/** Lighthouse's sum: each long task clipped to [from, to], what exceeds 50 ms of it. */
function totalBlockingTime(tasks: readonly { start: number; end: number }[], from: number, to: number): number {
  let total = 0;
  for (const task of tasks) {
    const clipped = Math.min(task.end, to) - Math.max(task.start, from);
    if (clipped > 50) total += clipped - 50;
  }
  return total;
}

/** One cold load of `url`: waits for `ready` (text on the page), then reads LCP and the script bytes. */
async function coldLoad(browser: Browser, baseUrl: string, url: string, ready: string, cookie?: string): Promise<Load> {
  const context = await browser.newContext({
    viewport: PHONE,
    isMobile: true,
    hasTouch: true,
    deviceScaleFactor: 3,
    locale: "pt-BR",
    timezoneId: "America/Sao_Paulo",
  });
  try {
    if (cookie) {
      const [name, ...value] = cookie.split("=");
      await context.addCookies([{ name: name ?? "", value: value.join("="), url: baseUrl }]);
    }
    const page = await context.newPage();
    await page.addInitScript(VITALS_OBSERVER);
    const cdp = await context.newCDPSession(page);
    await cdp.send("Network.enable");
    await cdp.send("Network.setCacheDisabled", { cacheDisabled: true });
    await cdp.send("Emulation.setCPUThrottlingRate", { rate: 4 });
    await cdp.send("Network.emulateNetworkConditions", SLOW_4G);
    const scripts = new Map<string, string>();
    const finished: { id: string; bytes: number; at: number }[] = [];
    cdp.on("Network.responseReceived", (event) => {
      if (event.type === "Script") {
        const headers = Object.fromEntries(
          Object.entries(event.response.headers).map(([k, v]) => [k.toLowerCase(), String(v)]),
        );
        scripts.set(event.requestId, headers["content-encoding"] ?? "identity");
      }
    });
    cdp.on("Network.loadingFinished", (event) => {
      if (scripts.has(event.requestId))
        finished.push({ id: event.requestId, bytes: event.encodedDataLength, at: Date.now() });
    });
    await page.goto(`${baseUrl}${url}`, { waitUntil: "load", timeout: 120_000 });
    await page.getByText(ready, { exact: true }).first().waitFor({ timeout: 120_000 });
    const readyAt = Date.now();
    // Whatever the page fetches when idle (the sidebar's screens) comes after; wait for it, then
    // for the page to be quiet (no long task, no new LCP entry for QUIET_MS).
    await page.waitForLoadState("networkidle", { timeout: 120_000 }).catch(() => undefined);
    await page.waitForFunction(
      (quietMs) => {
        const vitals = (window as unknown as { __vitals: Vitals }).__vitals;
        const last = Math.max(vitals.lcpSeenAt, ...vitals.longTasks.map((task) => task.end));
        return vitals.lcp > 0 && performance.now() - last >= quietMs;
      },
      QUIET_MS,
      { timeout: 120_000, polling: 250 },
    );
    const vitals = await page.evaluate(() => (window as unknown as { __vitals: Vitals }).__vitals);
    const quietAt = Math.max(vitals.lcpSeenAt, ...vitals.longTasks.map((task) => task.end));
    const sum = (list: typeof finished) => round(list.reduce((total, item) => total + item.bytes, 0) / 1024, 1);
    const firstLoad = finished.filter((item) => item.at <= readyAt);
    const later = finished.filter((item) => item.at > readyAt);
    return {
      lcpMs: vitals.lcp,
      tbtMs: totalBlockingTime(vitals.longTasks, vitals.fcp, quietAt),
      jsKb: sum(firstLoad),
      prefetchKb: sum(later),
      prefetchFiles: later.length,
      scripts: firstLoad.length,
      encodings: [...new Set(firstLoad.map((item) => scripts.get(item.id) ?? "?"))],
    };
  } finally {
    await context.close();
  }
}

function summary(name: keyof typeof TARGETS, loads: Load[]) {
  const lcp = loads.map((load) => load.lcpMs);
  const js = median(loads.map((load) => load.jsKb));
  const lcpMedian = round(median(lcp), 0);
  const tbt = loads.map((load) => load.tbtMs);
  const tbtMedian = round(median(tbt), 0);
  return {
    [`${name}_lcp_ms`]: lcpMedian,
    [`${name}_lcp_p95_ms`]: round(percentile(lcp, 95), 0),
    [`${name}_tbt_ms`]: tbtMedian,
    [`${name}_tbt_p95_ms`]: round(percentile(tbt, 95), 0),
    [`${name}_js_kb`]: js,
    [`${name}_js_files`]: median(loads.map((load) => load.scripts)),
    [`${name}_prefetch_kb`]: median(loads.map((load) => load.prefetchKb)),
    [`${name}_prefetch_files`]: median(loads.map((load) => load.prefetchFiles)),
    [`${name}_encoding`]: [...new Set(loads.flatMap((load) => load.encodings))].join(","),
    [`${name}_target_lcp_ms`]: TARGETS[name].lcp_ms,
    [`${name}_target_tbt_ms`]: TARGETS[name].tbt_ms,
    [`${name}_target_js_kb`]: TARGETS[name].js_kb,
    [`${name}_within_target`]:
      lcpMedian <= TARGETS[name].lcp_ms && tbtMedian <= TARGETS[name].tbt_ms && js <= TARGETS[name].js_kb,
  };
}

async function run() {
  if (!existsSync(path.join(projectRoot, "dist", "client", "sign.html")))
    throw new Error("dist/client não existe: rode `npm run build`");
  const target = await startBenchTarget("pglite");
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS, headless: true });
  try {
    const clinic = await benchClinic(target, 33);
    const staff = async (method: string, apiPath: string, body?: unknown) => {
      const response = await fetch(`${target.baseUrl}${apiPath}`, {
        method,
        headers: { cookie: clinic.cookie, "content-type": "application/json", origin: target.baseUrl },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      if (!response.ok) throw new Error(`${method} ${apiPath} → ${response.status} ${await response.text()}`);
      return response.json() as Promise<Record<string, any>>;
    };
    const me = (await staff("GET", "/api/auth/me")).profile as { id: string };
    const specialties = (await staff("GET", "/api/templates/specialties")).items as string[];
    const template = await staff("POST", "/api/templates", {
      titulo: "TCLE",
      especialidade: specialties[0],
      categoria: "Consentimento",
      estrutura: {
        title: "Termo de consentimento — {{procedimento}}",
        introduction:
          "Eu, {{paciente_nome}}, CPF {{paciente_cpf}}, declaro que fui informada sobre o procedimento, seus riscos e alternativas, e autorizo sua realização.",
        sections: [],
      },
    });
    const { versao_atual_id } = await staff("POST", `/api/templates/${template.id}/status`, { status: "published" });
    const patient = await staff("POST", "/api/patients", { nome: "Joana Prado Albuquerque", cpf: "52998224725" });
    const document = await staff("POST", "/api/documents", {
      paciente_id: patient.id,
      template_version_id: versao_atual_id,
      titulo: "Termo de consentimento",
      procedimento: "Toxina botulínica",
      medico_responsavel_id: me.id,
      permitir_pendencias: true,
    });
    await staff("POST", `/api/documents/${document.id}/professional-signature`, { senha: BENCH_PASSWORD });
    const link = await staff("POST", `/api/documents/${document.id}/send`, {});
    const signingPath = new URL(link.link as string).pathname;

    const dashboard: Load[] = [];
    const signing: Load[] = [];
    for (let i = 0; i < RUNS; i++) {
      dashboard.push(await coldLoad(browser, target.baseUrl, "/", "Total de Contratos", clinic.cookie));
      signing.push(await coldLoad(browser, target.baseUrl, signingPath, "Assinar Documento"));
      log(
        `run ${i + 1}/${RUNS}: dashboard LCP ${round(dashboard[i]!.lcpMs, 0)} ms, TBT ${round(dashboard[i]!.tbtMs, 0)} ms, ${dashboard[i]!.jsKb} KB JS + ${dashboard[i]!.prefetchKb} KB prefetch; ` +
          `signing LCP ${round(signing[i]!.lcpMs, 0)} ms, TBT ${round(signing[i]!.tbtMs, 0)} ms, ${signing[i]!.jsKb} KB JS`,
      );
    }
    const result = { ...summary("dashboard", dashboard), ...summary("signing", signing) };
    log(
      `dashboard: LCP ${result.dashboard_lcp_ms} ms (alvo ≤ ${TARGETS.dashboard.lcp_ms}), TBT ${result.dashboard_tbt_ms} ms (alvo ≤ ${TARGETS.dashboard.tbt_ms}), JS ${result.dashboard_js_kb} KB (alvo ≤ ${TARGETS.dashboard.js_kb}, ${result.dashboard_encoding}); ` +
        `assinatura: LCP ${result.signing_lcp_ms} ms (alvo ≤ ${TARGETS.signing.lcp_ms}), TBT ${result.signing_tbt_ms} ms (alvo ≤ ${TARGETS.signing.tbt_ms}), JS ${result.signing_js_kb} KB (alvo ≤ ${TARGETS.signing.js_kb}, ${result.signing_encoding})`,
    );
    return {
      median_ms: result.dashboard_lcp_ms as number,
      p95_ms: result.dashboard_lcp_p95_ms as number,
      runs: RUNS,
      ...result,
    };
  } finally {
    await browser.close();
    await target.close();
  }
}

export default {
  name: "web-vitals",
  description:
    "LCP, tempo de bloqueio (TBT) e JS comprimido do dashboard e da página de assinatura num celular (390×844, CPU 4×, 4G lento via CDP), mediana de 5 cargas frias",
  run,
} satisfies BenchCase;
