import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { registerProfessional, signIn, validCpf } from "./accounts.js";
import { animationsFinished, DESKTOP, launchBrowser, newPage, snap } from "./browser.js";
import { confirmSigningCode, drawSignature, json, patientPhone, sealedPdf } from "./signing-helpers.js";

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const MINOR = "Pedro Henrique Souza";
const GUARDIAN = "Marta Souza Lima";
const GUARDIAN_CPF = "529.982.247-25";
const FAMILY_EMAIL = "familia.souza@exemplo.com.br";
/** The guardian's own e-mail on the minor's record: the guardian's link and code go there. */
const GUARDIAN_EMAIL = "marta.guardia@exemplo.com.br";

describe("a minor's document", () => {
  it("is signed on a phone by the legal guardian, in their own name and CPF, as 'responsável legal de …'", async () => {
    const account = await registerProfessional();
    const { context, page, errors } = await newPage(browser, DESKTOP);
    await signIn(page, account.email, account.password);
    const specialties = (await json<{ items: string[] }>(await page.request.get("/api/templates/specialties"), 200))
      .items;
    const template = await json<{ id: string }>(
      await page.request.post("/api/templates", {
        data: {
          titulo: "TCLE Ortodontia",
          especialidade: specialties[0],
          categoria: "Consentimento",
          estrutura: {
            title: "Termo — {{procedimento}}",
            introduction: "Paciente: {{paciente_nome}}, CPF {{cpf_paciente}}.",
            sections: [
              {
                id: "sec-assinaturas",
                type: "signature",
                title: "Assinaturas",
                content: "Paciente: {{paciente_nome}}\n\n{{responsavel_linha}}",
              },
            ],
          },
        },
      }),
      201,
    );
    const version = await json<{ versao_atual_id: string }>(
      await page.request.post(`/api/templates/${template.id}/status`, { data: { status: "published" } }),
      200,
    );
    const patient = await json<{ id: string }>(
      await page.request.post("/api/patients", {
        data: {
          nome: MINOR,
          cpf: validCpf(),
          data_nascimento: "2014-03-09",
          email: FAMILY_EMAIL,
          responsavel_nome: GUARDIAN,
          responsavel_cpf: GUARDIAN_CPF,
          responsavel_email: GUARDIAN_EMAIL,
          responsavel_telefone: "(11) 91234-5678",
        },
      }),
      201,
    );
    const options = await json<{ physicians: { id: string }[] }>(
      await page.request.get("/api/documents/form-options"),
      200,
    );
    const created = await json<{ id: string }>(
      await page.request.post("/api/documents", {
        data: {
          paciente_id: patient.id,
          template_version_id: version.versao_atual_id,
          titulo: "Termo - Aparelho ortodôntico",
          procedimento: "Aparelho ortodôntico",
          medico_responsavel_id: options.physicians[0]!.id,
        },
      }),
      201,
    );
    await json(
      await page.request.post(`/api/documents/${created.id}/professional-signature`, {
        data: { senha: account.password },
      }),
      200,
    );
    const sent = await json<{ link: string }>(
      await page.request.post(`/api/documents/${created.id}/send`, { data: {} }),
      200,
    );

    const phone = await patientPhone(browser);
    const p = phone.page;
    await p.goto(sent.link);
    // The code arrives at the guardian's own e-mail; the minor's (family) address gets nothing.
    await confirmSigningCode(p, page, GUARDIAN_EMAIL);
    const toMinor = await json<{ items: { to: string }[] }>(
      await page.request.get(`/api/dev/outbox?to=${encodeURIComponent(FAMILY_EMAIL)}`),
      200,
    );
    expect(toMinor.items.filter((item) => item.to === FAMILY_EMAIL)).toEqual([]);
    const heading = p.getByTestId("signer-heading");
    await heading.getByText("Dados do responsável legal").waitFor();
    expect(await heading.textContent()).toContain(`Você assina como responsável legal de ${MINOR}`);

    // The minor's own name does not sign.
    await p.getByLabel("Nome completo").fill(MINOR);
    await p.getByLabel("CPF").pressSequentially(GUARDIAN_CPF.replace(/\D/g, ""));
    await p.getByLabel("E-mail").fill(GUARDIAN_EMAIL);
    await drawSignature(p);
    await p.getByTestId("consent").click();
    await p.getByRole("button", { name: "Assinar Documento" }).click();
    await p.getByTestId("sign-error").getByText("Nome não confere com o do responsável legal cadastrado").waitFor();

    await p.getByLabel("Nome completo").fill("marta souza lima");
    await p.getByRole("button", { name: "Assinar Documento" }).click();
    await p.getByTestId("signing-success").waitFor();
    const block = p.getByTestId("signatures-block");
    await block.getByText(GUARDIAN).first().waitFor();
    expect(await block.textContent()).toContain(`Qualidade: responsável legal de ${MINOR}`);
    expect(await p.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await animationsFinished(p);
    await snap(p, "signing-guardian-phone");

    // Staff see who signed and in what capacity.
    await page.goto(`/documents/${created.id}`);
    const staffBlock = page.getByTestId("document-signatures");
    await staffBlock.getByText(`Qualidade: responsável legal de ${MINOR}`).waitFor();
    expect(await staffBlock.textContent()).toContain(GUARDIAN_CPF);

    // The sealed PDF prints the guardian's line, and its registry names the guardian's contact.
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), "guardian-")), "assinado.pdf");
    writeFileSync(file, await sealedPdf(page, created.id));
    const text = execFileSync("pdftotext", [file, "-"]).toString("utf8").replace(/\s+/g, " ");
    expect(text).toContain(`Responsável legal: ${GUARDIAN} - CPF ${GUARDIAN_CPF}`);
    expect(text).toContain("Esse e-mail do responsável legal está no cadastro do paciente desde");

    expect(phone.errors).toEqual([]);
    expect(errors).toEqual([]);
    await phone.context.close();
    await context.close();
  });
});
