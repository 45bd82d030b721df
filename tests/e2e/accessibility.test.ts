import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signatureDataUrl } from "../helpers/signing.js";
import { registerEstablishment, signIn, validCpf } from "./accounts.js";
import { DESKTOP, launchBrowser, newPage, PHONE } from "./browser.js";
import { json, seedSignableDocument, signThroughApi } from "./signing-helpers.js";

/**
 * keyboard and screen reader: axe-core over every screen at both sizes (no network:
 * its source is injected into the page), failing on any serious or critical violation of
 * WCAG 2.0 A/AA and 2.1 AA; the skip link; focus back on the opener after the preview closes.
 */
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");
const TAGS = ["wcag2a", "wcag2aa", "wcag21aa"];

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

interface Finding {
  screen: string;
  id: string;
  impact: string;
  help: string;
  targets: string[];
}

/** Waits for the screen's h1 and for its loading placeholders to go. */
async function settle(page: Page): Promise<void> {
  await page.locator("h1").first().waitFor({ timeout: 15_000 });
  await page
    .waitForFunction(
      () => document.querySelectorAll('[data-slot="skeleton"], [aria-busy="true"]').length === 0,
      undefined,
      { timeout: 5_000 },
    )
    .catch(() => undefined);
}

/** Serious and critical axe violations on the page as it is now. */
async function audit(page: Page, screen: string): Promise<Finding[]> {
  // Evaluated through the DevTools protocol: the app's CSP (script-src 'self') refuses inline scripts.
  await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async (tags) => {
    const axe = (
      window as unknown as {
        axe: {
          run: (
            context: Document,
            options: object,
          ) => Promise<{
            violations: { id: string; impact: string | null; help: string; nodes: { target: unknown[] }[] }[];
          }>;
        };
      }
    ).axe;
    // label-content-name-mismatch (WCAG 2.5.3, experimental in axe): a button's name starts with what it shows.
    const result = await axe.run(document, {
      runOnly: { type: "tag", values: tags },
      rules: { "label-content-name-mismatch": { enabled: true } },
      resultTypes: ["violations"],
    });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact ?? "",
      help: v.help,
      targets: v.nodes.map((node) => node.target.map(String).join(" ")),
    }));
  }, TAGS);
  return violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => ({ screen, ...v }));
}

const report = (findings: Finding[]): string =>
  findings
    .map((f) => `${f.screen}: [${f.impact}] ${f.id} — ${f.help}\n    ${f.targets.slice(0, 5).join("\n    ")}`)
    .join("\n");

/** Landmarks the issue asks for: one <main>, one h1, a named <nav>, a title naming the screen. */
async function structure(page: Page): Promise<{ mains: number; h1s: number; title: string }> {
  return page.evaluate(() => ({
    mains: document.querySelectorAll("main").length,
    h1s: document.querySelectorAll("h1").length,
    title: document.title,
  }));
}

describe("accessibility (axe-core, WCAG 2.1 AA: no serious or critical violation)", () => {
  it("every main screen at desktop and phone sizes, and the public signing and verification pages", async () => {
    const account = await registerEstablishment();
    const seed = await newPage(browser, DESKTOP);
    await signIn(seed.page, account.email, account.password);
    const staff = seed.page;

    // A sent document (its public signing page), a signed one (its verification page).
    const patient = { nome: "Helena Castro Vieira", cpf: validCpf(), email: `helena.${Date.now()}@exemplo.com.br` };
    const sentId = await seedSignableDocument(staff, account, patient);
    const { link } = await json<{ link: string }>(
      await staff.request.post(`/api/documents/${sentId}/send`, { data: {} }),
      200,
    );
    const signer = { nome: "Otávio Nunes Ribeiro", cpf: validCpf(), email: `otavio.${Date.now()}@exemplo.com.br` };
    const signedId = await seedSignableDocument(staff, account, signer, "Termo de Consentimento - Implante");
    const signed = await json<{ link: string }>(
      await staff.request.post(`/api/documents/${signedId}/send`, { data: {} }),
      200,
    );
    await signThroughApi(staff, signed.link, signer, signatureDataUrl());
    const detail = await json<{ paciente_id: string; audit: { action: string; data: Record<string, unknown> }[] }>(
      await staff.request.get(`/api/documents/${signedId}`),
      200,
    );
    const code = detail.audit.find((event) => event.action === "document.signed")?.data.verification_code as string;
    const specialties = (await json<{ items: string[] }>(await staff.request.get("/api/templates/specialties"), 200))
      .items;
    const template = await json<{ id: string }>(
      await staff.request.post("/api/templates", {
        data: {
          titulo: "TCLE Acessível",
          especialidade: specialties[0],
          categoria: "Consentimento",
          estrutura: { title: "Termo", introduction: "Eu, {{paciente_nome}}, autorizo.", sections: [] },
        },
      }),
      201,
    );
    // A second version with a formatted section: the editor's toolbar and the version comparison.
    await json(
      await staff.request.put(`/api/templates/${template.id}`, {
        data: {
          titulo: "TCLE Acessível",
          especialidade: specialties[0],
          categoria: "Consentimento",
          estrutura: {
            title: "Termo",
            introduction: "Eu, {{paciente_nome}}, autorizo.",
            sections: [
              { id: "s1", type: "paragraph", title: "Cuidados", content: "Use **protetor** *sempre*.\n- Gelo" },
            ],
          },
        },
      }),
      200,
    );
    await seed.context.close();

    const screens = [
      "/",
      "/patients",
      "/patients/create",
      `/patients/${detail.paciente_id}`,
      "/documents",
      "/documents/create",
      `/documents/${sentId}`,
      "/templates",
      `/templates/${template.id}/edit`,
      `/templates/${template.id}/versions`,
      "/procedures",
      "/content-management",
      "/profile/templates",
      "/users",
      "/integration",
      "/certificates",
      "/settings",
      "/profile",
      "/notifications",
      "/sign",
    ];
    const findings: Finding[] = [];
    const shape: string[] = [];
    for (const [size, viewport] of [
      ["desktop", DESKTOP],
      ["phone", PHONE],
    ] as const) {
      const { context, page } = await newPage(browser, viewport);
      await signIn(page, account.email, account.password);
      for (const path of screens) {
        await page.goto(path);
        await settle(page);
        const { mains, h1s, title } = await structure(page);
        if (mains !== 1 || h1s !== 1 || !/ · Consentir$/.test(title))
          shape.push(`${size} ${path}: ${mains} <main>, ${h1s} h1, title "${title}"`);
        findings.push(...(await audit(page, `${size} ${path}`)));
      }
      expect(
        await page
          .getByRole("navigation", { name: viewport === DESKTOP ? "Menu principal" : "Navegação rápida" })
          .count(),
      ).toBe(1);
      await context.close();

      // The patient's side: no session.
      const visitor = await newPage(browser, viewport);
      await visitor.page.goto(link);
      await settle(visitor.page);
      findings.push(...(await audit(visitor.page, `${size} /assinar`)));
      const signing = await structure(visitor.page);
      if (signing.mains !== 1 || signing.h1s !== 1 || signing.title !== "Assinatura de documento · Consentir")
        shape.push(`${size} /assinar: ${JSON.stringify(signing)}`);
      await visitor.page.goto(`/verificar/${code}`);
      await settle(visitor.page);
      findings.push(...(await audit(visitor.page, `${size} /verificar`)));
      const verifying = await structure(visitor.page);
      if (verifying.mains !== 1 || verifying.h1s !== 1 || verifying.title !== "Verificação de documento · Consentir")
        shape.push(`${size} /verificar: ${JSON.stringify(verifying)}`);
      await visitor.context.close();
    }
    expect(shape, shape.join("\n")).toEqual([]);
    expect(findings, report(findings)).toEqual([]);
  }, 240_000); // 21 screens × 2 sizes, each loaded and audited (about 50 s on a quiet machine)

  it("the skip link is the first Tab stop and Enter moves focus into main; closing the preview gives focus back", async () => {
    const account = await registerEstablishment();
    const { page, errors } = await newPage(browser, DESKTOP);
    await signIn(page, account.email, account.password);
    const documentId = await seedSignableDocument(page, account, {
      nome: "Helena Castro Vieira",
      cpf: validCpf(),
      email: `helena.${Date.now()}@exemplo.com.br`,
    });

    await page.goto("/patients");
    await page.getByRole("heading", { name: "Pacientes", level: 1 }).waitFor();
    expect(await page.title()).toBe("Pacientes · Consentir");
    await page.keyboard.press("Tab");
    const focused = () =>
      page.evaluate(() => ({
        text: document.activeElement?.textContent?.trim(),
        id: document.activeElement?.id,
        tag: document.activeElement?.tagName,
      }));
    expect((await focused()).text).toBe("Pular para o conteúdo");
    expect(await page.getByRole("link", { name: "Pular para o conteúdo" }).isVisible()).toBe(true);
    await page.keyboard.press("Enter");
    expect(await focused()).toMatchObject({ id: "conteudo", tag: "MAIN" });
    // The next Tab stop is inside the screen, not back in the sidebar.
    await page.keyboard.press("Tab");
    expect(await page.evaluate(() => Boolean(document.activeElement?.closest("main")))).toBe(true);

    // The document page's Visualizar: the preview opens from state, and Escape gives focus back.
    await page.goto(`/documents/${documentId}`);
    const open = page.getByRole("button", { name: "Visualizar", exact: true });
    await open.click();
    const preview = page.getByTestId("document-preview-dialog");
    await preview.waitFor();
    await page.keyboard.press("Escape");
    await preview.waitFor({ state: "detached" });
    await expect.poll(() => open.evaluate((element) => element === document.activeElement)).toBe(true);

    // From the list's row menu (the menu item is gone when the preview closes): its menu button.
    await page.goto("/documents");
    const menu = page.getByRole("button", { name: /^Ações do documento/ }).first();
    await menu.click();
    await page.getByRole("menuitem", { name: "Gerar e Visualizar PDF" }).click();
    await preview.waitFor();
    await preview.getByRole("button", { name: "Fechar", exact: true }).last().click();
    await preview.waitFor({ state: "detached" });
    await expect.poll(() => menu.evaluate((element) => element === document.activeElement)).toBe(true);
    expect(errors).toEqual([]);
  });
});
