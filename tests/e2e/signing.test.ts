import { readFileSync } from "node:fs";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { registerProfessional, signIn, validCpf } from "./accounts.js";
import { animationsFinished, baseUrl, DESKTOP, launchBrowser, newPage, PHONE, snap } from "./browser.js";
import { drawSignature, json, latestSigningCode, patientPhone, professionalCode } from "./signing-helpers.js";

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
  sections: [
    {
      id: "s1",
      type: "paragraph",
      title: "Declaração",
      content: "Declaro que li e compreendi os riscos e benefícios do procedimento.",
    },
    { id: "s2", type: "signature", title: "Assinaturas", content: "{{paciente_nome}}\n\n{{profissional_nome}}" },
  ],
};
const PATIENT = "Joana Prado Albuquerque";
/** Her own address in this run: the browser files run side by side and read codes by address. */
const PATIENT_EMAIL = `joana.${process.pid}.${Date.now().toString(36)}@exemplo.com.br`;

async function seedDocument(page: Page, cpf: string): Promise<string> {
  const specialties = (await json<{ items: string[] }>(await page.request.get("/api/templates/specialties"), 200))
    .items;
  const template = await json<{ id: string }>(
    await page.request.post("/api/templates", {
      data: {
        titulo: "TCLE Clareamento",
        especialidade: specialties[0],
        categoria: "Consentimento",
        estrutura: STRUCTURE,
      },
    }),
    201,
  );
  await json(await page.request.post(`/api/templates/${template.id}/status`, { data: { status: "published" } }), 200);
  const patient = await json<{ id: string }>(
    await page.request.post("/api/patients", {
      data: { nome: PATIENT, cpf, email: PATIENT_EMAIL, telefone: "(21) 98765-4321", data_nascimento: "1988-04-12" },
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
        titulo: "Termo de Consentimento - Clareamento dental",
        procedimento: "Clareamento dental",
        medico_responsavel_id: options.physicians[0]!.id,
        permitir_pendencias: true,
      },
    }),
    201,
  );
  return created.id;
}

describe("signing", () => {
  it("staff send the link, the patient signs on a phone, the sealed PDF verifies", async () => {
    const account = await registerProfessional();
    const { context, page, errors } = await newPage(browser, DESKTOP);
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: baseUrl() });
    await signIn(page, account.email, account.password);
    const patientCpf = validCpf();
    const documentId = await seedDocument(page, patientCpf);
    // The clinic's logo shows on the patient's signing page.
    const logo = await page.request.put("/api/settings/clinic/logo", {
      headers: { "content-type": "image/svg+xml" },
      data: Buffer.from(
        '<svg xmlns="http://www.w3.org/2000/svg" width="90" height="30"><rect width="90" height="30" rx="6" fill="#0a7"/></svg>',
      ),
    });
    expect(logo.status(), await logo.text()).toBe(200);

    // The list offers Enviar para Assinatura on a draft, not Reenviar.
    await page.goto("/documents");
    await page.getByRole("button", { name: /^Ações do documento/ }).click();
    await page.getByRole("menuitem", { name: "Enviar para Assinatura" }).waitFor();
    expect(await page.getByRole("menuitem", { name: "Reenviar" }).count()).toBe(0);
    await page.keyboard.press("Escape");

    // Send from the document page: the link is shown and Copiar Link copies it.
    await page.goto(`/documents/${documentId}`);
    // This clinic chose "antes do envio" (decision 050): the responsible professional signs the
    // professional declaration first, as themselves — and requires the professional's code
    // (decision 078: on by default only with SMTP, which this server has not).
    await json(
      await page.request.put("/api/settings/signing", {
        data: { ordem_profissional: "antes_do_envio", codigo_profissional: true },
      }),
      200,
    );
    await page.reload();
    const panelBefore = page.getByTestId("signing-panel");
    await page.getByTestId("professional-signature").waitFor();
    await expect
      .poll(() => panelBefore.getByRole("button", { name: "Enviar para Assinatura" }).isDisabled())
      .toBe(true);
    await panelBefore
      .getByTestId("professional-signature")
      .getByRole("button", { name: "Assinar como profissional responsável" })
      .click();
    const professionalDialog = page.getByRole("dialog", { name: "Assinar como profissional responsável" });
    await professionalDialog.getByLabel("Sua senha").fill(account.password);
    // The second factor (decision 042): signing waits for the code sent to the account's e-mail.
    expect(await professionalDialog.getByRole("button", { name: "Assinar" }).isDisabled()).toBe(true);
    await professionalDialog.getByRole("button", { name: "Enviar código" }).click();
    await professionalDialog.getByText("Enviamos um código de 6 dígitos para", { exact: false }).waitFor();
    await snap(page, "professional-code-dialog-desktop", { fullPage: false });
    await professionalDialog.getByLabel("Código de 6 dígitos").fill(await professionalCode(page, account.email));
    await professionalDialog.getByRole("button", { name: "Assinar" }).click();
    await page.getByText("Declaração do profissional assinada").first().waitFor();
    await panelBefore.getByTestId("professional-signature").waitFor({ state: "detached" });
    await page.getByTestId("signing-panel").getByRole("button", { name: "Enviar para Assinatura" }).click();
    const dialog = page.getByTestId("send-for-signature-dialog");
    await dialog.getByText("Enviar também o link por e-mail ao paciente").waitFor();
    await dialog
      .getByTestId("send-level-notice")
      .getByText("assinatura eletrônica avançada", { exact: false })
      .waitFor();
    await dialog
      .getByTestId("send-level-notice")
      .getByText("O envio de e-mail não está configurado", { exact: false })
      .waitFor();
    await dialog.getByRole("button", { name: "Enviar para Assinatura" }).click();
    await page.getByText("Documento enviado para assinatura").waitFor();
    // No SMTP on this server: the toast says the e-mail waits in the outbox, not that it was sent.
    await page.getByText("E-mail com o link colocado na caixa de saída", { exact: false }).first().waitFor();
    const firstLink = await dialog.getByTestId("signing-link").inputValue();
    expect(firstLink).toMatch(new RegExp(`^${baseUrl()}/assinar/[A-Za-z0-9_-]{20,}$`));
    await dialog.getByRole("button", { name: "Copiar Link" }).click();
    await page.getByText("Link copiado!").first().waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(firstLink);
    await dialog.getByRole("button", { name: "Fechar", exact: true }).first().click();
    await dialog.waitFor({ state: "detached" });

    // The page now shows the live link; Reenviar warns, issues a new link, and the old one stops working.
    const panel = page.getByTestId("signing-panel");
    await panel.getByTestId("ready-to-sign").getByText("Pronto para assinatura").waitFor();
    await page.getByTestId("document-status").first().getByText("Enviado").waitFor();
    expect(await panel.getByTestId("signing-link").inputValue()).toBe(firstLink);
    await panel.getByRole("button", { name: "Reenviar", exact: true }).click();
    const confirm = page.getByRole("alertdialog");
    await confirm.getByText("O link anterior deixará de funcionar", { exact: false }).waitFor();
    await animationsFinished(page);
    await snap(page, "signing-resend-confirm-desktop");
    await confirm.getByRole("button", { name: "Reenviar" }).click();
    await page.getByText("Novo link de assinatura gerado; o anterior deixou de funcionar").waitFor();
    await expect.poll(() => panel.getByTestId("signing-link").inputValue()).not.toBe(firstLink);
    const link = await panel.getByTestId("signing-link").inputValue();
    await snap(page, "signing-sent-desktop");

    // Email sends the patient this same link (nothing replaced) and copies it.
    // The copied link shows the button's work is done (its toast may stand beside the send's own,
    // or alone if that one already timed out: counting them raced with the toasts' 4 s).
    await page.evaluate(() => navigator.clipboard.writeText(""));
    await panel.getByRole("button", { name: "Email" }).click();
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(link);
    await page.getByText("E-mail com o link colocado na caixa de saída", { exact: false }).first().waitFor();
    expect(await page.getByText("E-mail com o link enviado ao paciente").count()).toBe(0);
    expect(await panel.getByTestId("signing-link").inputValue()).toBe(link);

    // WhatsApp copies the ready message and opens wa.me with the patient's phone.
    // (no Internet here: wa.me answers from a stand-in)
    const opened: string[] = [];
    await context.route("https://wa.me/**", (route) => {
      opened.push(route.request().url());
      return route.fulfill({ status: 200, contentType: "text/html", body: "<title>WhatsApp</title>" });
    });
    const popup = context.waitForEvent("page");
    await panel.getByRole("button", { name: "WhatsApp" }).click();
    const whatsapp = await popup;
    await expect.poll(() => opened.length).toBe(1);
    expect(opened[0]).toMatch(/^https:\/\/wa\.me\/5521987654321\?text=/);
    expect(decodeURIComponent(new URL(opened[0]!).searchParams.get("text") ?? "")).toContain(link);
    await whatsapp.close();
    await page.getByText("Mensagem copiada!").first().waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toContain(link);

    // The patient, on a phone, without an account.
    const patient = await patientPhone(browser);
    const p = patient.page;

    // The replaced link says so instead of showing the document.
    await p.goto(firstLink);
    await p.getByText("O link de assinatura é inválido ou expirado").waitFor();
    expect(await p.getByRole("article").count()).toBe(0);
    await snap(p, "signing-invalid-phone");

    const response = await p.goto(link);
    expect(response?.headers()["referrer-policy"]).toBe("no-referrer");
    await p.getByRole("heading", { name: "Termo de Consentimento - Clareamento dental" }).waitFor();
    await p.getByTestId("signing-status").getByText("Aguardando assinatura").waitFor();
    await expect
      .poll(() => p.getByTestId("clinic-logo").evaluate((img) => (img as HTMLImageElement).naturalWidth))
      .toBeGreaterThan(0);
    await p.getByRole("article").getByText(`Eu, ${PATIENT}, autorizo ${account.nome}`, { exact: false }).waitFor();
    const info = await p.getByTestId("signing-info").textContent();
    expect(info).toMatch(/Criado em\d{2}\/\d{2}\/\d{4}/);
    expect(info).toMatch(/Prazo para assinatura\d{2}\/\d{2}\/\d{4} às \d{2}:\d{2}/);
    // The public page loads its own bundle: no admin app.
    const scripts = await p.evaluate(() =>
      [...document.querySelectorAll("script[src]")].map((s) => s.getAttribute("src")),
    );
    expect(scripts.every((src) => /\/assets\/sign-/.test(src ?? ""))).toBe(true);
    expect(await p.evaluate(() => document.querySelector('meta[name="referrer"]')?.getAttribute("content"))).toBe(
      "no-referrer",
    );

    // First opening: sent → viewed.
    await expect
      .poll(
        async () =>
          (await json<{ status: string }>(await page.request.get(`/api/documents/${documentId}`), 200)).status,
      )
      .toBe("viewed");

    // Exclusive control: the CPF is masked and the form waits for the e-mail code.
    await p.getByTestId("masked-notice").waitFor();
    expect(await p.getByRole("article").textContent()).not.toContain(patientCpf);
    expect(await p.getByTestId("sign-form").count()).toBe(0);
    await p.getByTestId("otp-step").getByRole("button", { name: "Enviar código" }).click();
    await p.getByText("Enviamos um código de 6 dígitos para o seu e-mail cadastrado", { exact: false }).waitFor();
    const otp = await latestSigningCode(page, PATIENT_EMAIL);
    await p.getByLabel("Código de 6 dígitos").fill(otp === "000000" ? "111111" : "000000");
    await p.getByRole("button", { name: "Confirmar código" }).click();
    await p.getByTestId("otp-error").getByText("Código inválido ou expirado. Peça um novo código.").waitFor();
    await snap(p, "signing-code-phone");
    await p.getByLabel("Código de 6 dígitos").fill(otp);
    await p.getByRole("button", { name: "Confirmar código" }).click();
    await p.getByTestId("otp-verified").waitFor();
    // Past the code the CPF stays masked: the form asks for it (decision 051).
    await p.getByTestId("masked-notice").waitFor();
    const shownTerm = (await p.getByRole("article").textContent()) ?? "";
    expect(shownTerm).not.toContain(patientCpf);
    expect(shownTerm).not.toContain(`${patientCpf.slice(0, 3)}.${patientCpf.slice(3, 6)}.${patientCpf.slice(6, 9)}-`);
    // No server jargon above the button: the level and its reason are the registry's (decision 067).
    expect(await p.getByText("Nível desta assinatura", { exact: false }).count()).toBe(0);

    // The canvas: on a phone it fills the form's width (280×120 or more, same proportion), backing store at the screen's density (sharp on a 3× phone).
    const canvasSize = await p.getByTestId("signature-canvas").evaluate((node) => {
      const canvas = node as HTMLCanvasElement;
      const rect = canvas.getBoundingClientRect();
      return { css: [rect.width, rect.height], store: [canvas.width, canvas.height] };
    });
    expect(canvasSize).toEqual({ css: [328, 141], store: [984, 423] });
    expect(await p.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await snap(p, "signing-pending-phone");

    // The page's own checks first.
    await p.getByRole("button", { name: "Assinar Documento" }).click();
    await p.getByTestId("sign-error").getByText("Nome, CPF e E-mail são obrigatórios").waitFor();
    await p.getByLabel("Nome completo").fill("joana prado");
    let otherCpf = validCpf();
    while (otherCpf === patientCpf) otherCpf = validCpf();
    await p.getByLabel("CPF").pressSequentially(otherCpf);
    expect(await p.getByLabel("CPF").inputValue()).toMatch(/^\d{3}\.\d{3}\.\d{3}-\d{2}$/);
    await p.getByLabel("E-mail").fill(PATIENT_EMAIL);
    await p.getByRole("button", { name: "Assinar Documento" }).click();
    await p.getByTestId("sign-error").getByText("Assinatura obrigatória").waitFor();
    await p.getByText("Por favor, assine no campo acima").waitFor();

    // The explicit consent to sign electronically.
    await drawSignature(p);
    await p.getByRole("button", { name: "Assinar Documento" }).click();
    await p.getByTestId("sign-error").getByText("Confirme que concorda em assinar eletronicamente").waitFor();
    await p.getByTestId("consent").click();

    // The server is the judge: a part of the name is not the name; then a CPF that is not the patient's.
    await p.getByRole("button", { name: "Assinar Documento" }).click();
    await p.getByTestId("sign-error").getByText("Nome não confere com os dados do paciente").waitFor();
    await p.getByLabel("Nome completo").fill("joana prado albuquerque");
    await p.getByRole("button", { name: "Assinar Documento" }).click();
    await p.getByTestId("sign-error").getByText("CPF não confere com os dados do paciente").waitFor();
    await snap(p, "signing-error-phone");

    // Limpar empties the canvas.
    await p.getByRole("button", { name: "Limpar" }).click();
    await p.getByLabel("CPF").fill("");
    await p.getByLabel("CPF").pressSequentially(patientCpf);
    await p.getByRole("button", { name: "Assinar Documento" }).click();
    await p.getByTestId("sign-error").getByText("Assinatura obrigatória").waitFor();

    // Right data and a drawn signature → signed.
    await drawSignature(p);
    await p.getByRole("button", { name: "Assinar Documento" }).click();
    await p.getByTestId("signing-success").getByText("Documento assinado com sucesso!").waitFor();
    // Usually for a moment only (the job seals in the same process): the button waits for the PDF.
    if (await p.getByRole("button", { name: "Preparando o documento assinado…" }).isVisible())
      await snap(p, "signing-signed-preparing-phone");
    await p.getByText("Sua assinatura foi registrada com segurança").waitFor();
    await p.getByTestId("signing-status").getByText("Documento assinado").waitFor();
    const block = p.getByTestId("signatures-block");
    await block.getByText(PATIENT, { exact: false }).first().waitFor();
    const blockText = await block.textContent();
    expect(blockText).toContain("Assinado");
    expect(blockText).toContain("Eletrônica");
    expect(blockText).not.toContain(
      patientCpf.replace(/\D/g, "").slice(0, 3) +
        "." +
        patientCpf.replace(/\D/g, "").slice(3, 6) +
        "." +
        patientCpf.replace(/\D/g, "").slice(6, 9) +
        "-",
    );
    expect(blockText).toMatch(/\d{2}\/\d{2}\/\d{4} às \d{2}:\d{2}/);
    await block.getByRole("img", { name: /^Assinatura de / }).waitFor();
    // No SMTP here: the page promises no e-mail; the copy is the download.
    await p
      .getByTestId("signed-notice")
      .getByText("Baixe aqui sua cópia do documento assinado e guarde-a com você.")
      .waitFor();
    expect(
      await p.getByText("Todos os participantes receberão uma cópia do documento assinado por e-mail.").count(),
    ).toBe(0);
    expect(await p.getByTestId("sign-form").count()).toBe(0);
    // The sealed PDF is made by a job a moment later: the button says so, then downloads it.
    const phoneDownload = p.getByRole("link", { name: "Baixar documento assinado" });
    await phoneDownload.waitFor({ timeout: 30_000 });
    await animationsFinished(p);
    await snap(p, "signing-signed-phone");
    const phoneFile = p.waitForEvent("download");
    await phoneDownload.click();
    const phoneCopy = await phoneFile;
    expect(phoneCopy.suggestedFilename()).toMatch(
      /^Termo_de_Consentimento___Clareamento_dental_assinado_\d{8}_\d{6}\.pdf$/,
    );
    const phoneBytes = readFileSync(await phoneCopy.path());
    expect(phoneBytes.subarray(0, 4).toString("latin1")).toBe("%PDF");

    // The staff list shows it signed; the document page shows the Signatures block with the evidence.
    await page.goto("/documents");
    await page.getByTestId("document-row").getByTestId("document-status").getByText("Assinado").waitFor();
    // Its row menu offers the sealed PDF first, the draft as a draft.
    await page.getByRole("button", { name: /^Ações do documento/ }).click();
    expect(
      (await page.getByRole("menuitem", { name: /^Baixar/ }).allTextContents()).map((text) => text.trim()),
    ).toEqual(["Baixar PDF assinado", "Baixar rascunho (sem validade)"]);
    await page.keyboard.press("Escape");
    await page.goto(`/documents/${documentId}`);
    const staffBlock = page.getByTestId("document-signatures");
    await staffBlock.getByText(PATIENT, { exact: false }).first().waitFor();
    const staffText = await staffBlock.textContent();
    expect(staffText).toContain(PATIENT_EMAIL);
    // A real connection: the source port and the parsed device are part of the evidence.
    expect(staffText).toMatch(/IP: \S+ \(porta \d+\)/);
    expect(staffText).toMatch(/Dispositivo: .+\(celular\)/);
    expect(staffText).toContain("Avançada");
    expect(staffText).toContain("Navegador: Mozilla/5.0");
    // The primary download is the sealed PDF, the very file the patient got; the draft is secondary and says so.
    await page.getByRole("button", { name: "Baixar rascunho (sem validade)" }).waitFor();
    await snap(page, "signing-staff-signed-desktop");
    const staffFile = page.waitForEvent("download");
    await page.getByRole("button", { name: "Baixar PDF assinado" }).click();
    const staffCopy = await staffFile;
    expect(staffCopy.suggestedFilename()).toBe(phoneCopy.suggestedFilename());
    expect(readFileSync(await staffCopy.path()).equals(phoneBytes)).toBe(true);
    const draftFile = page.waitForEvent("download");
    await page.getByRole("button", { name: "Baixar rascunho (sem validade)" }).click();
    expect((await draftFile).suggestedFilename()).toMatch(/-rascunho_\d{8}_\d{6}\.pdf$/);
    // The trail says the signer downloaded it, in words.
    await page.getByRole("tab", { name: "Trilha de Auditoria" }).click();
    await page
      .getByTestId("audit-trail")
      .getByText("PDF assinado baixado pelo signatário (pelo link de assinatura)")
      .waitFor();
    await page.getByRole("tab", { name: "Conteúdo" }).click();

    // The verification page, by the code of the signed document.
    const detail = await json<{ audit: { action: string; data: Record<string, unknown> }[] }>(
      await page.request.get(`/api/documents/${documentId}`),
      200,
    );
    const code = detail.audit.find((event) => event.action === "document.signed")?.data.verification_code;
    expect(typeof code).toBe("string");
    await p.goto(`/verificar/${code as string}`);
    await p.getByRole("heading", { name: "Termo de Consentimento - Clareamento dental" }).waitFor();
    await p.getByTestId("verification-status").getByText("Assinado").waitFor();
    const signatures = await p.getByTestId("verification-signatures").textContent();
    expect(signatures).toContain(PATIENT);
    expect(signatures).toMatch(/CPF: \*\*\*\.\d{3}\.\d{3}-\*\*/);
    expect(await p.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await snap(p, "verification-phone");

    // The sealed PDF (a job in the same process).
    let sealed: Buffer | null = null;
    await expect
      .poll(
        async () => {
          const answer = await page.request.get(`/api/documents/${documentId}/signed-pdf`);
          if (answer.status() === 200) sealed = Buffer.from(await answer.body());
          return answer.status();
        },
        { timeout: 20_000, interval: 500, message: "the sealed PDF was not ready in 20 s" },
      )
      .toBe(200);
    expect(sealed!.subarray(0, 4).toString("latin1")).toBe("%PDF");
    expect(sealed!.equals(phoneBytes)).toBe(true);
    await p.reload();
    await p.getByTestId("sealed-hash").waitFor();

    const input = p.getByLabel("Arquivo PDF para verificar");
    await input.setInputFiles({ name: "termo-assinado.pdf", mimeType: "application/pdf", buffer: sealed! });
    await p.getByTestId("pdf-verdict").getByText("termo-assinado.pdf", { exact: false }).waitFor();
    expect(await p.getByTestId("verdict-identical").getAttribute("data-ok")).toBe("true");
    expect(await p.getByTestId("verdict-signature").getAttribute("data-ok")).toBe("true");
    await p.getByText("Este arquivo é exatamente o PDF selado deste documento.").waitFor();
    await snap(p, "verification-ok-phone");

    // One byte changed inside the signed range: not the sealed file, and its signature no longer verifies.
    const modified = Buffer.from(sealed!);
    const at = modified.indexOf("\n%", 0, "latin1") + 2;
    modified[at] = modified[at]! ^ 0x01;
    await input.setInputFiles({ name: "termo-alterado.pdf", mimeType: "application/pdf", buffer: modified });
    await p.getByTestId("pdf-verdict").getByText("termo-alterado.pdf", { exact: false }).waitFor();
    expect(await p.getByTestId("verdict-identical").getAttribute("data-ok")).toBe("false");
    expect(await p.getByTestId("verdict-signature").getAttribute("data-ok")).toBe("false");
    await p.getByText("Este arquivo NÃO é o PDF selado deste documento", { exact: false }).waitFor();
    expect(await p.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await snap(p, "verification-rejected-phone");

    // Staff on a phone: the bottom sheet's first tile is the sealed PDF.
    const staffPhone = await newPage(browser, PHONE);
    await signIn(staffPhone.page, account.email, account.password);
    await staffPhone.page.goto("/documents");
    await staffPhone.page.getByRole("button", { name: /^Ações do documento/ }).click();
    const sheet = staffPhone.page.getByRole("dialog");
    await sheet.getByRole("button", { name: "Baixar PDF assinado" }).waitFor();
    await animationsFinished(staffPhone.page);
    await snap(staffPhone.page, "documents-sheet-signed-phone");
    const sheetFile = staffPhone.page.waitForEvent("download");
    await sheet.getByRole("button", { name: "Baixar PDF assinado" }).click();
    expect((await sheetFile).suggestedFilename()).toBe(phoneCopy.suggestedFilename());
    expect(staffPhone.errors).toEqual([]);
    await staffPhone.context.close();

    // An unknown code.
    await p.goto("/verificar/NAO-EXISTE-123");
    await p.getByText("Documento não encontrado").waitFor();

    expect(patient.errors).toEqual([]);
    expect(errors).toEqual([]);
    await patient.context.close();
    await context.close();
  }, 150_000); // the whole path, staff and patient, in one flow: ~50 s on a quiet 2-core machine

  it("staff see the live link only on request, and each time shows in the trail with their name", async () => {
    const account = await registerProfessional();
    const { context, page, errors } = await newPage(browser, DESKTOP);
    await signIn(page, account.email, account.password);
    const documentId = await seedDocument(page, validCpf());
    await json(
      await page.request.post(`/api/documents/${documentId}/professional-signature`, {
        data: { senha: account.password },
      }),
      200,
    );
    await json(await page.request.post(`/api/documents/${documentId}/send`, { data: {} }), 200);
    await page.goto(`/documents/${documentId}`);
    const panel = page.getByTestId("signing-panel");
    await panel.getByTestId("ready-to-sign").waitFor();
    expect(await panel.getByTestId("signing-link").count()).toBe(0);
    await panel.getByTestId("show-signing-link").click();
    expect(await panel.getByTestId("signing-link").inputValue()).toMatch(/\/assinar\/[A-Za-z0-9_-]{20,}$/);
    await page.goto(`/documents/${documentId}?aba=auditoria`);
    const trail = page.getByTestId("audit-trail");
    const entry = trail.getByRole("listitem").filter({ hasText: "Link de assinatura exibido a um membro da equipe" });
    await entry.waitFor();
    expect(await entry.textContent()).toContain(account.nome);
    await animationsFinished(page);
    await snap(page, "signing-link-trail-desktop");
    expect(errors).toEqual([]);
    await context.close();
  });

  it("settings: the code is on by default; turning it off warns that signatures become simple", async () => {
    const account = await registerProfessional();
    const { context, page, errors } = await newPage(browser, DESKTOP);
    await signIn(page, account.email, account.password);
    await page.goto("/settings");
    const card = page.getByTestId("signing-settings");
    const toggle = card.getByRole("switch", { name: "Exigir código por e-mail antes de assinar" });
    await toggle.waitFor();
    expect(await toggle.getAttribute("aria-checked")).toBe("true");
    await card.getByTestId("signing-level").getByText("assinatura eletrônica avançada", { exact: false }).waitFor();
    await card.getByTestId("email-not-configured").waitFor();
    await toggle.click();
    await page.getByText("Configurações atualizadas").waitFor();
    expect(
      (await json<{ codigo_email: boolean }>(await page.request.get("/api/settings/signing"), 200)).codigo_email,
    ).toBe(false);
    await card.getByTestId("signing-level").getByText("assinatura eletrônica simples", { exact: false }).waitFor();
    await page.reload();
    await expect
      .poll(() =>
        page
          .getByTestId("signing-settings")
          .getByRole("switch", { name: "Exigir código por e-mail antes de assinar" })
          .getAttribute("aria-checked"),
      )
      .toBe("false");
    // The professional's code (decision 078): off by default on a server without SMTP; turned on.
    const professionalToggle = page
      .getByTestId("signing-settings")
      .getByRole("switch", { name: "Exigir o código do profissional ao assinar" });
    expect(await professionalToggle.getAttribute("aria-checked")).toBe("false");
    await professionalToggle.click();
    await expect.poll(() => professionalToggle.getAttribute("aria-checked")).toBe("true");
    expect(
      (await json<{ codigo_profissional: boolean }>(await page.request.get("/api/settings/signing"), 200))
        .codigo_profissional,
    ).toBe(true);
    await snap(page, "settings-desktop");
    expect(errors).toEqual([]);
    await context.close();
  });
});
