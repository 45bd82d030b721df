import { sql } from "drizzle-orm";
import { rawRows } from "../../src/db/raw.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { establishmentSignUp, professionalSignUp } from "../helpers/factories.js";
import { createTestApp, type TestContext } from "../helpers/test-app.js";

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(async () => {
  await ctx.close();
});

const signUp = (payload: unknown) =>
  ctx.app.inject({ method: "POST", url: "/api/auth/sign-up", payload: payload as object });

describe("POST /api/auth/sign-up", () => {
  it("creates an independent professional with a tenant of their own, as its owner", async () => {
    const payload = professionalSignUp();
    const response = await signUp(payload);
    expect(response.statusCode).toBe(201);
    const { tenant_id, profile_id } = response.json();
    const rows = await rawRows(
      ctx.database.db,
      sql`select p.email, p.is_proprietario, p.role, p.password_hash, p.cpf, p.especialidade, p.rqe, p.crm,
                 t.tipo_perfil, t.nome as tenant_nome
          from profiles p join tenants t on t.id = p.tenant_id where p.id = ${profile_id} and t.id = ${tenant_id}`,
    );
    const row = rows[0] as Record<string, unknown>;
    expect(row).toMatchObject({
      email: payload.email,
      is_proprietario: true,
      role: "profissional",
      cpf: payload.cpf,
      especialidade: "dermatologia",
      rqe: "45678",
      crm: "123456",
      tipo_perfil: "profissional_independente",
      tenant_nome: payload.nome,
    });
    expect(String(row.password_hash)).toMatch(/^\$argon2id\$/);
    expect(String(row.password_hash)).not.toContain(payload.password);
  });

  it("creates an establishment tenant with its address and an owner profile", async () => {
    const payload = establishmentSignUp({ cnpj: "11.222.333/0001-81", cep: "01310-100" });
    const response = await signUp(payload);
    expect(response.statusCode).toBe(201);
    const rows = await rawRows(
      ctx.database.db,
      sql`select t.* from tenants t where t.id = ${response.json().tenant_id}`,
    );
    expect(rows[0]).toMatchObject({
      tipo_perfil: "estabelecimento",
      tipo_estabelecimento: "clinica",
      razao_social: "Clínica Vida Plena Ltda",
      nome: "Clínica Vida Plena",
      cnpj: "11222333000181",
      cep: "01310100",
      estado: "SP",
      numero: "1000",
    });
  });

  it("accepts the new alphanumeric CNPJ", async () => {
    const response = await signUp(establishmentSignUp({ cnpj: "12.ABC.345/01DE-35" }));
    expect(response.statusCode).toBe(201);
  });

  it("refuses a duplicate e-mail, whatever its case, with the spec's message", async () => {
    const first = professionalSignUp();
    expect((await signUp(first)).statusCode).toBe(201);
    const again = await signUp(professionalSignUp({ email: first.email.toUpperCase() }));
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({
      code: "EMAIL_TAKEN",
      message: "Este email já está cadastrado. Tente fazer login.",
    });
  });

  it("lets only one of two simultaneous sign-ups with one e-mail through", async () => {
    const payload = professionalSignUp();
    const results = await Promise.all([signUp(payload), signUp({ ...payload, cpf: professionalSignUp().cpf })]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([201, 409]);
  });

  it("needs no specialty for COREN, CREFITO or CRBM", async () => {
    for (const conselho_tipo of ["COREN", "CREFITO", "CRBM"]) {
      const response = await signUp(professionalSignUp({ conselho_tipo, especialidades: [] }));
      expect(response.statusCode, conselho_tipo).toBe(201);
    }
  });

  const broken: [string, Record<string, unknown>, string, string][] = [
    [
      "short password",
      { password: "12345", confirmPassword: "12345" },
      "password",
      "A senha deve ter pelo menos 8 caracteres",
    ],
    [
      "7-character password",
      { password: "abc1234", confirmPassword: "abc1234" },
      "password",
      "A senha deve ter pelo menos 8 caracteres",
    ],
    [
      "common password",
      { password: "12345678", confirmPassword: "12345678" },
      "password",
      "Esta senha é muito comum e fácil de adivinhar. Escolha outra.",
    ],
    [
      "common Portuguese password",
      { password: "senha123", confirmPassword: "senha123" },
      "password",
      "Esta senha é muito comum e fácil de adivinhar. Escolha outra.",
    ],
    [
      "common password in capitals",
      { password: "Brasil123", confirmPassword: "Brasil123" },
      "password",
      "Esta senha é muito comum e fácil de adivinhar. Escolha outra.",
    ],
    ["confirmation differs", { confirmPassword: "outra-senha" }, "confirmPassword", "As senhas não coincidem"],
    [
      "CRM specialty without RQE",
      { especialidades: [{ especialidade: "dermatologia", areas_atuacao: [], rqe: "" }] },
      "especialidades.0.rqe",
      "RQE é obrigatório para cada especialidade do CRM",
    ],
    ["CRM without specialty", { especialidades: [] }, "especialidades", "Pelo menos uma especialidade é obrigatória"],
    [
      "CRO without specialty",
      { conselho_tipo: "CRO", especialidades: [{ especialidade: "", areas_atuacao: [], rqe: null }] },
      "especialidades",
      "Pelo menos uma especialidade é obrigatória",
    ],
    [
      "three specialties",
      {
        especialidades: [
          { especialidade: "dermatologia", areas_atuacao: [], rqe: "1" },
          { especialidade: "cirurgia_plastica", areas_atuacao: [], rqe: "2" },
          { especialidade: "pediatria", areas_atuacao: [], rqe: "3" },
        ],
      },
      "especialidades",
      "Máximo de 2 especialidades permitidas",
    ],
    [
      "four areas",
      { especialidades: [{ especialidade: "pediatria", areas_atuacao: ["a", "b", "c", "d"], rqe: "1" }] },
      "especialidades.0.areas_atuacao",
      "Máximo de 3 áreas de atuação por especialidade",
    ],
    [
      "specialty of another council",
      { conselho_tipo: "CRO", especialidades: [{ especialidade: "dermatologia", areas_atuacao: [], rqe: null }] },
      "especialidades.0.especialidade",
      "Especialidade não pertence ao conselho escolhido",
    ],
    ["bad CPF", { cpf: "123.456.789-00" }, "cpf", "CPF inválido"],
    ["CPF of equal digits", { cpf: "111.111.111-11" }, "cpf", "CPF inválido"],
    ["blank name", { nome: "   " }, "nome", "Informe o nome completo"],
    ["bad e-mail", { email: "nao-e-email" }, "email", "E-mail inválido"],
    ["no council number", { conselho_numero: "" }, "conselho_numero", "Informe o número do conselho"],
    ["unknown UF", { conselho_uf: "XX" }, "conselho_uf", "Selecione a UF"],
    ["unknown council", { conselho_tipo: "CRQ" }, "conselho_tipo", "Selecione o conselho"],
  ];
  it.each(broken)("refuses a professional with %s", async (_label, override, path, message) => {
    const response = await signUp(professionalSignUp(override));
    expect(response.statusCode).toBe(400);
    const body = response.json();
    expect(body.code).toBe("VALIDATION");
    expect(body.issues).toContainEqual({ path, message });
  });

  const brokenEstablishment: [string, Record<string, unknown>, string, string][] = [
    [
      "no establishment type",
      { tipo_estabelecimento: undefined },
      "tipo_estabelecimento",
      "Selecione o tipo de estabelecimento",
    ],
    ["no razão social", { razao_social: "" }, "razao_social", "Informe a razão social"],
    ["bad CNPJ", { cnpj: "11.222.333/0001-80" }, "cnpj", "CNPJ inválido"],
    ["no CEP", { cep: "" }, "cep", "Informe o CEP"],
    ["short CEP", { cep: "0131-010" }, "cep", "CEP inválido"],
    ["no número", { numero: "" }, "numero", "Informe o número"],
    ["no bairro", { bairro: "" }, "bairro", "Informe o bairro"],
    ["no cidade", { cidade: "" }, "cidade", "Informe a cidade"],
    ["no logradouro", { logradouro: "" }, "logradouro", "Informe o logradouro"],
    ["bad CNES", { cnes: "12" }, "cnes", "O CNES tem 7 dígitos"],
    [
      "common owner password",
      { password: "password1", confirmPassword: "password1" },
      "password",
      "Esta senha é muito comum e fácil de adivinhar. Escolha outra.",
    ],
    ["CRM without specialty", { especialidades: [] }, "especialidades", "Selecione pelo menos uma especialidade"],
  ];
  it.each(brokenEstablishment)("refuses an establishment with %s", async (_label, override, path, message) => {
    const response = await signUp(establishmentSignUp(override));
    expect(response.statusCode).toBe(400);
    expect(response.json().issues).toContainEqual({ path, message });
  });

  it("keeps optional establishment fields optional", async () => {
    const response = await signUp(establishmentSignUp({ nome_fantasia: "", cnes: "", complemento: "", telefone: "" }));
    expect(response.statusCode).toBe(201);
  });

  it("answers malformed bodies with a clear 400 and creates nothing", async () => {
    const before = await rawRows(ctx.database.db, sql`select count(*)::int as n from tenants`);
    const notJson = await ctx.app.inject({
      method: "POST",
      url: "/api/auth/sign-up",
      headers: { "content-type": "application/json" },
      payload: "{ isto não é json",
    });
    expect(notJson.statusCode).toBe(400);
    expect(notJson.json()).toMatchObject({ code: "BAD_REQUEST", message: "Requisição inválida." });

    const wrongType = await signUp({ ...professionalSignUp(), especialidades: "dermatologia" });
    expect(wrongType.statusCode).toBe(400);
    expect(wrongType.json().code).toBe("VALIDATION");

    const unknownKind = await signUp({ ...professionalSignUp(), profile_type: "hospital" });
    expect(unknownKind.statusCode).toBe(400);

    const huge = await signUp({ ...professionalSignUp(), nome: "x".repeat(2 * 1024 * 1024) });
    expect(huge.statusCode).toBe(413);
    expect(huge.json().code).toBe("PAYLOAD_TOO_LARGE");

    const after = await rawRows(ctx.database.db, sql`select count(*)::int as n from tenants`);
    expect(after[0]).toEqual(before[0]);
  });
});
