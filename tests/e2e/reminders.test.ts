import type { FastifyInstance } from "fastify";
import type { Browser, Page } from "playwright-core";
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Database, openDatabase } from "../../src/db/client.js";
import { jobs } from "../../src/db/schema.js";
import { buildApp } from "../../src/server/app.js";
import { jobHandlers } from "../../src/server/jobs/handlers.js";
import { runDueJobs } from "../../src/server/jobs/run-due-jobs.js";
import { formatDateTime } from "../../src/shared/format/index.js";
import { validCpf } from "../helpers/factories.js";
import { freePort } from "../helpers/server-process.js";
import { testEnv, uniqueEmail } from "../helpers/test-env.js";
import { signIn } from "./accounts.js";
import { launchBrowser, snap } from "./browser.js";
import { json, seedSignableDocument } from "./signing-helpers.js";

/**
 * Automatic reminders (decision 059) in the browser: the setting in Configurações, and the reminder
 * on the document page once its job ran. This file runs its own app so it can run the reminder
 * job on a moved clock (the queue's `now`), as the worker would a day later.
 */
let browser: Browser;
let app: FastifyInstance;
let database: Database;
let base: string;
let page: Page;
const account = { email: uniqueEmail("e2e-lembrete"), password: "segredo123" };

beforeAll(async () => {
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  database = await openDatabase({ kind: "pglite-memory" });
  app = await buildApp({ env: testEnv({ PORT: String(port), PUBLIC_URL: base }), database, logger: false });
  await app.listen({ port, host: "127.0.0.1" });
  browser = await launchBrowser();
  const response = await fetch(`${base}/api/auth/sign-up`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      profile_type: "profissional_independente",
      nome: "Dra. Helena Duarte",
      cpf: validCpf(),
      email: account.email,
      password: account.password,
      confirmPassword: account.password,
      conselho_tipo: "CRO",
      conselho_numero: "43210",
      conselho_uf: "SP",
      especialidades: [{ especialidade: "implantodontia", areas_atuacao: [], rqe: null }],
    }),
  });
  expect(response.status, await response.clone().text()).toBe(201);
  const context = await browser.newContext({
    viewport: { width: 1366, height: 900 },
    baseURL: base,
    locale: "pt-BR",
    timezoneId: "America/Sao_Paulo",
  });
  page = await context.newPage();
  await signIn(page, account.email, account.password);
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await app?.close();
  await database?.close();
});

describe("automatic reminders in the browser", () => {
  it("shows the setting on by default in Configurações and saves a change", async () => {
    await page.goto("/settings");
    const card = page.getByTestId("reminder-settings");
    await card.getByText("Lembretes automáticos").waitFor();
    const toggle = card.getByRole("switch", { name: /Reenviar o link a quem não assinou/ });
    expect(await toggle.getAttribute("aria-checked")).toBe("true");
    expect(await card.getByRole("radio", { name: "3 lembretes" }).getAttribute("aria-checked")).toBe("true");
    await card.scrollIntoViewIfNeeded();
    await snap(page, "reminders-settings", { fullPage: false });
    await card.getByRole("radio", { name: "2 lembretes" }).click();
    await page.getByText("Configurações atualizadas").first().waitFor();
    const saved = await json<{ maximo: number }>(await page.request.get("/api/settings/reminders"), 200);
    expect(saved.maximo).toBe(2);
    await page.reload();
    expect(
      await page
        .getByTestId("reminder-settings")
        .getByRole("radio", { name: "2 lembretes" })
        .getAttribute("aria-checked"),
    ).toBe("true");
  });

  it("shows 'Lembrete enviado em …' on the document page after the reminder job ran", async () => {
    const documentId = await seedSignableDocument(page, account, {
      nome: "Marcos Vinícius Prado",
      cpf: validCpf(),
      email: uniqueEmail("paciente-lembrete"),
    });
    await json(await page.request.post(`/api/documents/${documentId}/send`, { data: { email: true } }), 200);
    await page.goto(`/documents/${documentId}`);
    await page.getByRole("heading", { level: 1 }).waitFor();
    expect(await page.getByTestId("document-messages").count()).toBe(0);

    const [job] = await database.db
      .select()
      .from(jobs)
      .where(and(eq(jobs.kind, "document.remind"), sql`${jobs.payload} ->> 'contratoId' = ${documentId}`));
    expect(job).toBeDefined();
    const ctx = {
      db: database.db,
      storage: app.services.storage,
      secretBox: app.services.secretBox,
      env: testEnv({ PUBLIC_URL: base }),
      origin: base,
      log: { info() {}, warn() {}, error() {} },
    };
    expect(await runDueJobs({ ctx, handlers: jobHandlers, limit: 20, now: () => job!.run_at })).toBeGreaterThanOrEqual(
      1,
    );

    await page.reload();
    const line = page.getByTestId("reminder-line");
    await line.waitFor();
    expect(await line.textContent()).toContain(`Lembrete enviado em ${formatDateTime(job!.run_at)}`);
    expect(await line.textContent()).toContain("e-mail");
    await page.getByTestId("document-messages").scrollIntoViewIfNeeded();
    await snap(page, "reminders-document-page", { fullPage: false });
    // The trail names it too.
    await page.getByRole("tab", { name: "Trilha de Auditoria" }).click();
    await page.getByTestId("audit-trail").getByText("Lembrete automático enviado").waitFor();
  });
});
