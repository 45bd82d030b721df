import { createHash } from "node:crypto";
import canonicalize from "canonicalize";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rawRows } from "../../src/db/raw.js";
import { templates, templateVersions } from "../../src/db/schema.js";
import { dateInSaoPaulo, startOfDayInSaoPaulo, startOfMonthInSaoPaulo } from "../../src/shared/dates/sao-paulo.js";
import { TEMPLATE_MESSAGES } from "../../src/shared/schemas/template.js";
import { insertDocument, insertPatient } from "../helpers/documents.js";
import { newClinic, newStaff, type SignedIn } from "../helpers/sessions.js";
import { createTestApp, type TestContext } from "../helpers/test-app.js";

let ctx: TestContext;
let clinic: SignedIn;
let other: SignedIn;

beforeAll(async () => {
  ctx = await createTestApp();
  clinic = await newClinic(ctx.app);
  other = await newClinic(ctx.app);
});
afterAll(async () => {
  await ctx.close();
});

const call = (who: SignedIn | null, method: "GET" | "POST" | "PUT" | "DELETE", url: string, payload?: unknown) =>
  ctx.app.inject({ method, url, payload: payload as object, headers: who ? { cookie: who.cookie } : {} });

/** The owner made by newClinic is a CRM professional in dermatologia. */
const SPECIALTY = "Dermatologia";

function structure(overrides: Record<string, unknown> = {}) {
  return {
    title: "Termo de Consentimento - {{procedimento}}",
    introduction: "Eu, {{paciente_nome}}, declaro que fui informado(a).",
    sections: [
      {
        id: "s1",
        type: "paragraph",
        title: "Procedimento",
        content: "O(a) {{ profissional_nome }} realizará {{procedimento}}.",
        variables: ["forjada"],
      },
      { id: 1700000000000, type: "bullet_list", title: "Riscos", content: "{{riscos}}\nDor\n{{procedimento}}" },
      { id: "s3", type: "signature", title: "Assinaturas", content: "" },
    ],
    ...overrides,
  };
}

function templateBody(overrides: Record<string, unknown> = {}) {
  return {
    titulo: "Toxina Botulínica",
    especialidade: SPECIALTY,
    categoria: "Consentimento",
    estrutura: structure(),
    ...overrides,
  };
}

async function create(who: SignedIn, overrides: Record<string, unknown> = {}) {
  const response = await call(who, "POST", "/api/templates", templateBody(overrides));
  expect(response.statusCode, response.body).toBe(201);
  return response.json();
}

async function versionsOf(who: SignedIn, id: string) {
  const response = await call(who, "GET", `/api/templates/${id}/versions`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json().items as {
    id: string;
    version_number: number;
    changelog: string;
    hash_modelo: string;
    published_at: string | null;
    publicador_nome: string | null;
    atual: boolean;
  }[];
}

/** SHA-256 hex of the RFC 8785 canonical JSON, computed here independently of the server. */
const sha256OfCanonical = (value: unknown) =>
  createHash("sha256")
    .update(canonicalize(value) ?? "")
    .digest("hex");

async function auditActions(entityId: string): Promise<string[]> {
  const rows = await rawRows<{ action: string }>(
    ctx.database.db,
    sql`select action from audit_events where entity_id = ${entityId} order by created_at, id`,
  );
  return rows.map((r) => r.action);
}

describe("templates: create, edit, versions", () => {
  it("creates a draft with version 1, recomputing section variables on the server", async () => {
    const created = await create(clinic, { titulo: "  Toxina Botulínica  " });
    expect(created).toMatchObject({
      titulo: "Toxina Botulínica",
      especialidade: SPECIALTY,
      categoria: "Consentimento",
      status: "draft",
      created_by: clinic.profileId,
      criador_nome: "Dra. Helena Martins Prado",
      versao_atual: 1,
      usos: 0,
    });
    expect(created.estrutura.sections.map((s: { id: string; variables: string[] }) => [s.id, s.variables])).toEqual([
      ["s1", ["profissional_nome", "procedimento"]],
      ["1700000000000", ["riscos", "procedimento"]],
      ["s3", []],
    ]);
    expect(created.hash_modelo).toBe(sha256OfCanonical(created.estrutura));
    expect(created.hash_modelo).toMatch(/^[0-9a-f]{64}$/);
    expect((await call(clinic, "GET", `/api/templates/${created.id}`)).json()).toEqual(created);

    const [stored] = await rawRows<{ conteudo_html: string; variaveis_json: unknown; published_at: string | null }>(
      ctx.database.db,
      sql`select conteudo_html, variaveis_json, published_at from template_versions where template_id = ${created.id}`,
    );
    expect(stored?.variaveis_json).toEqual(created.estrutura);
    expect(JSON.parse(stored?.conteudo_html ?? "null")).toEqual(created.estrutura);
    expect(stored?.published_at).toBeNull();
  });

  it("always adds an immutable version on save: numbers, changelogs and content hashes", async () => {
    const created = await create(clinic);
    const edited = await call(
      clinic,
      "PUT",
      `/api/templates/${created.id}`,
      templateBody({
        titulo: "Toxina Botulínica (revisado)",
        categoria: "Clínicos",
        estrutura: structure({ introduction: "Texto novo para {{paciente_nome}}." }),
      }),
    );
    expect(edited.statusCode, edited.body).toBe(200);
    const detail = edited.json();
    expect(detail).toMatchObject({
      titulo: "Toxina Botulínica (revisado)",
      categoria: "Clínicos",
      status: "draft",
      versao_atual: 2,
    });
    expect(detail.estrutura.introduction).toBe("Texto novo para {{paciente_nome}}.");
    expect(Date.parse(detail.updated_at)).toBeGreaterThanOrEqual(Date.parse(created.updated_at));

    const versions = await versionsOf(clinic, created.id);
    expect(versions.map((v) => [v.version_number, v.changelog, v.atual])).toEqual([
      [2, TEMPLATE_MESSAGES.changelogUpdated, true],
      [1, TEMPLATE_MESSAGES.changelogCreated, false],
    ]);
    expect(versions[1]?.hash_modelo).toBe(created.hash_modelo);
    expect(versions[0]?.hash_modelo).toBe(detail.hash_modelo);
    expect(versions[0]?.hash_modelo).toBe(sha256OfCanonical(detail.estrutura));
    expect(versions[0]?.hash_modelo).not.toBe(versions[1]?.hash_modelo);
    expect(versions[0]?.id).toBe(detail.versao_atual_id);

    // Saving the same content again still makes a version, with the same hash.
    await call(
      clinic,
      "PUT",
      `/api/templates/${created.id}`,
      templateBody({
        titulo: "Toxina Botulínica (revisado)",
        categoria: "Clínicos",
        estrutura: structure({ introduction: "Texto novo para {{paciente_nome}}." }),
      }),
    );
    const again = await versionsOf(clinic, created.id);
    expect(again.map((v) => v.version_number)).toEqual([3, 2, 1]);
    expect(again[0]?.hash_modelo).toBe(again[1]?.hash_modelo);

    // Version 1 still holds the original content: versions are never rewritten.
    const [v1] = await rawRows<{ variaveis_json: unknown }>(
      ctx.database.db,
      sql`select variaveis_json from template_versions where template_id = ${created.id} and version_number = 1`,
    );
    expect(v1?.variaveis_json).toEqual(created.estrutura);
    expect(await auditActions(created.id)).toEqual(["template.created", "template.updated", "template.updated"]);
  });

  it("numbers two concurrent saves 2 and 3", async () => {
    const created = await create(clinic);
    const [a, b] = await Promise.all([
      call(clinic, "PUT", `/api/templates/${created.id}`, templateBody({ titulo: "Primeira" })),
      call(clinic, "PUT", `/api/templates/${created.id}`, templateBody({ titulo: "Segunda" })),
    ]);
    expect([a.statusCode, b.statusCode], `${a.body} ${b.body}`).toEqual([200, 200]);
    expect([a.json().versao_atual, b.json().versao_atual].sort()).toEqual([2, 3]);
    expect((await versionsOf(clinic, created.id)).map((v) => v.version_number)).toEqual([3, 2, 1]);
  });

  it("shows an old or invalid stored structure as an empty template with the title", async () => {
    const [row] = await ctx.database.db
      .insert(templates)
      .values({
        tenant_id: clinic.tenantId,
        titulo: "Modelo Antigo",
        especialidade: SPECIALTY,
        categoria: "Éticos",
        created_by: clinic.profileId,
      })
      .returning();
    if (!row) throw new Error("no template");
    await ctx.database.db.insert(templateVersions).values({
      tenant_id: clinic.tenantId,
      template_id: row.id,
      version_number: 1,
      conteudo_html: JSON.stringify({ blocos: [1, 2] }),
      variaveis_json: { blocos: [1, 2] } as never,
      changelog: "legado",
      hash_modelo: "legado",
    });
    const response = await call(clinic, "GET", `/api/templates/${row.id}`);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({
      titulo: "Modelo Antigo",
      versao_atual: 1,
      estrutura: { title: "Modelo Antigo", introduction: "", sections: [] },
    });

    // Legacy text that is not JSON becomes one paragraph; a template without versions is empty.
    const [legacy] = await ctx.database.db
      .insert(templates)
      .values({ tenant_id: clinic.tenantId, titulo: "Texto Livre", especialidade: SPECIALTY, categoria: "Éticos" })
      .returning();
    if (!legacy) throw new Error("no template");
    await ctx.database.db.insert(templateVersions).values({
      tenant_id: clinic.tenantId,
      template_id: legacy.id,
      version_number: 1,
      conteudo_html: "<p>Declaro estar ciente.</p>",
      variaveis_json: "não é uma estrutura" as never,
      changelog: "legado",
      hash_modelo: "legado",
    });
    const legacyDetail = (await call(clinic, "GET", `/api/templates/${legacy.id}`)).json();
    expect(legacyDetail.estrutura).toEqual({
      title: "Texto Livre",
      introduction: "",
      sections: [{ id: "secao-1", type: "paragraph", title: "", content: "<p>Declaro estar ciente.</p>" }],
    });
    expect(legacyDetail.criador_nome).toBeNull();

    const [bare] = await ctx.database.db
      .insert(templates)
      .values({
        tenant_id: clinic.tenantId,
        titulo: "Sem Versão",
        especialidade: SPECIALTY,
        categoria: "Éticos",
        status: "arquivado" as never,
      })
      .returning();
    const bareDetail = (await call(clinic, "GET", `/api/templates/${bare?.id}`)).json();
    expect(bareDetail).toMatchObject({
      status: "draft",
      versao_atual: null,
      versao_atual_id: null,
      hash_modelo: null,
      estrutura: { title: "Sem Versão", introduction: "", sections: [] },
    });
  });
});

describe("templates: list, search, paging, stats", () => {
  it("lists newest first with creator, current version and uses across all versions", async () => {
    const owner = await newClinic(ctx.app);
    const first = await create(owner, { titulo: "Blefaroplastia Superior", categoria: "Consentimento" });
    const second = await create(owner, { titulo: "Contrato de Prestação de Serviços", categoria: "Contratos" });
    const third = await create(owner, { titulo: "Código de Conduta", categoria: "Éticos" });
    await call(owner, "PUT", `/api/templates/${first.id}`, templateBody({ titulo: "Blefaroplastia Superior" }));
    const firstVersions = await versionsOf(owner, first.id);
    const patient = await insertPatient(ctx.database, owner.tenantId);
    for (const version of firstVersions) {
      await insertDocument(ctx.database, {
        tenantId: owner.tenantId,
        pacienteId: patient,
        templateVersionId: version.id,
      });
    }
    await insertDocument(ctx.database, {
      tenantId: owner.tenantId,
      pacienteId: patient,
      templateVersionId: firstVersions[0]?.id ?? "",
    });
    const staff = await newStaff(ctx.app, ctx.database, owner.tenantId, "admin");
    const byStaff = await create(staff, { titulo: "Termo da Secretaria", categoria: "Administrativos" });

    const list = await call(owner, "GET", "/api/templates");
    expect(list.statusCode, list.body).toBe(200);
    const body = list.json();
    expect(body.total).toBe(4);
    expect(body.next_cursor).toBeNull();
    expect(body.items.map((t: { id: string }) => t.id)).toEqual([byStaff.id, third.id, second.id, first.id]);
    const byId = Object.fromEntries(body.items.map((t: { id: string }) => [t.id, t]));
    expect(byId[first.id]).toMatchObject({ versao_atual: 2, usos: 3, criador_nome: "Dra. Helena Martins Prado" });
    expect(byId[second.id]).toMatchObject({ versao_atual: 1, usos: 0 });
    expect(byId[byStaff.id]).toMatchObject({ criador_nome: "Equipe admin", created_by: staff.profileId });

    // Another clinic sees none of it.
    expect((await call(other, "GET", "/api/templates?q=blefaroplastia")).json()).toMatchObject({ items: [], total: 0 });
  });

  it("searches title, specialty and category ignoring case and accents; filters by status", async () => {
    const owner = await newClinic(ctx.app);
    const a = await create(owner, { titulo: "Cirurgia Plástica de Nariz", categoria: "Consentimento" });
    const b = await create(owner, { titulo: "Código de Ética", categoria: "Éticos" });
    const c = await create(owner, { titulo: "Peeling 100% seguro", categoria: "Clínicos" });
    const ids = async (query: string) => {
      const response = await call(owner, "GET", `/api/templates?${query}`);
      expect(response.statusCode, response.body).toBe(200);
      return response.json() as { items: { id: string }[]; total: number };
    };
    expect((await ids("q=CIRURGIA%20PLASTICA")).items.map((t) => t.id)).toEqual([a.id]);
    expect((await ids("q=eticos")).items.map((t) => t.id)).toEqual([b.id]);
    expect((await ids("q=c%C3%B3digo")).items.map((t) => t.id)).toEqual([b.id]);
    expect((await ids("q=dermato")).total).toBe(3);
    expect((await ids("q=clinicos")).items.map((t) => t.id)).toEqual([c.id]);
    expect((await ids("q=%25")).items.map((t) => t.id)).toEqual([c.id]);
    expect((await ids("q=_")).total).toBe(0);
    expect((await ids("q=inexistente")).total).toBe(0);

    await call(owner, "POST", `/api/templates/${b.id}/status`, { status: "review" });
    expect((await ids("status=review")).items.map((t) => t.id)).toEqual([b.id]);
    expect((await ids("status=draft")).total).toBe(2);
    expect((await ids("status=published&q=codigo")).total).toBe(0);
    expect((await call(owner, "GET", "/api/templates?status=arquivado")).statusCode).toBe(400);
  });

  it("pages with a cursor, keeping the total, even within one millisecond", async () => {
    const owner = await newClinic(ctx.app);
    // Three templates created in the same millisecond (microseconds apart), plus one later.
    const rows = await ctx.database.db
      .insert(templates)
      .values(
        ["123100", "123400", "123700"].map((micros, i) => ({
          tenant_id: owner.tenantId,
          titulo: `Modelo ${i + 1}`,
          especialidade: SPECIALTY,
          categoria: "Consentimento",
          created_at: sql`${`2026-01-10T12:00:00.${micros}Z`}::timestamptz` as never,
        })),
      )
      .returning({ id: templates.id, titulo: templates.titulo });
    const latest = await create(owner, { titulo: "Modelo Novo" });
    const expected = [latest.id, ...[...rows].reverse().map((r) => r.id)];

    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const url: string = `/api/templates?limit=1${cursor ? `&cursor=${cursor}` : ""}`;
      const response = await call(owner, "GET", url);
      expect(response.statusCode, response.body).toBe(200);
      const page = response.json();
      expect(page.total).toBe(4);
      seen.push(...page.items.map((t: { id: string }) => t.id));
      cursor = page.next_cursor;
      pages += 1;
    } while (cursor && pages < 10);
    expect(seen).toEqual(expected);

    const searched = await call(owner, "GET", "/api/templates?q=modelo&limit=3");
    expect(searched.json().items).toHaveLength(3);
    expect(searched.json().total).toBe(4);
    const rest = await call(owner, "GET", `/api/templates?q=modelo&limit=3&cursor=${searched.json().next_cursor}`);
    expect(rest.json().items.map((t: { id: string }) => t.id)).toEqual([expected[3]]);
    expect(rest.json().next_cursor).toBeNull();

    expect((await call(owner, "GET", "/api/templates?cursor=bad")).statusCode).toBe(400);
    expect((await call(owner, "GET", "/api/templates?limit=0")).statusCode).toBe(400);
  });

  it("counts the whole clinic's templates by status", async () => {
    const owner = await newClinic(ctx.app);
    const empty = await call(owner, "GET", "/api/templates/stats");
    expect(empty.json()).toEqual({ total: 0, publicados: 0, em_revisao: 0, rascunhos: 0 });
    const a = await create(owner);
    const b = await create(owner);
    await create(owner);
    await create(owner);
    await call(owner, "POST", `/api/templates/${a.id}/status`, { status: "published" });
    await call(owner, "POST", `/api/templates/${b.id}/status`, { status: "review" });
    expect((await call(owner, "GET", "/api/templates/stats")).json()).toEqual({
      total: 4,
      publicados: 1,
      em_revisao: 1,
      rascunhos: 2,
    });
    // The search does not change the cards.
    expect((await call(owner, "GET", "/api/templates/stats?q=xyz")).json().total).toBe(4);
  });
});

describe("templates: duplicate and delete", () => {
  it("duplicates as a draft copy with version 1 holding the source's current content", async () => {
    const source = await create(clinic, { titulo: "Rinoplastia", categoria: "Clínicos" });
    await call(clinic, "POST", `/api/templates/${source.id}/status`, { status: "published" });
    const edited = (
      await call(
        clinic,
        "PUT",
        `/api/templates/${source.id}`,
        templateBody({
          titulo: "Rinoplastia",
          categoria: "Clínicos",
          estrutura: structure({ introduction: "Versão 2." }),
        }),
      )
    ).json();

    const response = await call(clinic, "POST", `/api/templates/${source.id}/duplicate`);
    expect(response.statusCode, response.body).toBe(201);
    const copy = response.json();
    expect(copy).toMatchObject({
      titulo: "Rinoplastia (Cópia)",
      especialidade: SPECIALTY,
      categoria: "Clínicos",
      status: "draft",
      versao_atual: 1,
      usos: 0,
      created_by: clinic.profileId,
    });
    expect(copy.id).not.toBe(source.id);
    expect(copy.estrutura).toEqual(edited.estrutura);
    expect(copy.hash_modelo).toBe(edited.hash_modelo);
    const versions = await versionsOf(clinic, copy.id);
    expect(versions).toHaveLength(1);
    expect(versions[0]).toMatchObject({
      version_number: 1,
      changelog: "Template duplicado",
      published_at: null,
      atual: true,
    });
    expect(await auditActions(copy.id)).toEqual(["template.duplicated"]);
  });

  it("refuses to delete a template any version of which a document uses, and deletes otherwise", async () => {
    const used = await create(clinic, { titulo: "Em Uso" });
    await call(clinic, "PUT", `/api/templates/${used.id}`, templateBody({ titulo: "Em Uso" }));
    const [v2, v1] = await versionsOf(clinic, used.id);
    const patient = await insertPatient(ctx.database, clinic.tenantId);
    await insertDocument(ctx.database, {
      tenantId: clinic.tenantId,
      pacienteId: patient,
      templateVersionId: v1?.id ?? "",
    });
    await insertDocument(ctx.database, {
      tenantId: clinic.tenantId,
      pacienteId: patient,
      templateVersionId: v2?.id ?? "",
    });

    const blocked = await call(clinic, "DELETE", `/api/templates/${used.id}`);
    expect(blocked.statusCode).toBe(409);
    expect(blocked.json()).toEqual({
      code: "TEMPLATE_IN_USE",
      message: "Este template está sendo usado em 2 contrato(s). Não é possível excluí-lo.",
      details: { count: 2 },
    });
    expect((await call(clinic, "GET", `/api/templates/${used.id}`)).statusCode).toBe(200);

    const unused = await create(clinic, { titulo: "Sem Uso" });
    await call(clinic, "PUT", `/api/templates/${unused.id}`, templateBody({ titulo: "Sem Uso" }));
    const deleted = await call(clinic, "DELETE", `/api/templates/${unused.id}`);
    expect(deleted.statusCode, deleted.body).toBe(204);
    expect((await call(clinic, "GET", `/api/templates/${unused.id}`)).statusCode).toBe(404);
    const left = await rawRows<{ n: number }>(
      ctx.database.db,
      sql`select count(*)::int as n from template_versions where template_id = ${unused.id}`,
    );
    expect(left[0]?.n).toBe(0);
    expect(await auditActions(unused.id)).toEqual(["template.created", "template.updated", "template.deleted"]);
  });
});

describe("templates: status workflow", () => {
  it("follows the allowed transitions and stamps the published version", async () => {
    const created = await create(clinic, { titulo: "Fluxo de Status" });
    const toReview = await call(clinic, "POST", `/api/templates/${created.id}/status`, { status: "review" });
    expect(toReview.statusCode, toReview.body).toBe(200);
    expect(toReview.json().status).toBe("review");

    const same = await call(clinic, "POST", `/api/templates/${created.id}/status`, { status: "review" });
    expect(same.statusCode).toBe(409);
    expect(same.json()).toMatchObject({
      code: "TEMPLATE_INVALID_TRANSITION",
      message: "Esta mudança de status não é permitida",
    });
    expect((await versionsOf(clinic, created.id))[0]?.published_at).toBeNull();

    const published = await call(clinic, "POST", `/api/templates/${created.id}/status`, { status: "published" });
    expect(published.statusCode, published.body).toBe(200);
    expect(published.json().status).toBe("published");
    const [v1] = await versionsOf(clinic, created.id);
    expect(v1?.published_at).not.toBeNull();
    expect(v1?.publicador_nome).toBe("Dra. Helena Martins Prado");
    const [stamp] = await rawRows<{ published_by: string }>(
      ctx.database.db,
      sql`select published_by from template_versions where id = ${v1?.id}`,
    );
    expect(stamp?.published_by).toBe(clinic.profileId);

    expect((await call(clinic, "POST", `/api/templates/${created.id}/status`, { status: "review" })).statusCode).toBe(
      409,
    );
    expect(
      (await call(clinic, "POST", `/api/templates/${created.id}/status`, { status: "arquivado" })).statusCode,
    ).toBe(400);
    expect((await call(clinic, "POST", `/api/templates/${created.id}/status`, { status: "draft" })).json().status).toBe(
      "draft",
    );
    // Back to draft and published again: the version keeps its first stamp.
    await call(clinic, "POST", `/api/templates/${created.id}/status`, { status: "published" });
    expect((await versionsOf(clinic, created.id))[0]?.published_at).toBe(v1?.published_at);
    expect(await auditActions(created.id)).toEqual([
      "template.created",
      "template.status_changed",
      "template.status_changed",
      "template.status_changed",
      "template.status_changed",
    ]);
  });

  it("editing a published template publishes the new version when the editor may publish, else sends it to review", async () => {
    const created = await create(clinic, { titulo: "Publicado e Editado" });
    await call(clinic, "POST", `/api/templates/${created.id}/status`, { status: "published" });

    const byPublisher = await call(
      clinic,
      "PUT",
      `/api/templates/${created.id}`,
      templateBody({ titulo: "Publicado e Editado" }),
    );
    expect(byPublisher.json().status).toBe("published");
    const afterPublisher = await versionsOf(clinic, created.id);
    expect(afterPublisher[0]).toMatchObject({ version_number: 2, publicador_nome: "Dra. Helena Martins Prado" });
    expect(afterPublisher[0]?.published_at).not.toBeNull();

    const proSaude = await newStaff(ctx.app, ctx.database, clinic.tenantId, "pro_saude");
    const byAuthor = await call(
      proSaude,
      "PUT",
      `/api/templates/${created.id}`,
      templateBody({ titulo: "Publicado e Editado" }),
    );
    expect(byAuthor.statusCode, byAuthor.body).toBe(200);
    expect(byAuthor.json().status).toBe("review");
    const afterAuthor = await versionsOf(clinic, created.id);
    expect(afterAuthor[0]).toMatchObject({ version_number: 3, published_at: null, publicador_nome: null });
    expect(afterAuthor[1]?.published_at).not.toBeNull();

    // pro_saude may not publish; the owner may, which stamps version 3.
    expect(
      (await call(proSaude, "POST", `/api/templates/${created.id}/status`, { status: "published" })).statusCode,
    ).toBe(403);
    await call(clinic, "POST", `/api/templates/${created.id}/status`, { status: "published" });
    expect((await versionsOf(clinic, created.id))[0]?.published_at).not.toBeNull();
  });
});

describe("templates: usage statistics", () => {
  /** 'YYYY-MM' `offset` months from the current São Paulo month. */
  function monthFromNow(now: Date, offset: number): string {
    const [y, m] = dateInSaoPaulo(now).split("-").map(Number) as [number, number];
    const index = y * 12 + (m - 1) + offset;
    return `${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, "0")}`;
  }

  it("counts the documents of every version in the windows, by status and over six months", async () => {
    const owner = await newClinic(ctx.app);
    const created = await create(owner, { titulo: "Estatísticas" });
    const empty = (await call(owner, "GET", `/api/templates/${created.id}/statistics`)).json();
    expect(empty).toMatchObject({
      total: 0,
      este_mes: 0,
      ultimos_30_dias: 0,
      primeiro_uso: null,
      ultimo_uso: null,
      por_status: [],
    });
    expect(empty.por_mes.map((m: { total: number }) => m.total)).toEqual([0, 0, 0, 0, 0, 0]);

    await call(owner, "PUT", `/api/templates/${created.id}`, templateBody({ titulo: "Estatísticas" }));
    const [v2, v1] = await versionsOf(owner, created.id);
    const patient = await insertPatient(ctx.database, owner.tenantId);
    const now = new Date();
    const justNow = new Date(now.getTime() - 1000);
    const twentyDaysAgo = new Date(now.getTime() - 20 * 24 * 3600 * 1000);
    const fiveMonthsAgo = new Date(startOfDayInSaoPaulo(`${monthFromNow(now, -5)}-15`).getTime() + 12 * 3600 * 1000);
    const eightMonthsAgo = new Date(startOfDayInSaoPaulo(`${monthFromNow(now, -8)}-15`).getTime() + 12 * 3600 * 1000);
    const docs: [Date, "signed" | "sent" | "draft", string | undefined][] = [
      [justNow, "signed", v2?.id],
      [twentyDaysAgo, "sent", v1?.id],
      [fiveMonthsAgo, "signed", v1?.id],
      [eightMonthsAgo, "draft", v1?.id],
    ];
    for (const [createdAt, status, version] of docs) {
      await insertDocument(ctx.database, {
        tenantId: owner.tenantId,
        pacienteId: patient,
        templateVersionId: version ?? "",
        status,
        createdAt,
      });
    }
    // Another template's document does not count.
    const otherTemplate = await create(owner, { titulo: "Outro" });
    await insertDocument(ctx.database, {
      tenantId: owner.tenantId,
      pacienteId: patient,
      templateVersionId: otherTemplate.versao_atual_id,
    });

    const response = await call(owner, "GET", `/api/templates/${created.id}/statistics`);
    expect(response.statusCode, response.body).toBe(200);
    const stats = response.json();
    const monthStart = startOfMonthInSaoPaulo(now);
    expect(stats.total).toBe(4);
    expect(stats.ultimos_30_dias).toBe(2);
    expect(stats.este_mes).toBe([justNow, twentyDaysAgo].filter((d) => d >= monthStart).length);
    expect(stats.primeiro_uso).toBe(eightMonthsAgo.toISOString());
    expect(stats.ultimo_uso).toBe(justNow.toISOString());
    expect(stats.por_status).toEqual([
      { status: "draft", total: 1 },
      { status: "sent", total: 1 },
      { status: "signed", total: 2 },
    ]);
    const months = [-5, -4, -3, -2, -1, 0].map((offset) => monthFromNow(now, offset));
    const expectedByMonth = months.map((mes) => ({
      mes,
      total: [justNow, twentyDaysAgo, fiveMonthsAgo, eightMonthsAgo].filter(
        (d) => dateInSaoPaulo(d).slice(0, 7) === mes,
      ).length,
    }));
    expect(stats.por_mes).toEqual(expectedByMonth);
    expect(stats.por_mes).toHaveLength(6);
    expect(stats.por_mes[0]).toEqual({ mes: monthFromNow(now, -5), total: 1 });
    expect(stats.por_mes.reduce((sum: number, m: { total: number }) => sum + m.total, 0)).toBe(3);
    expect(stats.por_mes.filter((m: { total: number }) => m.total === 0).length).toBeGreaterThanOrEqual(3);

    // The list counts the same documents.
    const listed = (await call(owner, "GET", "/api/templates?q=estatisticas")).json();
    expect(listed.items[0]).toMatchObject({ id: created.id, usos: 4 });
  });
});

describe("templates: allowed specialties", () => {
  it("gives a professional their own, the owner and admin the clinic's active ones, and refuses others", async () => {
    const owner = await newClinic(ctx.app);
    const own = (await call(owner, "GET", "/api/templates/specialties")).json();
    expect(own).toEqual({ items: ["Dermatologia"], fallback: false });

    const surgeon = await newStaff(ctx.app, ctx.database, owner.tenantId, "profissional");
    const orthodontist = await newStaff(ctx.app, ctx.database, owner.tenantId, "pro_saude");
    await ctx.database.db.execute(
      sql`update profiles set conselho_tipo = 'CRM', especialidades = ${JSON.stringify([
        { especialidade: "cirurgia_plastica", areas_atuacao: [], rqe: "1" },
        { especialidade: "anestesiologia", areas_atuacao: [], rqe: "2" },
      ])}::jsonb where id = ${surgeon.profileId}`,
    );
    await ctx.database.db.execute(
      sql`update profiles set conselho_tipo = 'CRO', especialidades = ${JSON.stringify([{ especialidade: "ortodontia", areas_atuacao: [] }])}::jsonb where id = ${orthodontist.profileId}`,
    );
    const inactive = await newStaff(ctx.app, ctx.database, owner.tenantId, "profissional");
    await ctx.database.db.execute(
      sql`update profiles set is_active = false, conselho_tipo = 'CRM', especialidades = ${JSON.stringify([{ especialidade: "pediatria", areas_atuacao: [], rqe: "3" }])}::jsonb where id = ${inactive.profileId}`,
    );
    const admin = await newStaff(ctx.app, ctx.database, owner.tenantId, "admin");

    expect((await call(surgeon, "GET", "/api/templates/specialties")).json()).toEqual({
      items: ["Anestesiologia", "Cirurgia Plástica"],
      fallback: false,
    });
    expect((await call(orthodontist, "GET", "/api/templates/specialties")).json()).toEqual({
      items: ["Ortodontia"],
      fallback: false,
    });
    const union = { items: ["Anestesiologia", "Cirurgia Plástica", "Dermatologia", "Ortodontia"], fallback: false };
    expect((await call(owner, "GET", "/api/templates/specialties")).json()).toEqual(union);
    expect((await call(admin, "GET", "/api/templates/specialties")).json()).toEqual(union);

    const refused = await call(surgeon, "POST", "/api/templates", templateBody({ especialidade: "Dermatologia" }));
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({
      code: "TEMPLATE_SPECIALTY_NOT_ALLOWED",
      message: "Especialidade não permitida para o seu perfil",
    });
    expect((await call(owner, "POST", "/api/templates", templateBody({ especialidade: "Pediatria" }))).statusCode).toBe(
      400,
    );
    const accepted = await create(surgeon, { especialidade: "Cirurgia Plástica" });
    expect(accepted.especialidade).toBe("Cirurgia Plástica");

    // On edit, the current specialty may stay even when the editor could not choose it.
    const ownersTemplate = await create(owner, { especialidade: "Dermatologia" });
    expect(
      (
        await call(
          surgeon,
          "PUT",
          `/api/templates/${ownersTemplate.id}`,
          templateBody({ especialidade: "Dermatologia" }),
        )
      ).statusCode,
    ).toBe(200);
    const changed = await call(
      surgeon,
      "PUT",
      `/api/templates/${ownersTemplate.id}`,
      templateBody({ especialidade: "Ortodontia" }),
    );
    expect(changed.statusCode).toBe(400);
    expect(changed.json().code).toBe("TEMPLATE_SPECIALTY_NOT_ALLOWED");
  });

  it("offers every known specialty when nobody in the clinic has one", async () => {
    const owner = await newClinic(ctx.app);
    await ctx.database.db.execute(
      sql`update profiles set especialidades = '[]'::jsonb where tenant_id = ${owner.tenantId}`,
    );
    const response = (await call(owner, "GET", "/api/templates/specialties")).json();
    expect(response.fallback).toBe(true);
    expect(response.items.length).toBeGreaterThan(80);
    for (const name of ["Dermatologia", "Ortodontia", "Acupuntura", "Cirurgia Plástica"])
      expect(response.items).toContain(name);
    expect(response.items).toEqual([...response.items].sort((a: string, b: string) => a.localeCompare(b, "pt-BR")));
    expect(new Set(response.items).size).toBe(response.items.length);
    expect((await call(owner, "POST", "/api/templates", templateBody({ especialidade: "Pediatria" }))).statusCode).toBe(
      201,
    );
  });
});

describe("templates: who may do what", () => {
  it("lets auditors and legal staff read but not write; the front desk neither writes nor publishes", async () => {
    const target = await create(clinic, { titulo: "Somente Leitura" });
    for (const role of ["auditor", "juridico", "atendente"] as const) {
      const staff = await newStaff(ctx.app, ctx.database, clinic.tenantId, role);
      expect((await call(staff, "GET", "/api/templates")).statusCode, role).toBe(200);
      expect((await call(staff, "GET", `/api/templates/${target.id}`)).statusCode, role).toBe(200);
      expect((await call(staff, "GET", `/api/templates/${target.id}/versions`)).statusCode, role).toBe(200);
      expect((await call(staff, "GET", `/api/templates/${target.id}/statistics`)).statusCode, role).toBe(200);
      expect((await call(staff, "GET", "/api/templates/stats")).statusCode, role).toBe(200);
      const writes = [
        await call(staff, "POST", "/api/templates", templateBody()),
        await call(staff, "PUT", `/api/templates/${target.id}`, templateBody()),
        await call(staff, "POST", `/api/templates/${target.id}/duplicate`),
        await call(staff, "DELETE", `/api/templates/${target.id}`),
        await call(staff, "POST", `/api/templates/${target.id}/status`, { status: "review" }),
        await call(staff, "POST", `/api/templates/${target.id}/status`, { status: "published" }),
      ];
      for (const response of writes) {
        expect(response.statusCode, `${role} ${response.body}`).toBe(403);
        expect(response.json().code).toBe("FORBIDDEN");
      }
    }
    expect((await versionsOf(clinic, target.id)).map((v) => v.version_number)).toEqual([1]);
    expect((await call(clinic, "GET", `/api/templates/${target.id}`)).json().status).toBe("draft");
    expect((await call(null, "GET", "/api/templates")).statusCode).toBe(401);
    expect((await call(null, "POST", "/api/templates", templateBody())).statusCode).toBe(401);
  });

  it("answers 404 for another clinic's template and a malformed id on every :id route", async () => {
    const mine = await create(clinic, { titulo: "Da Minha Clínica" });
    for (const id of [mine.id, "nao-e-uuid", "00000000-0000-4000-8000-000000000000"]) {
      const responses = [
        await call(other, "GET", `/api/templates/${id}`),
        await call(other, "PUT", `/api/templates/${id}`, templateBody()),
        await call(other, "POST", `/api/templates/${id}/duplicate`),
        await call(other, "DELETE", `/api/templates/${id}`),
        await call(other, "POST", `/api/templates/${id}/status`, { status: "published" }),
        await call(other, "GET", `/api/templates/${id}/versions`),
        await call(other, "GET", `/api/templates/${id}/statistics`),
      ];
      for (const response of responses) {
        expect(response.statusCode, `${id} ${response.body}`).toBe(404);
        expect(response.json()).toMatchObject({ code: "NOT_FOUND", message: "Template não encontrado" });
      }
    }
    const still = (await call(clinic, "GET", `/api/templates/${mine.id}`)).json();
    expect(still).toMatchObject({ titulo: "Da Minha Clínica", status: "draft", versao_atual: 1 });
    const counts = await rawRows<{ n: number }>(
      ctx.database.db,
      sql`select count(*)::int as n from templates where tenant_id = ${other.tenantId}`,
    );
    expect(counts[0]?.n).toBe(0);
  });
});

describe("templates: validation", () => {
  it("answers malformed bodies with 400 and pt-BR issues", async () => {
    const many = Array.from({ length: 101 }, (_, i) => ({ id: `s${i}`, type: "paragraph", title: "", content: "" }));
    const { especialidade: _omit, ...withoutSpecialty } = templateBody();
    const cases: [unknown, string, string][] = [
      [templateBody({ categoria: "Outros" }), "categoria", "Selecione uma categoria"],
      [templateBody({ titulo: "   " }), "titulo", "Informe o título do template"],
      [withoutSpecialty, "especialidade", "Por favor, selecione uma especialidade"],
      [templateBody({ especialidade: "  " }), "especialidade", "Por favor, selecione uma especialidade"],
      [templateBody({ estrutura: structure({ sections: many }) }), "estrutura.sections", "Use no máximo 100 seções"],
    ];
    for (const [body, path, message] of cases) {
      const response = await call(clinic, "POST", "/api/templates", body);
      expect(response.statusCode, path).toBe(400);
      expect(response.json().code).toBe("VALIDATION");
      expect(response.json().issues, path).toContainEqual({ path, message });
    }
    const unknownType = await call(
      clinic,
      "POST",
      "/api/templates",
      templateBody({
        estrutura: structure({ sections: [{ id: "x", type: "tabela", title: "", content: "" }] }),
      }),
    );
    expect(unknownType.statusCode).toBe(400);
    expect(unknownType.json().issues.map((i: { path: string }) => i.path)).toContain("estrutura.sections.0.type");
    const duplicateIds = await call(
      clinic,
      "POST",
      "/api/templates",
      templateBody({
        estrutura: structure({
          sections: [
            { id: "a", type: "paragraph", title: "", content: "" },
            { id: "a", type: "paragraph", title: "", content: "" },
          ],
        }),
      }),
    );
    expect(duplicateIds.statusCode).toBe(400);
    expect((await call(clinic, "POST", "/api/templates", templateBody({ estrutura: null }))).statusCode).toBe(400);
    const existing = await create(clinic);
    const badEdit = await call(clinic, "PUT", `/api/templates/${existing.id}`, templateBody({ titulo: "" }));
    expect(badEdit.statusCode).toBe(400);
    expect(badEdit.json().issues).toContainEqual({ path: "titulo", message: "Informe o título do template" });
    expect(await versionsOf(clinic, existing.id)).toHaveLength(1);
  });
});

it("registers the template routes in the OpenAPI document with Portuguese summaries", async () => {
  const response = await ctx.app.inject({ method: "GET", url: "/api/docs/json" });
  expect(response.statusCode).toBe(200);
  const paths = response.json().paths as Record<string, Record<string, { tags?: string[]; summary?: string }>>;
  for (const path of [
    "/api/templates",
    "/api/templates/{id}",
    "/api/templates/{id}/versions",
    "/api/templates/{id}/statistics",
    "/api/me/template-defaults",
  ]) {
    expect(paths[path], path).toBeDefined();
  }
  expect(paths["/api/templates"]?.get?.tags).toEqual(["templates"]);
  expect(paths["/api/templates/{id}/status"]?.post?.summary).toMatch(/status/);
});

describe("demo seed", () => {
  it("gives the demo clinic three templates (published TCLE, one in review, one draft), once", async () => {
    const { seedDemoClinic } = await import("../../src/db/seed/demo-clinic.js");
    const { tenantId } = await seedDemoClinic(ctx.database.db);
    await seedDemoClinic(ctx.database.db);
    const rows = await rawRows<{
      titulo: string;
      status: string;
      categoria: string;
      versions: number;
      published: number;
      hash_modelo: string;
      variaveis_json: unknown;
    }>(
      ctx.database.db,
      sql`select t.titulo, t.status, t.categoria,
            (select count(*)::int from template_versions v where v.template_id = t.id) as versions,
            (select count(*)::int from template_versions v where v.template_id = t.id and v.published_at is not null and v.published_by = t.created_by) as published,
            (select v.hash_modelo from template_versions v where v.template_id = t.id) as hash_modelo,
            (select v.variaveis_json from template_versions v where v.template_id = t.id) as variaveis_json
          from templates t where t.tenant_id = ${tenantId} order by t.status`,
    );
    expect(rows.map((r) => [r.status, r.versions, r.published])).toEqual([
      ["draft", 1, 0],
      ["published", 1, 1],
      ["review", 1, 0],
    ]);
    expect(new Set(rows.map((r) => r.categoria)).size).toBe(3);
    expect(rows[1]?.titulo).toBe("Termo de Consentimento Livre e Esclarecido");
    for (const row of rows) expect(row.hash_modelo).toBe(sha256OfCanonical(row.variaveis_json));
  });
});
