import { sql } from "drizzle-orm";
import type { LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { rawRows } from "../../src/db/raw.js";
import { integracoesFeegow } from "../../src/db/schema.js";
import { withTenant } from "../../src/db/tenant-scope.js";
import {
  FAKE_FEEGOW_INACTIVE_TOKEN,
  FAKE_FEEGOW_TOKEN,
  type FakeFeegowMode,
  type FakeFeegowServer,
  startFakeFeegowServer,
} from "../fakes/feegow-server.js";
import { validCpf } from "../helpers/factories.js";
import { newClinic, newStaff, type SignedIn } from "../helpers/sessions.js";
import { createTestApp, type TestContext } from "../helpers/test-app.js";

/**
 * first step: the clinic's Feegow settings (token sealed, never answered), "Testar
 * conexão", the switches, and "Buscar no Feegow" for the new-patient form — against the local fake.
 */
let fake: FakeFeegowServer;
let ctx: TestContext;
let owner: SignedIn;
/** Every answer of this file, to check that the token never leaves the server. */
const answers: string[] = [];

const HELENA_CPF = "52998224725";

beforeAll(async () => {
  fake = await startFakeFeegowServer();
  ctx = await createTestApp({ env: { FEEGOW_URL: fake.url, FEEGOW_TIMEOUT_MS: "500" } });
  owner = await newClinic(ctx.app);
});
afterAll(async () => {
  await ctx?.close();
  await fake?.close();
});
beforeEach(() => {
  fake.reset();
  fake.slowMs = 1500;
});

async function call(
  who: SignedIn | null,
  method: "GET" | "PUT" | "POST",
  url: string,
  payload?: unknown,
): Promise<LightMyRequestResponse> {
  const response = await ctx.app.inject({
    method,
    url,
    ...(payload === undefined ? {} : { payload: payload as object }),
    headers: who ? { cookie: who.cookie } : {},
  });
  answers.push(response.body);
  return response;
}
const settings = (who: SignedIn) => call(who, "GET", "/api/integration/feegow");
const save = (who: SignedIn, body: unknown) => call(who, "PUT", "/api/integration/feegow", body);
const test = (who: SignedIn) => call(who, "POST", "/api/integration/feegow/test");
const search = (who: SignedIn, cpf: unknown) => call(who, "POST", "/api/integration/feegow/patients/search", { cpf });

/** A clinic whose owner saved the fake's token, tested it and turned the patients switch on. */
async function connectedClinic(): Promise<SignedIn> {
  const clinic = await newClinic(ctx.app);
  expect((await save(clinic, { token: FAKE_FEEGOW_TOKEN })).statusCode).toBe(200);
  expect((await test(clinic)).statusCode).toBe(200);
  expect((await save(clinic, { integrations: { patients: true } })).statusCode).toBe(200);
  return clinic;
}

async function storedRow(tenantId: string): Promise<string> {
  const rows = await rawRows<{ t: string }>(
    ctx.database.db,
    sql`select row_to_json(f)::text as t from integracoes_feegow f where tenant_id = ${tenantId}`,
  );
  return rows[0]?.t ?? "";
}

describe("GET/PUT /api/integration/feegow", () => {
  it("starts disconnected with nothing saved", async () => {
    const clinic = await newClinic(ctx.app);
    const response = await settings(clinic);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      configurado: false,
      token_mascarado: null,
      status: "disconnected",
      integrations: { patients: false, professionals: false, procedures: false, file_upload: false },
      last_sync: null,
      ultimo_erro: null,
      updated_at: null,
    });
  });

  it("keeps the token sealed in the database and answers only its last four characters", async () => {
    const clinic = await newClinic(ctx.app);
    const response = await save(clinic, { token: `  ${FAKE_FEEGOW_TOKEN}  ` });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ configurado: true, token_mascarado: "••••1234", status: "disconnected" });
    expect(response.body).not.toContain(FAKE_FEEGOW_TOKEN);
    expect((await settings(clinic)).json()).toMatchObject({ configurado: true, token_mascarado: "••••1234" });

    const row = await storedRow(clinic.tenantId);
    expect(row).not.toBe("");
    expect(row).not.toContain(FAKE_FEEGOW_TOKEN);
    expect(row).not.toContain(Buffer.from(FAKE_FEEGOW_TOKEN).toString("hex"));
    const [stored] = await ctx.database.db
      .select()
      .from(integracoesFeegow)
      .where(sql`tenant_id = ${clinic.tenantId}`);
    expect(ctx.app.services.secretBox.open(stored!.token_encrypted!).toString("utf8")).toBe(FAKE_FEEGOW_TOKEN);

    // The audit trail says the token changed, never what it is.
    const audit = await rawRows<{ action: string; data: string }>(
      ctx.database.db,
      sql`select action, data::text as data from audit_events where tenant_id = ${clinic.tenantId} and action like 'integration.%'`,
    );
    expect(audit).toEqual([
      { action: "integration.feegow_updated", data: expect.stringContaining('"token_alterado": true') },
    ]);
    expect(audit[0]!.data).not.toContain(FAKE_FEEGOW_TOKEN);
  });

  it("refuses malformed bodies with pt-BR messages", async () => {
    const bad: [unknown, string][] = [
      [{}, "Informe o token ou as integrações a alterar"],
      [{ token: "" }, "Digite o token do Feegow"],
      [{ token: "   " }, "Digite o token do Feegow"],
      [{ token: "abc def" }, "O token não pode conter espaços"],
      [{ token: 12345 }, "Digite o token do Feegow"],
      [{ token: "a\u0000b" }, "O texto contém caracteres inválidos (caractere nulo ou de codificação incompleta)"],
      [{ token: "x".repeat(2001) }, "Token longo demais"],
    ];
    for (const [body, message] of bad) {
      const response = await save(owner, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json(), JSON.stringify(body)).toMatchObject({ code: "VALIDATION", message });
    }
    for (const body of [
      { integrations: { patients: "sim" } },
      { integrations: { agenda: true } },
      { token: "abc", extra: 1 },
      [],
    ]) {
      const response = await save(owner, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json().code).toBe("VALIDATION");
    }
    const broken = await ctx.app.inject({
      method: "PUT",
      url: "/api/integration/feegow",
      headers: { cookie: owner.cookie, "content-type": "application/json" },
      payload: "{token:",
    });
    expect(broken.statusCode).toBe(400);
    expect(broken.json().code).toBe("BAD_REQUEST");
  });

  it("lets a switch turn on only with a token tested successfully; off always", async () => {
    const clinic = await newClinic(ctx.app);
    const early = await save(clinic, { integrations: { patients: true } });
    expect(early.statusCode).toBe(409);
    expect(early.json()).toMatchObject({ code: "FEEGOW_NOT_CONNECTED" });

    await save(clinic, { token: FAKE_FEEGOW_TOKEN });
    expect((await save(clinic, { integrations: { patients: true } })).statusCode).toBe(409);
    expect((await test(clinic)).statusCode).toBe(200);
    const on = await save(clinic, { integrations: { patients: true, file_upload: true } });
    expect(on.statusCode).toBe(200);
    expect(on.json().integrations).toEqual({
      patients: true,
      professionals: false,
      procedures: false,
      file_upload: true,
    });

    // A new token goes back to disconnected until tested; the switches stay as they were, and can be turned off.
    const newToken = await save(clinic, { token: "fgw_live_outro_token_abcdefgh5678" });
    expect(newToken.json()).toMatchObject({
      status: "disconnected",
      token_mascarado: "••••5678",
      last_sync: expect.any(String),
    });
    expect(newToken.json().integrations.patients).toBe(true);
    expect((await save(clinic, { integrations: { procedures: true } })).statusCode).toBe(409);
    const off = await save(clinic, { integrations: { file_upload: false } });
    expect(off.statusCode).toBe(200);
    expect(off.json().integrations.file_upload).toBe(false);
  });

  it("is for the owner and administrators only; everyone needs a session", async () => {
    const admin = await newStaff(ctx.app, ctx.database, owner.tenantId, "admin");
    expect((await settings(admin)).statusCode).toBe(200);
    expect((await save(admin, { token: FAKE_FEEGOW_TOKEN })).statusCode).toBe(200);
    for (const role of ["profissional", "atendente", "juridico", "auditor", "pro_saude"] as const) {
      const member = await newStaff(ctx.app, ctx.database, owner.tenantId, role);
      for (const response of [
        await settings(member),
        await save(member, { token: "fgw_tentativa_0000000000000" }),
        await test(member),
      ]) {
        expect(response.statusCode, role).toBe(403);
        expect(response.json(), role).toEqual({ code: "FORBIDDEN", message: "Você não tem permissão para esta ação." });
      }
    }
    for (const [method, url, body] of [
      ["GET", "/api/integration/feegow", undefined],
      ["PUT", "/api/integration/feegow", { token: "fgw_sem_sessao_000000000000" }],
      ["POST", "/api/integration/feegow/test", undefined],
      ["GET", "/api/integration/feegow/features", undefined],
      ["POST", "/api/integration/feegow/patients/search", { cpf: HELENA_CPF }],
    ] as const) {
      const response = await call(null, method, url, body);
      expect(response.statusCode, url).toBe(401);
    }
  });

  it("keeps each clinic's settings to itself (WHERE and row-level security)", async () => {
    const a = await connectedClinic();
    const b = await newClinic(ctx.app);
    expect((await settings(b)).json()).toMatchObject({ configurado: false, status: "disconnected" });
    expect((await test(b)).json()).toMatchObject({ code: "FEEGOW_TOKEN_MISSING", message: "Token não configurado" });
    expect((await save(b, { integrations: { patients: true } })).statusCode).toBe(409);
    expect((await search(b, HELENA_CPF)).json().code).toBe("FEEGOW_FEATURE_DISABLED");
    expect((await save(b, { token: FAKE_FEEGOW_INACTIVE_TOKEN })).statusCode).toBe(200);
    expect((await settings(a)).json()).toMatchObject({
      status: "connected",
      token_mascarado: "••••1234",
      integrations: { patients: true },
    });

    // Inside clinic b's tenant transaction, PostgreSQL itself shows no other clinic's row.
    const seen = await withTenant(ctx.database.db, b.tenantId, (tx) =>
      tx.select({ tenant_id: integracoesFeegow.tenant_id }).from(integracoesFeegow),
    );
    expect(seen).toEqual([{ tenant_id: b.tenantId }]);
    await expect(
      withTenant(ctx.database.db, b.tenantId, (tx) =>
        tx.insert(integracoesFeegow).values({ tenant_id: a.tenantId, status: "connected" }),
      ),
    ).rejects.toThrow();
  });
});

describe("POST /api/integration/feegow/test (Testar conexão)", () => {
  it("says 'Token não configurado' without a token", async () => {
    const clinic = await newClinic(ctx.app);
    const response = await test(clinic);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ code: "FEEGOW_TOKEN_MISSING", message: "Token não configurado" });
    expect(fake.requests).toHaveLength(0);
  });

  it("validates the token with one cheap call: connected, last_sync set, audited", async () => {
    const clinic = await newClinic(ctx.app);
    await save(clinic, { token: FAKE_FEEGOW_TOKEN });
    const response = await test(clinic);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      ok: true,
      message: "Token Feegow validado com sucesso",
      settings: { status: "connected", configurado: true, ultimo_erro: null, last_sync: expect.any(String) },
    });
    expect(fake.requests).toEqual([
      { method: "GET", path: "/professional/list?ativo=1", token: FAKE_FEEGOW_TOKEN, body: null },
    ]);
    const audit = await rawRows<{ data: string }>(
      ctx.database.db,
      sql`select data::text as data from audit_events where tenant_id = ${clinic.tenantId} and action = 'integration.feegow_tested'`,
    );
    expect(audit.map((a) => JSON.parse(a.data))).toEqual([{ resultado: "ok" }]);
  });

  it("tells an unknown token from a deactivated one, and sets status error with the reason", async () => {
    const clinic = await newClinic(ctx.app);
    await save(clinic, { token: "fgw_live_token_desconhecido_0000" });
    const unknown = await test(clinic);
    expect(unknown.statusCode).toBe(502);
    expect(unknown.json()).toMatchObject({
      code: "FEEGOW_ERROR",
      message: "Erro ao conectar com Feegow: Token do Feegow ausente ou inválido. Confira o token salvo.",
      details: { motivo: "token_invalido", status: "error" },
    });
    expect((await settings(clinic)).json()).toMatchObject({
      status: "error",
      ultimo_erro: "Token do Feegow ausente ou inválido. Confira o token salvo.",
      last_sync: null,
    });

    await save(clinic, { token: FAKE_FEEGOW_INACTIVE_TOKEN });
    const inactive = await test(clinic);
    expect(inactive.json()).toMatchObject({ code: "FEEGOW_ERROR", details: { motivo: "token_inativo" } });
    expect(inactive.json().message).toContain("Token do Feegow inativo");
  });

  const failures: [FakeFeegowMode, string, string][] = [
    ["unauthorized", "token_invalido", "Token do Feegow ausente ou inválido"],
    ["inactive", "token_inativo", "Token do Feegow inativo"],
    ["conflict", "recusado", "O Feegow recusou a solicitação: Registro em conflito com outro já existente"],
    ["unprocessable", "recusado", "O Feegow recusou a solicitação: Parâmetro paciente_cpf inválido"],
    ["success_false", "sem_sucesso", "O Feegow respondeu com erro: Erro interno ao processar a solicitação"],
    ["server_error", "http", "O Feegow respondeu com erro (HTTP 500)"],
    ["not_json", "resposta_invalida", "O Feegow enviou uma resposta inesperada"],
    ["wrong_shape", "resposta_invalida", "O Feegow enviou uma resposta inesperada"],
    ["slow", "tempo_esgotado", "O Feegow não respondeu a tempo"],
    ["drop", "sem_conexao", "Não foi possível conectar ao Feegow"],
  ];

  it.each(failures)(
    "maps Feegow's %s to 502 %s, status error, and recovers on the next good test",
    async (mode, motivo, words) => {
      const clinic = await newClinic(ctx.app);
      await save(clinic, { token: FAKE_FEEGOW_TOKEN });
      fake.mode = mode;
      const response = await test(clinic);
      expect(response.statusCode).toBe(502);
      expect(response.json().code).toBe("FEEGOW_ERROR");
      expect(response.json().details.motivo).toBe(motivo);
      expect(response.json().message).toContain(`Erro ao conectar com Feegow: ${words}`);
      expect((await settings(clinic)).json().status).toBe("error");
      fake.mode = "normal";
      expect((await test(clinic)).json().settings).toMatchObject({ status: "connected", ultimo_erro: null });
    },
  );
});

describe("POST /api/integration/feegow/patients/search (Buscar no Feegow)", () => {
  it("answers the form's fields and the Feegow id, for any staff member who registers patients", async () => {
    const clinic = await connectedClinic();
    const attendant = await newStaff(ctx.app, ctx.database, clinic.tenantId, "atendente");
    expect((await call(attendant, "GET", "/api/integration/feegow/features")).json()).toEqual({
      patients: true,
      professionals: false,
      procedures: false,
      file_upload: false,
    });
    fake.reset();
    const response = await search(attendant, "529.982.247-25");
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      feegow_patient_id: 4817,
      nome: "Helena Duarte Vasconcelos",
      cpf: HELENA_CPF,
      telefone: "11998765432",
      email: "helena.vasconcelos@example.com",
      data_nascimento: "1979-09-23",
      sexo: "feminino",
      endereco: {
        cep: "01310100",
        logradouro: "Avenida Paulista",
        numero: "900",
        complemento: "Apto 71",
        bairro: "Bela Vista",
        cidade: "São Paulo",
        uf: "SP",
      },
    });
    expect(fake.requests.map((r) => r.path)).toEqual([
      `/patient/list?cpf=${HELENA_CPF}`,
      `/patient/search?paciente_cpf=${HELENA_CPF}`,
    ]);
    const audit = await rawRows<{ data: string }>(
      ctx.database.db,
      sql`select data::text as data from audit_events where tenant_id = ${clinic.tenantId} and action = 'integration.feegow_patient_searched'`,
    );
    expect(audit.map((a) => JSON.parse(a.data))).toEqual([
      { cpf: "***.982.247-**", encontrado: true, feegow_patient_id: 4817 },
    ]);

    for (const role of ["auditor", "juridico"] as const) {
      const reader = await newStaff(ctx.app, ctx.database, clinic.tenantId, role);
      expect((await search(reader, HELENA_CPF)).json()).toMatchObject({ code: "FORBIDDEN" });
      expect((await call(reader, "GET", "/api/integration/feegow/features")).statusCode).toBe(200);
    }
  });

  it("says 'Paciente não encontrado' for a CPF Feegow does not know", async () => {
    const clinic = await connectedClinic();
    const response = await search(clinic, validCpf());
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ code: "FEEGOW_PATIENT_NOT_FOUND", message: "Paciente não encontrado" });
  });

  it("says 'Integração desabilitada' with the patients text while the switch is off", async () => {
    const clinic = await connectedClinic();
    await save(clinic, { integrations: { patients: false } });
    fake.reset();
    const response = await search(clinic, HELENA_CPF);
    expect(response.statusCode).toBe(409);
    expect(response.json()).toMatchObject({
      code: "FEEGOW_FEATURE_DISABLED",
      message:
        "Integração desabilitada: A busca de pacientes no Feegow está desativada. O proprietário ou um administrador pode ativá-la em Integração.",
      details: { feature: "patients" },
    });
    expect(fake.requests).toHaveLength(0);
    expect((await call(clinic, "GET", "/api/integration/feegow/features")).json().patients).toBe(false);
  });

  it("refuses a missing or invalid CPF", async () => {
    const clinic = await connectedClinic();
    for (const [body, message] of [
      [{}, "Informe o CPF"],
      [{ cpf: "" }, "Informe o CPF"],
      [{ cpf: "123.456.789-00" }, "CPF inválido"],
      [{ cpf: 52998224725 }, "Informe o CPF"],
    ] as const) {
      const response = await call(clinic, "POST", "/api/integration/feegow/patients/search", body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json(), JSON.stringify(body)).toMatchObject({ code: "VALIDATION", message });
    }
  });

  it.each<[FakeFeegowMode, string]>([
    ["unauthorized", "token_invalido"],
    ["inactive", "token_inativo"],
    ["conflict", "recusado"],
    ["unprocessable", "recusado"],
    ["success_false", "sem_sucesso"],
    ["slow", "tempo_esgotado"],
    ["drop", "sem_conexao"],
    ["not_json", "resposta_invalida"],
  ])("maps Feegow's %s to 502 %s (never 500)", async (mode, motivo) => {
    const clinic = await connectedClinic();
    fake.mode = mode;
    const response = await search(clinic, HELENA_CPF);
    expect(response.statusCode).toBe(502);
    expect(response.json()).toMatchObject({ code: "FEEGOW_ERROR", details: { motivo } });
    expect(response.json().message).toMatch(/Feegow/);
  });
});

describe("the Feegow patient id on the patient", () => {
  it("is kept when a patient is saved from the form filled by Feegow, and kept by an edit that does not carry it", async () => {
    const created = await call(owner, "POST", "/api/patients", {
      nome: "Helena Duarte Vasconcelos",
      cpf: HELENA_CPF,
      feegow_patient_id: 4817,
    });
    expect(created.statusCode).toBe(201);
    const id = created.json().id as string;
    const stored = async () =>
      (
        await rawRows<{ f: number | null }>(
          ctx.database.db,
          sql`select feegow_patient_id as f from pacientes where id = ${id}`,
        )
      )[0]?.f;
    expect(await stored()).toBe(4817);
    expect(
      (await call(owner, "PUT", `/api/patients/${id}`, { nome: "Helena D. Vasconcelos", cpf: HELENA_CPF })).statusCode,
    ).toBe(200);
    expect(await stored()).toBe(4817);
    expect(
      (
        await call(owner, "PUT", `/api/patients/${id}`, {
          nome: "Helena D. Vasconcelos",
          cpf: HELENA_CPF,
          feegow_patient_id: 5000,
        })
      ).statusCode,
    ).toBe(200);
    expect(await stored()).toBe(5000);
    for (const bad of [-1, 0, 1.5, "4817", 2 ** 31]) {
      const response = await call(owner, "POST", "/api/patients", { nome: "Outra Pessoa", feegow_patient_id: bad });
      expect(response.statusCode, String(bad)).toBe(400);
      expect(response.json().message, String(bad)).toBe("Identificador do Feegow inválido");
    }
  });
});

describe("the token", () => {
  it("never appeared in any answer of this file", () => {
    expect(answers.length).toBeGreaterThan(50);
    for (const body of answers) {
      expect(body).not.toContain(FAKE_FEEGOW_TOKEN);
      expect(body).not.toContain(FAKE_FEEGOW_INACTIVE_TOKEN);
    }
  });
});
