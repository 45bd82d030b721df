import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signatureDataUrl } from "../helpers/signing.js";
import { uniqueEmail } from "../helpers/test-env.js";
import { registerEstablishment, signIn, validCpf } from "./accounts.js";
import { DESKTOP, launchBrowser, newPage, snap } from "./browser.js";
import {
  confirmSigningCode,
  drawSignature,
  json,
  patientPhone,
  professionalCode,
  sealedPdf,
  signThroughApi,
} from "./signing-helpers.js";

/**
 * "Any signing order" (decision 050) in the browser: the front desk sends a document the
 * professional has not signed, the patient signs on a phone and is told plainly what is missing,
 * the professional signs afterwards from the notice and the sealed PDF appears; and the batch.
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
  introduction: "Eu, {{paciente_nome}}, autorizo {{profissional_nome}} a realizar {{procedimento}}.",
  sections: [{ id: "s1", type: "paragraph", title: "Declaração", content: "Declaro que li e compreendi os riscos." }],
};

/** A published template, once per clinic. */
async function templateVersion(page: Page): Promise<string> {
  const specialties = (await json<{ items: string[] }>(await page.request.get("/api/templates/specialties"), 200))
    .items;
  const template = await json<{ id: string }>(
    await page.request.post("/api/templates", {
      data: { titulo: "TCLE Ordem", especialidade: specialties[0], categoria: "Consentimento", estrutura: STRUCTURE },
    }),
    201,
  );
  const version = await json<{ versao_atual_id: string }>(
    await page.request.post(`/api/templates/${template.id}/status`, { data: { status: "published" } }),
    200,
  );
  return version.versao_atual_id;
}

/** A patient and a draft the professional has NOT signed. */
async function unsignedDraft(page: Page, versionId: string, nome: string) {
  const patient = { nome, cpf: validCpf(), email: uniqueEmail("paciente") };
  const created = await json<{ id: string }>(
    await page.request.post("/api/patients", { data: { ...patient, data_nascimento: "1986-02-14" } }),
    201,
  );
  const options = await json<{ physicians: { id: string }[] }>(
    await page.request.get("/api/documents/form-options"),
    200,
  );
  const document = await json<{ id: string }>(
    await page.request.post("/api/documents", {
      data: {
        paciente_id: created.id,
        template_version_id: versionId,
        titulo: `TCLE - ${nome}`,
        procedimento: "Clareamento dental",
        medico_responsavel_id: options.physicians[0]!.id,
      },
    }),
    201,
  );
  return { id: document.id, patient };
}

describe("any signing order (decision 050)", () => {
  it("the desk sends unsigned, the patient signs on a phone, the professional signs from the notice; then a batch", async () => {
    const owner = await registerEstablishment();
    const ownerTab = await newPage(browser, DESKTOP);
    await signIn(ownerTab.page, owner.email, owner.password);
    const versionId = await templateVersion(ownerTab.page);
    const desk = {
      nome: "Rita Recepção Alves",
      email: uniqueEmail("recepcao"),
      cpf: validCpf(),
      password: "caneta-azul-55",
    };
    await json(
      await ownerTab.page.request.post("/api/users", { data: { ...desk, role: "atendente", acesso: "senha" } }),
      201,
    );
    const first = await unsignedDraft(ownerTab.page, versionId, "Helena Duarte Rocha");

    // The receptionist sends it: nothing waits for the professional (the default, "em qualquer ordem").
    const deskTab = await newPage(browser, DESKTOP);
    await signIn(deskTab.page, desk.email, desk.password);
    await deskTab.page.goto(`/documents/${first.id}`);
    const panel = deskTab.page.getByTestId("signing-panel");
    await panel.getByTestId("professional-signature").waitFor();
    await panel.getByRole("button", { name: "Enviar para Assinatura" }).click();
    const dialog = deskTab.page.getByTestId("send-for-signature-dialog");
    await dialog.getByRole("button", { name: "Enviar para Assinatura" }).click();
    await deskTab.page.getByText("Documento enviado para assinatura").waitFor();
    const link = await dialog.getByTestId("signing-link").inputValue();
    await dialog.getByRole("button", { name: "Fechar", exact: true }).first().click();
    // The list says what is missing.
    await deskTab.page.goto("/documents?aguardando_profissional=1");
    await deskTab.page
      .getByTestId("document-row")
      .filter({ hasText: first.patient.nome })
      .getByTestId("awaiting-professional")
      .waitFor();
    await snap(deskTab.page, "order-list-awaiting-desktop");

    // The patient signs on a phone and reads, plainly, that the professional's signature is what is left.
    const phone = await patientPhone(browser);
    const p = phone.page;
    await p.goto(link);
    await confirmSigningCode(p, ownerTab.page, first.patient.email);
    await p.getByLabel("Nome completo").fill(first.patient.nome);
    await p.getByLabel("CPF").pressSequentially(first.patient.cpf);
    await p.getByLabel("E-mail").fill(first.patient.email);
    await drawSignature(p);
    await p.getByTestId("consent").click();
    await p.getByRole("button", { name: "Assinar Documento" }).click();
    const waiting = p.getByTestId("waiting-others");
    await waiting.getByText("Falta agora a assinatura do profissional responsável", { exact: false }).waitFor();
    await p.getByTestId("signing-status").getByText("Aguardando o profissional").waitFor();
    expect(await p.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await snap(p, "order-patient-waiting-professional-phone");
    expect(phone.errors).toEqual([]);

    // The professional: the notice leads to "Aguardando minha assinatura".
    await ownerTab.page.goto("/notifications");
    const notice = ownerTab.page.getByTestId("notice").filter({ hasText: "1 documento aguarda sua assinatura" });
    await notice.waitFor();
    expect(await notice.getAttribute("data-kind")).toBe("professional.awaiting");
    await notice.getByRole("link", { name: "1 documento aguarda sua assinatura", exact: true }).click();
    await ownerTab.page.getByRole("heading", { name: "Aguardando minha assinatura" }).waitFor();
    const row = ownerTab.page.getByTestId("awaiting-row").filter({ hasText: first.patient.nome });
    await row.getByRole("checkbox").click();
    await ownerTab.page.getByRole("button", { name: "Enviar código por e-mail" }).click();
    await ownerTab.page.getByText("Enviamos um código de 6 dígitos para", { exact: false }).waitFor();
    await ownerTab.page.getByTestId("batch-code-input").fill(await professionalCode(ownerTab.page, owner.email));
    await ownerTab.page.getByTestId("batch-password").fill(owner.password);
    await ownerTab.page.getByTestId("batch-sign").click();
    await ownerTab.page
      .getByTestId("batch-result")
      .getByText("era a última assinatura: o documento está concluído", { exact: false })
      .waitFor();
    // The sealed PDF appears, once: signed, with both parties in the registry.
    const pdf = await sealedPdf(ownerTab.page, first.id);
    expect(pdf.subarray(0, 5).toString()).toBe("%PDF-");
    const detail = await json<{ status: string; assinaturas_pendentes: string[] }>(
      await ownerTab.page.request.get(`/api/documents/${first.id}`),
      200,
    );
    expect(detail).toMatchObject({ status: "signed", assinaturas_pendentes: [] });
    const signatures = await json<{ items: { papel: string }[] }>(
      await ownerTab.page.request.get(`/api/documents/${first.id}/signatures`),
      200,
    );
    expect(signatures.items.map((s) => s.papel).sort()).toEqual(["paciente", "profissional"]);

    // The batch: two more sent by the desk, one already signed by its patient.
    const second = await unsignedDraft(ownerTab.page, versionId, "Otávio Lins Prado");
    const third = await unsignedDraft(ownerTab.page, versionId, "Sofia Brandão Reis");
    const links: string[] = [];
    for (const doc of [second, third]) {
      const sent = await json<{ link: string }>(
        await deskTab.page.request.post(`/api/documents/${doc.id}/send`, { data: {} }),
        200,
      );
      links.push(sent.link);
    }
    await signThroughApi(ownerTab.page, links[0]!, { ...second.patient }, signatureDataUrl());
    await ownerTab.page.goto("/documents/awaiting-signature");
    await ownerTab.page.getByTestId("awaiting-row").filter({ hasText: third.patient.nome }).waitFor();
    await ownerTab.page.getByTestId("select-all").click();
    await ownerTab.page.getByRole("button", { name: "Enviar código por e-mail" }).click();
    await ownerTab.page.getByText("serve para todos os documentos selecionados", { exact: false }).waitFor();
    await ownerTab.page.getByTestId("batch-code-input").fill(await professionalCode(ownerTab.page, owner.email));
    await ownerTab.page.getByTestId("batch-password").fill(owner.password);
    await snap(ownerTab.page, "order-batch-desktop");
    await ownerTab.page.getByTestId("batch-sign").click();
    await ownerTab.page.getByText("2 declarações assinadas").first().waitFor();
    await ownerTab.page.getByText("Nada aguardando a sua assinatura").waitFor();
    const statuses = await Promise.all(
      [second, third].map(
        async (doc) =>
          (await json<{ status: string }>(await ownerTab.page.request.get(`/api/documents/${doc.id}`), 200)).status,
      ),
    );
    // The second was completed by this batch; the third waits for its patient (never opened: still sent).
    expect(statuses).toEqual(["signed", "sent"]);
    expect(ownerTab.errors).toEqual([]);
    expect(deskTab.errors).toEqual([]);
    await phone.context.close();
  }, 240_000);
});
