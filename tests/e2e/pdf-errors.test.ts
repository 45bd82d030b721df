import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DOCUMENT_MESSAGES } from "../../src/shared/schemas/document.js";
import { FAKE_FEEGOW_TOKEN, startFakeFeegowServer, type FakeFeegowServer } from "../fakes/feegow-server.js";
import { validCpf } from "../helpers/factories.js";
import { newClinic, type SignedIn } from "../helpers/sessions.js";
import { signIn } from "./accounts.js";
import { animationsFinished, PHONE, pageWidth, snap } from "./browser.js";
import { OWN_APP_DESKTOP, type OwnApp, startOwnApp } from "./own-app.js";
import { json } from "./signing-helpers.js";

/**
 * Spec part 1 §8's PDF messages, from a server whose PDF renderer really fails: this file's own
 * app gives each PDF task 1 ms (PdfPoolOptions.taskTimeoutMs), so every render is cut off, as a
 * stuck or crashed renderer would be (decision 012). Creating a document then keeps it without
 * a PDF — 'Erro no PDF' — and its draft's download, or "Gerar e Enviar PDF" to Feegow, is 'Erro
 * na Geração do PDF' with the server's message.
 */
let own: OwnApp;
let feegow: FakeFeegowServer;
let clinic: SignedIn;
let staff: Page;

beforeAll(async () => {
  feegow = await startFakeFeegowServer();
  own = await startOwnApp({
    env: { FEEGOW_URL: feegow.url },
    pdfPool: { threads: 1, taskTimeoutMs: 1 },
    // The failed download answers 500: the browser logs that request, nothing else may fail.
    expectedConsoleError: /status of 500/,
  });
  staff = own.staff;
  clinic = await newClinic(own.app);
  await signIn(staff, clinic.email, clinic.password);
}, 120_000);
afterAll(async () => {
  await own?.close();
  await feegow?.close();
});

/** The file's one published template, made once. */
async function publishedTemplate(): Promise<string> {
  const request = staff.request;
  const options = await json<{ templates: { template_version_id: string }[] }>(
    await request.get("/api/documents/form-options"),
    200,
  );
  if (options.templates[0]) return options.templates[0].template_version_id;
  const specialties = (await json<{ items: string[] }>(await request.get("/api/templates/specialties"), 200)).items;
  const template = await json<{ id: string }>(
    await request.post("/api/templates", {
      data: {
        titulo: "TCLE Peeling",
        especialidade: specialties[0],
        categoria: "Consentimento",
        estrutura: {
          title: "Termo — Peeling químico",
          introduction: "Eu, {{paciente_nome}}, CPF {{cpf_paciente}}, autorizo o peeling químico.",
          sections: [],
        },
      },
    }),
    201,
  );
  const published = await json<{ versao_atual_id: string }>(
    await request.post(`/api/templates/${template.id}/status`, { data: { status: "published" } }),
    200,
  );
  return published.versao_atual_id;
}

describe("PDF errors (spec part 1 §8) when the renderer fails", () => {
  it("creating a document says 'Erro no PDF'; downloading its draft says 'Erro na Geração do PDF'", async () => {
    const request = staff.request;
    await publishedTemplate();
    const patient = await json<{ id: string }>(
      await request.post("/api/patients", {
        data: {
          nome: "Rita Sem PDF",
          cpf: validCpf(),
          data_nascimento: "1980-01-15",
          email: "rita.pdf@exemplo.com.br",
        },
      }),
      201,
    );

    await staff.goto(`/documents/create?paciente=${patient.id}`);
    await staff.getByRole("heading", { name: "Novo Documento" }).waitFor();
    await staff.getByLabel(/^Template/).selectOption({ label: "TCLE Peeling (v1)" });
    await staff.getByLabel(/^Título/).fill("TCLE Peeling");
    await staff.getByLabel(/^Médico responsável/).selectOption({ index: 1 });
    await staff.getByTestId("document-live-preview").getByText("Eu, Rita Sem PDF,", { exact: false }).waitFor();
    const created = staff.waitForResponse((r) => r.url().endsWith("/api/documents") && r.request().method() === "POST");
    await staff.getByRole("button", { name: "Criar Documento" }).click();
    // The server kept the document without its PDF, and says so.
    expect(await (await created).json()).toMatchObject({ pdf_gerado: false, pdf_nome: null });
    const toast = staff.locator("[data-sonner-toast]").filter({ hasText: DOCUMENT_MESSAGES.pdfErrorTitle });
    await toast.getByText(DOCUMENT_MESSAGES.pdfErrorTitle, { exact: true }).waitFor();
    await toast
      .getByText("Erro ao gerar PDF. O documento foi criado: gere o PDF novamente na página do documento.")
      .waitFor();
    await staff.waitForURL(/\/documents\/[0-9a-f-]{36}$/);
    await staff.getByRole("heading", { name: "TCLE Peeling" }).waitFor();
    await animationsFinished(staff);
    await snap(staff, "pdf-error-created", { fullPage: false });

    // The draft's download asks the server to make the PDF now: it fails again, with its message.
    const download = staff.waitForResponse((r) => /\/api\/documents\/[0-9a-f-]{36}\/pdf$/.test(r.url()));
    await staff.getByRole("button", { name: "Baixar rascunho (sem validade)" }).click();
    const answer = await download;
    expect(answer.status()).toBe(500);
    expect(await answer.json()).toMatchObject({ code: "PDF_FAILED", message: "Erro ao gerar PDF" });
    const failed = staff.locator("[data-sonner-toast]").filter({ hasText: DOCUMENT_MESSAGES.pdfGenerationErrorTitle });
    await failed.getByText(DOCUMENT_MESSAGES.pdfGenerationErrorTitle, { exact: true }).waitFor();
    await failed.getByText("Erro ao gerar PDF", { exact: true }).waitFor();
    await animationsFinished(staff);
    await snap(staff, "pdf-error-download", { fullPage: false });

    // On a phone the same toast, and the page does not scroll sideways.
    await staff.setViewportSize(PHONE);
    await staff.reload();
    await staff.getByRole("heading", { name: "TCLE Peeling" }).waitFor();
    await staff.getByRole("button", { name: "Baixar rascunho (sem validade)" }).click();
    await staff
      .locator("[data-sonner-toast]")
      .getByText(DOCUMENT_MESSAGES.pdfGenerationErrorTitle, { exact: true })
      .waitFor();
    expect(await pageWidth(staff)).toBeLessThanOrEqual(PHONE.width);
    await snap(staff, "pdf-error-download-phone", { fullPage: false });
    expect(own.errors).toEqual([]);
  });

  it("'Gerar e Enviar PDF' to Feegow says 'Erro na Geração do PDF' and sends nothing", async () => {
    await staff.setViewportSize(OWN_APP_DESKTOP);
    await staff.goto("/integration");
    const connection = staff.getByTestId("feegow-connection");
    await connection.getByLabel("Token de acesso à API do Feegow").fill(FAKE_FEEGOW_TOKEN);
    await connection.getByRole("button", { name: "Salvar token" }).click();
    await expect.poll(() => connection.getByTestId("feegow-token-saved").textContent()).toBe("••••1234");
    await connection.getByRole("button", { name: "Testar conexão" }).click();
    await expect.poll(() => connection.getByTestId("feegow-status").textContent()).toContain("Conectado");
    const upload = staff.getByTestId("feegow-features").getByRole("switch", { name: "Envio de arquivos", exact: true });
    await expect.poll(() => upload.isEnabled()).toBe(true);
    await upload.click();
    await expect.poll(() => upload.getAttribute("aria-checked")).toBe("true");

    // A draft without its PDF (the renderer fails at creation too).
    const versionId = await publishedTemplate();
    const patient = await json<{ id: string }>(
      await staff.request.post("/api/patients", {
        data: { nome: "Sara Feegow Lima", cpf: validCpf(), data_nascimento: "1979-09-23" },
      }),
      201,
    );
    const physicians = (
      await json<{ physicians: { id: string }[] }>(await staff.request.get("/api/documents/form-options"), 200)
    ).physicians;
    const created = await json<{ pdf_gerado: boolean }>(
      await staff.request.post("/api/documents", {
        data: {
          paciente_id: patient.id,
          template_version_id: versionId,
          titulo: "TCLE Peeling",
          medico_responsavel_id: physicians[0]!.id,
        },
      }),
      201,
    );
    expect(created.pdf_gerado).toBe(false);
    await staff.goto("/documents");
    const row = staff.getByTestId("document-row").filter({ hasText: "Sara Feegow Lima" });
    await row.getByRole("button", { name: /Ações do documento/ }).click();
    await staff.getByRole("menuitem", { name: "Gerar e Enviar PDF" }).click();
    const failed = staff.locator("[data-sonner-toast]").filter({ hasText: DOCUMENT_MESSAGES.pdfGenerationErrorTitle });
    await failed.getByText(DOCUMENT_MESSAGES.pdfGenerationErrorTitle, { exact: true }).waitFor();
    await failed.getByText("Erro ao gerar PDF", { exact: true }).waitFor();
    await animationsFinished(staff);
    await snap(staff, "pdf-error-feegow", { fullPage: false });
    expect(feegow.uploads).toEqual([]);
    expect(own.errors).toEqual([]);
  });
});
