import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FAKE_FEEGOW_TOKEN } from "../fakes/feegow-server.js";
import { registerProfessional, signIn, validCpf } from "./accounts.js";
import { DESKTOP, launchBrowser, newPage, snap } from "./browser.js";
import { json } from "./signing-helpers.js";

/**
 * second step, in the browser against the fake Feegow of the e2e setup: import a
 * procedure on /integration, "Gerar e Enviar PDF" from the documents list ('Sucesso!' / 'Aviso' of
 * spec part 1 §8 and the row's status), the preview's Feegow button ('Upload realizado'), and "Remover token".
 */
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const STRUCTURE = {
  title: "Termo de Consentimento — {{procedimento}}",
  introduction: "Eu, {{paciente_nome}}, autorizo a realização de {{procedimento}}.",
  sections: [{ id: "s1", type: "paragraph", title: "Riscos", content: "Riscos explicados." }],
};

/** A published template (once), a patient and a draft document; Helena's CPF is the one the fake Feegow knows. */
async function seedDocument(
  page: Page,
  patientData: { nome: string; cpf: string } = { nome: "Helena Duarte Vasconcelos", cpf: "52998224725" },
): Promise<string> {
  const published = await json<{ templates: unknown[] }>(await page.request.get("/api/documents/form-options"), 200);
  if (published.templates.length === 0) {
    const specialties = (await json<{ items: string[] }>(await page.request.get("/api/templates/specialties"), 200))
      .items;
    const template = await json<{ id: string }>(
      await page.request.post("/api/templates", {
        data: {
          titulo: "TCLE Feegow",
          especialidade: specialties[0],
          categoria: "Consentimento",
          estrutura: STRUCTURE,
        },
      }),
      201,
    );
    await json(await page.request.post(`/api/templates/${template.id}/status`, { data: { status: "published" } }), 200);
  }
  const patient = await json<{ id: string }>(
    await page.request.post("/api/patients", { data: { ...patientData, data_nascimento: "1979-09-23" } }),
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
        titulo: "Termo de Consentimento - Toxina botulínica",
        procedimento: "Toxina botulínica",
        medico_responsavel_id: options.physicians[0]!.id,
        permitir_pendencias: true,
      },
    }),
    201,
  );
  return created.id;
}

describe("Feegow, second step", () => {
  it("imports a procedure, sends a document's PDF from the list, and removes the token", async () => {
    const account = await registerProfessional();
    const { context, page, errors } = await newPage(browser, DESKTOP);
    await signIn(page, account.email, account.password);

    await page.goto("/integration");
    const connection = page.getByTestId("feegow-connection");
    await connection.getByLabel("Token de acesso à API do Feegow").fill(FAKE_FEEGOW_TOKEN);
    await connection.getByRole("button", { name: "Salvar token" }).click();
    await expect.poll(() => connection.getByTestId("feegow-token-saved").textContent()).toBe("••••1234");
    await connection.getByRole("button", { name: "Testar conexão" }).click();
    await expect.poll(() => connection.getByTestId("feegow-status").textContent()).toContain("Conectado");
    const features = page.getByTestId("feegow-features");
    for (const name of ["Procedimentos", "Envio de arquivos"]) {
      const toggle = features.getByRole("switch", { name, exact: true });
      await expect.poll(() => toggle.isEnabled()).toBe(true);
      await toggle.click();
      await expect.poll(() => toggle.getAttribute("aria-checked")).toBe("true");
    }
    expect(await features.getByText("Em breve").count()).toBe(0);

    // Procedures: Feegow's list with prices in reais; import one.
    const procedures = page.getByTestId("feegow-procedures");
    const toxina = procedures.getByTestId("feegow-procedure-row").filter({ hasText: "Toxina botulínica" });
    await toxina.waitFor();
    expect(await toxina.textContent()).toContain("R$ 1.200,00");
    expect(await toxina.textContent()).toContain("Novo");
    await procedures.getByRole("button", { name: "Importar Toxina botulínica" }).click();
    await page.getByText("Procedimentos importados", { exact: true }).waitFor();
    await expect.poll(() => toxina.textContent()).toContain("Já importado");
    expect(await procedures.getByRole("button", { name: "Importar Toxina botulínica" }).isDisabled()).toBe(true);
    expect(
      await procedures.getByTestId("feegow-procedure-row").filter({ hasText: "Preenchimento labial" }).textContent(),
    ).toContain("Novo");
    await snap(page, "integration-procedures-desktop");
    await page.goto("/procedures");
    await page.getByText("Toxina botulínica", { exact: true }).first().waitFor();

    // "Gerar e Enviar PDF" from the documents list: 'Sucesso!' (spec part 1 §8), and the row says it was sent.
    const documentId = await seedDocument(page);
    await page.goto("/documents");
    const row = page.getByTestId("document-row").filter({ hasText: "Helena Duarte Vasconcelos" });
    await row.waitFor();
    await row.getByRole("button", { name: /Ações do documento/ }).click();
    await page.getByRole("menuitem", { name: "Gerar e Enviar PDF" }).click();
    const success = page.locator("[data-sonner-toast]").filter({ hasText: "Sucesso!" });
    await success.waitFor({ timeout: 45_000 });
    expect(await success.textContent()).toContain("PDF gerado e enviado ao Feegow.");
    await expect
      .poll(() => row.getByTestId("feegow-upload-status").getAttribute("data-status"), { timeout: 30_000 })
      .toBe("enviado");
    // The preview's Feegow button alone is a plain upload: 'Upload realizado' (part 2 §8).
    await row.getByRole("button", { name: /Ações do documento/ }).click();
    await page.getByRole("menuitem", { name: "Gerar e Visualizar PDF" }).click();
    const preview = page.getByTestId("document-preview-dialog");
    await preview.getByRole("button", { name: "Feegow" }).click();
    await page.getByText("Upload realizado", { exact: true }).waitFor({ timeout: 45_000 });
    await page.keyboard.press("Escape");
    await preview.waitFor({ state: "detached" });
    expect(await row.getByTestId("feegow-upload-status").textContent()).toContain("Feegow: Enviado");
    await snap(page, "documents-feegow-sent-desktop");
    // The document page tells the same.
    await page.goto(`/documents/${documentId}`);
    const card = page.getByTestId("feegow-document-card");
    await expect.poll(() => card.getByTestId("feegow-upload-status").getAttribute("data-status")).toBe("enviado");

    // A patient Feegow does not know: 'Aviso' with the spec's sentence and the reason (the PDF is
    // still saved), the row says so and offers "Tentar de novo".
    await seedDocument(page, { nome: "Otávio Brandão Leite", cpf: validCpf() });
    await page.goto("/documents");
    const stranger = page.getByTestId("document-row").filter({ hasText: "Otávio Brandão Leite" });
    await stranger.getByRole("button", { name: /Ações do documento/ }).click();
    await page.getByRole("menuitem", { name: "Gerar e Enviar PDF" }).click();
    const warning = page.locator("[data-sonner-toast]").filter({ hasText: "Aviso" });
    await warning.waitFor({ timeout: 45_000 });
    expect(await warning.textContent()).toContain(
      "PDF gerado com sucesso, mas houve erro no upload para o Feegow. Verifique os logs para mais detalhes.",
    );
    expect(await warning.textContent()).toContain("Paciente não encontrado no Feegow");
    await snap(page, "documents-feegow-warning-desktop");
    await expect
      .poll(() => stranger.getByTestId("feegow-upload-status").getAttribute("data-status"), { timeout: 30_000 })
      .toBe("falhou");
    expect(await stranger.getByTestId("feegow-upload-error").textContent()).toContain(
      "Paciente não encontrado no Feegow",
    );
    await stranger.getByRole("button", { name: /Ações do documento/ }).click();
    await page.getByRole("menuitem", { name: "Tentar de novo (Feegow)" }).click();
    await page.getByText("Envio ao Feegow na fila", { exact: true }).waitFor();
    // Still unknown to Feegow: it fails again, and the PDF is still ours.
    await expect
      .poll(() => stranger.getByTestId("feegow-upload-status").getAttribute("data-status"), { timeout: 30_000 })
      .toBe("falhou");
    await snap(page, "documents-feegow-failed-desktop");

    // Remover token: disconnected, every switch off and disabled, the sections gone.
    await page.goto("/integration");
    await connection.getByRole("button", { name: "Remover token" }).click();
    const confirm = page.getByRole("alertdialog");
    await confirm.getByRole("button", { name: "Remover token" }).click();
    await page.getByText("Token removido", { exact: true }).waitFor();
    await expect.poll(() => connection.getByTestId("feegow-status").textContent()).toContain("Desconectado");
    expect(await connection.getByTestId("feegow-token-saved").textContent()).toBe("Nenhum token salvo");
    const switches = features.getByRole("switch");
    for (let i = 0; i < 4; i += 1) {
      expect(await switches.nth(i).getAttribute("aria-checked")).toBe("false");
      expect(await switches.nth(i).isDisabled()).toBe(true);
    }
    expect(await page.getByTestId("feegow-procedures").count()).toBe(0);
    // Without the upload on, the list no longer offers "Gerar e Enviar PDF".
    await page.goto("/documents");
    await row.getByRole("button", { name: /Ações do documento/ }).click();
    await page.getByRole("menuitem", { name: "Gerar e Visualizar PDF" }).waitFor();
    expect(await page.getByRole("menuitem", { name: "Gerar e Enviar PDF" }).count()).toBe(0);

    expect(errors).toEqual([]);
    await context.close();
  });
});
