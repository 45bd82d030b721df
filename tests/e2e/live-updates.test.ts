import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { uniqueEmail } from "../helpers/test-env.js";
import { registerEstablishment, registerProfessional, signIn, validCpf } from "./accounts.js";
import { DESKTOP, launchBrowser, newPage } from "./browser.js";
import { confirmSigningCode, drawSignature, json, patientPhone } from "./signing-helpers.js";

/** Live updates (decision 022): what happens elsewhere shows up without reloading. */

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** Generous: CI runs busy processes beside the browser. */
const LIVE_DEADLINE_MS = 20_000;

const STRUCTURE = {
  title: "Termo de Consentimento — {{procedimento}}",
  introduction: "Eu, {{paciente_nome}}, autorizo {{profissional_nome}} a realizar {{procedimento}}.",
  sections: [{ id: "s1", type: "signature", title: "Assinaturas", content: "{{paciente_nome}}" }],
};

/** A document sent for signature through the API (signed by the professional first): its link. */
async function sentDocument(
  page: Page,
  password: string,
  patient: { nome: string; cpf: string; email: string },
): Promise<string> {
  const specialties = (await json<{ items: string[] }>(await page.request.get("/api/templates/specialties"), 200))
    .items;
  const template = await json<{ id: string }>(
    await page.request.post("/api/templates", {
      data: { titulo: "TCLE Ao Vivo", especialidade: specialties[0], categoria: "Consentimento", estrutura: STRUCTURE },
    }),
    201,
  );
  await json(await page.request.post(`/api/templates/${template.id}/status`, { data: { status: "published" } }), 200);
  const created = await json<{ id: string }>(
    await page.request.post("/api/patients", { data: { ...patient, data_nascimento: "1990-02-14" } }),
    201,
  );
  const options = await json<{ templates: { template_version_id: string }[]; physicians: { id: string }[] }>(
    await page.request.get("/api/documents/form-options"),
    200,
  );
  const document = await json<{ id: string }>(
    await page.request.post("/api/documents", {
      data: {
        paciente_id: created.id,
        template_version_id: options.templates[0]!.template_version_id,
        titulo: "Termo de Consentimento - Limpeza de pele",
        procedimento: "Limpeza de pele",
        medico_responsavel_id: options.physicians[0]!.id,
        permitir_pendencias: true,
      },
    }),
    201,
  );
  await json(
    await page.request.post(`/api/documents/${document.id}/professional-signature`, { data: { senha: password } }),
    200,
  );
  return (
    await json<{ link: string }>(await page.request.post(`/api/documents/${document.id}/send`, { data: {} }), 200)
  ).link;
}

/** Opens `path` and waits until its live-updates stream is open (the server answered 200). */
async function gotoLive(page: Page, path: string): Promise<void> {
  const stream = page.waitForResponse(
    (response) => new URL(response.url()).pathname === "/api/events" && response.status() === 200,
    { timeout: LIVE_DEADLINE_MS },
  );
  await page.goto(path);
  await stream;
}

/** Set on the window: still there later means the page was never reloaded. */
const markPage = (page: Page) => page.evaluate(() => Object.assign(window, { semRecarregar: true }));
const stillSamePage = (page: Page) =>
  page.evaluate(() => (window as unknown as { semRecarregar?: boolean }).semRecarregar === true);

describe("live updates", () => {
  it("the documents list shows 'Visualizado' and then 'Assinado' while the patient signs on a phone, without reloading", async () => {
    const account = await registerProfessional();
    const { context, page, errors } = await newPage(browser, DESKTOP);
    await signIn(page, account.email, account.password);
    const patient = { nome: "Lívia Barros Fontes", cpf: validCpf(), email: uniqueEmail("livia") };
    const link = await sentDocument(page, account.password, patient);

    await gotoLive(page, "/documents");
    const status = page.getByTestId("document-status");
    await status.getByText("Enviado", { exact: true }).first().waitFor();
    await markPage(page);

    const phone = await patientPhone(browser);
    const p = phone.page;
    await p.goto(link);
    await status.getByText("Visualizado", { exact: true }).first().waitFor({ timeout: LIVE_DEADLINE_MS });

    await confirmSigningCode(p, page, patient.email);
    await p.getByLabel("Nome completo").fill(patient.nome);
    await p.getByLabel("CPF").pressSequentially(patient.cpf);
    await p.getByLabel("E-mail").fill(patient.email);
    await drawSignature(p);
    await p.getByTestId("consent").click();
    await p.getByRole("button", { name: "Assinar Documento" }).click();
    await p.getByTestId("signing-success").getByText("Documento assinado com sucesso!").waitFor();

    await status.getByText("Assinado", { exact: true }).first().waitFor({ timeout: LIVE_DEADLINE_MS });
    expect(await stillSamePage(page)).toBe(true);
    expect(errors).toEqual([]);
    expect(phone.errors).toEqual([]);
    await phone.context.close();
    await context.close();
  });

  it("the owner's users list follows a change made in another tab, and the deactivated user's open tab lands on /auth by itself", async () => {
    const owner = await registerEstablishment();
    const ownerTab = await newPage(browser, DESKTOP);
    await signIn(ownerTab.page, owner.email, owner.password);
    const attendant = {
      nome: "Tiago Moura Leal",
      email: uniqueEmail("tiago"),
      cpf: validCpf(),
      password: "caneta-verde-77",
    };
    const created = await json<{ id: string }>(
      await ownerTab.page.request.post("/api/users", { data: { ...attendant, role: "atendente", acesso: "senha" } }),
      201,
    );

    const staffTab = await newPage(browser, DESKTOP);
    await signIn(staffTab.page, attendant.email, attendant.password);
    await gotoLive(staffTab.page, "/patients");
    await markPage(staffTab.page);

    await gotoLive(ownerTab.page, "/users");
    const row = ownerTab.page.getByTestId("user-row").filter({ hasText: attendant.nome });
    await row.getByText("Ativo", { exact: true }).waitFor();
    await markPage(ownerTab.page);

    // Another tab of the owner (its own session) deactivates the attendant.
    const otherOwnerTab = await newPage(browser, DESKTOP);
    await signIn(otherOwnerTab.page, owner.email, owner.password);
    await json(
      await otherOwnerTab.page.request.patch(`/api/users/${created.id}/status`, { data: { is_active: false } }),
      200,
    );

    await row.getByText("Inativo", { exact: true }).waitFor({ timeout: LIVE_DEADLINE_MS });
    expect(await stillSamePage(ownerTab.page)).toBe(true);
    await staffTab.page.waitForURL("**/auth", { timeout: LIVE_DEADLINE_MS });

    expect(ownerTab.errors).toEqual([]);
    // The refused stream (401) of the ended session is expected console noise.
    expect(staffTab.errors.filter((line) => !/401/.test(line))).toEqual([]);
    for (const tab of [ownerTab, staffTab, otherOwnerTab]) await tab.context.close();
  });
});
