import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rawRows } from "../../src/db/raw.js";
import { validCpf } from "../helpers/factories.js";
import { newClinic, newStaff, type SignedIn } from "../helpers/sessions.js";
import { createTestApp, sessionCookieFrom, type TestContext, uniqueEmail } from "../helpers/test-app.js";
import { newEstablishment, professionalUser } from "./users-helpers.js";

let ctx: TestContext;
let owner: SignedIn & { password: string };

beforeAll(async () => {
  ctx = await createTestApp();
  owner = await newEstablishment(ctx.app);
});
afterAll(async () => {
  await ctx.close();
});

const call = (who: { cookie: string }, method: "GET" | "POST" | "PATCH", url: string, payload?: unknown) =>
  ctx.app.inject({
    method,
    url,
    headers: { cookie: who.cookie },
    ...(payload === undefined ? {} : { payload: payload as object }),
  });

const signIn = (email: string, password: string) =>
  ctx.app.inject({ method: "POST", url: "/api/auth/sign-in", payload: { email, password } });

async function auditActions(tenantId: string, entityId: string): Promise<string[]> {
  const rows = await rawRows<{ action: string }>(
    ctx.database.db,
    sql`select action from audit_events where tenant_id = ${tenantId} and entity_id = ${entityId} order by seq`,
  );
  return rows.map((row) => row.action);
}

describe("GET /api/users", () => {
  it("lists the clinic's users (owner included) newest first, pages with a cursor and searches by name, e-mail and CPF", async () => {
    const clinic = await newEstablishment(ctx.app);
    const names = ["Ana Beatriz Lopes", "Bruno César Araújo", "Carla Dias Nunes", "Diego Esteves Faria"];
    const cpfs: string[] = [];
    for (const nome of names) {
      const cpf = validCpf();
      cpfs.push(cpf);
      const response = await call(
        clinic,
        "POST",
        "/api/users",
        professionalUser({ nome, cpf, role: "atendente", conselho_tipo: "", especialidades: [] }),
      );
      expect(response.statusCode, response.body).toBe(201);
    }
    const first = await call(clinic, "GET", "/api/users?limit=3");
    expect(first.statusCode).toBe(200);
    const page1 = first.json();
    expect(page1.total).toBe(5);
    expect(page1.items.map((u: { nome: string }) => u.nome)).toEqual([
      "Diego Esteves Faria",
      "Carla Dias Nunes",
      "Bruno César Araújo",
    ]);
    expect(page1.items[0]).not.toHaveProperty("password_hash");
    const page2 = (await call(clinic, "GET", `/api/users?limit=3&cursor=${page1.next_cursor}`)).json();
    expect(page2.items.map((u: { nome: string }) => u.nome)).toEqual([
      "Ana Beatriz Lopes",
      "Dr. Ricardo Almeida Souza",
    ]);
    expect(page2.next_cursor).toBeNull();
    expect(page2.items[1]).toMatchObject({
      is_proprietario: true,
      is_active: true,
      role: "profissional",
      conselho_tipo: "CRM",
    });

    // Case and accents ignored; CPF typed with its mask.
    const byName = (await call(clinic, "GET", `/api/users?q=${encodeURIComponent("cesar araujo")}`)).json();
    expect(byName.items.map((u: { nome: string }) => u.nome)).toEqual(["Bruno César Araújo"]);
    expect(byName.total).toBe(1);
    const masked = `${cpfs[2]!.slice(0, 3)}.${cpfs[2]!.slice(3, 6)}.${cpfs[2]!.slice(6, 9)}`;
    const byCpf = (await call(clinic, "GET", `/api/users?q=${encodeURIComponent(masked)}`)).json();
    expect(byCpf.items.map((u: { nome: string }) => u.nome)).toEqual(["Carla Dias Nunes"]);
    const byEmail = (await call(clinic, "GET", `/api/users?q=${encodeURIComponent(clinic.email)}`)).json();
    expect(byEmail.items).toHaveLength(1);
    expect((await call(clinic, "GET", "/api/users?q=ninguem-assim")).json()).toMatchObject({
      items: [],
      total: 0,
      next_cursor: null,
    });
    // Another clinic's users never show.
    expect((await call(owner, "GET", `/api/users?q=${encodeURIComponent("Diego Esteves")}`)).json().total).toBe(0);
  });

  it("answers 'Acesso negado' (403) to everyone but the owner, 403 to an independent professional, 401 signed out", async () => {
    for (const role of ["admin", "atendente", "profissional", "juridico", "auditor", "pro_saude"] as const) {
      const staff = await newStaff(ctx.app, ctx.database, owner.tenantId, role);
      for (const [method, url, body] of [
        ["GET", "/api/users", undefined],
        ["POST", "/api/users", professionalUser()],
        ["PATCH", `/api/users/${staff.profileId}/status`, { is_active: false }],
        ["PATCH", `/api/users/${staff.profileId}/role`, { role: "admin" }],
        ["POST", `/api/users/${staff.profileId}/invitation`, undefined],
      ] as const) {
        const response = await call(staff, method, url, body);
        expect(response.statusCode, `${role} ${method} ${url}`).toBe(403);
        expect(response.json()).toMatchObject({ code: "USERS_OWNER_ONLY", message: "Acesso negado" });
      }
    }
    const independent = await newClinic(ctx.app);
    const refused = await call(independent, "GET", "/api/users");
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe("USERS_ESTABLISHMENT_ONLY");
    expect(refused.json().message).toMatch(/exclusiva de estabelecimentos/);
    expect((await call(independent, "POST", "/api/users", professionalUser())).statusCode).toBe(403);
    expect((await ctx.app.inject({ method: "GET", url: "/api/users" })).statusCode).toBe(401);
  });

  it("refuses a malformed query in Portuguese", async () => {
    const badCursor = await call(owner, "GET", "/api/users?cursor=bad");
    expect(badCursor.statusCode).toBe(400);
    expect(badCursor.json().message).toBe("Cursor de paginação inválido.");
    const badLimit = await call(owner, "GET", "/api/users?limit=0");
    expect(badLimit.statusCode).toBe(400);
    expect(badLimit.json().code).toBe("VALIDATION");
  });
});

describe("POST /api/users", () => {
  it("adds a CRM professional with specialties, areas and RQE who can sign in; audited", async () => {
    const body = professionalUser({
      especialidades: [
        { especialidade: "dermatologia", areas_atuacao: ["hansenologia"], rqe: "7788" },
        { especialidade: "cirurgia_plastica", areas_atuacao: [], rqe: "9911" },
      ],
    });
    const response = await call(owner, "POST", "/api/users", body);
    expect(response.statusCode, response.body).toBe(201);
    const user = response.json();
    expect(user).toMatchObject({
      nome: body.nome,
      email: body.email,
      role: "profissional",
      is_active: true,
      is_proprietario: false,
      conselho_tipo: "CRM",
      conselho_numero: "112233",
      conselho_uf: "SP",
      convite: null,
    });
    expect(user.especialidades).toEqual(body.especialidades);
    const [row] = await rawRows<{ crm: string; especialidade: string; rqe: string }>(
      ctx.database.db,
      sql`select crm, especialidade, rqe from profiles where id = ${user.id}`,
    );
    expect(row).toEqual({ crm: "112233", especialidade: "dermatologia", rqe: "7788" });
    expect((await signIn(body.email, body.password)).statusCode).toBe(200);
    expect(await auditActions(owner.tenantId, user.id)).toEqual(["user.created"]);
  });

  it("applies the sign-up rules: RQE per CRM specialty (not for an administrator), one specialty for CRM/CRO, council for care roles", async () => {
    const noRqe = await call(
      owner,
      "POST",
      "/api/users",
      professionalUser({ especialidades: [{ especialidade: "dermatologia", areas_atuacao: [], rqe: "" }] }),
    );
    expect(noRqe.statusCode).toBe(400);
    expect(noRqe.json().issues).toContainEqual({
      path: "especialidades.0.rqe",
      message: "RQE é obrigatório para cada especialidade do CRM",
    });

    const admin = await call(
      owner,
      "POST",
      "/api/users",
      professionalUser({
        role: "admin",
        especialidades: [{ especialidade: "dermatologia", areas_atuacao: [], rqe: "" }],
      }),
    );
    expect(admin.statusCode, admin.body).toBe(201);
    expect(admin.json().especialidades).toEqual([{ especialidade: "dermatologia", areas_atuacao: [], rqe: null }]);

    const none = await call(
      owner,
      "POST",
      "/api/users",
      professionalUser({ conselho_tipo: "CRO", especialidades: [{ especialidade: "", areas_atuacao: [], rqe: "" }] }),
    );
    expect(none.statusCode).toBe(400);
    expect(none.json().issues).toContainEqual({
      path: "especialidades",
      message: "Selecione pelo menos uma especialidade",
    });

    const three = await call(
      owner,
      "POST",
      "/api/users",
      professionalUser({
        especialidades: [
          { especialidade: "dermatologia", areas_atuacao: [], rqe: "1" },
          { especialidade: "cirurgia_plastica", areas_atuacao: [], rqe: "2" },
          { especialidade: "endocrinologia_metabologia", areas_atuacao: [], rqe: "3" },
        ],
      }),
    );
    expect(three.statusCode).toBe(400);
    expect(three.json().issues).toContainEqual({
      path: "especialidades",
      message: "Máximo de 2 especialidades permitidas",
    });

    const wrongArea = await call(
      owner,
      "POST",
      "/api/users",
      professionalUser({
        especialidades: [{ especialidade: "dermatologia", areas_atuacao: ["densitometria_ossea"], rqe: "1" }],
      }),
    );
    expect(wrongArea.json().issues).toContainEqual({
      path: "especialidades.0.areas_atuacao",
      message: "Área de atuação não pertence à especialidade",
    });

    const noCouncil = await call(
      owner,
      "POST",
      "/api/users",
      professionalUser({ conselho_tipo: "", conselho_numero: "", conselho_uf: "", especialidades: [] }),
    );
    expect(noCouncil.statusCode).toBe(400);
    expect(noCouncil.json().issues).toContainEqual({ path: "conselho_tipo", message: "Selecione o conselho" });

    const noNumber = await call(
      owner,
      "POST",
      "/api/users",
      professionalUser({ conselho_tipo: "COREN", conselho_numero: "", conselho_uf: "", especialidades: [] }),
    );
    expect(noNumber.json().issues).toEqual(
      expect.arrayContaining([
        { path: "conselho_numero", message: "Informe o número do conselho" },
        { path: "conselho_uf", message: "Selecione a UF" },
      ]),
    );

    // A front-desk user needs no council; specialties sent without one are dropped.
    const attendant = await call(
      owner,
      "POST",
      "/api/users",
      professionalUser({ role: "atendente", conselho_tipo: "", conselho_numero: "", conselho_uf: "" }),
    );
    expect(attendant.statusCode, attendant.body).toBe(201);
    expect(attendant.json()).toMatchObject({ role: "atendente", conselho_tipo: null, especialidades: [] });
  });

  it("refuses a taken e-mail (any clinic, any case) and a CPF already in the clinic with the field's message (409)", async () => {
    const first = professionalUser();
    expect((await call(owner, "POST", "/api/users", first)).statusCode).toBe(201);

    const sameEmail = await call(owner, "POST", "/api/users", professionalUser({ email: first.email.toUpperCase() }));
    expect(sameEmail.statusCode).toBe(409);
    expect(sameEmail.json()).toMatchObject({
      code: "USER_EMAIL_TAKEN",
      issues: [{ path: "email", message: "Este e-mail já está cadastrado no Consentir. Use outro e-mail." }],
    });
    // Another clinic's owner's address is taken too (e-mails sign in, so they are unique everywhere).
    const other = await newEstablishment(ctx.app);
    expect((await call(owner, "POST", "/api/users", professionalUser({ email: other.email }))).json().code).toBe(
      "USER_EMAIL_TAKEN",
    );

    const sameCpf = await call(owner, "POST", "/api/users", professionalUser({ cpf: first.cpf }));
    expect(sameCpf.statusCode).toBe(409);
    expect(sameCpf.json()).toMatchObject({
      code: "USER_CPF_TAKEN",
      issues: [{ path: "cpf", message: "Já existe um usuário com este CPF nesta clínica." }],
    });
    // The same person may work at another clinic.
    expect((await call(other, "POST", "/api/users", professionalUser({ cpf: first.cpf }))).statusCode).toBe(201);
  });

  it("refuses malformed bodies with 400 in Portuguese", async () => {
    const empty = await call(owner, "POST", "/api/users", {});
    expect(empty.statusCode).toBe(400);
    const paths = empty.json().issues.map((issue: { path: string }) => issue.path);
    expect(paths).toEqual(expect.arrayContaining(["nome", "email", "cpf", "role"]));
    expect(empty.json().issues).toContainEqual({ path: "nome", message: "Informe o nome completo" });

    const badCpf = await call(owner, "POST", "/api/users", professionalUser({ cpf: "111.111.111-11" }));
    expect(badCpf.json().issues).toContainEqual({ path: "cpf", message: "CPF inválido" });
    const badRole = await call(owner, "POST", "/api/users", professionalUser({ role: "saas_admin" }));
    expect(badRole.json().issues).toContainEqual({ path: "role", message: "Selecione a função" });
    const weak = await call(owner, "POST", "/api/users", professionalUser({ password: "12345678" }));
    expect(weak.json().issues).toContainEqual({
      path: "password",
      message: "Esta senha é muito comum e fácil de adivinhar. Escolha outra.",
    });
    const noPassword = await call(owner, "POST", "/api/users", professionalUser({ password: undefined }));
    expect(noPassword.json().issues).toContainEqual({ path: "password", message: "Informe a senha" });
    const wrongTypes = await call(
      owner,
      "POST",
      "/api/users",
      professionalUser({ nome: 42, especialidades: "dermatologia" }),
    );
    expect(wrongTypes.statusCode).toBe(400);
    expect(wrongTypes.json().message).not.toMatch(/Invalid|expected|received/);
    const notJson = await ctx.app.inject({
      method: "POST",
      url: "/api/users",
      headers: { cookie: owner.cookie, "content-type": "application/json" },
      payload: "{nome:",
    });
    expect(notJson.statusCode).toBe(400);
    expect(notJson.json().message).toBe("Requisição inválida.");
  });
});

describe("PATCH /api/users/:id/status", () => {
  it("deactivates a user: their open session gets 401 at once, sign-in is refused in Portuguese; reactivation lets them in again", async () => {
    const body = professionalUser({ role: "atendente", conselho_tipo: "", especialidades: [] });
    const created = (await call(owner, "POST", "/api/users", body)).json();
    const session = { cookie: sessionCookieFrom(await signIn(body.email, body.password)) };
    expect((await call(session, "GET", "/api/patients")).statusCode).toBe(200);

    const off = await call(owner, "PATCH", `/api/users/${created.id}/status`, { is_active: false });
    expect(off.statusCode).toBe(200);
    expect(off.json()).toMatchObject({ id: created.id, is_active: false });
    const after = await call(session, "GET", "/api/patients");
    expect(after.statusCode).toBe(401);
    expect(after.json().code).toBe("UNAUTHENTICATED");
    const [{ n }] = (await rawRows<{ n: number }>(
      ctx.database.db,
      sql`select count(*)::int as n from sessions where profile_id = ${created.id}`,
    )) as [{ n: number }];
    expect(n).toBe(0);
    const refused = await signIn(body.email, body.password);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({
      code: "ACCOUNT_INACTIVE",
      message: "Sua conta está desativada. Fale com o responsável pela clínica.",
    });
    expect((await call(owner, "GET", `/api/users?q=${encodeURIComponent(body.email)}`)).json().items[0].is_active).toBe(
      false,
    );

    const on = await call(owner, "PATCH", `/api/users/${created.id}/status`, { is_active: true });
    expect(on.json().is_active).toBe(true);
    expect((await signIn(body.email, body.password)).statusCode).toBe(200);
    expect(await auditActions(owner.tenantId, created.id)).toEqual([
      "user.created",
      "user.deactivated",
      "user.activated",
    ]);
    const [event] = await rawRows<{ data: { sessions_ended: number } }>(
      ctx.database.db,
      sql`select data from audit_events where entity_id = ${created.id} and action = 'user.deactivated'`,
    );
    expect(event?.data.sessions_ended).toBe(1);
  });

  it("never toggles the owner row; another clinic's id is 404; a malformed body or id is 400", async () => {
    const ownerRow = await call(owner, "PATCH", `/api/users/${owner.profileId}/status`, { is_active: false });
    expect(ownerRow.statusCode).toBe(409);
    expect(ownerRow.json()).toMatchObject({
      code: "USER_OWNER_PROTECTED",
      message: "O proprietário da clínica não pode ser desativado.",
    });
    expect((await call(owner, "GET", "/api/auth/me")).statusCode).toBe(200);

    const other = await newEstablishment(ctx.app);
    const theirs = (await call(other, "POST", "/api/users", professionalUser())).json();
    const foreign = await call(owner, "PATCH", `/api/users/${theirs.id}/status`, { is_active: false });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toMatchObject({ code: "USER_NOT_FOUND", message: "Usuário não encontrado." });
    expect((await call(owner, "PATCH", `/api/users/${other.profileId}/status`, { is_active: false })).statusCode).toBe(
      404,
    );
    expect(
      (await call(other, "GET", `/api/users?q=${encodeURIComponent(theirs.email)}`)).json().items[0].is_active,
    ).toBe(true);

    const badBody = await call(owner, "PATCH", `/api/users/${theirs.id}/status`, { is_active: "não" });
    expect(badBody.statusCode).toBe(400);
    expect(badBody.json().issues[0]).toMatchObject({ path: "is_active" });
    const badId = await call(owner, "PATCH", "/api/users/nao-e-um-id/status", { is_active: false });
    expect(badId.statusCode).toBe(400);
    expect(badId.json().issues).toContainEqual({ path: "id", message: "Usuário não encontrado" });
  });
});

describe("PATCH /api/users/:id/role", () => {
  it("changes a role (applies to open sessions at once), keeps the owner's, and asks for a council before a care role", async () => {
    const body = professionalUser({ role: "atendente", conselho_tipo: "", especialidades: [] });
    const created = (await call(owner, "POST", "/api/users", body)).json();
    const session = { cookie: sessionCookieFrom(await signIn(body.email, body.password)) };
    expect((await call(session, "GET", "/api/auth/me")).json().profile.role).toBe("atendente");

    const changed = await call(owner, "PATCH", `/api/users/${created.id}/role`, { role: "admin" });
    expect(changed.statusCode).toBe(200);
    expect(changed.json().role).toBe("admin");
    expect((await call(session, "GET", "/api/auth/me")).json().profile.role).toBe("admin");
    expect(await auditActions(owner.tenantId, created.id)).toEqual(["user.created", "user.role_changed"]);

    const care = await call(owner, "PATCH", `/api/users/${created.id}/role`, { role: "profissional" });
    expect(care.statusCode).toBe(409);
    expect(care.json().code).toBe("USER_COUNCIL_REQUIRED");

    // An administrator with CRM and no RQE cannot become a professional until the RQE is on record.
    const crmAdmin = (
      await call(
        owner,
        "POST",
        "/api/users",
        professionalUser({
          role: "admin",
          especialidades: [{ especialidade: "dermatologia", areas_atuacao: [], rqe: "" }],
        }),
      )
    ).json();
    const noRqe = await call(owner, "PATCH", `/api/users/${crmAdmin.id}/role`, { role: "profissional" });
    expect(noRqe.statusCode).toBe(409);
    expect(noRqe.json().message).toBe("RQE é obrigatório para cada especialidade do CRM");

    const ownerRow = await call(owner, "PATCH", `/api/users/${owner.profileId}/role`, { role: "atendente" });
    expect(ownerRow.statusCode).toBe(409);
    expect(ownerRow.json().message).toBe("A função do proprietário da clínica não pode ser alterada.");

    const other = await newEstablishment(ctx.app);
    expect((await call(other, "PATCH", `/api/users/${created.id}/role`, { role: "auditor" })).statusCode).toBe(404);
    const bad = await call(owner, "PATCH", `/api/users/${created.id}/role`, { role: "dono" });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().issues).toContainEqual({ path: "role", message: "Selecione a função" });
  });
});

describe("sign-in of users added by the owner", () => {
  it("a deactivated user is refused even with the right password, and no e-mail address is revealed otherwise", async () => {
    const body = professionalUser({
      role: "auditor",
      conselho_tipo: "",
      especialidades: [],
      email: uniqueEmail("auditor"),
    });
    const created = (await call(owner, "POST", "/api/users", body)).json();
    await call(owner, "PATCH", `/api/users/${created.id}/status`, { is_active: false });
    expect((await signIn(body.email, "senha-errada-123")).json().code).toBe("INVALID_CREDENTIALS");
    expect((await signIn(body.email, body.password)).json().code).toBe("ACCOUNT_INACTIVE");
  });
});
