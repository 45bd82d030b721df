import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rawRows } from "../../src/db/raw.js";
import { validCpf } from "../helpers/factories.js";
import { newClinic, newStaff, type SignedIn } from "../helpers/sessions.js";
import { diagonalChars, pageCount, sortedChars } from "../helpers/pdf-text.js";
import { createTestApp, type TestContext } from "../helpers/test-app.js";

let ctx: TestContext;
let clinic: SignedIn;
let other: SignedIn;

const call = (who: SignedIn | null, method: "GET" | "POST" | "PUT" | "DELETE", url: string, payload?: unknown) =>
  ctx.app.inject({ method, url, payload: payload as object, headers: who ? { cookie: who.cookie } : {} });

const STRUCTURE = {
  title: "Termo de Consentimento — {{procedimento}}",
  introduction:
    "Eu, {{paciente_nome}}, CPF {{cpf_paciente}}, autorizo {{medico}} ({{crm}}) a realizar {{procedimento}} em {{data_procedimento}}.",
  sections: [
    { id: "s1", type: "bullet_list", title: "Riscos", content: "{{riscos}}" },
    { id: "s2", type: "bullet_list", title: "Benefícios", content: "{{beneficios}}" },
    {
      id: "s3",
      type: "paragraph",
      title: "Valor",
      content: "Valor: {{valor_procedimento}}. Unidade: {{unidade_nome}}.",
    },
    { id: "s4", type: "signature", title: "Assinaturas", content: "{{paciente_nome}}\n\n{{profissional_nome}}" },
  ],
};

async function publishedTemplate(who: SignedIn, estrutura: unknown = STRUCTURE) {
  const specialties = (await call(who, "GET", "/api/templates/specialties")).json().items as string[];
  const created = await call(who, "POST", "/api/templates", {
    titulo: "TCLE Geral",
    especialidade: specialties[0],
    categoria: "Consentimento",
    estrutura,
  });
  expect(created.statusCode, created.body).toBe(201);
  const published = await call(who, "POST", `/api/templates/${created.json().id}/status`, { status: "published" });
  expect(published.statusCode, published.body).toBe(200);
  return { templateId: created.json().id as string, versionId: published.json().versao_atual_id as string };
}

async function patient(who: SignedIn, nome = "Ana Luíza Conceição") {
  const response = await call(who, "POST", "/api/patients", {
    nome,
    cpf: validCpf(),
    data_nascimento: "1990-05-10",
    email: "ana@exemplo.com.br",
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().id as string;
}

async function contentItem(who: SignedIn, kind: "riscos" | "beneficios" | "cuidados", titulo: string) {
  const response = await call(who, "POST", `/api/content/${kind}`, { titulo, descricao: `Descrição de ${titulo}` });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().id as string;
}

let versionId: string;
let templateId: string;
let patientId: string;

beforeAll(async () => {
  ctx = await createTestApp();
  clinic = await newClinic(ctx.app);
  other = await newClinic(ctx.app);
  ({ versionId, templateId } = await publishedTemplate(clinic));
  patientId = await patient(clinic);
});
afterAll(async () => {
  await ctx.close();
});

const baseInput = () => ({
  paciente_id: patientId,
  template_version_id: versionId,
  titulo: "TCLE - Blefaroplastia",
  procedimento: "Blefaroplastia superior",
  data_procedimento: "2026-12-03",
  // The owner chooses the responsible physician (spec part 1 §6): here, themselves.
  medico_responsavel_id: clinic.profileId,
  variaveis: {
    valor_procedimento: "R$ 4.500,00",
    riscos_personalizados: "Dor local",
    beneficios_personalizados: "Melhora estética",
  },
});

describe("creating a document", () => {
  it("fills every variable, freezes the model with its SHA-256, expires in 7 days, audits and generates the PDF", async () => {
    const risco = await contentItem(clinic, "riscos", "Hematoma");
    const beneficio = await contentItem(clinic, "beneficios", "Campo visual");
    const response = await call(clinic, "POST", "/api/documents", {
      ...baseInput(),
      variaveis: { valor_procedimento: "R$ 4.500,00", riscos_personalizados: "Cicatriz aparente" },
      conteudo: { riscos: [risco], beneficios: [beneficio], cuidados: [] },
    });
    expect(response.statusCode, response.body).toBe(201);
    const { id, pdf_gerado, pdf_nome } = response.json();
    expect(pdf_gerado).toBe(true);
    expect(pdf_nome).toMatch(/^TCLE___Blefaroplastia-rascunho_\d{8}_\d{6}\.pdf$/);

    const detail = (await call(clinic, "GET", `/api/documents/${id}`)).json();
    expect(detail).toMatchObject({
      status: "draft",
      short_id: `#${id.slice(-8)}`,
      paciente_nome: "Ana Luíza Conceição",
      procedimento: "Blefaroplastia superior",
      has_pdf: true,
      template_titulo: "TCLE Geral",
      versao: 1,
    });
    const expiresInDays = (Date.parse(detail.expiracao_at) - Date.parse(detail.created_at)) / 86_400_000;
    expect(expiresInDays).toBe(7);
    expect(detail.documento.title).toBe("Termo de Consentimento — Blefaroplastia superior");
    expect(detail.documento.unresolved).toEqual([]);
    const intro = detail.documento.introduction.map((i: { text?: string }) => i.text ?? "").join("");
    expect(intro).toContain("Eu, Ana Luíza Conceição, CPF ");
    expect(intro).toContain("a realizar Blefaroplastia superior em 03/12/2026");
    expect(intro).toMatch(/autorizo .+ \(CRM-\w\w \d+\)|autorizo .+ \(\w+-\w\w \d+\)/);
    const riscos = detail.documento.sections[0].items.map((item: { text: string }[]) =>
      item.map((i) => i.text).join(""),
    );
    expect(riscos).toEqual(["Hematoma: Descrição de Hematoma", "Cicatriz aparente"]);
    expect(detail.conteudo_selecionado).toEqual([
      { tipo: "riscos", titulo: "Hematoma", descricao: "Descrição de Hematoma" },
      { tipo: "beneficios", titulo: "Campo visual", descricao: "Descrição de Campo visual" },
    ]);
    expect(detail.variaveis_preenchidas).toMatchObject({
      valor_procedimento: "R$ 4.500,00",
      medico_nome: detail.medico.nome,
    });
    expect(detail.conteudo_sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(detail.audit.map((e: { action: string }) => e.action)).toEqual([
      "document.created",
      "document.pdf_generated",
      "document.viewed_by_staff",
    ]);
  });

  it("keeps the frozen model and hash when the template is edited afterwards", async () => {
    const { id } = (await call(clinic, "POST", "/api/documents", baseInput())).json();
    const before = (await call(clinic, "GET", `/api/documents/${id}`)).json();
    const edit = await call(clinic, "PUT", `/api/templates/${templateId}`, {
      titulo: "TCLE Geral",
      especialidade: (await call(clinic, "GET", `/api/templates/${templateId}`)).json().especialidade,
      categoria: "Consentimento",
      estrutura: { ...STRUCTURE, introduction: "Texto totalmente novo." },
    });
    expect(edit.statusCode, edit.body).toBe(200);
    const after = (await call(clinic, "GET", `/api/documents/${id}`)).json();
    expect(after.documento).toEqual(before.documento);
    expect(after.conteudo_sha256).toBe(before.conteudo_sha256);
  });

  it("refuses unresolved placeholders unless the user accepts them, and lists them", async () => {
    const { versionId: withGuardian } = await publishedTemplate(clinic, {
      title: "T",
      introduction: "Responsável: {{responsavel_nome}}; {{campo_inexistente}}",
      sections: [],
    });
    const refused = await call(clinic, "POST", "/api/documents", { ...baseInput(), template_version_id: withGuardian });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({
      code: "DOCUMENT_UNRESOLVED",
      details: { unresolved: ["responsavel_nome", "campo_inexistente"] },
    });
    const accepted = await call(clinic, "POST", "/api/documents", {
      ...baseInput(),
      template_version_id: withGuardian,
      permitir_pendencias: true,
    });
    expect(accepted.statusCode, accepted.body).toBe(201);
  });

  it("requires patient, template version and title with the spec's message", async () => {
    const response = await call(clinic, "POST", "/api/documents", { titulo: " " });
    expect(response.statusCode).toBe(400);
    const messages = response.json().issues.map((i: { message: string }) => i.message);
    expect(messages).toContain("Por favor, preencha todos os campos obrigatórios.");
    expect(
      response
        .json()
        .issues.map((i: { path: string }) => i.path)
        .sort(),
    ).toEqual(["paciente_id", "template_version_id", "titulo"]);
  });

  it("rejects malformed bodies", async () => {
    for (const body of [
      { ...baseInput(), data_procedimento: "31/12/2026" },
      { ...baseInput(), conteudo: { riscos: ["not-a-uuid"] } },
      { ...baseInput(), variaveis: { valor_procedimento: 12 } },
      { ...baseInput(), procedimento_id: 5 },
    ]) {
      const response = await call(clinic, "POST", "/api/documents", body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json().code).toBe("VALIDATION");
    }
  });

  it("keeps a document whole when the procedure it was made from is deleted", async () => {
    const procedure = (await call(clinic, "POST", "/api/procedures", { nome: "Rinoplastia" })).json();
    const created = await call(clinic, "POST", "/api/documents", {
      ...baseInput(),
      procedimento: undefined,
      procedimento_id: procedure.id,
    });
    expect(created.statusCode, created.body).toBe(201);
    const before = (await call(clinic, "GET", `/api/documents/${created.json().id}`)).json();
    expect(before.procedimento).toBe("Rinoplastia");
    expect((await call(clinic, "DELETE", `/api/procedures/${procedure.id}`)).statusCode).toBe(204);
    const after = (await call(clinic, "GET", `/api/documents/${created.json().id}`)).json();
    expect(after.procedimento).toBe("Rinoplastia");
    expect(after.documento).toEqual(before.documento);
    expect(after.conteudo_sha256).toBe(before.conteudo_sha256);
  });

  it("refuses a template not yet published", async () => {
    const specialties = (await call(clinic, "GET", "/api/templates/specialties")).json().items as string[];
    const draft = (
      await call(clinic, "POST", "/api/templates", {
        titulo: "Rascunho",
        especialidade: specialties[0],
        categoria: "Consentimento",
        estrutura: STRUCTURE,
      })
    ).json();
    const response = await call(clinic, "POST", "/api/documents", {
      ...baseInput(),
      template_version_id: draft.versao_atual_id,
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().code).toBe("DOCUMENT_TEMPLATE_NOT_PUBLISHED");
  });

  it("refuses another clinic's patient, template version, procedure and content items", async () => {
    const foreign = await publishedTemplate(other);
    const foreignPatient = await patient(other, "Paciente de Outra Clínica");
    const foreignRisk = await contentItem(other, "riscos", "Risco alheio");
    const foreignProcedure = (await call(other, "POST", "/api/procedures", { nome: "Procedimento alheio" })).json().id;
    expect(
      (await call(clinic, "POST", "/api/documents", { ...baseInput(), paciente_id: foreignPatient })).statusCode,
    ).toBe(404);
    expect(
      (await call(clinic, "POST", "/api/documents", { ...baseInput(), template_version_id: foreign.versionId }))
        .statusCode,
    ).toBe(404);
    expect(
      (await call(clinic, "POST", "/api/documents", { ...baseInput(), procedimento_id: foreignProcedure })).statusCode,
    ).toBe(404);
    const withRisk = await call(clinic, "POST", "/api/documents", {
      ...baseInput(),
      conteudo: { riscos: [foreignRisk] },
    });
    expect(withRisk.statusCode).toBe(400);
    expect(withRisk.json().code).toBe("ASSOCIATION_ITEM_UNKNOWN");
  });
});

describe("responsible physician by role", () => {
  it("administrators must choose an eligible physician; professionals are the physician themselves", async () => {
    const admin = await newStaff(ctx.app, ctx.database, clinic.tenantId, "admin");
    const { medico_responsavel_id: _none, ...unnamed } = baseInput();
    const missing = await call(admin, "POST", "/api/documents", unnamed);
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({
      code: "DOCUMENT_PHYSICIAN_REQUIRED",
      message: "Por favor, selecione o médico responsável pelo documento.",
    });
    // The physician's own default texts travel with them, apart from the admin's (spec part 2 §3).
    const doctorDefaults = {
      template_riscos: "Dor leve no local",
      template_beneficios: "Melhora funcional",
      template_cuidados_pos: "Repouso por 48 horas",
      template_valor_procedimento: "R$ 1.250,00",
    };
    const savedDefaults = await ctx.app.inject({
      method: "PUT",
      url: "/api/me/template-defaults",
      payload: doctorDefaults,
      headers: { cookie: clinic.cookie },
    });
    expect(savedDefaults.statusCode, savedDefaults.body).toBe(200);
    const options = (await call(admin, "GET", "/api/documents/form-options")).json();
    expect(options.must_choose_physician).toBe(true);
    expect(options.physicians.map((p: { id: string }) => p.id)).toEqual([clinic.profileId]);
    expect(options.physicians[0].defaults).toEqual({
      valor_procedimento: "R$ 1.250,00",
      riscos_personalizados: "Dor leve no local",
      beneficios_personalizados: "Melhora funcional",
      cuidados_personalizados: "Repouso por 48 horas",
    });
    expect(options.defaults.riscos_personalizados).toBeNull();
    expect(options.templates.map((t: { template_version_id: string }) => t.template_version_id)).not.toContain(
      undefined,
    );

    const notEligible = await call(admin, "POST", "/api/documents", {
      ...baseInput(),
      medico_responsavel_id: admin.profileId,
    });
    expect(notEligible.json().code).toBe("DOCUMENT_PHYSICIAN_INVALID");
    const chosen = await call(admin, "POST", "/api/documents", {
      ...baseInput(),
      medico_responsavel_id: clinic.profileId,
    });
    expect(chosen.statusCode, chosen.body).toBe(201);
    expect((await call(admin, "GET", `/api/documents/${chosen.json().id}`)).json().medico.id).toBe(clinic.profileId);

    // A professional with a council registration is the physician, whoever they name.
    const doctor = await newStaff(ctx.app, ctx.database, clinic.tenantId, "profissional");
    await ctx.database.db.execute(
      sql`update profiles set conselho_tipo = 'CRM', conselho_numero = '998877', conselho_uf = 'PE' where id = ${doctor.profileId}`,
    );
    expect((await call(doctor, "GET", "/api/documents/form-options")).json().must_choose_physician).toBe(false);
    const { medico_responsavel_id: _ignored, ...withoutPhysician } = baseInput();
    const own = await call(doctor, "POST", "/api/documents", {
      ...withoutPhysician,
      medico_responsavel_id: clinic.profileId,
    });
    expect(own.statusCode, own.body).toBe(201);
    const ownDetail = (await call(doctor, "GET", `/api/documents/${own.json().id}`)).json();
    expect(ownDetail.medico.id).toBe(doctor.profileId);
    expect(ownDetail.variaveis_preenchidas.profissional_crm).toBe("CRM-PE 998877");
    expect((await call(doctor, "POST", "/api/documents", withoutPhysician)).statusCode).toBe(201);
  });

  it("an attendant (no council) chooses too; auditors and legal staff cannot create", async () => {
    const attendant = await newStaff(ctx.app, ctx.database, clinic.tenantId, "atendente");
    expect((await call(attendant, "GET", "/api/documents/form-options")).json().must_choose_physician).toBe(true);
    const created = await call(attendant, "POST", "/api/documents", {
      ...baseInput(),
      medico_responsavel_id: clinic.profileId,
    });
    expect(created.statusCode, created.body).toBe(201);
    for (const role of ["auditor", "juridico"] as const) {
      const reader = await newStaff(ctx.app, ctx.database, clinic.tenantId, role);
      expect(
        (await call(reader, "POST", "/api/documents", { ...baseInput(), medico_responsavel_id: clinic.profileId }))
          .statusCode,
      ).toBe(403);
      expect((await call(reader, "GET", "/api/documents")).statusCode).toBe(200);
      expect((await call(reader, "DELETE", `/api/documents/${created.json().id}`)).statusCode).toBe(403);
    }
  });
});

describe("listing, counting and searching", () => {
  it("searches by patient, procedure, title and id; filters by status, patient, physician and period; pages with a cursor", async () => {
    const c = await newClinic(ctx.app);
    const { versionId: v } = await publishedTemplate(c);
    const maria = await patient(c, "Maria José Araújo");
    const joao = await patient(c, "João Batista");
    const make = async (paciente_id: string, titulo: string, procedimento: string) => {
      const response = await call(c, "POST", "/api/documents", {
        paciente_id,
        template_version_id: v,
        titulo,
        procedimento,
        data_procedimento: "2026-12-01",
        medico_responsavel_id: c.profileId,
        variaveis: { valor_procedimento: "R$ 1,00", riscos_personalizados: "Dor", beneficios_personalizados: "Alívio" },
      });
      expect(response.statusCode, response.body).toBe(201);
      return response.json().id as string;
    };
    const ids: string[] = [];
    for (let i = 0; i < 5; i += 1) ids.push(await make(maria, `Termo ${i}`, "Toxina botulínica"));
    const joaoDoc = await make(joao, "Consentimento implante", "Implante dentário");

    const search = async (q: string) => (await call(c, "GET", `/api/documents?q=${encodeURIComponent(q)}`)).json();
    expect((await search("maria jose")).total).toBe(5);
    expect((await search("ARAUJO")).total).toBe(5);
    expect((await search("implante")).items.map((d: { id: string }) => d.id)).toEqual([joaoDoc]);
    expect((await search("botulinica")).total).toBe(5);
    expect((await search(joaoDoc.slice(-8))).items.map((d: { id: string }) => d.id)).toEqual([joaoDoc]);
    expect((await search("100%_")).total).toBe(0);

    const byPatient = (await call(c, "GET", `/api/documents?paciente_id=${joao}`)).json();
    expect(byPatient.items.map((d: { id: string }) => d.id)).toEqual([joaoDoc]);
    expect((await call(c, "GET", `/api/documents?medico_responsavel_id=${c.profileId}`)).json().total).toBe(6);
    expect((await call(c, "GET", "/api/documents?from=2000-01-01&to=2000-12-31")).json().total).toBe(0);
    const today = new Intl.DateTimeFormat("en-CA", { timeZone: "America/Sao_Paulo" }).format(new Date());
    expect((await call(c, "GET", `/api/documents?from=${today}&to=${today}`)).json().total).toBe(6);

    const first = (await call(c, "GET", "/api/documents?limit=4")).json();
    expect(first.total).toBe(6);
    expect(first.items).toHaveLength(4);
    expect(first.items[0].id).toBe(joaoDoc);
    const second = (await call(c, "GET", `/api/documents?limit=4&cursor=${first.next_cursor}`)).json();
    expect(second.items).toHaveLength(2);
    expect(second.next_cursor).toBeNull();
    expect(new Set([...first.items, ...second.items].map((d: { id: string }) => d.id)).size).toBe(6);

    // Statuses: one sent and expired, one viewed and live, one signed, one cancelled.
    await ctx.database.db.execute(
      sql`update contratos set status = 'sent', expiracao_at = now() - interval '1 day' where id = ${ids[0]}`,
    );
    await ctx.database.db.execute(sql`update contratos set status = 'viewed' where id = ${ids[1]}`);
    await ctx.database.db.execute(sql`update contratos set status = 'signed', signed_at = now() where id = ${ids[2]}`);
    await ctx.database.db.execute(sql`update contratos set status = 'sent' where id = ${ids[3]}`);
    const counters = (await call(c, "GET", "/api/documents/counters")).json();
    expect(counters).toMatchObject({
      total: 6,
      assinados: 1,
      pendentes: 1,
      visualizados: 1,
      expirados: 1,
      criados_este_mes: 6,
      assinados_este_mes: 1,
    });
    const expired = (await call(c, "GET", "/api/documents?status=expired")).json();
    expect(expired.items.map((d: { id: string; status: string }) => [d.id, d.status])).toEqual([[ids[0], "expired"]]);
    expect((await call(c, "GET", "/api/documents?status=sent")).json().items.map((d: { id: string }) => d.id)).toEqual([
      ids[3],
    ]);

    const recent = (await call(c, "GET", "/api/documents/recent")).json().items;
    expect(recent).toHaveLength(5);
    expect(recent[0].id).toBe(joaoDoc);

    // The unfiltered total comes from the trigger-kept counter: it follows deletions.
    expect((await call(c, "DELETE", `/api/documents/${ids[4]}`)).statusCode).toBe(204);
    expect((await call(c, "GET", "/api/documents")).json().total).toBe(5);
    expect((await call(c, "GET", "/api/documents/counters")).json().total).toBe(5);

    // Another clinic sees none of it.
    expect((await call(other, "GET", "/api/documents?q=maria")).json().total).toBe(0);
    expect((await call(other, "GET", `/api/documents?paciente_id=${maria}`)).json().total).toBe(0);
  });

  it("rejects malformed list queries", async () => {
    for (const query of ["status=lost", "limit=0", "limit=1000", "from=2026-13-01", "paciente_id=x", "cursor=bad"]) {
      expect((await call(clinic, "GET", `/api/documents?${query}`)).statusCode, query).toBe(400);
    }
  });
});

describe("delete, cancel and the PDF", () => {
  it("deletes drafts, cancels sent documents with a reason, never touches signed ones", async () => {
    const make = async () => (await call(clinic, "POST", "/api/documents", baseInput())).json().id as string;
    const draft = await make();
    expect((await call(clinic, "DELETE", `/api/documents/${draft}`)).statusCode).toBe(204);
    expect((await call(clinic, "GET", `/api/documents/${draft}`)).statusCode).toBe(404);

    const sent = await make();
    await ctx.database.db.execute(sql`update contratos set status = 'sent' where id = ${sent}`);
    const notDeletable = await call(clinic, "DELETE", `/api/documents/${sent}`);
    expect(notDeletable.statusCode).toBe(409);
    expect(notDeletable.json().code).toBe("DOCUMENT_NOT_DELETABLE");
    expect((await call(clinic, "POST", `/api/documents/${sent}/cancel`, { motivo: "" })).statusCode).toBe(400);
    expect(
      (await call(clinic, "POST", `/api/documents/${sent}/cancel`, { motivo: "Paciente desistiu do procedimento" }))
        .statusCode,
    ).toBe(204);
    const cancelled = (await call(clinic, "GET", `/api/documents/${sent}`)).json();
    expect(cancelled).toMatchObject({ status: "cancelled", cancel_reason: "Paciente desistiu do procedimento" });
    expect((await call(clinic, "POST", `/api/documents/${sent}/cancel`, { motivo: "De novo" })).json().code).toBe(
      "DOCUMENT_NOT_CANCELLABLE",
    );

    const signed = await make();
    await ctx.database.db.execute(sql`update contratos set status = 'signed' where id = ${signed}`);
    expect((await call(clinic, "DELETE", `/api/documents/${signed}`)).json().code).toBe("DOCUMENT_RETAINED");
    expect((await call(clinic, "POST", `/api/documents/${signed}/cancel`, { motivo: "Tentativa" })).json().code).toBe(
      "DOCUMENT_LOCKED",
    );

    const events = await rawRows<{ action: string }>(
      ctx.database.db,
      sql`select action from audit_events where entity_id in (${draft}, ${sent}) order by created_at`,
    );
    expect(events.map((e) => e.action)).toEqual(expect.arrayContaining(["document.deleted", "document.cancelled"]));
  });

  it("downloads the PDF: A4, extractable accents, header, footer with page count, short id and hash", async () => {
    const { id } = (await call(clinic, "POST", "/api/documents", baseInput())).json();
    const response = await call(clinic, "GET", `/api/documents/${id}/pdf`);
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toBe("application/pdf");
    // The draft says it is one, in its name and across every page.
    expect(response.headers["content-disposition"]).toMatch(
      /^attachment; filename="TCLE___Blefaroplastia-rascunho_\d{8}_\d{6}\.pdf"$/,
    );
    const dir = mkdtempSync(path.join(os.tmpdir(), "consentir-pdf-"));
    const file = path.join(dir, "doc.pdf");
    writeFileSync(file, response.rawPayload);
    const text = execFileSync("pdftotext", ["-layout", file, "-"]).toString("utf8");
    const detail = (await call(clinic, "GET", `/api/documents/${id}`)).json();
    expect(detail.audit.map((e: { action: string }) => e.action)).toContain("document.pdf_downloaded");
    expect(text).toContain("Ana Luíza Conceição");
    expect(text).toContain("Blefaroplastia superior");
    expect(text).toMatch(/Página 1 de \d+/);
    const pages = pageCount(file);
    expect(pages).toBeGreaterThan(0);
    for (let page = 1; page <= pages; page++)
      expect(diagonalChars(file, page), `page ${page}`).toBe(sortedChars("RASCUNHO – sem validade"));
    expect(text).toContain(`#${id.slice(-8)}`);
    expect(text.replace(/\s+/g, "")).toContain(detail.conteudo_sha256);
    const info = execFileSync("pdfinfo", [file]).toString("utf8");
    expect(info).toMatch(/Page size:\s+595\.\d* x 841\.\d* pts \(A4\)/);
  });

  it("says 'Erro ao processar template do documento' when the frozen content cannot be drawn", async () => {
    const { id } = (await call(clinic, "POST", "/api/documents", baseInput())).json();
    await ctx.database.db.execute(sql`update contratos set documento = '{"titulo": 1}'::jsonb where id = ${id}`);
    const answer = await call(clinic, "POST", `/api/documents/${id}/pdf`);
    expect(answer.statusCode).toBe(422);
    expect(answer.json().message).toBe("Erro ao processar template do documento");
  });

  it("answers 404 for another clinic's document on every route, and 400 for malformed ids", async () => {
    const { id } = (await call(clinic, "POST", "/api/documents", baseInput())).json();
    const routes: ["GET" | "POST" | "DELETE", string, unknown?][] = [
      ["GET", `/api/documents/${id}`],
      ["GET", `/api/documents/${id}/pdf`],
      ["POST", `/api/documents/${id}/pdf`],
      ["POST", `/api/documents/${id}/cancel`, { motivo: "Motivo qualquer" }],
      ["DELETE", `/api/documents/${id}`],
    ];
    for (const [method, url, body] of routes) {
      const answer = await call(other, method, url, body);
      expect(answer.statusCode, `${method} ${url}`).toBe(404);
      // The PDF paths speak of the contract (spec part 1 §5 PDF generation).
      if (url.endsWith("/pdf")) expect(answer.json().message).toBe("Contrato não encontrado");
    }
    expect((await call(clinic, "GET", "/api/documents/nao-e-uuid")).statusCode).toBe(400);
    expect((await call(null, "GET", `/api/documents/${id}`)).statusCode).toBe(401);
    // Still there for its own clinic.
    expect((await call(clinic, "GET", `/api/documents/${id}`)).statusCode).toBe(200);
  });
});
