import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { strFromU8, unzipSync } from "fflate";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signatureDataUrl } from "../helpers/signing.js";
import { registerProfessional, signIn, validCpf } from "./accounts.js";
import { animationsFinished, DESKTOP, launchBrowser, newPage, snap } from "./browser.js";
import { json, sealedPdf, seedSignableDocument, signThroughApi } from "./signing-helpers.js";

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

describe("a patient's rights and the clinic's export (LGPD, decision 026)", () => {
  it("exports a patient's data from their page: the ZIP holds the sealed PDF and the access log; anonymizing them is refused with the retention duty", async () => {
    const account = await registerProfessional();
    const { page, errors } = await newPage(browser, DESKTOP);
    await signIn(page, account.email, account.password);
    const patient = { nome: "Olívia Prates Guimarães", cpf: validCpf(), email: `olivia.${Date.now()}@exemplo.com.br` };
    const documentId = await seedSignableDocument(page, account, patient);
    const sent = await json<{ link: string }>(
      await page.request.post(`/api/documents/${documentId}/send`, { data: {} }),
      200,
    );
    await signThroughApi(page, sent.link, patient, signatureDataUrl());
    const sealed = await sealedPdf(page, documentId);
    const { paciente_id: patientId } = await json<{ paciente_id: string }>(
      await page.request.get(`/api/documents/${documentId}`),
      200,
    );

    await page.goto(`/patients/${patientId}`);
    await page.getByRole("heading", { name: patient.nome }).waitFor();
    const card = page.getByTestId("patient-data-rights");
    await card
      .getByText("Documentos assinados são guardados por 20 anos (Lei 13.787/2018)", { exact: false })
      .waitFor();
    await snap(page, "patient-data-rights-desktop");

    const downloading = page.waitForEvent("download");
    await card.getByRole("link", { name: "Exportar dados do paciente" }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(/^dados-do-paciente_Olivia_Prates_Guimaraes_\d{8}_\d{6}\.zip$/);
    const entries = unzipSync(readFileSync((await download.path())!));
    const pdfName = Object.keys(entries).find(
      (name) => name.startsWith("documentos/") && name.endsWith("_assinado.pdf"),
    );
    expect(pdfName, Object.keys(entries).join(", ")).toBeDefined();
    expect(sha256(entries[pdfName!]!)).toBe(sha256(sealed));
    const log = strFromU8(entries["registro-de-acessos.csv"]!);
    // The page the professional just opened is in the log, by name, in words; the export is its last line.
    expect(log).toContain(`;${account.nome};Profissional (proprietário);Dados do paciente consultados;`);
    expect(log).toContain(";Signatário (pelo link de assinatura);Signatário;Assinatura registrada;");
    expect(log.trim().split("\r\n").at(-1)).toContain(";Dados do paciente exportados (LGPD);");
    expect(strFromU8(entries["LEIA-ME.txt"]!)).toContain(patient.nome);
    await page.getByText("Exportação iniciada", { exact: false }).first().waitFor();

    // Anonymizing someone with a signed document: the dialog explains, the server refuses with the law.
    await card.getByRole("button", { name: "Anonimizar paciente" }).click();
    const dialog = page.getByRole("alertdialog");
    await dialog.getByText("irreversível", { exact: false }).waitFor();
    const confirm = dialog.getByRole("button", { name: "Anonimizar definitivamente" });
    expect(await confirm.isDisabled()).toBe(true);
    await dialog.getByLabel("Digite ANONIMIZAR para confirmar").fill("anonimizar");
    await confirm.click();
    const refusal = dialog.getByTestId("anonymize-refusal");
    await refusal.getByText("dever legal de guardar por 20 anos (Lei 13.787/2018)", { exact: false }).waitFor();
    await animationsFinished(page);
    await snap(page, "patient-anonymize-refused-desktop");
    await dialog.getByRole("button", { name: "Fechar" }).click();
    await page.getByRole("heading", { name: patient.nome }).waitFor();
    // The browser logs the refusal it was shown (409); nothing else went wrong.
    expect(errors.filter((e) => !/status of 409/.test(e))).toEqual([]);
  });

  it("anonymizes a patient without signed documents, and the owner exports the whole clinic from Configurações", async () => {
    const account = await registerProfessional();
    const { page, errors } = await newPage(browser, DESKTOP);
    await signIn(page, account.email, account.password);
    const created = await json<{ id: string }>(
      await page.request.post("/api/patients", {
        data: {
          nome: "Sérgio Anônimo Brandão",
          cpf: validCpf(),
          email: "sergio@exemplo.com.br",
          data_nascimento: "1979-02-03",
        },
      }),
      201,
    );
    await page.goto(`/patients/${created.id}`);
    await page.getByRole("heading", { name: "Sérgio Anônimo Brandão" }).waitFor();
    await page.getByTestId("patient-data-rights").getByRole("button", { name: "Anonimizar paciente" }).click();
    const dialog = page.getByRole("alertdialog");
    await dialog.getByLabel("Digite ANONIMIZAR para confirmar").fill("ANONIMIZAR");
    await dialog.getByRole("button", { name: "Anonimizar definitivamente" }).click();
    await page.getByText("Dados pessoais do paciente anonimizados").first().waitFor();
    await page.getByRole("heading", { name: "Paciente anonimizado" }).waitFor();
    expect(await page.getByText("Sérgio Anônimo Brandão").count()).toBe(0);

    await page.goto("/settings");
    const card = page.getByTestId("clinic-export");
    await card.getByText("Senhas, tokens e certificados nunca saem do servidor", { exact: false }).waitFor();
    await card.getByLabel("Incluir os arquivos (PDFs assinados e imagens das assinaturas)").click();
    const downloading = page.waitForEvent("download");
    await card.getByRole("link", { name: "Exportar todos os dados da clínica" }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(/^consentir_.+_\d{8}_\d{6}\.zip$/);
    const entries = unzipSync(readFileSync((await download.path())!));
    const manifest = JSON.parse(strFromU8(entries["manifesto.json"]!)) as {
      com_arquivos: boolean;
      linhas_por_tabela: Record<string, number>;
    };
    expect(manifest.com_arquivos).toBe(false);
    expect(manifest.linhas_por_tabela.pacientes).toBe(1);
    expect(strFromU8(entries["dados/pacientes.json"]!)).toContain("Paciente anonimizado");
    expect(strFromU8(entries["dados/audit_events.json"]!)).toContain("patient.anonymized");
    await snap(page, "settings-clinic-export-desktop");
    expect(errors).toEqual([]);
  });
});
