/**
 * Histórico de Versões (decision 034): one version's content for comparing, and "Restaurar esta
 * versão" — a NEW version with the old content; history is never rewritten.
 */
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rawRows } from "../../src/db/raw.js";
import { newClinic, newStaff, type SignedIn } from "../helpers/sessions.js";
import { signableDocument } from "../helpers/signing.js";
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

const call = (who: SignedIn, method: "GET" | "POST" | "PUT", url: string, payload?: unknown) =>
  ctx.app.inject({ method, url, payload: payload as object, headers: { cookie: who.cookie } });

const V1 = {
  title: "Termo - {{procedimento}}",
  introduction: "Eu, **{{paciente_nome}}**, declaro:",
  sections: [
    { id: "s1", type: "paragraph", title: "Riscos", content: "Hematoma *leve*\n- Dor\n- Edema" },
    { id: "s2", type: "bullet_list", title: "Cuidados", content: "Gelo" },
  ],
};
const V2 = {
  ...V1,
  sections: [
    { id: "s1", type: "paragraph", title: "Riscos", content: "Hematoma moderado" },
    { id: "s3", type: "paragraph", title: "LGPD", content: "Dados sensíveis" },
  ],
};
const body = (estrutura: unknown) => ({
  titulo: "Preenchimento",
  especialidade: "Dermatologia",
  categoria: "Consentimento",
  estrutura,
});

async function templateWithTwoVersions(who: SignedIn) {
  const created = await call(who, "POST", "/api/templates", body(V1));
  expect(created.statusCode, created.body).toBe(201);
  const id = created.json().id as string;
  expect((await call(who, "PUT", `/api/templates/${id}`, body(V2))).statusCode).toBe(200);
  const versions = (await call(who, "GET", `/api/templates/${id}/versions`)).json().items as {
    id: string;
    version_number: number;
    hash_modelo: string;
  }[];
  const v1 = versions.find((v) => v.version_number === 1)!;
  const v2 = versions.find((v) => v.version_number === 2)!;
  return { id, v1, v2 };
}

describe("GET /api/templates/:id/versions/:versionId", () => {
  it("answers a version with its content (for the comparison)", async () => {
    const { id, v1, v2 } = await templateWithTwoVersions(clinic);
    const first = await call(clinic, "GET", `/api/templates/${id}/versions/${v1.id}`);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toMatchObject({
      id: v1.id,
      version_number: 1,
      atual: false,
      estrutura: { introduction: V1.introduction },
    });
    expect(first.json().estrutura.sections.map((s: { content: string }) => s.content)).toEqual(
      V1.sections.map((s) => s.content),
    );
    const second = (await call(clinic, "GET", `/api/templates/${id}/versions/${v2.id}`)).json();
    expect(second).toMatchObject({ version_number: 2, atual: true });
  });

  it("answers 404 for another clinic's template or version, another template's version and a malformed id", async () => {
    const mine = await templateWithTwoVersions(clinic);
    const theirs = await templateWithTwoVersions(other);
    const sibling = await templateWithTwoVersions(clinic);
    const cases: [string, string][] = [
      [`/api/templates/${mine.id}/versions/${theirs.v1.id}`, "Versão não encontrada"],
      [`/api/templates/${mine.id}/versions/${sibling.v1.id}`, "Versão não encontrada"],
      [`/api/templates/${mine.id}/versions/nao-e-uuid`, "Versão não encontrada"],
      [`/api/templates/${theirs.id}/versions/${theirs.v1.id}`, "Template não encontrado"],
    ];
    for (const [url, message] of cases) {
      const response = await call(clinic, "GET", url);
      expect(response.statusCode, url).toBe(404);
      expect(response.json()).toMatchObject({ code: "NOT_FOUND", message });
    }
  });
});

describe("POST /api/templates/:id/restore", () => {
  it("adds a new version equal to the chosen one, leaves the history as it was, and audits it", async () => {
    const { id, v1, v2 } = await templateWithTwoVersions(clinic);
    const restored = await call(clinic, "POST", `/api/templates/${id}/restore`, { versao_id: v1.id });
    expect(restored.statusCode, restored.body).toBe(200);
    expect(restored.json()).toMatchObject({ versao_atual: 3, hash_modelo: v1.hash_modelo });
    expect(restored.json().estrutura.sections.map((s: { id: string; content: string }) => [s.id, s.content])).toEqual(
      V1.sections.map((s) => [s.id, s.content]),
    );

    const versions = (await call(clinic, "GET", `/api/templates/${id}/versions`)).json().items as {
      id: string;
      version_number: number;
      changelog: string;
      hash_modelo: string;
      atual: boolean;
    }[];
    expect(versions.map((v) => [v.version_number, v.changelog, v.atual])).toEqual([
      [3, "Restaurado da versão 1", true],
      [2, "Template atualizado", false],
      [1, "Versão inicial", false],
    ]);
    expect(versions.find((v) => v.version_number === 2)).toMatchObject({ id: v2.id, hash_modelo: v2.hash_modelo });
    const stillV2 = (await call(clinic, "GET", `/api/templates/${id}/versions/${v2.id}`)).json();
    expect(stillV2.estrutura.sections.map((s: { id: string }) => s.id)).toEqual(["s1", "s3"]);

    const audit = await rawRows<{ action: string; data: { versao: number; restaurada_de: number } }>(
      ctx.database.db,
      sql`select action, data from audit_events where entity_id = ${id} and action = 'template.version_restored'`,
    );
    expect(audit).toHaveLength(1);
    expect(audit[0]!.data).toMatchObject({ versao: 3, restaurada_de: 1 });
  });

  it("lets only template authors restore: auditors and the front desk get 403 and nothing changes", async () => {
    const { id, v1 } = await templateWithTwoVersions(clinic);
    for (const role of ["auditor", "atendente", "juridico"] as const) {
      const staff = await newStaff(ctx.app, ctx.database, clinic.tenantId, role);
      const response = await call(staff, "POST", `/api/templates/${id}/restore`, { versao_id: v1.id });
      expect(response.statusCode, role).toBe(403);
      expect((await call(staff, "GET", `/api/templates/${id}/versions/${v1.id}`)).statusCode, role).toBe(200);
    }
    const author = await newStaff(ctx.app, ctx.database, clinic.tenantId, "pro_saude");
    expect((await call(author, "POST", `/api/templates/${id}/restore`, { versao_id: v1.id })).statusCode).toBe(200);
  });

  it("sends a published template to review when the restorer may not publish", async () => {
    const { id, v1 } = await templateWithTwoVersions(clinic);
    expect((await call(clinic, "POST", `/api/templates/${id}/status`, { status: "review" })).statusCode).toBe(200);
    expect((await call(clinic, "POST", `/api/templates/${id}/status`, { status: "published" })).statusCode).toBe(200);
    const author = await newStaff(ctx.app, ctx.database, clinic.tenantId, "pro_saude");
    const restored = await call(author, "POST", `/api/templates/${id}/restore`, { versao_id: v1.id });
    expect(restored.json()).toMatchObject({ status: "review", versao_atual: 3 });
    const versions = (await call(clinic, "GET", `/api/templates/${id}/versions`)).json().items as {
      version_number: number;
      published_at: string | null;
    }[];
    expect(versions[0]).toMatchObject({ version_number: 3, published_at: null });
  });

  it("answers 404 for another clinic's template or version and writes nothing", async () => {
    const mine = await templateWithTwoVersions(clinic);
    const theirs = await templateWithTwoVersions(other);
    const attempts = [
      await call(other, "POST", `/api/templates/${mine.id}/restore`, { versao_id: mine.v1.id }),
      await call(clinic, "POST", `/api/templates/${mine.id}/restore`, { versao_id: theirs.v1.id }),
      await call(clinic, "POST", `/api/templates/${theirs.id}/restore`, { versao_id: theirs.v1.id }),
      await call(clinic, "POST", `/api/templates/nao-e-uuid/restore`, { versao_id: mine.v1.id }),
    ];
    for (const response of attempts) {
      expect(response.statusCode, response.body).toBe(404);
      expect(response.json().code).toBe("NOT_FOUND");
    }
    for (const [who, id] of [
      [clinic, mine.id],
      [other, theirs.id],
    ] as const) {
      const versions = (await call(who, "GET", `/api/templates/${id}/versions`)).json().items;
      expect(versions).toHaveLength(2);
    }
  });

  it("answers malformed bodies with 400 and Portuguese messages", async () => {
    const { id } = await templateWithTwoVersions(clinic);
    for (const payload of [
      {},
      { versao_id: "nao-e-uuid" },
      { versao_id: 12 },
      { versao_id: "4b6f2d3e-8c1a-4f5e-9a7b-2c3d4e5f6a7b", extra: 1 },
      ["lista"],
    ]) {
      const response = await call(clinic, "POST", `/api/templates/${id}/restore`, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json().code).toBe("VALIDATION");
      expect(response.json().message).not.toMatch(/Invalid|expected|Unrecognized|Required/);
    }
    const response = await call(clinic, "POST", `/api/templates/${id}/restore`, { versao_id: "nao-e-uuid" });
    expect(response.json().issues).toContainEqual({ path: "versao_id", message: "Versão não encontrada" });
    expect((await call(clinic, "GET", `/api/templates/${id}/versions`)).json().items).toHaveLength(2);
  });
});

describe("a document made from a formatted template", () => {
  it("freezes bold runs and list blocks in its model, and its draft PDF renders", async () => {
    const { id } = await templateWithTwoVersions(clinic);
    const restored = (
      await call(clinic, "POST", `/api/templates/${id}/restore`, {
        versao_id: (await call(clinic, "GET", `/api/templates/${id}/versions`)).json().items[1].id,
      })
    ).json();
    expect((await call(clinic, "POST", `/api/templates/${id}/status`, { status: "review" })).statusCode).toBe(200);
    expect((await call(clinic, "POST", `/api/templates/${id}/status`, { status: "published" })).statusCode).toBe(200);
    const document = await signableDocument(ctx.app, clinic, { versionId: restored.versao_atual_id });
    const detail = (await call(clinic, "GET", `/api/documents/${document.documentId}`)).json();
    expect(detail.documento.introduction).toContainEqual(expect.objectContaining({ kind: "text", bold: true }));
    expect(detail.documento.sections[0]).toMatchObject({
      blocks: [
        {
          kind: "paragraph",
          inlines: [
            { kind: "text", text: "Hematoma " },
            { kind: "text", text: "leve", italic: true },
          ],
        },
        { kind: "list", ordered: false, items: [[{ kind: "text", text: "Dor" }], [{ kind: "text", text: "Edema" }]] },
      ],
    });
    const pdf = await call(clinic, "GET", `/api/documents/${document.documentId}/pdf`);
    expect(pdf.statusCode, pdf.body.slice(0, 200)).toBe(200);
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe("%PDF-");
  });
});
