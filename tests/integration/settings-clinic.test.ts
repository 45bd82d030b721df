import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rawRows } from "../../src/db/raw.js";
import { validCnpj } from "../helpers/factories.js";
import { newClinic, newStaff, type SignedIn } from "../helpers/sessions.js";
import { signableDocument } from "../helpers/signing.js";
import { createTestApp, type TestContext } from "../helpers/test-app.js";
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

const call = (who: { cookie: string } | null, method: "GET" | "PUT", url: string, payload?: unknown) =>
  ctx.app.inject({
    method,
    url,
    headers: who ? { cookie: who.cookie } : {},
    ...(payload === undefined ? {} : { payload: payload as object }),
  });

function clinicBody(overrides: Record<string, unknown> = {}) {
  return {
    tipo_perfil: "estabelecimento",
    tipo_estabelecimento: "policlinica",
    razao_social: "Policlínica Horizonte Ltda",
    nome_fantasia: "Policlínica Horizonte",
    cnpj: validCnpj(),
    cnes: "7654321",
    cep: "20040-020",
    estado: "RJ",
    cidade: "Rio de Janeiro",
    bairro: "Centro",
    logradouro: "Avenida Rio Branco",
    numero: "156",
    complemento: "Sala 1201",
    telefone: "(21) 2222-3333",
    validade_documento_dias: 15,
    ...overrides,
  };
}

describe("GET/PUT /api/settings/clinic", () => {
  it("shows sign-up's data with the spec's 7 days, saves the clinic's data, audited, and keeps the signing option", async () => {
    const clinic = await newEstablishment(ctx.app);
    const initial = await call(clinic, "GET", "/api/settings/clinic");
    expect(initial.statusCode, initial.body).toBe(200);
    expect(initial.json()).toMatchObject({
      tipo_perfil: "estabelecimento",
      razao_social: "Clínica Vida Plena Ltda",
      nome_fantasia: "Clínica Vida Plena",
      validade_documento_dias: 7,
    });
    expect(
      (
        await ctx.app.inject({
          method: "PUT",
          url: "/api/settings/signing",
          headers: { cookie: clinic.cookie },
          payload: { codigo_email: false },
        })
      ).statusCode,
    ).toBe(200);

    const body = clinicBody();
    const saved = await call(clinic, "PUT", "/api/settings/clinic", body);
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toEqual({
      tipo_perfil: "estabelecimento",
      tipo_estabelecimento: "policlinica",
      nome: "Policlínica Horizonte",
      razao_social: "Policlínica Horizonte Ltda",
      nome_fantasia: "Policlínica Horizonte",
      cnpj: body.cnpj,
      cnes: "7654321",
      cep: "20040020",
      estado: "RJ",
      cidade: "Rio de Janeiro",
      bairro: "Centro",
      logradouro: "Avenida Rio Branco",
      numero: "156",
      complemento: "Sala 1201",
      telefone: "2122223333",
      validade_documento_dias: 15,
    });
    expect((await call(clinic, "GET", "/api/settings/clinic")).json()).toEqual(saved.json());
    // The name shown across the app follows (nome fantasia, or the razão social).
    expect((await call(clinic, "GET", "/api/auth/me")).json().tenant.nome).toBe("Policlínica Horizonte");
    expect(
      (await call(clinic, "PUT", "/api/settings/clinic", clinicBody({ nome_fantasia: "", cnpj: body.cnpj }))).json()
        .nome,
    ).toBe("Policlínica Horizonte Ltda");
    // The signing option written before is kept (jsonb_set on one key).
    expect((await call(clinic, "GET", "/api/settings/signing")).json().codigo_email).toBe(false);

    const events = await rawRows<{ data: Record<string, unknown> }>(
      ctx.database.db,
      sql`select data from audit_events where tenant_id = ${clinic.tenantId} and action = 'settings.clinic_updated' order by seq`,
    );
    expect(events).toHaveLength(2);
    expect(events[0]?.data).toMatchObject({ validade_documento_dias: { antes: 7, depois: 15 } });
    expect(events[0]?.data.campos).toEqual(expect.arrayContaining(["cep", "telefone", "razao_social", "cnpj", "nome"]));
    expect(events[1]?.data).toEqual({ campos: ["nome", "nome_fantasia"] });
  });

  it("gives new documents the clinic's validity; documents made before keep theirs; other clinics keep 7 days", async () => {
    const clinic = await newClinic(ctx.app);
    const before = await signableDocument(ctx.app, clinic);
    const saved = await call(clinic, "PUT", "/api/settings/clinic", {
      tipo_perfil: "profissional_independente",
      validade_documento_dias: 15,
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const after = await signableDocument(ctx.app, clinic, { versionId: before.versionId, nome: "Bruno Costa" });
    const days = async (who: SignedIn, id: string) => {
      const doc = (
        await ctx.app.inject({ method: "GET", url: `/api/documents/${id}`, headers: { cookie: who.cookie } })
      ).json();
      return Math.round((Date.parse(doc.expiracao_at) - Date.parse(doc.created_at)) / 86_400_000);
    };
    expect(await days(clinic, after.documentId)).toBe(15);
    expect(await days(clinic, before.documentId)).toBe(7);
    const other = await newClinic(ctx.app);
    expect((await call(other, "GET", "/api/settings/clinic")).json().validade_documento_dias).toBe(7);
    const otherDoc = await signableDocument(ctx.app, other);
    expect(await days(other, otherDoc.documentId)).toBe(7);
  });

  it("shows an independent professional only what applies to them, and refuses the other kind of form", async () => {
    const solo = await newClinic(ctx.app);
    const saved = await call(solo, "PUT", "/api/settings/clinic", {
      tipo_perfil: "profissional_independente",
      cep: "01310-100",
      estado: "SP",
      cidade: "São Paulo",
      bairro: "Bela Vista",
      logradouro: "Avenida Paulista",
      numero: "1000",
      telefone: "(11) 98888-7777",
      validade_documento_dias: 10,
      // Not an independent professional's: dropped by the schema.
      razao_social: "Empresa Fantasma",
      cnpj: validCnpj(),
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toMatchObject({
      tipo_perfil: "profissional_independente",
      razao_social: null,
      cnpj: null,
      cep: "01310100",
      telefone: "11988887777",
      validade_documento_dias: 10,
    });
    const mismatch = await call(solo, "PUT", "/api/settings/clinic", clinicBody());
    expect(mismatch.statusCode).toBe(400);
    expect(mismatch.json().code).toBe("SETTINGS_ACCOUNT_MISMATCH");
    const alsoMismatch = await call(owner, "PUT", "/api/settings/clinic", {
      tipo_perfil: "profissional_independente",
      validade_documento_dias: 10,
    });
    expect(alsoMismatch.json().code).toBe("SETTINGS_ACCOUNT_MISMATCH");
  });

  it("refuses bad data with sign-up's messages, on each field", async () => {
    const cases: [Record<string, unknown>, string, string][] = [
      [{ razao_social: " " }, "razao_social", "Informe a razão social"],
      [{ cnpj: "11.222.333/0001-82" }, "cnpj", "CNPJ inválido"],
      [{ cnes: "123" }, "cnes", "O CNES tem 7 dígitos"],
      [{ cep: "123" }, "cep", "CEP inválido"],
      [{ estado: "XX" }, "estado", "Selecione a UF"],
      [{ numero: "" }, "numero", "Informe o número"],
      [{ telefone: "12" }, "telefone", "Telefone inválido"],
      [{ validade_documento_dias: 0 }, "validade_documento_dias", "Informe um prazo entre 1 e 90 dias"],
      [{ validade_documento_dias: 91 }, "validade_documento_dias", "Informe um prazo entre 1 e 90 dias"],
      [{ validade_documento_dias: "7" }, "validade_documento_dias", "Informe um prazo entre 1 e 90 dias"],
    ];
    for (const [changes, path, message] of cases) {
      const response = await call(owner, "PUT", "/api/settings/clinic", clinicBody(changes));
      expect(response.statusCode, JSON.stringify(changes)).toBe(400);
      expect(response.json().issues, JSON.stringify(changes)).toContainEqual({ path, message });
    }
    for (const payload of [[], { tipo_perfil: "outro" }, "texto"]) {
      const response = await call(owner, "PUT", "/api/settings/clinic", payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json().message).not.toMatch(/Invalid|expected|Required/);
    }
  });

  it("is the owner's and administrators' only: 'Acesso negado' (403) to the others, 401 signed out", async () => {
    const admin = await newStaff(ctx.app, ctx.database, owner.tenantId, "admin");
    expect((await call(admin, "GET", "/api/settings/clinic")).statusCode).toBe(200);
    expect(
      (await call(admin, "PUT", "/api/settings/clinic", clinicBody({ validade_documento_dias: 20 }))).statusCode,
    ).toBe(200);
    for (const role of ["profissional", "atendente", "juridico", "auditor", "pro_saude"] as const) {
      const staff = await newStaff(ctx.app, ctx.database, owner.tenantId, role);
      for (const [method, body] of [
        ["GET", undefined],
        ["PUT", clinicBody()],
      ] as const) {
        const response = await call(staff, method, "/api/settings/clinic", body);
        expect(response.statusCode, `${role} ${method}`).toBe(403);
        expect(response.json()).toMatchObject({ code: "SETTINGS_ACCESS_DENIED", message: "Acesso negado" });
      }
    }
    expect((await call(owner, "GET", "/api/settings/clinic")).json().validade_documento_dias).toBe(20);
    expect((await call(null, "GET", "/api/settings/clinic")).statusCode).toBe(401);
    expect((await call(null, "PUT", "/api/settings/clinic", clinicBody())).statusCode).toBe(401);
  });
});
