/**
 * One optional consent revoked on its own, on a 390 px phone (decisions 056 and 057): the patient
 * signs with the photos refused and the research contact accepted, then — on the same link —
 * revokes the research item only, with the code, name, CPF and a confirmation. The page says
 * "Revogado em …" for that item with its record's code; the main consent stands (still
 * "Documento assinado", the whole revocation still offered); the clinic's page shows the item's
 * state in its choices card and in the answers.
 */
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SAMPLE_OPTIONAL_CONSENTS } from "../../src/shared/document-model/sample-template.js";
import { registerProfessional, signIn, validCpf } from "./accounts.js";
import { DESKTOP, launchBrowser, newPage, snap } from "./browser.js";
import {
  confirmSigningCode,
  drawSignature,
  json,
  latestRevocationCode,
  patientPhone,
  seedSignableDocument,
  signThroughApi,
} from "./signing-helpers.js";
import { signatureDataUrl } from "../helpers/signing.js";

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const PATIENT = "Rita Pesquisa Albuquerque";
const EMAIL = "rita.pesquisa@exemplo.com.br";
const RESEARCH = SAMPLE_OPTIONAL_CONSENTS.find((item) => item.id === "contato-pesquisas")!;
const PHOTOS = SAMPLE_OPTIONAL_CONSENTS.filter((item) => item.id.startsWith("imagem-"));

describe("revoking one optional consent on a phone", () => {
  it("a patient signs with photos refused, then revokes the research item ('Contato para pesquisas') from the link", async () => {
    expect(RESEARCH.title).toBe("Contato para pesquisas");
    expect(PHOTOS.length).toBeGreaterThan(0);
    const account = await registerProfessional();
    const staff = await newPage(browser, DESKTOP);
    await signIn(staff.page, account.email, account.password);
    const cpf = validCpf();
    const documentId = await seedSignableDocument(
      staff.page,
      account,
      { nome: PATIENT, cpf, email: EMAIL },
      "Termo de Consentimento - Pesquisa",
      {
        title: "Termo — {{procedimento}}",
        introduction: "Eu, {{paciente_nome}}, autorizo {{procedimento}}.",
        sections: [
          { id: "inicio", type: "paragraph", title: "Sobre o procedimento", content: "O que será feito." },
          { id: "assinaturas", type: "signature", title: "Assinaturas", content: "{{paciente_nome}}" },
        ],
        optional_consents: [...PHOTOS, RESEARCH],
      },
    );
    const sent = await json<{ link: string }>(
      await staff.page.request.post(`/api/documents/${documentId}/send`, { data: {} }),
      200,
    );

    // Signs on the phone: Não to every photo item, Sim to the research contact.
    const phone = await patientPhone(browser);
    const p = phone.page;
    await p.goto(sent.link);
    await p.getByTestId("go-to-signature").click();
    await confirmSigningCode(p, staff.page, EMAIL);
    const items = p.getByTestId("optional-consents");
    await items.waitFor();
    for (const photo of PHOTOS) await items.getByRole("group", { name: photo.title }).getByText("Não").click();
    await items.getByRole("group", { name: RESEARCH.title }).getByText("Sim").click();
    await p.getByLabel("Nome completo").fill(PATIENT);
    await p.getByLabel("CPF").pressSequentially(cpf);
    await p.getByLabel("E-mail").fill(EMAIL);
    await drawSignature(p);
    await p.getByTestId("consent").click();
    await p.getByRole("button", { name: "Assinar Documento" }).click();
    await p.getByTestId("signing-success").waitFor();

    // Reopened from the signed copy's e-mail (it says how to revoke, with the patient's own link):
    // only the "Sim" item can be revoked on its own.
    await expect
      .poll(
        async () => {
          const outbox = await json<{ items: { to: string; subject: string; text: string }[] }>(
            await staff.page.request.get(`/api/dev/outbox?to=${encodeURIComponent(EMAIL)}`),
            200,
          );
          const copy = outbox.items.find((m) => m.subject.startsWith("Documento assinado:"));
          return copy?.text.match(/pelo mesmo link que você usou para assinar \((\S+)\)/)?.[1] ?? null;
        },
        { timeout: 60_000, interval: 500 },
      )
      .toBe(sent.link);
    await p.goto(sent.link);
    await p.getByTestId("signed-revisit").waitFor();
    const panel = p.getByTestId("optional-revocations");
    await panel.getByRole("heading", { name: "Suas autorizações opcionais" }).waitFor();
    const research = panel.locator(`[data-optional-revocation="${RESEARCH.id}"]`);
    await research.getByText(RESEARCH.title).waitFor();
    for (const photo of PHOTOS) expect(await panel.locator(`[data-optional-revocation="${photo.id}"]`).count()).toBe(0);
    expect(await panel.getByRole("button", { name: /Revogar/ }).count()).toBe(1);
    await panel.scrollIntoViewIfNeeded();
    await snap(p, "item-revocation-offer-phone", { fullPage: false });
    await research.getByRole("button", { name: `Revogar a autorização “${RESEARCH.title}”` }).click();

    // The code for revoking, then name, CPF, reason and the confirmation.
    const codeStep = research.getByTestId("revoke-code");
    await codeStep.getByText("Para revogar, confirme que é você", { exact: false }).waitFor();
    await codeStep.getByRole("button", { name: "Enviar código" }).click();
    await codeStep
      .getByText("Enviamos um código de 6 dígitos para o seu e-mail cadastrado", { exact: false })
      .waitFor();
    await codeStep.getByLabel("Código de 6 dígitos").fill(await latestRevocationCode(staff.page, EMAIL));
    await codeStep.getByRole("button", { name: "Confirmar código" }).click();
    const form = research.getByTestId(`choice-item-${RESEARCH.id}`);
    await form.getByRole("heading", { name: `Revogar a autorização “${RESEARCH.title}”` }).waitFor();
    await form.getByText("Só esta autorização é revogada", { exact: false }).waitFor();
    await form.getByLabel("Nome completo").fill(PATIENT);
    await form.getByLabel("CPF").fill(cpf);
    await form.getByLabel("Motivo (opcional)").fill("Não quero receber convites");
    await form.getByRole("button", { name: "Continuar" }).click();
    await form.getByTestId("choice-confirm").getByText("Confirma a revogação?").waitFor();
    await snap(p, "item-revocation-confirm-phone", { fullPage: false });
    await form.getByRole("button", { name: "Sim, revogar" }).click();

    const done = p.getByTestId(`item-revoked-${RESEARCH.id}`);
    await done.getByText("A revogação desta autorização foi registrada").waitFor();
    await done.getByText(/^Revogado em \d{2}\/\d{2}\/\d{4}/).waitFor();
    const code = (await done.getByTestId("item-revocation-code").textContent())?.trim();
    expect(code).toMatch(/^[0-9A-Z]{6,32}$/);
    // The main consent stands: still signed, the whole revocation still offered.
    await p.getByTestId("signing-status").getByText("Documento assinado").waitFor();
    await p.getByTestId("revoke-offer").waitFor();
    // The answers list shows the item revoked.
    const mine = p.getByTestId("optional-consents-view");
    await mine
      .locator(`[data-optional-id="${RESEARCH.id}"]`)
      .getByTestId("optional-revoked")
      .getByText(/^Revogado em /)
      .waitFor();
    for (const photo of PHOTOS)
      expect(await mine.locator(`[data-optional-id="${photo.id}"]`).getByTestId("optional-revoked").count()).toBe(0);
    expect(await p.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await done.scrollIntoViewIfNeeded();
    await snap(p, "item-revocation-done-phone", { fullPage: false });

    // Reopened: the same state, no button for it.
    await p.reload();
    await p
      .getByTestId(`item-revoked-${RESEARCH.id}`)
      .getByText(/^Revogado em /)
      .waitFor();
    expect(await p.getByTestId(`item-revoke-${RESEARCH.id}`).count()).toBe(0);
    expect(phone.errors).toEqual([]);

    // The record's code at /verificar names the item it revokes.
    await p.goto(`/verificar/${code}`);
    await p
      .getByTestId("verification-records")
      .getByText(`Registro de revogação da autorização “${RESEARCH.title}”`)
      .waitFor();

    // The clinic's page: the item's record in the choices card, and "Revogado em" by its answer.
    await staff.page.goto(`/documents/${documentId}`);
    const records = staff.page.getByTestId("choice-records");
    await records.getByText(/^Autorização “Contato para pesquisas” revogada em /).waitFor();
    await records.getByText("Motivo: Não quero receber convites").waitFor();
    const view = staff.page.getByTestId("optional-consents-view");
    await view.locator(`[data-optional-id="${RESEARCH.id}"]`).getByTestId("optional-revoked").waitFor();
    await records.scrollIntoViewIfNeeded();
    await snap(staff.page, "item-revocation-staff-desktop", { fullPage: false });
    await phone.context.close();
    await staff.context.close();
  }, 180_000);

  it("staff record an in-person revocation of one item; the page then shows it revoked and offers only the rest", async () => {
    const account = await registerProfessional();
    const staff = await newPage(browser, DESKTOP);
    await signIn(staff.page, account.email, account.password);
    const patient = { nome: "Bruna Recepção Farias", cpf: validCpf(), email: "bruna.recepcao@exemplo.com.br" };
    const [prontuario] = PHOTOS;
    const documentId = await seedSignableDocument(staff.page, account, patient, "Termo de Consentimento - Recepção", {
      title: "Termo — {{procedimento}}",
      introduction: "Eu, {{paciente_nome}}, autorizo {{procedimento}}.",
      sections: [
        { id: "inicio", type: "paragraph", title: "Sobre o procedimento", content: "O que será feito." },
        { id: "assinaturas", type: "signature", title: "Assinaturas", content: "{{paciente_nome}}" },
      ],
      optional_consents: [prontuario!, RESEARCH],
    });
    const sent = await json<{ link: string }>(
      await staff.page.request.post(`/api/documents/${documentId}/send`, { data: {} }),
      200,
    );
    await signThroughApi(staff.page, sent.link, patient, signatureDataUrl(), {
      consentimentos_opcionais: [
        { id: prontuario!.id, aceito: true },
        { id: RESEARCH.id, aceito: true },
      ],
    });
    await staff.page.goto(`/documents/${documentId}`);
    await staff.page.getByTestId("record-choice-open").click();
    const form = staff.page.getByTestId("record-choice");
    await form.getByLabel("O que o paciente revoga").selectOption(prontuario!.id);
    await form.getByLabel("Como o paciente comunicou").selectOption("presencial");
    await form.getByLabel("Motivo (opcional)").fill("Pediu na recepção");
    await snap(staff.page, "item-revocation-staff-record-desktop", { fullPage: false });
    await form.getByRole("button", { name: "Registrar revogação" }).click();
    const records = staff.page.getByTestId("choice-records");
    await records.getByText(new RegExp(`^Autorização “${prontuario!.title}” revogada em `)).waitFor();
    await records.getByText("registrado por", { exact: false }).waitFor();
    // Only the research item is left to revoke on its own; the whole consent still can be.
    await staff.page.getByTestId("record-choice-open").click();
    const options = await staff.page.getByTestId("record-choice-target").locator("option").allTextContents();
    expect(options).toEqual(["Todo o consentimento", `Só a autorização “${RESEARCH.title}”`]);
    expect(staff.errors).toEqual([]);
    await staff.context.close();
  }, 180_000);
});
