import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rawRows } from "../../src/db/raw.js";
import { latestMail } from "../helpers/outbox.js";
import { newClinic, newStaff, type SignedIn } from "../helpers/sessions.js";
import { createTestApp, sessionCookieFrom, type TestContext, uniqueEmail } from "../helpers/test-app.js";
import { newEstablishment } from "./users-helpers.js";

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
const signIn = (email: string, password: string) =>
  ctx.app.inject({ method: "POST", url: "/api/auth/sign-in", payload: { email, password } });
const me = async (who: SignedIn) => (await call(who, "GET", "/api/auth/me")).json().profile;

/** The form as the page sends it: every field, from the current profile, with `changes`. */
async function formOf(who: SignedIn, changes: Record<string, unknown> = {}) {
  const p = await me(who);
  return {
    nome: p.nome,
    telefone: p.telefone ?? "",
    email: p.email,
    cpf: p.cpf,
    conselho_tipo: p.conselho_tipo ?? "",
    conselho_numero: p.conselho_numero ?? "",
    conselho_uf: p.conselho_uf ?? "",
    especialidades: p.especialidades,
    ...changes,
  };
}

async function auditOf(tenantId: string, entityId: string) {
  return rawRows<{ action: string; data: Record<string, unknown>; actor_profile_id: string }>(
    ctx.database.db,
    sql`select action, data, actor_profile_id from audit_events where tenant_id = ${tenantId} and entity_id = ${entityId} order by seq`,
  );
}

describe("PATCH /api/profile", () => {
  it("lets the owner change name, phone, council and specialties (sign-up's rules), audited", async () => {
    const body = await formOf(owner, {
      nome: "Dr. Ricardo Almeida Souza Filho",
      telefone: "(21) 99876-5432",
      conselho_tipo: "CRM",
      conselho_numero: "556677",
      conselho_uf: "RJ",
      especialidades: [
        { especialidade: "dermatologia", areas_atuacao: ["hansenologia"], rqe: "1122" },
        { especialidade: "cirurgia_plastica", areas_atuacao: [], rqe: "3344" },
      ],
    });
    const response = await call(owner, "PATCH", "/api/profile", body);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().profile).toMatchObject({
      nome: "Dr. Ricardo Almeida Souza Filho",
      telefone: "21998765432",
      conselho_tipo: "CRM",
      conselho_numero: "556677",
      conselho_uf: "RJ",
      crm: "556677",
      especialidade: "dermatologia",
      rqe: "1122",
    });
    expect(response.json().profile).not.toHaveProperty("password_hash");
    expect((await me(owner)).especialidades).toHaveLength(2);
    const events = await auditOf(owner.tenantId, owner.profileId);
    const updated = events.find((e) => e.action === "profile.updated");
    expect(updated?.actor_profile_id).toBe(owner.profileId);
    expect(updated?.data.campos).toEqual(["nome", "telefone", "conselho_numero", "conselho_uf", "especialidades"]);
  });

  it("refuses what sign-up refuses, in Portuguese, on each field", async () => {
    const cases: [Record<string, unknown>, string, string][] = [
      [{ nome: "  " }, "nome", "Informe o nome completo"],
      [{ telefone: "123" }, "telefone", "Telefone inválido"],
      [{ email: "sem-arroba" }, "email", "E-mail inválido"],
      [{ cpf: "111.111.111-11" }, "cpf", "CPF inválido"],
      [{ conselho_numero: "" }, "conselho_numero", "Informe o número do conselho"],
      [{ especialidades: [] }, "especialidades", "Selecione pelo menos uma especialidade"],
      [
        { especialidades: [{ especialidade: "dermatologia", areas_atuacao: ["a", "b", "c", "d"], rqe: "1" }] },
        "especialidades.0.areas_atuacao",
        "Máximo de 3 áreas de atuação por especialidade",
      ],
      [
        { especialidades: [{ especialidade: "implantodontia", areas_atuacao: [], rqe: "1" }] },
        "especialidades.0.especialidade",
        "Especialidade não pertence ao conselho escolhido",
      ],
      // The owner is a professional: a CRM specialty needs its RQE, and a council is required.
      [
        { especialidades: [{ especialidade: "dermatologia", areas_atuacao: [], rqe: "" }] },
        "especialidades.0.rqe",
        "RQE é obrigatório para cada especialidade do CRM",
      ],
      [{ conselho_tipo: "" }, "conselho_tipo", "Selecione o conselho"],
    ];
    for (const [changes, path, message] of cases) {
      const response = await call(owner, "PATCH", "/api/profile", await formOf(owner, changes));
      expect(response.statusCode, JSON.stringify(changes)).toBe(400);
      expect(response.json().issues, JSON.stringify(changes)).toContainEqual({ path, message });
    }
  });

  it("lets an attendant without a council and an administrator with CRM but no RQE save", async () => {
    const atendente = await newStaff(ctx.app, ctx.database, owner.tenantId, "atendente");
    const saved = await call(
      atendente,
      "PATCH",
      "/api/profile",
      await formOf(atendente, { nome: "Paula Recepção", telefone: "(11) 3333-4444" }),
    );
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().profile).toMatchObject({
      nome: "Paula Recepção",
      telefone: "1133334444",
      conselho_tipo: null,
      especialidades: [],
    });

    const admin = await newStaff(ctx.app, ctx.database, owner.tenantId, "admin");
    const crm = {
      conselho_tipo: "CRM",
      conselho_numero: "1",
      conselho_uf: "SP",
      especialidades: [{ especialidade: "pediatria", areas_atuacao: [], rqe: "" }],
    };
    expect((await call(admin, "PATCH", "/api/profile", await formOf(admin, crm))).statusCode).toBe(200);
    const profissional = await newStaff(ctx.app, ctx.database, owner.tenantId, "profissional");
    const refused = await call(profissional, "PATCH", "/api/profile", await formOf(profissional, crm));
    expect(refused.statusCode).toBe(400);
    expect(refused.json().issues).toEqual([
      { path: "especialidades.0.rqe", message: "RQE é obrigatório para cada especialidade do CRM" },
    ]);
    expect((await call(profissional, "PATCH", "/api/profile", await formOf(profissional))).json().issues).toEqual([
      { path: "conselho_tipo", message: "Selecione o conselho" },
    ]);
  });

  it("asks the current password to change the e-mail or the CPF, keeps them unique, and tells the old address", async () => {
    const staff = await newStaff(ctx.app, ctx.database, owner.tenantId, "atendente");
    const newEmail = uniqueEmail("novo-email");
    const noPassword = await call(staff, "PATCH", "/api/profile", await formOf(staff, { email: newEmail }));
    expect(noPassword.statusCode).toBe(400);
    expect(noPassword.json()).toMatchObject({
      code: "PROFILE_PASSWORD_REQUIRED",
      issues: [{ path: "senha_atual", message: "Informe sua senha atual para alterar o e-mail ou o CPF." }],
    });
    const wrong = await call(
      staff,
      "PATCH",
      "/api/profile",
      await formOf(staff, { email: newEmail, senha_atual: "errada-123" }),
    );
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({
      code: "PROFILE_WRONG_PASSWORD",
      issues: [{ path: "senha_atual", message: "Senha atual incorreta." }],
    });

    // Someone else's e-mail (another clinic's owner) and CPF (a colleague's).
    const elsewhere = await newClinic(ctx.app);
    const taken = await call(
      staff,
      "PATCH",
      "/api/profile",
      await formOf(staff, { email: elsewhere.email.toUpperCase(), senha_atual: staff.password }),
    );
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toMatchObject({
      code: "USER_EMAIL_TAKEN",
      issues: [{ path: "email", message: "Este e-mail já está cadastrado no Consentir. Use outro e-mail." }],
    });
    const colleague = await me(owner);
    const cpfTaken = await call(
      staff,
      "PATCH",
      "/api/profile",
      await formOf(staff, { cpf: colleague.cpf, senha_atual: staff.password }),
    );
    expect(cpfTaken.statusCode).toBe(409);
    expect(cpfTaken.json()).toMatchObject({
      code: "USER_CPF_TAKEN",
      issues: [{ path: "cpf", message: "Já existe um usuário com este CPF nesta clínica." }],
    });
    // Another clinic's person may share a CPF (decision 017).
    const otherClinicCpf = (await me(elsewhere)).cpf;
    const cpf = await call(
      staff,
      "PATCH",
      "/api/profile",
      await formOf(staff, { cpf: otherClinicCpf, senha_atual: staff.password }),
    );
    expect(cpf.statusCode, cpf.body).toBe(200);

    const moved = await call(
      staff,
      "PATCH",
      "/api/profile",
      await formOf(staff, { email: newEmail, senha_atual: staff.password }),
    );
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json().profile.email).toBe(newEmail);
    expect((await signIn(newEmail, staff.password)).statusCode).toBe(200);
    expect((await signIn(staff.email, staff.password)).statusCode).toBe(401);
    const notice = await latestMail(ctx, staff.email);
    expect(notice?.subject).toBe("Consentir — o e-mail da sua conta foi alterado");
    expect(notice?.text).toContain(newEmail);
    const events = await auditOf(owner.tenantId, staff.profileId);
    expect(events.filter((e) => e.action === "profile.updated").at(-1)?.data).toMatchObject({
      campos: ["email"],
      email: { antes: staff.email, depois: newEmail },
    });
  });

  it("keeps an independent professional's account name in step with their own", async () => {
    const solo = await newClinic(ctx.app);
    const response = await call(
      solo,
      "PATCH",
      "/api/profile",
      await formOf(solo, { nome: "Dra. Helena Prado Martins" }),
    );
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().tenant.nome).toBe("Dra. Helena Prado Martins");
  });

  it("takes who it is from the session only: ids in the body change nothing elsewhere", async () => {
    const other = await newClinic(ctx.app);
    const before = await me(other);
    const response = await call(owner, "PATCH", "/api/profile", {
      ...(await formOf(owner)),
      id: other.profileId,
      tenant_id: other.tenantId,
      nome: "Nome Trocado",
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().profile.id).toBe(owner.profileId);
    expect((await me(other)).nome).toBe(before.nome);
    expect((await call(null, "PATCH", "/api/profile", await formOf(owner))).statusCode).toBe(401);
  });

  it("answers malformed bodies with 400 in Portuguese", async () => {
    for (const payload of [[], { nome: 42 }, { especialidades: "x" }]) {
      const response = await call(owner, "PATCH", "/api/profile", payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json().message).not.toMatch(/Invalid|expected|Required/);
    }
    const notJson = await ctx.app.inject({
      method: "PATCH",
      url: "/api/profile",
      headers: { cookie: owner.cookie, "content-type": "application/json" },
      payload: "{nome",
    });
    expect(notJson.statusCode).toBe(400);
  });
});

describe("POST /api/profile/password", () => {
  it("checks the current password, ends every other session of the user (not this one), and the new password signs in", async () => {
    for (const role of ["admin", "profissional", "atendente"] as const) {
      const user = await newStaff(ctx.app, ctx.database, owner.tenantId, role);
      const second = sessionCookieFrom(await signIn(user.email, user.password));
      const colleague = await newStaff(ctx.app, ctx.database, owner.tenantId, "atendente");
      const wrong = await call(user, "POST", "/api/profile/password", {
        senha_atual: "nao-e-ela-1",
        nova_senha: "jardim-azul-42",
        confirmar_senha: "jardim-azul-42",
      });
      expect(wrong.statusCode).toBe(400);
      expect(wrong.json()).toMatchObject({
        code: "PROFILE_WRONG_PASSWORD",
        issues: [{ path: "senha_atual", message: "Senha atual incorreta." }],
      });
      expect((await call({ cookie: second }, "GET", "/api/auth/me")).statusCode).toBe(200);

      const changed = await call(user, "POST", "/api/profile/password", {
        senha_atual: user.password,
        nova_senha: "jardim-azul-42",
        confirmar_senha: "jardim-azul-42",
      });
      expect(changed.statusCode, changed.body).toBe(200);
      expect(changed.json()).toEqual({ sessions_ended: 1 });
      expect((await call({ cookie: second }, "GET", "/api/auth/me")).statusCode, role).toBe(401);
      expect((await call(user, "GET", "/api/auth/me")).statusCode, role).toBe(200);
      expect((await call(colleague, "GET", "/api/auth/me")).statusCode).toBe(200);
      expect((await signIn(user.email, user.password)).statusCode).toBe(401);
      expect((await signIn(user.email, "jardim-azul-42")).statusCode).toBe(200);
      const events = await auditOf(owner.tenantId, user.profileId);
      expect(events.find((e) => e.action === "profile.password_changed")?.data).toEqual({ sessions_ended: 1 });
    }
  });

  it("refuses a weak, unconfirmed or unchanged new password with the shared messages", async () => {
    const cases: [Record<string, unknown>, string, string][] = [
      [
        { senha_atual: "", nova_senha: "jardim-azul-42", confirmar_senha: "jardim-azul-42" },
        "senha_atual",
        "Informe sua senha atual",
      ],
      [
        { senha_atual: "x", nova_senha: "curta", confirmar_senha: "curta" },
        "nova_senha",
        "A senha deve ter pelo menos 8 caracteres",
      ],
      [
        { senha_atual: "x", nova_senha: "12345678", confirmar_senha: "12345678" },
        "nova_senha",
        "Esta senha é muito comum e fácil de adivinhar. Escolha outra.",
      ],
      [
        { senha_atual: "x", nova_senha: "jardim-azul-42", confirmar_senha: "jardim-azul-24" },
        "confirmar_senha",
        "As senhas não coincidem",
      ],
    ];
    for (const [body, path, message] of cases) {
      const response = await call(owner, "POST", "/api/profile/password", body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json().issues).toContainEqual({ path, message });
    }
    const valid = { senha_atual: "x", nova_senha: "jardim-azul-42", confirmar_senha: "jardim-azul-42" };
    expect((await call(null, "POST", "/api/profile/password", valid)).statusCode).toBe(401);
  });

  it("counts wrong current passwords toward the account's sign-in lock (decision 011)", async () => {
    const user = await newStaff(ctx.app, ctx.database, owner.tenantId, "atendente");
    const attempt = (senha: string) =>
      call(user, "POST", "/api/profile/password", {
        senha_atual: senha,
        nova_senha: "jardim-azul-42",
        confirmar_senha: "jardim-azul-42",
      });
    for (let i = 0; i < 5; i++) expect((await attempt(`errada-${i}`)).statusCode).toBe(400);
    const locked = await attempt(user.password);
    expect(locked.statusCode).toBe(429);
    expect(locked.json().code).toBe("SIGN_IN_LOCKED");
    expect(Number(locked.headers["retry-after"])).toBeGreaterThan(0);
    expect((await signIn(user.email, user.password)).statusCode).toBe(429);
  });

  it("stops an unused password-reset link from working after the change", async () => {
    const user = await newStaff(ctx.app, ctx.database, owner.tenantId, "profissional");
    await ctx.app.inject({ method: "POST", url: "/api/auth/password-reset/request", payload: { email: user.email } });
    const mail = await latestMail(ctx, user.email);
    const token = /redefinir-senha\?token=([A-Za-z0-9_-]+)/.exec(mail?.text ?? "")?.[1];
    expect(token).toBeTruthy();
    expect(
      (
        await call(user, "POST", "/api/profile/password", {
          senha_atual: user.password,
          nova_senha: "jardim-azul-42",
          confirmar_senha: "jardim-azul-42",
        })
      ).statusCode,
    ).toBe(200);
    const reset = await ctx.app.inject({
      method: "POST",
      url: "/api/auth/password-reset/confirm",
      payload: { token, password: "outra-senha-99", confirmPassword: "outra-senha-99" },
    });
    expect(reset.statusCode).toBe(400);
    expect(reset.json().code).toBe("RESET_TOKEN_INVALID");
  });
});
