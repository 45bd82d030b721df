/**
 * The teleconsultation sample asks for the audio of the agreement by default (decision 069, CFM
 * Res. 2.314/2022): a template saved from it keeps `estrutura.pedir_audio`, the new-document
 * options carry it for the form to come ticked, and a document created without saying
 * `pedir_audio` takes it from the template version; saying `false` unticks it. Other templates
 * stay as they were (no key, same hash).
 */
import { and, asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditEvents, contratos, templateVersions } from "../../src/db/schema.js";
import { SAMPLE_TELECONSULT_TEMPLATE } from "../../src/shared/document-model/sample-teleconsult-template.js";
import { newClinic, type SignedIn } from "../helpers/sessions.js";
import { publishedTemplateVersion, signingPatient, tokenOf } from "../helpers/signing.js";
import { createTestApp, type TestContext } from "../helpers/test-app.js";

let ctx: TestContext;
let clinic: SignedIn;

const call = (method: "GET" | "POST" | "PUT", url: string, payload?: unknown, who: SignedIn = clinic) =>
  ctx.app.inject({ method, url, payload: payload as object, headers: { cookie: who.cookie } });

/** A template saved from `estrutura` (as "Novo template" sends it) and published: its version id. */
async function publish(titulo: string, estrutura: unknown): Promise<{ templateId: string; versionId: string }> {
  const specialties = (await call("GET", "/api/templates/specialties")).json().items as string[];
  const created = await call("POST", "/api/templates", {
    titulo,
    especialidade: specialties[0],
    categoria: "Consentimento",
    estrutura,
  });
  expect(created.statusCode, created.body).toBe(201);
  const published = await call("POST", `/api/templates/${created.json().id}/status`, { status: "published" });
  expect(published.statusCode, published.body).toBe(200);
  return { templateId: created.json().id as string, versionId: published.json().versao_atual_id as string };
}

async function create(versionId: string, extra: Record<string, unknown> = {}) {
  const patient = await signingPatient(ctx.app, clinic);
  const response = await call("POST", "/api/documents", {
    paciente_id: patient.id,
    template_version_id: versionId,
    titulo: "TCLE para teleconsulta",
    data_procedimento: "2026-12-04",
    medico_responsavel_id: clinic.profileId,
    permitir_pendencias: true,
    ...extra,
  });
  expect(response.statusCode, response.body).toBe(201);
  const id = response.json().id as string;
  const [row] = await ctx.database.db
    .select({ pedir_audio: contratos.pedir_audio })
    .from(contratos)
    .where(eq(contratos.id, id));
  const [createdEvent] = await ctx.database.db
    .select({ data: auditEvents.data })
    .from(auditEvents)
    .where(
      and(
        eq(auditEvents.entity_type, "contrato"),
        eq(auditEvents.entity_id, id),
        eq(auditEvents.action, "document.created"),
      ),
    )
    .orderBy(asc(auditEvents.seq));
  return { id, patient, pedirAudio: row!.pedir_audio, createdData: createdEvent!.data as Record<string, unknown> };
}

beforeAll(async () => {
  ctx = await createTestApp();
  clinic = await newClinic(ctx.app);
  expect((await call("PUT", "/api/settings/signing", { codigo_email: false })).statusCode).toBe(200);
}, 120_000);
afterAll(async () => {
  await ctx.close();
});

describe("teleconsultation template asks for the audio by default (decision 069)", () => {
  it("keeps the flag on the version, offers it to the form, and defaults the document to it; false unticks it; a new version may drop it", async () => {
    const tele = await publish(SAMPLE_TELECONSULT_TEMPLATE.titulo, SAMPLE_TELECONSULT_TEMPLATE.estrutura);
    const [version] = await ctx.database.db
      .select({ estrutura: templateVersions.variaveis_json })
      .from(templateVersions)
      .where(eq(templateVersions.id, tele.versionId));
    expect((version!.estrutura as { pedir_audio?: boolean }).pedir_audio).toBe(true);
    expect((await call("GET", `/api/templates/${tele.templateId}`)).json().estrutura.pedir_audio).toBe(true);

    // The new-document screen gets it, so its box comes ticked.
    const options = (await call("GET", "/api/documents/form-options")).json();
    const offered = options.templates.find(
      (t: { template_version_id: string }) => t.template_version_id === tele.versionId,
    );
    expect(offered.estrutura.pedir_audio).toBe(true);

    // Not said: the template's default; the creation event says the audio was asked.
    const byDefault = await create(tele.versionId);
    expect(byDefault.pedirAudio).toBe(true);
    expect(byDefault.createdData.pedir_audio).toBe(true);
    // The signing page asks the patient for it.
    expect(
      (await call("POST", `/api/documents/${byDefault.id}/professional-signature`, { senha: clinic.password }))
        .statusCode,
    ).toBe(200);
    const sent = await call("POST", `/api/documents/${byDefault.id}/send`, {});
    expect(sent.statusCode, sent.body).toBe(200);
    const page = await ctx.app.inject({ method: "GET", url: `/api/public/sign/${tokenOf(sent.json().link)}` });
    expect(page.json().audio).toMatchObject({ frase: expect.stringContaining(byDefault.patient.nome) });

    // Unticked on the form: not asked.
    const unticked = await create(tele.versionId, { pedir_audio: false });
    expect(unticked.pedirAudio).toBe(false);
    expect(unticked.createdData).not.toHaveProperty("pedir_audio");

    // The clinic edits the template and drops the default: the new published version has no flag,
    // the form gets none, and documents from it are not asked; the old version keeps its own.
    const { pedir_audio: _on, ...withoutFlag } = SAMPLE_TELECONSULT_TEMPLATE.estrutura;
    const specialties = (await call("GET", "/api/templates/specialties")).json().items as string[];
    const edited = await call("PUT", `/api/templates/${tele.templateId}`, {
      titulo: SAMPLE_TELECONSULT_TEMPLATE.titulo,
      especialidade: specialties[0],
      categoria: "Consentimento",
      estrutura: withoutFlag,
    });
    expect(edited.statusCode, edited.body).toBe(200);
    const newVersionId = edited.json().versao_atual_id as string;
    expect(newVersionId).not.toBe(tele.versionId);
    const after = (await call("GET", "/api/documents/form-options")).json();
    const offeredNow = after.templates.find((t: { template_id: string }) => t.template_id === tele.templateId);
    expect(offeredNow.template_version_id).toBe(newVersionId);
    expect(offeredNow.estrutura).not.toHaveProperty("pedir_audio");
    expect((await create(newVersionId)).pedirAudio).toBe(false);
    expect((await create(tele.versionId)).pedirAudio).toBe(true);
  });

  it("leaves other templates without the flag (same content, same hash); ticking still asks; a bad value is a 400", async () => {
    const plainVersion = await publishedTemplateVersion(ctx.app, clinic);
    const [plain] = await ctx.database.db
      .select({ estrutura: templateVersions.variaveis_json })
      .from(templateVersions)
      .where(eq(templateVersions.id, plainVersion));
    expect(plain!.estrutura).not.toHaveProperty("pedir_audio");
    expect((await create(plainVersion)).pedirAudio).toBe(false);
    expect((await create(plainVersion, { pedir_audio: true })).pedirAudio).toBe(true);

    // `false` sent by an editor is stored as no key: the version's hash is the one it had without it.
    const withFalse = await publish("Sem áudio", { ...SAMPLE_TELECONSULT_TEMPLATE.estrutura, pedir_audio: false });
    const { pedir_audio: _on, ...withoutKey } = SAMPLE_TELECONSULT_TEMPLATE.estrutura;
    const withoutKeyTemplate = await publish("Sem chave", withoutKey);
    const hashes = await ctx.database.db
      .select({
        id: templateVersions.id,
        hash: templateVersions.hash_modelo,
        estrutura: templateVersions.variaveis_json,
      })
      .from(templateVersions)
      .where(eq(templateVersions.tenant_id, clinic.tenantId));
    const hashOf = (id: string) => hashes.find((h) => h.id === id)!;
    expect(hashOf(withFalse.versionId).estrutura).not.toHaveProperty("pedir_audio");
    expect(hashOf(withFalse.versionId).hash).toBe(hashOf(withoutKeyTemplate.versionId).hash);
    expect((await create(withFalse.versionId)).pedirAudio).toBe(false);

    // A bad value is a 400 in pt-BR, nothing saved.
    const specialties = (await call("GET", "/api/templates/specialties")).json().items as string[];
    const bad = await call("POST", "/api/templates", {
      titulo: "Ruim",
      especialidade: specialties[0],
      categoria: "Consentimento",
      estrutura: { ...withoutKey, pedir_audio: "sim" },
    });
    expect(bad.statusCode, bad.body).toBe(400);
    expect(bad.body).toContain("Valor inválido");
  });
});
