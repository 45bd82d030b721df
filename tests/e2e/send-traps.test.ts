import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Database, openDatabase } from "../../src/db/client.js";
import { contratos } from "../../src/db/schema.js";
import { buildApp } from "../../src/server/app.js";
import { expireDocuments } from "../../src/server/jobs/expire-documents.js";
import { ERRORS } from "../../src/shared/errors.js";
import { shortDocumentId } from "../../src/shared/schemas/document.js";
import { CONTACT_MISSING_MESSAGE } from "../../src/shared/send-readiness.js";
import { validCpf } from "../helpers/factories.js";
import { testEnv, uniqueEmail } from "../helpers/test-env.js";
import { signIn } from "./accounts.js";
import { animationsFinished, launchBrowser, PHONE, snap } from "./browser.js";
import { json } from "./signing-helpers.js";
import { freePort } from "../helpers/server-process.js";

/**
 * Sending without traps, no dead ends in the list. This file runs its own app (built
 * client, PGlite in memory) so it can move a document past its deadline in the database, as the
 * clock would, and let the expiry sweep mark it.
 */
let browser: Browser;
let app: FastifyInstance;
let database: Database;
let base: string;
const LAPTOP = { width: 1366, height: 768 } as const;
const STRUCTURE = {
  title: "Termo de Consentimento — {{procedimento}}",
  introduction: "Eu, {{paciente_nome}}, autorizo {{profissional_nome}} a realizar {{procedimento}}.",
  sections: [{ id: "s1", type: "paragraph", title: "Declaração", content: "Declaro que li e compreendi os riscos." }],
};

beforeAll(async () => {
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  database = await openDatabase({ kind: "pglite-memory" });
  app = await buildApp({ env: testEnv({ PORT: String(port), PUBLIC_URL: base }), database, logger: false });
  await app.listen({ port, host: "127.0.0.1" });
  browser = await launchBrowser();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await app?.close();
  await database?.close();
});

async function openPage(viewport: {
  width: number;
  height: number;
}): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const context = await browser.newContext({
    viewport,
    baseURL: base,
    locale: "pt-BR",
    timezoneId: "America/Sao_Paulo",
  });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(`pageerror: ${error.message}`));
  page.on("console", (message) => {
    // A refused send is an expected 4xx answer in the network log, not a script error.
    if (message.type() === "error" && !/Failed to load resource/.test(message.text()))
      errors.push(`console: ${message.text()}`);
  });
  return { context, page, errors };
}

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

/** Serious or critical axe violations (WCAG 2.1 AA) on the page as it is now, as "rule: targets". */
async function axeViolations(page: Page): Promise<string[]> {
  await page.evaluate(AXE_SOURCE);
  return page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: {
          run: (
            context: Document,
            options: object,
          ) => Promise<{ violations: { id: string; impact: string | null; nodes: { target: unknown[] }[] }[] }>;
        };
      }
    ).axe;
    const result = await axe.run(document, {
      runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21aa"] },
      resultTypes: ["violations"],
    });
    return result.violations
      .filter((v) => v.impact === "serious" || v.impact === "critical")
      .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.map(String).join(" ")).join(", ")}`);
  });
}

/** A professional of a new clinic, signed in on `page`, with a published template. */
async function professional(page: Page): Promise<{ password: string; versionId: string }> {
  const account = { email: uniqueEmail("e2e-envio"), password: "segredo123" };
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
  await signIn(page, account.email, account.password);
  const specialties = (await json<{ items: string[] }>(await page.request.get("/api/templates/specialties"), 200))
    .items;
  const template = await json<{ id: string }>(
    await page.request.post("/api/templates", {
      data: {
        titulo: "TCLE Implante",
        especialidade: specialties[0],
        categoria: "Consentimento",
        estrutura: STRUCTURE,
      },
    }),
    201,
  );
  const published = await json<{ versao_atual_id: string }>(
    await page.request.post(`/api/templates/${template.id}/status`, { data: { status: "published" } }),
    200,
  );
  return { password: account.password, versionId: published.versao_atual_id };
}

async function patient(page: Page, data: Record<string, string>): Promise<string> {
  return (await json<{ id: string }>(await page.request.post("/api/patients", { data }), 201)).id;
}

/** A draft the professional already signed (their declaration), ready to send. */
async function draft(
  page: Page,
  who: { password: string; versionId: string },
  patientId: string,
  titulo: string,
): Promise<string> {
  const me = await json<{ profile: { id: string } }>(await page.request.get("/api/auth/me"), 200);
  const created = await json<{ id: string }>(
    await page.request.post("/api/documents", {
      data: {
        paciente_id: patientId,
        template_version_id: who.versionId,
        titulo,
        procedimento: "Implante dentário",
        medico_responsavel_id: me.profile.id,
        permitir_pendencias: true,
      },
    }),
    201,
  );
  await json(
    await page.request.post(`/api/documents/${created.id}/professional-signature`, { data: { senha: who.password } }),
    200,
  );
  return created.id;
}

/** Sent, then past its deadline and marked expired by the sweep. */
async function expired(
  page: Page,
  who: { password: string; versionId: string },
  patientId: string,
  titulo: string,
): Promise<string> {
  const id = await draft(page, who, patientId, titulo);
  await json(await page.request.post(`/api/documents/${id}/send`, { data: { email: false } }), 200);
  await database.db
    .update(contratos)
    .set({ expiracao_at: new Date(Date.now() - 60_000) })
    .where(eq(contratos.id, id));
  await expireDocuments(database.db);
  return id;
}

const rowOf = (page: Page, id: string) =>
  page.getByTestId("documents-table").locator("tr", { hasText: shortDocumentId(id) });

describe("sending without traps", () => {
  it("Novo documento warns about a patient who could not sign, and Completar cadastro comes back with the patient chosen", async () => {
    const { page, context, errors } = await openPage(LAPTOP);
    await professional(page);
    const id = await patient(page, { nome: "Otávio Sem Cadastro" });

    await page.goto(`/documents/create?paciente=${id}`);
    const warning = page.getByTestId("patient-send-warning");
    await warning.getByTestId("send-blocking").getByText(ERRORS.PATIENT_CPF_MISSING.message).waitFor();
    await warning.getByTestId("send-warning").getByText(CONTACT_MISSING_MESSAGE).waitFor();
    await snap(page, "send-traps-create-warning-desktop", { fullPage: false });
    expect(await axeViolations(page)).toEqual([]);
    await warning.getByRole("link", { name: "Completar cadastro" }).first().click();
    await page.waitForURL(new RegExp(`/patients/${id}/edit\\?voltar=`));

    // The patient form marks what signing needs, without requiring it.
    await page.locator('[data-testid="signing-hint"][data-missing="true"]').first().waitFor();
    expect(await page.locator('[data-testid="signing-hint"][data-missing="true"]').count()).toBe(3);
    await page.getByLabel("CPF", { exact: true }).fill(validCpf());
    await page.getByLabel("Telefone", { exact: true }).fill("(11) 98765-4321");
    expect(await page.locator('[data-testid="signing-hint"][data-missing="true"]').count()).toBe(0);
    await page.getByRole("button", { name: "Salvar alterações" }).click();
    await page.waitForURL(new RegExp(`/documents/create\\?paciente=${id}$`));
    await page.getByTestId("patient-chosen").getByText("Otávio Sem Cadastro").waitFor();
    await page.getByLabel(/^Template/).waitFor();
    expect(await page.getByTestId("patient-send-warning").count()).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("the send dialog says what blocks it inside itself, turns e-mail off without an e-mail, and shows the server's refusal", async () => {
    const { page, context, errors } = await openPage(LAPTOP);
    const who = await professional(page);
    const noCpf = await draft(page, who, await patient(page, { nome: "Bianca Sem CPF" }), "TCLE Bianca");
    const phoneOnly = await draft(
      page,
      who,
      await patient(page, { nome: "Caio Só Telefone", cpf: validCpf(), telefone: "(11) 97654-3210" }),
      "TCLE Caio",
    );

    await page.goto("/documents");
    await rowOf(page, noCpf)
      .getByRole("button", { name: /^Ações do documento/ })
      .click();
    await page.getByRole("menuitem", { name: "Enviar para Assinatura" }).click();
    const dialog = page.getByTestId("send-for-signature-dialog");
    await dialog.getByTestId("send-blocking").getByText(ERRORS.PATIENT_CPF_MISSING.message).waitFor();
    expect(await dialog.getByRole("button", { name: "Enviar para Assinatura" }).isDisabled()).toBe(true);
    expect(await dialog.getByTestId("send-email-checkbox").isDisabled()).toBe(true);
    expect(await dialog.getByTestId("send-email-checkbox").getAttribute("aria-checked")).toBe("false");
    expect(await dialog.getByRole("link", { name: "Completar cadastro" }).getAttribute("href")).toMatch(
      /\/patients\/[0-9a-f-]+\/edit\?voltar=%2Fdocuments/,
    );
    await animationsFinished(page);
    await snap(page, "send-traps-dialog-blocked-desktop", { fullPage: false });
    expect(await axeViolations(page)).toEqual([]);
    await dialog.getByRole("button", { name: "Voltar" }).click();

    // Only a phone: nothing blocks, the e-mail box is off and disabled, and sending works without it.
    await rowOf(page, phoneOnly)
      .getByRole("button", { name: /^Ações do documento/ })
      .click();
    await page.getByRole("menuitem", { name: "Enviar para Assinatura" }).click();
    await dialog.getByTestId("send-email-missing").waitFor();
    expect(await dialog.getByTestId("send-blocking").count()).toBe(0);
    expect(await dialog.getByTestId("send-email-checkbox").isDisabled()).toBe(true);
    expect(await dialog.getByTestId("send-email-checkbox").getAttribute("aria-checked")).toBe("false");
    await dialog.getByRole("button", { name: "Enviar para Assinatura" }).click();
    await dialog.getByRole("heading", { name: "Link de assinatura" }).waitFor();
    await dialog.getByRole("button", { name: "Fechar", exact: true }).and(dialog.locator("[data-slot=button]")).click();

    // The record changes while the dialog is open: the server refuses, and says why inside it.
    const patientId = await patient(page, {
      nome: "Diana Muda Cadastro",
      cpf: validCpf(),
      email: "diana@exemplo.com.br",
    });
    const changing = await draft(page, who, patientId, "TCLE Diana");
    await page.reload();
    await rowOf(page, changing)
      .getByRole("button", { name: /^Ações do documento/ })
      .click();
    await page.getByRole("menuitem", { name: "Enviar para Assinatura" }).click();
    await page.waitForFunction(() => {
      const box = document.querySelector('[data-testid="send-email-checkbox"]');
      return box && !box.hasAttribute("disabled") && box.getAttribute("aria-checked") === "true";
    });
    await json(
      await page.request.put(`/api/patients/${patientId}`, {
        data: { nome: "Diana Muda Cadastro", email: "diana@exemplo.com.br" },
      }),
      200,
    );
    await dialog.getByRole("button", { name: "Enviar para Assinatura" }).click();
    await dialog.getByTestId("send-refused").getByText(ERRORS.PATIENT_CPF_MISSING.message).waitFor();
    await dialog.getByTestId("send-blocking").waitFor();
    expect(await dialog.getByRole("button", { name: "Enviar para Assinatura" }).isDisabled()).toBe(true);
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe("no dead ends in the documents list", () => {
  it("an expired document offers Reenviar (new deadline) and Cancelar; Reenviar gives it a live link again", async () => {
    const { page, context, errors } = await openPage(LAPTOP);
    const who = await professional(page);
    const id = await expired(
      page,
      who,
      await patient(page, { nome: "Eduarda Expirada", cpf: validCpf(), email: "eduarda@exemplo.com.br" }),
      "TCLE Eduarda",
    );

    await page.goto("/documents");
    await page.getByTestId("expired-warning").waitFor();
    const row = rowOf(page, id);
    await row.getByText("Expirado", { exact: true }).waitFor();
    await row.getByRole("button", { name: /^Ações do documento/ }).click();
    await page.getByRole("menuitem", { name: "Cancelar" }).waitFor();
    await page.getByRole("menuitem", { name: "Reenviar" }).click();
    const dialog = page.getByTestId("send-for-signature-dialog");
    await dialog.getByText("o prazo de assinatura passou", { exact: false }).waitFor();
    await dialog.getByRole("button", { name: "Reenviar" }).click();
    await dialog.getByRole("heading", { name: "Link de assinatura" }).waitFor();
    await dialog.getByRole("button", { name: "Fechar", exact: true }).and(dialog.locator("[data-slot=button]")).click();
    await row.getByText("Enviado", { exact: true }).waitFor();
    const [stored] = await database.db.select().from(contratos).where(eq(contratos.id, id));
    expect(stored?.status).toBe("sent");
    expect(stored!.expiracao_at.getTime()).toBeGreaterThan(Date.now() + 6 * 24 * 60 * 60 * 1000);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("finds a document by its short id as shown, with or without '#'", async () => {
    const { page, context, errors } = await openPage(LAPTOP);
    const who = await professional(page);
    const target = await draft(
      page,
      who,
      await patient(page, { nome: "Fábio Procurado", cpf: validCpf() }),
      "TCLE Fábio",
    );
    await draft(page, who, await patient(page, { nome: "Gustavo Outro", cpf: validCpf() }), "TCLE Gustavo");
    await page.goto("/documents");
    await page.getByTestId("documents-showing").getByText("Mostrando 2 de 2 documentos").waitFor();
    const search = page.getByRole("searchbox", { name: "Buscar documentos" });
    await search.fill(shortDocumentId(target));
    await page.getByTestId("documents-showing").getByText("Mostrando 1 de 1 documentos").waitFor();
    await rowOf(page, target).getByText("Fábio Procurado").waitFor();
    await search.fill(shortDocumentId(target).slice(1).toUpperCase());
    await page.waitForURL(/q=/);
    await rowOf(page, target).getByText("Fábio Procurado").waitFor();
    await page.getByTestId("documents-showing").getByText("Mostrando 1 de 1 documentos").waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });

  it("on a phone, the sheet offers Reenviar and Cancelar on an expired document and Reenviar on a sent one", async () => {
    const { page, context, errors } = await openPage(PHONE);
    const who = await professional(page);
    const expiredId = await expired(
      page,
      who,
      await patient(page, { nome: "Helena Prazo Vencido", cpf: validCpf(), email: "helena@exemplo.com.br" }),
      "TCLE Helena",
    );
    const sentId = await draft(
      page,
      who,
      await patient(page, { nome: "Igor Aguardando", cpf: validCpf(), telefone: "(11) 91234-5678" }),
      "TCLE Igor",
    );
    await json(await page.request.post(`/api/documents/${sentId}/send`, { data: {} }), 200);
    await draft(page, who, await patient(page, { nome: "Júlia Sem CPF" }), "TCLE Júlia");

    await page.goto("/documents");
    const card = (name: string) => page.getByTestId("document-card").filter({ hasText: name });
    const dialog = page.getByTestId("send-for-signature-dialog");
    // A draft: Enviar p/ Assinatura, and the dialog says inside itself what blocks it.
    await card("Júlia Sem CPF")
      .getByRole("button", { name: /^Ações do documento/ })
      .click();
    const sheet = page.getByTestId("document-row-sheet");
    for (const tile of ["Ver Detalhes", "Gerar PDF", "Enviar p/ Assinatura", "Excluir"])
      await sheet.getByText(tile, { exact: true }).waitFor();
    await sheet.getByRole("button", { name: "Enviar p/ Assinatura" }).click();
    await dialog.getByTestId("send-blocking").getByText(ERRORS.PATIENT_CPF_MISSING.message).waitFor();
    expect(await dialog.getByTestId("send-email-checkbox").isDisabled()).toBe(true);
    await animationsFinished(page);
    await snap(page, "send-traps-dialog-blocked-phone", { fullPage: false });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await dialog.getByRole("button", { name: "Voltar" }).click();
    await dialog.waitFor({ state: "detached" });

    await card("Igor Aguardando")
      .getByRole("button", { name: /^Ações do documento/ })
      .click();
    for (const tile of ["Ver Detalhes", "Gerar PDF", "Reenviar", "Cancelar"])
      await sheet.getByText(tile, { exact: true }).waitFor();
    await page.keyboard.press("Escape");
    await sheet.waitFor({ state: "detached" });

    await card("Helena Prazo Vencido")
      .getByRole("button", { name: /^Ações do documento/ })
      .click();
    for (const tile of ["Ver Detalhes", "Gerar PDF", "Reenviar", "Cancelar"])
      await sheet.getByText(tile, { exact: true }).waitFor();
    await animationsFinished(page);
    await snap(page, "send-traps-sheet-expired-phone", { fullPage: false });
    await sheet.getByRole("button", { name: "Reenviar" }).click();
    await dialog.getByText("o prazo de assinatura passou", { exact: false }).waitFor();
    await dialog.getByTestId("send-email-checkbox").waitFor();
    await animationsFinished(page);
    await snap(page, "send-traps-dialog-expired-phone", { fullPage: false });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await dialog.getByRole("button", { name: "Reenviar" }).click();
    await dialog.getByRole("heading", { name: "Link de assinatura" }).waitFor();
    const [stored] = await database.db.select().from(contratos).where(eq(contratos.id, expiredId));
    expect(stored?.status).toBe("sent");
    expect(errors).toEqual([]);
    await context.close();
  });
});
