import { randomUUID } from "node:crypto";
import type { LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newClinic, type SignedIn } from "../helpers/sessions.js";
import { publishedTemplateVersion } from "../helpers/signing.js";
import { createTestApp, type TestContext } from "../helpers/test-app.js";
import { newEstablishment } from "./users-helpers.js";

/**
 * Every search of the staff screens, made by two clinics holding the same words. Searches run
 * outside row-level security (decision 004), so each query's own tenant filter is the only wall:
 * a search that dropped it would return the other clinic's row, and this test would see it.
 */
let ctx: TestContext;
let a: SignedIn;
let b: SignedIn;
const marker = `Zéfiro${randomUUID().slice(0, 6)}`;
const created: Record<"a" | "b", Record<string, string>> = { a: {}, b: {} };

const call = (who: SignedIn, method: "GET" | "POST", url: string, payload?: object) =>
  ctx.app.inject({ method, url, payload, headers: { cookie: who.cookie } });

function idOf(response: LightMyRequestResponse, what: string): string {
  expect(response.statusCode, `${what}: ${response.body}`).toBe(201);
  return response.json().id as string;
}

async function seed(who: SignedIn, side: "a" | "b"): Promise<void> {
  const mine = created[side];
  mine.patient = idOf(await call(who, "POST", "/api/patients", { nome: `Paciente ${marker}` }), "patient");
  mine.procedure = idOf(
    await call(who, "POST", "/api/procedures", {
      nome: `Procedimento ${marker}`,
      descricao: "Descrição",
      especialidade: "cirurgia_plastica",
      is_private: false,
    }),
    "procedure",
  );
  mine.risk = idOf(
    await call(who, "POST", "/api/content/riscos", {
      titulo: `Risco ${marker}`,
      descricao: "Texto",
      categoria: "Comum",
    }),
    "risk",
  );
  const specialties = (await call(who, "GET", "/api/templates/specialties")).json().items as string[];
  mine.template = idOf(
    await call(who, "POST", "/api/templates", {
      titulo: `Modelo ${marker}`,
      especialidade: specialties[0],
      categoria: "Consentimento",
      estrutura: {
        title: "Termo",
        introduction: "Eu, {{paciente_nome}}",
        sections: [{ id: "s1", type: "paragraph", title: "Riscos", content: "Texto" }],
      },
    }),
    "template",
  );
  const versionId = await publishedTemplateVersion(ctx.app, who);
  const document = await call(who, "POST", "/api/documents", {
    paciente_id: mine.patient,
    template_version_id: versionId,
    titulo: `Termo ${marker}`,
    medico_responsavel_id: who.profileId,
    permitir_pendencias: true,
  });
  mine.document = idOf(document, "document");
}

beforeAll(async () => {
  ctx = await createTestApp();
  a = await newClinic(ctx.app);
  b = await newClinic(ctx.app);
  await seed(a, "a");
  await seed(b, "b");
});
afterAll(async () => {
  await ctx.close();
});

async function foundIds(who: SignedIn, url: string): Promise<string[]> {
  const response = await call(who, "GET", url);
  expect(response.statusCode, response.body).toBe(200);
  return (response.json().items as { id: string }[]).map((item) => item.id);
}

describe("searches never cross clinics", () => {
  const q = () => encodeURIComponent(marker);
  const cases: [string, () => string, keyof (typeof created)["a"]][] = [
    ["patients", () => `/api/patients?q=${q()}`, "patient"],
    ["procedures", () => `/api/procedures?q=${q()}`, "procedure"],
    ["risks (content)", () => `/api/content/riscos?q=${q()}`, "risk"],
    ["templates", () => `/api/templates?q=${q()}`, "template"],
    ["documents", () => `/api/documents?q=${q()}`, "document"],
    ["documents by patient name", () => `/api/documents?q=${encodeURIComponent(`Paciente ${marker}`)}`, "document"],
  ];
  for (const [name, url, key] of cases) {
    it(`${name}: each clinic finds its own row and never the other's`, async () => {
      expect(await foundIds(a, url())).toEqual([created.a[key]]);
      expect(await foundIds(b, url())).toEqual([created.b[key]]);
    });
  }

  it("users: two clinics whose owners share a name each list only their own", async () => {
    const first = await newEstablishment(ctx.app);
    const second = await newEstablishment(ctx.app);
    const url = `/api/users?q=${encodeURIComponent("Ricardo Almeida")}`;
    expect(await foundIds(first, url)).toEqual([first.profileId]);
    expect(await foundIds(second, url)).toEqual([second.profileId]);
  });
});
