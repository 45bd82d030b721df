import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FAKE_FEEGOW_TOKEN } from "../fakes/feegow-server.js";
import { registerProfessional, signIn, validCpf } from "./accounts.js";
import { DESKTOP, holdRequests, launchBrowser, newPage, PHONE, snap } from "./browser.js";
import { json, patientPhone, seedSignableDocument } from "./signing-helpers.js";

/**
 * Avisos (with the Feegow statuses, decision 028) in the browser: a document the
 * patient opened and did not sign and a failed Feegow upload show with the unread badge on the
 * bell and the phone bar; opening one reads it; "Marcar todas como lidas" clears the badge;
 * "Tentar de novo" in place, and the new failure is unread again; the empty state.
 */
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** The clinic's Feegow token, tested, with PDF uploads on (the e2e setup runs the fake Feegow). */
async function connectFeegow(page: Page): Promise<void> {
  await json(await page.request.put("/api/integration/feegow", { data: { token: FAKE_FEEGOW_TOKEN } }), 200);
  await json(await page.request.post("/api/integration/feegow/test", { data: {} }), 200);
  await json(await page.request.put("/api/integration/feegow", { data: { integrations: { file_upload: true } } }), 200);
}

/** A draft for a patient Feegow does not know, sent to Feegow: the upload fails ('sem paciente'). */
async function failedFeegowUpload(page: Page): Promise<string> {
  const patient = await json<{ id: string }>(
    await page.request.post("/api/patients", {
      data: { nome: "Otávio Brandão Leite", cpf: validCpf(), data_nascimento: "1980-02-14" },
    }),
    201,
  );
  const options = await json<{ templates: { template_version_id: string }[]; physicians: { id: string }[] }>(
    await page.request.get("/api/documents/form-options"),
    200,
  );
  const created = await json<{ id: string }>(
    await page.request.post("/api/documents", {
      data: {
        paciente_id: patient.id,
        template_version_id: options.templates[0]!.template_version_id,
        titulo: "Termo de Consentimento - Implante dentário",
        procedimento: "Implante dentário",
        medico_responsavel_id: options.physicians[0]!.id,
        permitir_pendencias: true,
      },
    }),
    201,
  );
  await json(await page.request.post(`/api/documents/${created.id}/feegow-upload`), 202);
  await expect
    .poll(
      async () =>
        (
          await json<{ items: { status: string }[] }>(
            await page.request.get(`/api/documents/${created.id}/feegow-uploads`),
            200,
          )
        ).items[0]?.status,
      {
        timeout: 45_000,
      },
    )
    .toBe("falhou");
  return created.id;
}

const badge = (page: Page) => page.getByTestId("notices-bell").getByTestId("notices-unread-badge");

describe("Avisos", () => {
  it("shows a viewed-not-signed document and a failed Feegow upload with the unread badge; reading clears it", async () => {
    const account = await registerProfessional();
    const { context, page, errors } = await newPage(browser, DESKTOP);
    await signIn(page, account.email, account.password);
    await connectFeegow(page);

    // The patient opens the signing link on their phone and does not sign.
    const patientData = { nome: "Ana Luíza Conceição", cpf: validCpf(), email: `ana.${Date.now()}@exemplo.com.br` };
    const viewedId = await seedSignableDocument(
      page,
      account,
      patientData,
      "Termo de Consentimento - Clareamento dental",
    );
    const { link } = await json<{ link: string }>(
      await page.request.post(`/api/documents/${viewedId}/send`, { data: {} }),
      200,
    );
    const patient = await patientPhone(browser);
    const opened = patient.page.waitForResponse(
      (response) => response.url().includes("/api/public/sign/") && response.status() === 200,
    );
    await patient.page.goto(link);
    await opened;
    await patient.context.close();
    const failedDocumentId = await failedFeegowUpload(page);

    // The bell counts both (the live stream brings them while the dashboard is open).
    await page.goto("/");
    await expect.poll(() => badge(page).textContent(), { timeout: 20_000 }).toBe("2");
    expect(await page.getByTestId("notices-bell").getAttribute("aria-label")).toBe("Avisos: 2 não lidos");
    await page.getByTestId("notices-bell").click();
    await page.getByRole("heading", { name: "Avisos", level: 1 }).waitFor();

    const viewed = page.getByTestId("notice").filter({ hasText: "Visualizado e não assinado" });
    await viewed.waitFor();
    expect(await viewed.getAttribute("data-kind")).toBe("document.viewed");
    expect(await viewed.getAttribute("data-read")).toBe("false");
    expect(await viewed.textContent()).toContain(
      'Ana Luíza Conceição abriu "Termo de Consentimento - Clareamento dental"',
    );
    const feegow = page.getByTestId("notice").filter({ hasText: "Falha no envio ao Feegow" });
    expect(await feegow.getAttribute("data-kind")).toBe("feegow.failed");
    expect(await feegow.textContent()).toContain("Paciente não encontrado no Feegow");
    expect(await feegow.getByRole("button", { name: "Tentar de novo" }).count()).toBe(1);
    expect(await page.getByText("2 avisos não lidos").count()).toBe(1);
    await snap(page, "notices-desktop");

    // On a phone: the bottom bar's Avisos carries the same count.
    const phone = await newPage(browser, PHONE);
    await signIn(phone.page, account.email, account.password);
    const bar = phone.page.getByTestId("mobile-bottom-bar");
    await expect.poll(() => bar.getByTestId("notices-unread-badge").textContent()).toBe("2");
    await bar.getByRole("link", { name: "Avisos: 2 não lidos" }).click();
    await phone.page.getByTestId("notice").first().waitFor();
    expect(await phone.page.getByTestId("notice").count()).toBe(2);
    expect(await phone.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await snap(phone.page, "notices-phone");
    expect(phone.errors).toEqual([]);
    await phone.context.close();

    // Opening a notice leads to its document and reads it.
    await viewed.getByRole("link", { name: "Abrir: Visualizado e não assinado" }).click();
    await page.waitForURL(`**/documents/${viewedId}`);
    await expect.poll(() => badge(page).textContent()).toBe("1");
    await page.goBack();
    await expect.poll(() => viewed.getAttribute("data-read")).toBe("true");

    // "Marcar todas como lidas" clears the badge.
    await page.getByRole("button", { name: "Marcar todas como lidas" }).click();
    await page.getByText("Todos os avisos foram marcados como lidos", { exact: true }).waitFor();
    await expect.poll(() => badge(page).count()).toBe(0);
    expect(await page.getByTestId("notices-bell").getAttribute("aria-label")).toBe("Avisos");
    await expect.poll(() => feegow.getAttribute("data-read")).toBe("true");
    expect(await page.getByRole("button", { name: "Marcar todas como lidas" }).isDisabled()).toBe(true);

    // "Tentar de novo" in place: queued again; Feegow still does not know the patient, so the new
    // failure is a new, unread notice (the stream brings it).
    await feegow.getByRole("button", { name: "Tentar de novo" }).click();
    await page.getByText("Envio ao Feegow na fila", { exact: true }).waitFor();
    await expect.poll(() => badge(page).textContent(), { timeout: 45_000 }).toBe("1");
    const again = page.getByTestId("notice").filter({ hasText: "Falha no envio ao Feegow" });
    await expect.poll(() => again.getAttribute("data-read"), { timeout: 20_000 }).toBe("false");
    expect(await page.getByTestId("notice").filter({ hasText: "Falha no envio ao Feegow" }).count()).toBe(1);
    expect(await again.getByRole("link", { name: "Abrir: Falha no envio ao Feegow" }).getAttribute("href")).toBe(
      `/documents/${failedDocumentId}`,
    );

    expect(errors).toEqual([]);
    await context.close();
  });

  it("shows the loading skeleton, then 'Nenhum aviso no momento' when there is nothing", async () => {
    const account = await registerProfessional();
    const { context, page, errors } = await newPage(browser, DESKTOP);
    await signIn(page, account.email, account.password);
    expect(await badge(page).count()).toBe(0);
    const held = await holdRequests(page, /\/api\/notices\?/);
    await page.goto("/notifications");
    await page.getByTestId("notices-loading").waitFor();
    held.release();
    await page.getByText("Nenhum aviso no momento", { exact: true }).waitFor();
    expect(await page.getByTestId("notices-loading").count()).toBe(0);
    expect(await page.getByRole("button", { name: "Marcar todas como lidas" }).isDisabled()).toBe(true);
    expect(await page.getByText("Esta tela está sendo preparada").count()).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });
});
