import { and, eq, sql } from "drizzle-orm";
import type { LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { rawRows } from "../../src/db/raw.js";
import { procedimentos, profiles } from "../../src/db/schema.js";
import { FAKE_FEEGOW_TOKEN, type FakeFeegowServer, startFakeFeegowServer } from "../fakes/feegow-server.js";
import { validCpf } from "../helpers/factories.js";
import { newClinic, newStaff, type SignedIn } from "../helpers/sessions.js";
import { createTestApp, type TestContext, uniqueEmail } from "../helpers/test-app.js";
import { newEstablishment } from "./users-helpers.js";

/**
 * second step: professionals (as invited users, by CPF) and procedures (by name, price
 * in centavos) imported from the fake Feegow — never twice, re-import updates, roles, another
 * clinic's data, malformed bodies.
 */
let fake: FakeFeegowServer;
let ctx: TestContext;

beforeAll(async () => {
  fake = await startFakeFeegowServer();
  ctx = await createTestApp({ env: { FEEGOW_URL: fake.url, FEEGOW_TIMEOUT_MS: "1000" } });
});
afterAll(async () => {
  await ctx?.close();
  await fake?.close();
});
beforeEach(() => fake.reset());

function call(
  who: SignedIn | null,
  method: "GET" | "PUT" | "POST" | "DELETE",
  url: string,
  payload?: unknown,
): Promise<LightMyRequestResponse> {
  return ctx.app.inject({
    method,
    url,
    ...(payload === undefined ? {} : { payload: payload as object }),
    headers: who ? { cookie: who.cookie } : {},
  });
}

/** The owner saved the fake's token, tested it and turned these switches on. */
async function connect(clinic: SignedIn, switches: Record<string, boolean>): Promise<SignedIn> {
  expect((await call(clinic, "PUT", "/api/integration/feegow", { token: FAKE_FEEGOW_TOKEN })).statusCode).toBe(200);
  expect((await call(clinic, "POST", "/api/integration/feegow/test")).statusCode).toBe(200);
  expect((await call(clinic, "PUT", "/api/integration/feegow", { integrations: switches })).statusCode).toBe(200);
  return clinic;
}

/** Feegow professionals with CPFs and e-mails no other test (or earlier run on PostgreSQL) used. */
function freshProfessionals() {
  const marina = { ...fake.professionals[0], cpf: validCpf(), email: uniqueEmail("marina") };
  const paulo = { ...fake.professionals[1], cpf: validCpf(), email: uniqueEmail("paulo") };
  const semCpf = {
    profissional_id: 40,
    nome: "Enf. Rita Souza",
    conselho: "COREN",
    documento_conselho: "998877",
    uf_conselho: "MG",
    email: uniqueEmail("rita"),
    cpf: "",
    especialidades: [],
  };
  const semRqe = {
    profissional_id: 41,
    nome: "Dr. Caio Nunes",
    conselho: "CRM",
    documento_conselho: "445566",
    uf_conselho: "SP",
    email: uniqueEmail("caio"),
    cpf: validCpf(),
    rqe: "",
    especialidades: [{ nome_especialidade: "Dermatologia" }],
  };
  const psicologa = {
    profissional_id: 42,
    nome: "Lia Prado",
    conselho: "CRP",
    documento_conselho: "06/1234",
    uf_conselho: "SP",
    email: uniqueEmail("lia"),
    cpf: validCpf(),
    especialidades: [],
  };
  fake.professionals = [marina, paulo, semCpf, semRqe, psicologa];
  return { marina, paulo, semCpf, semRqe, psicologa };
}

describe("procedures from Feegow", () => {
  it("lists Feegow's procedures beside ours, imports them with the price in reais, and never twice", async () => {
    const clinic = await connect(await newClinic(ctx.app), { procedures: true });
    // One of ours already has the name, spelled differently.
    const mine = await call(clinic, "POST", "/api/procedures", {
      nome: "  TOXINA  botulinica ",
      descricao: "Nossa descrição",
    });
    expect(mine.statusCode).toBe(201);

    const listed = await call(clinic, "GET", "/api/integration/feegow/procedures");
    expect(listed.statusCode).toBe(200);
    expect(listed.json().items).toEqual([
      {
        feegow_id: 301,
        nome: "Toxina botulínica",
        valor_centavos: 120000,
        valor: "R$ 1.200,00",
        situacao: "desatualizado",
        procedimento_id: mine.json().id,
      },
      {
        feegow_id: 302,
        nome: "Preenchimento labial",
        valor_centavos: 185050,
        valor: "R$ 1.850,50",
        situacao: "novo",
        procedimento_id: null,
      },
    ]);

    const one = await call(clinic, "POST", "/api/integration/feegow/procedures/import", { ids: [302] });
    expect(one.statusCode).toBe(200);
    expect(one.json()).toMatchObject({ criados: 1, atualizados: 0, inalterados: 0 });
    expect(one.json().items.map((i: { situacao: string }) => i.situacao)).toEqual(["desatualizado", "importado"]);

    const all = await call(clinic, "POST", "/api/integration/feegow/procedures/import", { todos: true });
    expect(all.json()).toMatchObject({ criados: 0, atualizados: 1, inalterados: 1 });
    const again = await call(clinic, "POST", "/api/integration/feegow/procedures/import", { todos: true });
    expect(again.json()).toMatchObject({ criados: 0, atualizados: 0, inalterados: 2 });

    const rows = await ctx.database.db
      .select({
        nome: procedimentos.nome,
        descricao: procedimentos.descricao,
        feegow: procedimentos.feegow_procedimento_id,
        valor: procedimentos.valor_centavos,
        privado: procedimentos.is_private,
      })
      .from(procedimentos)
      .where(eq(procedimentos.tenant_id, clinic.tenantId))
      .orderBy(procedimentos.nome);
    expect(rows).toEqual(
      [
        {
          nome: "  TOXINA  botulinica ".trim(),
          descricao: "Nossa descrição",
          feegow: 301,
          valor: 120000,
          privado: false,
        },
        { nome: "Preenchimento labial", descricao: null, feegow: 302, valor: 185050, privado: false },
      ].sort((a, b) => a.nome.localeCompare(b.nome)),
    );

    // Re-import updates: Feegow changed a price and renamed one; still two procedures.
    fake.procedures = [
      { procedimento_id: 301, nome: "Toxina Botulínica (frasco)", valor: 130000 },
      { procedimento_id: 302, nome: "Preenchimento labial", valor: 185050 },
    ];
    const updated = await call(clinic, "POST", "/api/integration/feegow/procedures/import", { todos: true });
    expect(updated.json()).toMatchObject({ criados: 0, atualizados: 1, inalterados: 1 });
    const [count] = await rawRows<{ n: number }>(
      ctx.database.db,
      sql`select count(*)::int as n from procedimentos where tenant_id = ${clinic.tenantId}`,
    );
    expect(count?.n).toBe(2);
    const [toxina] = await ctx.database.db
      .select()
      .from(procedimentos)
      .where(and(eq(procedimentos.tenant_id, clinic.tenantId), eq(procedimentos.feegow_procedimento_id, 301)));
    expect(toxina?.valor_centavos).toBe(130000);

    const audit = await rawRows<{ data: string }>(
      ctx.database.db,
      sql`select data::text as data from audit_events where tenant_id = ${clinic.tenantId} and action = 'integration.feegow_procedures_imported' order by seq`,
    );
    expect(audit).toHaveLength(4);
    expect(JSON.parse(audit[0]!.data)).toMatchObject({ criados: 1, atualizados: 0, ids: [302] });
  });

  it("two imports at the same moment still make one copy of each procedure", async () => {
    const clinic = await connect(await newClinic(ctx.app), { procedures: true });
    const results = await Promise.all(
      [1, 2, 3].map(() => call(clinic, "POST", "/api/integration/feegow/procedures/import", { todos: true })),
    );
    expect(results.map((r) => r.statusCode)).toEqual([200, 200, 200]);
    expect(results.reduce((sum, r) => sum + (r.json().criados as number), 0)).toBe(2);
    const [count] = await rawRows<{ n: number }>(
      ctx.database.db,
      sql`select count(*)::int as n from procedimentos where tenant_id = ${clinic.tenantId}`,
    );
    expect(count?.n).toBe(2);
  });

  it("needs the procedures switch, the owner or an administrator, and says what Feegow answered", async () => {
    const clinic = await connect(await newClinic(ctx.app), { patients: true });
    const off = await call(clinic, "GET", "/api/integration/feegow/procedures");
    expect(off.statusCode).toBe(409);
    expect(off.json()).toMatchObject({
      code: "FEEGOW_FEATURE_DISABLED",
      message: expect.stringContaining("importação de procedimentos"),
    });
    expect((await call(clinic, "POST", "/api/integration/feegow/procedures/import", { todos: true })).statusCode).toBe(
      409,
    );

    await call(clinic, "PUT", "/api/integration/feegow", { integrations: { procedures: true } });
    const admin = await newStaff(ctx.app, ctx.database, clinic.tenantId, "admin");
    expect((await call(admin, "GET", "/api/integration/feegow/procedures")).statusCode).toBe(200);
    for (const role of ["profissional", "atendente", "juridico", "auditor", "pro_saude"] as const) {
      const member = await newStaff(ctx.app, ctx.database, clinic.tenantId, role);
      expect((await call(member, "GET", "/api/integration/feegow/procedures")).statusCode, role).toBe(403);
      expect(
        (await call(member, "POST", "/api/integration/feegow/procedures/import", { todos: true })).statusCode,
        role,
      ).toBe(403);
    }
    expect((await call(null, "POST", "/api/integration/feegow/procedures/import", { todos: true })).statusCode).toBe(
      401,
    );

    fake.mode = "success_false";
    const failed = await call(clinic, "POST", "/api/integration/feegow/procedures/import", { todos: true });
    expect(failed.statusCode).toBe(502);
    expect(failed.json()).toMatchObject({
      code: "FEEGOW_ERROR",
      message: "O Feegow respondeu com erro: Erro interno ao processar a solicitação",
      details: { motivo: "sem_sucesso" },
    });
    fake.mode = "wrong_shape";
    expect((await call(clinic, "GET", "/api/integration/feegow/procedures")).json().details.motivo).toBe(
      "resposta_invalida",
    );
    fake.reset();
    // A procedure without a price, and one Feegow sends malformed, are taken as they come or refused whole.
    fake.procedures = [{ procedimento_id: 9, nome: "Consulta" }];
    expect((await call(clinic, "GET", "/api/integration/feegow/procedures")).json().items).toEqual([
      { feegow_id: 9, nome: "Consulta", valor_centavos: null, valor: null, situacao: "novo", procedimento_id: null },
    ]);
    fake.procedures = [{ procedimento_id: "x", nome: "" }];
    expect((await call(clinic, "GET", "/api/integration/feegow/procedures")).statusCode).toBe(502);
    const [count] = await rawRows<{ n: number }>(
      ctx.database.db,
      sql`select count(*)::int as n from procedimentos where tenant_id = ${clinic.tenantId}`,
    );
    expect(count?.n).toBe(0);
  });

  it("refuses malformed bodies in Portuguese", async () => {
    const clinic = await connect(await newClinic(ctx.app), { procedures: true });
    for (const body of [
      {},
      { ids: [] },
      { ids: [0] },
      { ids: ["301"] },
      { ids: [1.5] },
      { todos: false },
      { todos: true, ids: [1] },
      { todos: true, extra: 1 },
      [],
      "x",
    ]) {
      const response = await call(clinic, "POST", "/api/integration/feegow/procedures/import", body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json().message, JSON.stringify(body)).not.toMatch(/Invalid|expected|Required/);
    }
    const [count] = await rawRows<{ n: number }>(
      ctx.database.db,
      sql`select count(*)::int as n from procedimentos where tenant_id = ${clinic.tenantId}`,
    );
    expect(count?.n).toBe(0);
  });

  it("another clinic's procedures are neither matched nor changed", async () => {
    const other = await newClinic(ctx.app);
    await call(other, "POST", "/api/procedures", { nome: "Toxina botulínica" });
    const clinic = await connect(await newClinic(ctx.app), { procedures: true });
    const result = await call(clinic, "POST", "/api/integration/feegow/procedures/import", { todos: true });
    expect(result.json()).toMatchObject({ criados: 2, atualizados: 0 });
    const [theirs] = await ctx.database.db
      .select()
      .from(procedimentos)
      .where(eq(procedimentos.tenant_id, other.tenantId));
    expect(theirs).toMatchObject({ nome: "Toxina botulínica", feegow_procedimento_id: null, valor_centavos: null });
  });
});

describe("professionals from Feegow", () => {
  it("lists them beside the clinic's users and imports them as invited users, by CPF, never twice", async () => {
    const clinic = await connect(await newEstablishment(ctx.app), { professionals: true });
    const { marina, paulo, semRqe } = freshProfessionals();

    const listed = await call(clinic, "GET", "/api/integration/feegow/professionals");
    expect(listed.statusCode).toBe(200);
    const situacao = Object.fromEntries(
      listed
        .json()
        .items.map((i: { feegow_id: number; situacao: string; motivo: string | null }) => [
          i.feegow_id,
          [i.situacao, i.motivo],
        ]),
    );
    expect(situacao).toEqual({
      12: ["novo", null],
      15: ["novo", null],
      40: ["incompleto", expect.stringContaining("CPF")],
      41: ["incompleto", expect.stringContaining("RQE")],
      42: ["incompleto", expect.stringContaining("CRP")],
    });
    expect(listed.json().items[1]).toMatchObject({
      nome: "Dr. Paulo Azevedo",
      conselho: "CRM 123456/SP",
      cpf: `***.${paulo.cpf.slice(3, 6)}.${paulo.cpf.slice(6, 9)}-**`,
    });

    const one = await call(clinic, "POST", "/api/integration/feegow/professionals/import", { ids: [15] });
    expect(one.statusCode).toBe(200);
    expect(one.json()).toMatchObject({ criados: 1, existentes: 0, ignorados: [] });
    const all = await call(clinic, "POST", "/api/integration/feegow/professionals/import", { todos: true });
    expect(all.json()).toMatchObject({ criados: 1, existentes: 1 });
    expect(all.json().ignorados.map((i: { feegow_id: number }) => i.feegow_id)).toEqual([40, 41, 42]);
    const again = await call(clinic, "POST", "/api/integration/feegow/professionals/import", { todos: true });
    expect(again.json()).toMatchObject({ criados: 0, existentes: 2 });
    expect(again.json().items.filter((i: { situacao: string }) => i.situacao === "existente")).toHaveLength(2);

    const users = await ctx.database.db.select().from(profiles).where(eq(profiles.tenant_id, clinic.tenantId));
    const imported = users.filter((u) => u.cpf === paulo.cpf || u.cpf === marina.cpf);
    expect(imported).toHaveLength(2);
    expect(imported.find((u) => u.cpf === paulo.cpf)).toMatchObject({
      nome: "Dr. Paulo Azevedo",
      email: paulo.email,
      role: "profissional",
      conselho_tipo: "CRM",
      conselho_numero: "123456",
      conselho_uf: "SP",
      especialidades: [{ especialidade: "dermatologia", areas_atuacao: [], rqe: "4455" }],
    });
    expect(users.some((u) => u.cpf === semRqe.cpf)).toBe(false);
    // Invited: an e-mail with the link is in the outbox, and the users screen shows the invitation pending.
    const outbox = await rawRows<{ n: number }>(
      ctx.database.db,
      sql`select count(*)::int as n from email_outbox where to_address in (${paulo.email}, ${marina.email})`,
    );
    expect(outbox[0]?.n).toBe(2);
    const list = await call(clinic, "GET", `/api/users?q=${encodeURIComponent("Paulo Azevedo")}`);
    expect(list.json().items[0]).toMatchObject({ convite: { status: "pendente" } });
    const audit = await rawRows<{ action: string }>(
      ctx.database.db,
      sql`select action from audit_events where tenant_id = ${clinic.tenantId} and action in ('user.created', 'user.invited', 'integration.feegow_professionals_imported') order by seq`,
    );
    expect(audit.map((a) => a.action)).toEqual([
      "user.created",
      "user.invited",
      "integration.feegow_professionals_imported",
      "user.created",
      "user.invited",
      "integration.feegow_professionals_imported",
      "integration.feegow_professionals_imported",
    ]);
  });

  it("matches a user added by hand by CPF; an e-mail used in another clinic is reported, not imported", async () => {
    const other = await newEstablishment(ctx.app);
    const clinic = await connect(await newEstablishment(ctx.app), { professionals: true });
    const { marina, paulo } = freshProfessionals();
    const byHand = await call(clinic, "POST", "/api/users", {
      nome: "Marina C. Lima",
      email: uniqueEmail("marina.manual"),
      cpf: marina.cpf,
      role: "atendente",
      acesso: "convite",
    });
    expect(byHand.statusCode).toBe(201);
    const elsewhere = await call(other, "POST", "/api/users", {
      nome: "Paulo A.",
      email: paulo.email,
      cpf: validCpf(),
      role: "atendente",
      acesso: "convite",
    });
    expect(elsewhere.statusCode).toBe(201);

    const listed = await call(clinic, "GET", "/api/integration/feegow/professionals");
    expect(listed.json().items[0]).toMatchObject({
      feegow_id: 12,
      situacao: "existente",
      usuario_id: byHand.json().id,
    });
    const result = await call(clinic, "POST", "/api/integration/feegow/professionals/import", { ids: [12, 15] });
    expect(result.json()).toMatchObject({
      criados: 0,
      existentes: 1,
      ignorados: [{ feegow_id: 15, motivo: expect.stringContaining("e-mail") }],
    });
    const [count] = await rawRows<{ n: number }>(
      ctx.database.db,
      sql`select count(*)::int as n from profiles where tenant_id = ${clinic.tenantId}`,
    );
    expect(count?.n).toBe(2);
  });

  it("two imports at once create each person once", async () => {
    const clinic = await connect(await newEstablishment(ctx.app), { professionals: true });
    freshProfessionals();
    const results = await Promise.all(
      [1, 2, 3].map(() => call(clinic, "POST", "/api/integration/feegow/professionals/import", { todos: true })),
    );
    expect(results.map((r) => r.statusCode)).toEqual([200, 200, 200]);
    expect(results.reduce((sum, r) => sum + (r.json().criados as number), 0)).toBe(2);
    const [count] = await rawRows<{ n: number }>(
      ctx.database.db,
      sql`select count(*)::int as n from profiles where tenant_id = ${clinic.tenantId}`,
    );
    expect(count?.n).toBe(3);
  });

  it("is for the owner of an establishment, with the professionals switch on", async () => {
    const clinic = await connect(await newEstablishment(ctx.app), { patients: true });
    freshProfessionals();
    const off = await call(clinic, "GET", "/api/integration/feegow/professionals");
    expect(off.json()).toMatchObject({
      code: "FEEGOW_FEATURE_DISABLED",
      message: expect.stringContaining("importação de profissionais"),
    });
    await call(clinic, "PUT", "/api/integration/feegow", { integrations: { professionals: true } });
    for (const role of ["admin", "profissional", "atendente"] as const) {
      const member = await newStaff(ctx.app, ctx.database, clinic.tenantId, role);
      const response = await call(member, "POST", "/api/integration/feegow/professionals/import", { todos: true });
      expect(response.statusCode, role).toBe(403);
      expect(response.json(), role).toMatchObject({ code: "USERS_OWNER_ONLY", message: "Acesso negado" });
    }
    const independent = await connect(await newClinic(ctx.app), { professionals: true });
    const refused = await call(independent, "GET", "/api/integration/feegow/professionals");
    expect(refused.json()).toMatchObject({ code: "USERS_ESTABLISHMENT_ONLY" });
    fake.mode = "unauthorized";
    const failed = await call(clinic, "GET", "/api/integration/feegow/professionals");
    expect(failed.statusCode).toBe(502);
    expect(failed.json().details.motivo).toBe("token_invalido");
    fake.mode = "normal";
    for (const body of [{}, { ids: [-1] }, { todos: "sim" }]) {
      expect(
        (await call(clinic, "POST", "/api/integration/feegow/professionals/import", body)).statusCode,
        JSON.stringify(body),
      ).toBe(400);
    }
  });
});

describe("Remover token", () => {
  it("forgets the token, disconnects and turns every switch off; audited; owner or admin only", async () => {
    const clinic = await connect(await newClinic(ctx.app), { patients: true, procedures: true, file_upload: true });
    const atendente = await newStaff(ctx.app, ctx.database, clinic.tenantId, "atendente");
    expect((await call(atendente, "DELETE", "/api/integration/feegow/token")).statusCode).toBe(403);
    const removed = await call(clinic, "DELETE", "/api/integration/feegow/token");
    expect(removed.statusCode).toBe(200);
    expect(removed.json()).toMatchObject({
      configurado: false,
      token_mascarado: null,
      status: "disconnected",
      integrations: { patients: false, professionals: false, procedures: false, file_upload: false },
    });
    const stored = await rawRows<{ token: string | null }>(
      ctx.database.db,
      sql`select token_encrypted::text as token from integracoes_feegow where tenant_id = ${clinic.tenantId}`,
    );
    expect(stored[0]?.token).toBeNull();
    expect((await call(clinic, "POST", "/api/integration/feegow/test")).json().code).toBe("FEEGOW_TOKEN_MISSING");
    expect(
      (await call(clinic, "PUT", "/api/integration/feegow", { integrations: { patients: true } })).statusCode,
    ).toBe(409);
    const audit = await rawRows<{ data: string }>(
      ctx.database.db,
      sql`select data::text as data from audit_events where tenant_id = ${clinic.tenantId} and action = 'integration.feegow_token_removed'`,
    );
    expect(audit).toHaveLength(1);
    expect(JSON.parse(audit[0]!.data)).toEqual({
      tinha_token: true,
      integracoes_desligadas: ["patients", "procedures", "file_upload"],
    });
    expect(audit[0]!.data).not.toContain(FAKE_FEEGOW_TOKEN);
    // Saving a token again starts over (rotation): disconnected until tested.
    expect((await call(clinic, "PUT", "/api/integration/feegow", { token: FAKE_FEEGOW_TOKEN })).json()).toMatchObject({
      configurado: true,
      status: "disconnected",
    });
  });
});
