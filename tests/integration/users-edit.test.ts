import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rawRows } from "../../src/db/raw.js";
import { newClinic, newStaff, type SignedIn } from "../helpers/sessions.js";
import { createTestApp, type TestContext } from "../helpers/test-app.js";
import { newEstablishment, professionalUser } from "./users-helpers.js";

let ctx: TestContext;
let owner: SignedIn;

beforeAll(async () => {
  ctx = await createTestApp();
  owner = await newEstablishment(ctx.app);
});
afterAll(async () => {
  await ctx.close();
});

const call = (who: { cookie: string } | null, method: "GET" | "POST" | "PATCH", url: string, payload?: unknown) =>
  ctx.app.inject({
    method,
    url,
    headers: who ? { cookie: who.cookie } : {},
    ...(payload === undefined ? {} : { payload: payload as object }),
  });

async function addProfessional(who: SignedIn = owner) {
  const response = await call(who, "POST", "/api/users", professionalUser());
  expect(response.statusCode, response.body).toBe(201);
  return response.json() as { id: string; nome: string };
}

const edit = (overrides: Record<string, unknown> = {}) => ({
  nome: "Dra. Camila Ribeiro Torres Lima",
  role: "profissional",
  conselho_tipo: "CRO",
  conselho_numero: "445566",
  conselho_uf: "MG",
  especialidades: [{ especialidade: "implantodontia", areas_atuacao: ["laserterapia"], rqe: "" }],
  ...overrides,
});

describe("PATCH /api/users/:id", () => {
  it("lets the owner correct a user's name, role, council and specialties, audited", async () => {
    const user = await addProfessional();
    const response = await call(owner, "PATCH", `/api/users/${user.id}`, edit());
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({
      id: user.id,
      nome: "Dra. Camila Ribeiro Torres Lima",
      role: "profissional",
      conselho_tipo: "CRO",
      conselho_numero: "445566",
      conselho_uf: "MG",
      especialidades: [{ especialidade: "implantodontia", areas_atuacao: ["laserterapia"], rqe: null }],
    });
    const toAdmin = await call(
      owner,
      "PATCH",
      `/api/users/${user.id}`,
      edit({ role: "admin", conselho_tipo: "", especialidades: [] }),
    );
    expect(toAdmin.statusCode, toAdmin.body).toBe(200);
    expect(toAdmin.json()).toMatchObject({
      role: "admin",
      conselho_tipo: null,
      conselho_numero: null,
      especialidades: [],
    });
    const events = await rawRows<{ action: string; data: Record<string, unknown> }>(
      ctx.database.db,
      sql`select action, data from audit_events where tenant_id = ${owner.tenantId} and entity_id = ${user.id} and action = 'user.updated' order by seq`,
    );
    expect(events.map((e) => e.data)).toEqual([
      {
        nome: "Dra. Camila Ribeiro Torres Lima",
        campos: ["nome", "conselho_tipo", "conselho_numero", "conselho_uf", "especialidades"],
      },
      {
        nome: "Dra. Camila Ribeiro Torres Lima",
        campos: ["role", "conselho_tipo", "conselho_numero", "conselho_uf", "especialidades"],
        role: { from: "profissional", to: "admin" },
      },
    ]);
  });

  it("keeps the owner's role but lets the owner correct their own council", async () => {
    const ownerCouncil = edit({
      nome: "Dr. Ricardo Almeida Souza",
      conselho_tipo: "CRM",
      conselho_uf: "SP",
      especialidades: [{ especialidade: "dermatologia", areas_atuacao: [], rqe: "5566" }],
    });
    const refused = await call(owner, "PATCH", `/api/users/${owner.profileId}`, { ...ownerCouncil, role: "admin" });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({
      code: "USER_OWNER_PROTECTED",
      message: "A função do proprietário da clínica não pode ser alterada.",
    });
    const saved = await call(owner, "PATCH", `/api/users/${owner.profileId}`, ownerCouncil);
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toMatchObject({
      is_proprietario: true,
      role: "profissional",
      especialidades: [{ especialidade: "dermatologia", rqe: "5566" }],
    });
  });

  it("applies the add-user dialog's council rules", async () => {
    const user = await addProfessional();
    const cases: [Record<string, unknown>, string, string][] = [
      [{ nome: "" }, "nome", "Informe o nome completo"],
      [{ role: "saas_admin" }, "role", "Selecione a função"],
      [{ conselho_tipo: "" }, "conselho_tipo", "Selecione o conselho"],
      [
        { conselho_tipo: "CRM", especialidades: [{ especialidade: "dermatologia", areas_atuacao: [], rqe: "" }] },
        "especialidades.0.rqe",
        "RQE é obrigatório para cada especialidade do CRM",
      ],
      [{ especialidades: [] }, "especialidades", "Selecione pelo menos uma especialidade"],
      [{ conselho_uf: "" }, "conselho_uf", "Selecione a UF"],
    ];
    for (const [changes, path, message] of cases) {
      const response = await call(owner, "PATCH", `/api/users/${user.id}`, edit(changes));
      expect(response.statusCode, JSON.stringify(changes)).toBe(400);
      expect(response.json().issues, JSON.stringify(changes)).toContainEqual({ path, message });
    }
    // An administrator with CRM may go without RQE (spec part 2 §5).
    const admin = await call(
      owner,
      "PATCH",
      `/api/users/${user.id}`,
      edit({
        role: "admin",
        conselho_tipo: "CRM",
        especialidades: [{ especialidade: "dermatologia", areas_atuacao: [], rqe: "" }],
      }),
    );
    expect(admin.statusCode, admin.body).toBe(200);
    for (const payload of [[], { nome: 1 }, "x"])
      expect((await call(owner, "PATCH", `/api/users/${user.id}`, payload)).statusCode).toBe(400);
    expect((await call(owner, "PATCH", "/api/users/nao-e-uuid", edit())).statusCode).toBe(400);
  });

  it("is the owner's only, in their own clinic: 403 to the others, 404 for another clinic's user, 401 signed out", async () => {
    const user = await addProfessional();
    for (const role of ["admin", "profissional", "atendente", "juridico", "auditor", "pro_saude"] as const) {
      const staff = await newStaff(ctx.app, ctx.database, owner.tenantId, role);
      const response = await call(staff, "PATCH", `/api/users/${user.id}`, edit());
      expect(response.statusCode, role).toBe(403);
      expect(response.json()).toMatchObject({ code: "USERS_OWNER_ONLY", message: "Acesso negado" });
    }
    const otherClinic = await newEstablishment(ctx.app);
    const foreign = await addProfessional(otherClinic);
    const notFound = await call(owner, "PATCH", `/api/users/${foreign.id}`, edit());
    expect(notFound.statusCode).toBe(404);
    expect(notFound.json().code).toBe("USER_NOT_FOUND");
    const list = (await call(otherClinic, "GET", "/api/users")).json().items as { id: string; nome: string }[];
    expect(list.find((u) => u.id === foreign.id)?.nome).toBe(foreign.nome);
    const independent = await newClinic(ctx.app);
    expect((await call(independent, "PATCH", `/api/users/${independent.profileId}`, edit())).json().code).toBe(
      "USERS_ESTABLISHMENT_ONLY",
    );
    expect((await call(null, "PATCH", `/api/users/${user.id}`, edit())).statusCode).toBe(401);
  });
});
