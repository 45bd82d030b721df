import { readFileSync } from "node:fs";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { registerEstablishment, registerProfessional, signIn, validCpf } from "./accounts.js";
import {
  animationsFinished,
  baseUrl,
  DESKTOP,
  holdRequests,
  launchBrowser,
  newPage,
  pageWidth,
  PHONE,
  snap,
} from "./browser.js";

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
    { id: "s1", type: "bullet_list", title: "Riscos", content: "{{riscos}}" },
    { id: "s2", type: "bullet_list", title: "Benefícios", content: "{{beneficios}}" },
    { id: "s3", type: "bullet_list", title: "Cuidados", content: "{{cuidados_pos}}" },
    { id: "s4", type: "signature", title: "Assinaturas", content: "{{paciente_nome}}\n\n{{profissional_nome}}" },
  ],
};

async function json<T>(
  response: { status(): number; json(): Promise<unknown>; text(): Promise<string> },
  status: number,
): Promise<T> {
  if (response.status() !== status)
    throw new Error(`expected ${status}, got ${response.status()}: ${await response.text()}`);
  return (await response.json()) as T;
}

/** A published template, a patient, and a procedure with one risk, one benefit and one aftercare. */
async function seedClinic(page: Page) {
  const specialties = (await json<{ items: string[] }>(await page.request.get("/api/templates/specialties"), 200))
    .items;
  const template = await json<{ id: string }>(
    await page.request.post("/api/templates", {
      data: {
        titulo: "TCLE Implante",
        especialidade: specialties[0],
        categoria: "Consentimento",
        estrutura: STRUCTURE,
      },
    }),
    201,
  );
  await json(await page.request.post(`/api/templates/${template.id}/status`, { data: { status: "published" } }), 200);
  // A draft template never appears on the new-document screen.
  await json(
    await page.request.post("/api/templates", {
      data: { titulo: "Rascunho Interno", especialidade: specialties[0], categoria: "Contratos", estrutura: STRUCTURE },
    }),
    201,
  );
  const patient = await json<{ id: string }>(
    await page.request.post("/api/patients", {
      data: {
        nome: "Joana Prado Albuquerque",
        cpf: validCpf(),
        email: "joana@exemplo.com.br",
        data_nascimento: "1988-04-12",
      },
    }),
    201,
  );
  const item = async (kind: string, titulo: string) =>
    (
      await json<{ id: string }>(
        await page.request.post(`/api/content/${kind}`, { data: { titulo, descricao: `Descrição de ${titulo}.` } }),
        201,
      )
    ).id;
  const risco = await item("riscos", "Edema na região operada");
  const beneficio = await item("beneficios", "Reabilitação da mastigação");
  const cuidado = await item("cuidados", "Dieta líquida e fria");
  await item("riscos", "Parestesia temporária");
  const procedure = await json<{ id: string }>(
    await page.request.post("/api/procedures", {
      data: { nome: "Implante dentário", especialidade: "implantodontia", valor: "3.800" },
    }),
    201,
  );
  await json(
    await page.request.put(`/api/procedures/${procedure.id}/associations`, {
      data: { riscos: [risco], beneficios: [beneficio], cuidados: [cuidado] },
    }),
    200,
  );
  return { patientId: patient.id, templateId: template.id };
}

const checkbox = (page: Page, list: string, name: string) =>
  page.getByRole("group", { name: list }).getByRole("checkbox", { name });

describe("documents", () => {
  it("creates a document from the patients list, lists it, shows it on the dashboard and downloads its PDF", async () => {
    const account = await registerProfessional();
    const { context, page, errors } = await newPage(browser, DESKTOP);
    await signIn(page, account.email, account.password);

    // Before any document: the dashboard's figures are zero and there is no invented trend.
    await page.getByTestId("stat-total").getByText("0", { exact: true }).waitFor();
    expect(await page.getByTestId("dashboard-stats").textContent()).not.toContain("mês passado");
    await page.getByTestId("stat-taxa").getByText("0,0%").waitFor();
    await page.goto("/documents");
    await page.getByRole("heading", { name: "Documentos" }).waitFor();
    await page.getByText("Gerencie os termos de consentimento e assinaturas").waitFor();
    await page.getByText("Nenhum documento encontrado", { exact: true }).waitFor();
    await page.getByText("Mostrando 0 de 0 documentos").waitFor();

    const { patientId } = await seedClinic(page);

    // Patients list → row action 'Novo Contrato' → the patient is preselected.
    await page.goto("/patients");
    await page.getByRole("button", { name: "Ações de Joana Prado Albuquerque" }).click();
    await page.getByRole("menuitem", { name: "Novo Contrato" }).click();
    await page.waitForURL(new RegExp(`/documents/create\\?paciente=${patientId}$`));
    await page.getByRole("heading", { name: "Novo Documento" }).waitFor();
    await page.getByTestId("patient-chosen").getByText("Joana Prado Albuquerque").waitFor();

    // Only the published template is offered; a category without templates says so and clears the choice.
    const templateSelect = page.getByLabel(/^Template/);
    expect(await templateSelect.locator("option").allTextContents()).toEqual([
      "Selecione um template",
      "TCLE Implante (v1)",
    ]);
    await templateSelect.selectOption({ label: "TCLE Implante (v1)" });
    await page.getByLabel("Categoria").selectOption("Contratos");
    await page.getByText("Somente templates publicados aparecem aqui").waitFor();
    expect(await templateSelect.inputValue()).toBe("");
    await page.getByLabel("Categoria").selectOption("Consentimento");
    await templateSelect.selectOption({ label: "TCLE Implante (v1)" });

    // The live preview already shows the patient.
    const preview = page.getByTestId("document-live-preview");
    await preview.getByText("Eu, Joana Prado Albuquerque,", { exact: false }).waitFor();

    // Choosing the procedure prefills the checklists and the title; the preview shows the risk.
    await page
      .getByLabel("Procedimento", { exact: true })
      .selectOption({ label: "Implante dentário — Implantodontia" });
    await expect.poll(() => checkbox(page, "Riscos", "Edema na região operada").isChecked()).toBe(true);
    expect(await checkbox(page, "Riscos", "Parestesia temporária").isChecked()).toBe(false);
    await expect.poll(() => checkbox(page, "Benefícios", "Reabilitação da mastigação").isChecked()).toBe(true);
    await expect.poll(() => checkbox(page, "Cuidados Pós-op", "Dieta líquida e fria").isChecked()).toBe(true);
    expect(await page.getByLabel(/^Título/).inputValue()).toBe("Termo de Consentimento - Implante dentário");
    // The procedure's price fills the empty "Valor do procedimento".
    expect(await page.getByLabel("Valor do procedimento", { exact: true }).inputValue()).toBe("R$ 3.800,00");
    await preview.getByText("Edema na região operada: Descrição de Edema na região operada.").waitFor();
    await preview.getByText("Termo de Consentimento — Implante dentário").waitFor();
    await page.getByTestId("selected-counters").getByText("1 risco · 1 benefício · 1 cuidado").waitFor();

    // The owner of an independent practice chooses the responsible physician: required, with the spec's message.
    await page.getByRole("button", { name: "Criar Documento" }).click();
    await page.getByText("Por favor, selecione o médico responsável pelo documento.").first().waitFor();
    await page.getByLabel(/^Médico responsável/).selectOption({ label: `${account.nome} (CRO-RJ 54321)` });
    await preview.getByText(`autorizo ${account.nome} a realizar`, { exact: false }).waitFor();
    await expect.poll(() => page.getByTestId("unresolved-list").count()).toBe(0);
    await snap(page, "document-create-desktop");

    await page.getByRole("button", { name: "Criar Documento" }).click();
    await page.getByText("Documento criado e PDF gerado com sucesso").waitFor();
    await page.waitForURL(/\/documents\/[0-9a-f-]{36}$/);
    const documentId = page.url().split("/").pop()!;
    await page.getByRole("heading", { name: "Termo de Consentimento - Implante dentário" }).waitFor();
    await page
      .getByRole("article")
      .getByText("Edema na região operada: Descrição de Edema na região operada.")
      .waitFor();
    await snap(page, "document-detail-desktop");

    // Download the PDF from the document page: a draft, said so in its label and file name.
    expect(await page.getByRole("button", { name: "Baixar PDF assinado" }).count()).toBe(0);
    const downloadPromise = page.waitForEvent("download");
    await page.getByRole("button", { name: "Baixar rascunho (sem validade)" }).click();
    const download = await downloadPromise;
    expect(download.suggestedFilename()).toMatch(
      /^Termo_de_Consentimento___Implante_dentario-rascunho_\d{8}_\d{6}\.pdf$/,
    );
    const file = await download.path();
    expect(readFileSync(file).subarray(0, 4).toString("latin1")).toBe("%PDF");
    await page.getByText("PDF Baixado").waitFor();
    await page.getByText(`Arquivo ${download.suggestedFilename()} foi baixado com sucesso.`).waitFor();

    // The audit tab (kept in the URL) lists every event with who and from where.
    await page.getByRole("tab", { name: "Trilha de Auditoria" }).click();
    await page.waitForURL(/aba=auditoria/);
    const trail = page.getByTestId("audit-trail");
    await trail.getByText("Documento criado").waitFor();
    await trail.getByText("PDF gerado").first().waitFor();
    await trail.getByText("Documento consultado pela equipe").first().waitFor();
    const trailText = await trail.textContent();
    expect(trailText).toContain(`Por: ${account.nome}`);
    expect(trailText).toMatch(/IP: \S+/);
    expect(trailText).toContain("Navegador: Mozilla/5.0");
    await page.getByRole("tab", { name: "Dados" }).click();
    await page.getByTestId("status-history").getByText("Rascunho").waitFor();

    // The list shows the row as the spec lists it.
    await page.goto("/documents");
    const row = page.getByTestId("document-row");
    await row.getByText("Joana Prado Albuquerque").waitFor();
    const rowText = await row.textContent();
    expect(rowText).toContain("Rascunho");
    expect(rowText).toContain(`#${documentId.slice(-8)}`);
    expect(rowText).toContain("Implante dentário");
    expect(rowText).toContain(account.nome);
    expect(rowText).toMatch(/Criado \d{2}\/\d{2}\/\d{4}/);
    expect(rowText).toMatch(/Expira \d{2}\/\d{2}\/\d{4}/);
    await page.getByText("Mostrando 1 de 1 documentos").waitFor();
    await page.getByTestId("counter-total").getByText("1", { exact: true }).waitFor();
    await snap(page, "documents-desktop");

    // Search on the server: by short id, and an empty result with the spec's wording.
    await page.getByRole("searchbox", { name: "Buscar documentos" }).fill("zzz-nada");
    await page.getByText('Nenhum documento encontrado para "zzz-nada"').waitFor();
    await page.waitForURL(/q=zzz-nada/);
    await page.getByRole("searchbox", { name: "Buscar documentos" }).fill(documentId.slice(-8));
    await page.getByText("Mostrando 1 de 1 documentos").waitFor();
    await page.getByRole("searchbox", { name: "Buscar documentos" }).fill("");
    await page.waitForURL(/\/documents$/);

    // The filters really filter and show as removable chips; the URL keeps them.
    await page.getByRole("button", { name: "Filtros" }).click();
    await page.getByRole("dialog", { name: "Filtros de documentos" }).getByLabel("Status").selectOption("signed");
    await page.keyboard.press("Escape");
    await page.waitForURL(/status=signed/);
    await page.getByText("Nenhum documento corresponde aos filtros").waitFor();
    await page.getByRole("button", { name: "Remover filtro Status: Assinado" }).click();
    await page.getByText("Mostrando 1 de 1 documentos").waitFor();

    // The patients list's 'Ver Contratos' link filters by patient.
    await page.goto(`/documents?paciente=${patientId}`);
    await page.getByTestId("document-filter-chips").getByText("Paciente: Joana Prado Albuquerque").waitFor();
    await page.getByText("Mostrando 1 de 1 documentos").waitFor();

    // The preview dialog from the row menu, which offers a draft's PDF as a draft only.
    await page.getByRole("button", { name: /^Ações do documento/ }).click();
    await page.getByRole("menuitem", { name: "Baixar rascunho (sem validade)" }).waitFor();
    expect(await page.getByRole("menuitem", { name: "Baixar PDF assinado" }).count()).toBe(0);
    await page.getByRole("menuitem", { name: "Gerar e Visualizar PDF" }).click();
    const dialog = page.getByTestId("document-preview-dialog");
    await dialog.getByRole("button", { name: "Baixar rascunho (sem validade)" }).waitFor();
    await dialog.getByRole("article").getByText("Edema na região operada", { exact: false }).waitFor();
    await dialog.getByText("joana@exemplo.com.br").waitFor();
    await dialog.getByText("CRO-RJ 54321").waitFor();
    await animationsFinished(page);
    await snap(page, "document-preview-dialog-desktop");
    await page.keyboard.press("Escape");
    await dialog.waitFor({ state: "detached" });

    // The dashboard counts it and lists it among the recent contracts.
    await page.goto("/");
    await page.getByTestId("stat-total").getByText("1", { exact: true }).waitFor();
    const recent = page.getByTestId("recent-document");
    await recent.getByText("Joana Prado Albuquerque").waitFor();
    expect(await recent.count()).toBe(1);
    // This month has one document and last month none: no trend line rather than a fixed one.
    expect(await page.getByTestId("dashboard-stats").textContent()).not.toMatch(/\+\d+%/);
    await snap(page, "dashboard-with-document-desktop");
    await page.getByRole("link", { name: /Ver Todos/ }).click();
    await page.waitForURL(/\/documents$/);

    // Excluir a draft from the row menu.
    await page.getByRole("button", { name: /^Ações do documento/ }).click();
    await page.getByRole("menuitem", { name: "Excluir" }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: "Excluir" }).click();
    await page.getByText("Documento excluído").waitFor();
    await page.getByText("Nenhum documento encontrado", { exact: true }).waitFor();

    expect(errors).toEqual([]);
    await context.close();
  });

  it("fills risks, benefits and value from the chosen professional's defaults, not the receptionist's, and follows a switch", async () => {
    const owner = await registerEstablishment();
    const { context, page, errors } = await newPage(browser, DESKTOP);
    await signIn(page, owner.email, owner.password);
    // The front desk (the owner choosing for the doctors) has defaults of her own: never used for them.
    await json(
      await page.request.put("/api/me/template-defaults", {
        data: {
          template_riscos: "Risco da recepção",
          template_beneficios: "Benefício da recepção",
          template_cuidados_pos: null,
          template_valor_procedimento: "R$ 1,00",
        },
      }),
      200,
    );
    const doctors = [
      {
        nome: "Dra. Camila Ribeiro Torres",
        riscos: "Hematoma\nInfecção",
        beneficios: "Pele mais lisa",
        valor: "R$ 1.500,00",
      },
      { nome: "Dr. Bruno Saraiva Lima", riscos: "Assimetria", beneficios: "Contorno definido", valor: "R$ 2.750,00" },
    ];
    const ids: string[] = [];
    for (const [index, doctor] of doctors.entries()) {
      const email = `medico${index}-${Date.now()}@exemplo.com.br`;
      const created = await json<{ id: string }>(
        await page.request.post("/api/users", {
          data: {
            nome: doctor.nome,
            email,
            cpf: validCpf(),
            role: "profissional",
            acesso: "senha",
            password: "jardim-azul-42",
            conselho_tipo: "CRM",
            conselho_numero: `11223${index}`,
            conselho_uf: "SP",
            especialidades: [{ especialidade: "dermatologia", areas_atuacao: [], rqe: `778${index}` }],
          },
        }),
        201,
      );
      ids.push(created.id);
      // Each doctor saves their own defaults in their own session.
      const own = await browser.newContext({ baseURL: baseUrl() });
      await json(await own.request.post("/api/auth/sign-in", { data: { email, password: "jardim-azul-42" } }), 200);
      await json(
        await own.request.put("/api/me/template-defaults", {
          data: {
            template_riscos: doctor.riscos,
            template_beneficios: doctor.beneficios,
            template_cuidados_pos: null,
            template_valor_procedimento: doctor.valor,
          },
        }),
        200,
      );
      await own.close();
    }

    await page.goto("/documents/create");
    const physician = page.getByLabel(/^Médico responsável/);
    await physician.waitFor();
    const riscos = page.getByLabel("Riscos personalizados");
    const beneficios = page.getByLabel("Benefícios personalizados");
    const valor = page.getByLabel("Valor do procedimento", { exact: true });
    // Before a choice: nothing of the receptionist's.
    expect(await riscos.inputValue()).not.toContain("recepção");
    await physician.selectOption(ids[0]!);
    await expect.poll(() => riscos.inputValue()).toBe("Hematoma\nInfecção");
    expect(await beneficios.inputValue()).toBe("Pele mais lisa");
    expect(await valor.inputValue()).toBe("R$ 1.500,00");
    await snap(page, "document-form-physician-defaults-desktop");
    // Switching doctors brings the other one's texts.
    await physician.selectOption(ids[1]!);
    await expect.poll(() => riscos.inputValue()).toBe("Assimetria");
    expect(await beneficios.inputValue()).toBe("Contorno definido");
    expect(await valor.inputValue()).toBe("R$ 2.750,00");
    // A text edited here for this patient stays when the doctor changes again.
    await beneficios.fill("Combinado com a paciente");
    await physician.selectOption(ids[0]!);
    await expect.poll(() => riscos.inputValue()).toBe("Hematoma\nInfecção");
    expect(await beneficios.inputValue()).toBe("Combinado com a paciente");
    expect(await page.content()).not.toContain("Risco da recepção");

    expect(errors).toEqual([]);
    await context.close();
  });

  it("on a phone: cards, a bottom sheet of actions, the form and its preview tab, and the not-found page", async () => {
    const account = await registerProfessional();
    const { context, page, errors } = await newPage(browser, PHONE);
    await signIn(page, account.email, account.password);
    const { patientId } = await seedClinic(page);
    const options = await json<{ templates: { template_version_id: string }[]; physicians: { id: string }[] }>(
      await page.request.get("/api/documents/form-options"),
      200,
    );
    const created = await json<{ id: string }>(
      await page.request.post("/api/documents", {
        data: {
          paciente_id: patientId,
          template_version_id: options.templates[0]!.template_version_id,
          titulo: "Termo de Consentimento - Implante dentário",
          medico_responsavel_id: options.physicians[0]!.id,
          permitir_pendencias: true,
        },
      }),
      201,
    );

    // The counters answer late (a slow phone connection), so the page is seen while they load.
    const counters = await holdRequests(page, "**/api/documents/counters");
    await page.goto("/documents");
    const card = page.getByTestId("document-card");
    await card.getByText("Joana Prado Albuquerque").waitFor();
    expect(await page.getByTestId("documents-table").count()).toBe(0);
    // The five counters scroll sideways inside their row; the page itself never does, neither
    // while they load nor once they show.
    await page.locator('[data-testid="counter-expirados"][aria-busy="true"]').waitFor();
    expect(await pageWidth(page)).toBeLessThanOrEqual(390);
    counters.release();
    await page.getByTestId("counter-expirados").locator('[data-slot="stat-card-value"]').waitFor();
    expect(await pageWidth(page)).toBeLessThanOrEqual(390);
    await snap(page, "documents-phone");

    await card.getByRole("button", { name: /^Ações do documento/ }).click();
    const sheet = page.getByRole("dialog");
    for (const tile of ["Ver Detalhes", "Gerar PDF", "Enviar p/ Assinatura", "Excluir"])
      await sheet.getByText(tile, { exact: true }).waitFor();
    await animationsFinished(page);
    await snap(page, "documents-sheet-phone");
    await sheet.getByRole("link", { name: "Ver Detalhes" }).click();
    await page.waitForURL(new RegExp(`/documents/${created.id}$`));
    await page.getByRole("heading", { name: "Termo de Consentimento - Implante dentário" }).waitFor();
    await snap(page, "document-detail-phone");

    await page.goto(`/documents/create?paciente=${patientId}`);
    await page.getByTestId("patient-chosen").getByText("Joana Prado Albuquerque").waitFor();
    await page.getByLabel(/^Template/).selectOption({ index: 1 });
    expect(await pageWidth(page)).toBeLessThanOrEqual(390);
    await snap(page, "document-create-phone");
    await page.getByRole("tab", { name: /Pré-visualização/ }).click();
    await page
      .getByTestId("document-live-preview")
      .getByText("Eu, Joana Prado Albuquerque,", { exact: false })
      .waitFor();
    // The physician is not chosen yet: the preview lists the gaps.
    await page
      .getByRole("tabpanel", { name: /Pré-visualização/ })
      .getByTestId("unresolved-list")
      .getByText("{{profissional_nome}}")
      .waitFor();
    await snap(page, "document-create-preview-phone");

    // With gaps left, creating needs the explicit 'Criar mesmo assim'.
    await page.getByRole("tab", { name: "Formulário" }).click();
    await page.getByLabel(/^Médico responsável/).selectOption({ index: 1 });
    const unresolved = page.getByRole("tabpanel", { name: "Formulário" }).getByTestId("unresolved-list");
    await unresolved.getByText("{{procedimento}}").waitFor();
    expect(await unresolved.textContent()).not.toContain("profissional_nome");
    // The title is required, with the spec's message.
    await page.getByRole("button", { name: "Criar Documento" }).click();
    await page.getByText("Por favor, preencha todos os campos obrigatórios.").first().waitFor();
    await page.getByLabel(/^Título/).fill("Termo avulso");
    await page.getByRole("button", { name: "Criar Documento" }).click();
    await page.getByText("Marque “Criar mesmo assim” para criar o documento com variáveis sem valor.").waitFor();
    expect(page.url()).toContain("/documents/create");
    await page.getByLabel("Criar mesmo assim").check();
    await page.getByRole("button", { name: "Criar Documento" }).click();
    await page.getByText("Documento criado e PDF gerado com sucesso").waitFor();
    await page.waitForURL(/\/documents\/[0-9a-f-]{36}$/);

    await page.goto("/documents/00000000-0000-4000-8000-000000000000");
    await page.getByText("Documento não encontrado").waitFor();

    expect(errors.filter((e) => !e.includes("404"))).toEqual([]);
    await context.close();
  });
});
