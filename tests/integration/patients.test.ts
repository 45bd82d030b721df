import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rawRows } from "../../src/db/raw.js";
import { insertDocument } from "../helpers/documents.js";
import { validCpf } from "../helpers/factories.js";
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

function formatCpf(digits: string) {
  return `${digits.slice(0, 3)}.${digits.slice(3, 6)}.${digits.slice(6, 9)}-${digits.slice(9)}`;
}

async function create(who: SignedIn, overrides: Record<string, unknown> = {}) {
  const response = await call(who, "POST", "/api/patients", {
    nome: "Maria Aparecida da Silva",
    cpf: formatCpf(validCpf()),
    data_nascimento: "1985-03-14",
    sexo: "feminino",
    telefone: "(11) 98765-4321",
    email: "Maria.Silva@Exemplo.com.br",
    cep: "01310-100",
    logradouro: "Avenida Paulista",
    numero: "1000",
    bairro: "Bela Vista",
    cidade: "São Paulo",
    uf: "SP",
    ...overrides,
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json();
}

describe("patients: create, read, update, delete", () => {
  it("creates a patient with normalized fields and reads it back; the view is audited", async () => {
    const patient = await create(clinic, { cpf: "529.982.247-25" });
    expect(patient).toMatchObject({
      nome: "Maria Aparecida da Silva",
      cpf: "52998224725",
      telefone: "11987654321",
      email: "maria.silva@exemplo.com.br",
      cep: "01310100",
      uf: "SP",
      contratos_count: 0,
      endereco: "Avenida Paulista, 1000, Bela Vista, São Paulo/SP — CEP 01310-100",
    });
    const read = await call(clinic, "GET", `/api/patients/${patient.id}`);
    expect(read.statusCode).toBe(200);
    expect(read.json().id).toBe(patient.id);
    const events = await rawRows<{ action: string; actor_profile_id: string; ip_address: string }>(
      ctx.database.db,
      sql`select action, actor_profile_id, ip_address from audit_events where entity_id = ${patient.id} order by created_at`,
    );
    expect(events.map((e) => e.action)).toEqual(["patient.created", "patient.viewed"]);
    expect(events[1]).toMatchObject({ actor_profile_id: clinic.profileId, ip_address: "127.0.0.1" });
  });

  it("needs only the name; refuses a missing name, a bad CPF and other bad fields with pt-BR messages", async () => {
    const minimal = await call(clinic, "POST", "/api/patients", { nome: "  João Pedro  " });
    expect(minimal.statusCode).toBe(201);
    expect(minimal.json()).toMatchObject({ nome: "João Pedro", cpf: null, email: null });

    const cases: [Record<string, unknown>, string, string][] = [
      [{}, "nome", "Informe o nome do paciente"],
      [{ nome: "   " }, "nome", "Informe o nome do paciente"],
      [{ nome: "A", cpf: "123.456.789-00" }, "cpf", "CPF inválido"],
      [{ nome: "A", responsavel_cpf: "111.111.111-11" }, "responsavel_cpf", "CPF do responsável inválido"],
      [{ nome: "A", email: "sem-arroba" }, "email", "E-mail inválido"],
      [{ nome: "A", telefone: "123" }, "telefone", "Telefone inválido"],
      [{ nome: "A", cep: "123" }, "cep", "CEP inválido"],
      [{ nome: "A", uf: "ZZ" }, "uf", "Selecione a UF"],
      [
        { nome: "A", data_nascimento: "2999-01-01" },
        "data_nascimento",
        "A data de nascimento não pode estar no futuro",
      ],
      [{ nome: "A", data_nascimento: "14/03/1985" }, "data_nascimento", "Data inválida"],
    ];
    for (const [body, path, message] of cases) {
      const response = await call(clinic, "POST", "/api/patients", body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json().issues, JSON.stringify(body)).toContainEqual({ path, message });
    }
  });

  it("answers malformed bodies and ids with 400", async () => {
    const notJson = await ctx.app.inject({
      method: "POST",
      url: "/api/patients",
      headers: { cookie: clinic.cookie, "content-type": "application/json" },
      payload: "[nome",
    });
    expect(notJson.statusCode).toBe(400);
    expect((await call(clinic, "POST", "/api/patients", { nome: 42 })).statusCode).toBe(400);
    expect((await call(clinic, "POST", "/api/patients", ["nome"])).statusCode).toBe(400);
    expect((await call(clinic, "GET", "/api/patients/nao-e-uuid")).statusCode).toBe(400);
    expect((await call(clinic, "GET", "/api/patients?limit=5000")).statusCode).toBe(400);
    expect((await call(clinic, "GET", "/api/patients?cursor=lixo")).statusCode).toBe(400);
  });

  it("refuses a CPF already registered in the same clinic, naming the patient; other clinics may reuse it", async () => {
    const cpf = validCpf();
    const first = await create(clinic, { cpf, nome: "Ana Beatriz Rocha" });
    const again = await call(clinic, "POST", "/api/patients", { nome: "Outra Pessoa", cpf: formatCpf(cpf) });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({
      code: "PATIENT_CPF_TAKEN",
      message: "Já existe um paciente com este CPF nesta clínica.",
      details: { patient_id: first.id, nome: "Ana Beatriz Rocha" },
    });
    const elsewhere = await call(other, "POST", "/api/patients", { nome: "Ana em outra clínica", cpf });
    expect(elsewhere.statusCode).toBe(201);

    const second = await create(clinic, { nome: "Segundo" });
    const clash = await call(clinic, "PUT", `/api/patients/${second.id}`, { nome: "Segundo", cpf });
    expect(clash.statusCode).toBe(409);
    const keepOwn = await call(clinic, "PUT", `/api/patients/${first.id}`, { nome: "Ana Beatriz Rocha Lima", cpf });
    expect(keepOwn.statusCode).toBe(200);
  });

  it("updates every field and clears the ones left blank", async () => {
    const patient = await create(clinic);
    const response = await call(clinic, "PUT", `/api/patients/${patient.id}`, {
      nome: "Maria A. Silva",
      telefone: "(21) 3456-7890",
      responsavel_nome: "José da Silva",
      responsavel_cpf: formatCpf(validCpf()),
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      nome: "Maria A. Silva",
      telefone: "2134567890",
      cpf: null,
      email: null,
      uf: null,
      responsavel_nome: "José da Silva",
    });
  });

  it("never shows or changes another clinic's patient (404), and RLS agrees", async () => {
    const mine = await create(clinic);
    for (const [method, body] of [
      ["GET", undefined],
      ["PUT", { nome: "Invasor" }],
      ["DELETE", undefined],
    ] as const) {
      const response = await call(other, method, `/api/patients/${mine.id}`, body);
      expect(response.statusCode, method).toBe(404);
      expect(response.json()).toEqual({ code: "NOT_FOUND", message: "Paciente não encontrado" });
    }
    const list = await call(other, "GET", "/api/patients?limit=100");
    expect(list.json().items.map((p: { id: string }) => p.id)).not.toContain(mine.id);
    const still = await call(clinic, "GET", `/api/patients/${mine.id}`);
    expect(still.json().nome).toBe(mine.nome);
  });

  it("asks for a session", async () => {
    expect((await call(null, "GET", "/api/patients")).statusCode).toBe(401);
    expect((await call(null, "POST", "/api/patients", { nome: "X" })).statusCode).toBe(401);
  });

  it("follows the role policy: auditors read only; only owners and admins delete", async () => {
    const patient = await create(clinic);
    const auditor = await newStaff(ctx.app, ctx.database, clinic.tenantId, "auditor");
    const atendente = await newStaff(ctx.app, ctx.database, clinic.tenantId, "atendente");
    const admin = await newStaff(ctx.app, ctx.database, clinic.tenantId, "admin");

    expect((await call(auditor, "GET", `/api/patients/${patient.id}`)).statusCode).toBe(200);
    const denied = await call(auditor, "POST", "/api/patients", { nome: "Não pode" });
    expect(denied.statusCode).toBe(403);
    expect(denied.json().message).toBe("Você não tem permissão para esta ação.");
    expect((await call(atendente, "POST", "/api/patients", { nome: "Pode" })).statusCode).toBe(201);
    expect((await call(atendente, "DELETE", `/api/patients/${patient.id}`)).statusCode).toBe(403);
    expect((await call(admin, "DELETE", `/api/patients/${patient.id}`)).statusCode).toBe(204);
    expect((await call(clinic, "GET", `/api/patients/${patient.id}`)).statusCode).toBe(404);
  });
});

describe("patients: search, filters, paging, stats", () => {
  let searchClinic: SignedIn;
  const cpfAna = "52998224725";
  beforeAll(async () => {
    searchClinic = await newClinic(ctx.app);
    await create(searchClinic, {
      nome: "Ana Júlia Conceição",
      cpf: cpfAna,
      telefone: "(11) 91234-5678",
      email: "ana.julia@clinica.com",
      sexo: "feminino",
      data_nascimento: "2012-06-01",
    });
    await create(searchClinic, {
      nome: "Bruno Henrique Souza",
      cpf: validCpf(),
      telefone: "(21) 99876-5432",
      email: "bruno@exemplo.com",
      sexo: "masculino",
      data_nascimento: "1970-01-01",
    });
    await create(searchClinic, {
      nome: "Carla 100% Teste_x",
      cpf: validCpf(),
      telefone: "(31) 3222-1111",
      email: "carla@exemplo.com",
      sexo: "feminino",
      data_nascimento: undefined,
    });
  });

  const search = async (query: string) => {
    const response = await call(searchClinic, "GET", `/api/patients?${query}`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as { items: { nome: string }[]; total: number; next_cursor: string | null };
  };
  const names = async (query: string) => (await search(query)).items.map((p) => p.nome);

  it("finds by name, case- and accent-insensitively", async () => {
    expect(await names("q=ana%20julia")).toEqual(["Ana Júlia Conceição"]);
    expect(await names("q=CONCEI")).toEqual(["Ana Júlia Conceição"]);
    expect(await names("q=souza")).toEqual(["Bruno Henrique Souza"]);
  });

  it("finds by CPF typed bare or masked, and by a fragment", async () => {
    expect(await names(`q=${cpfAna}`)).toEqual(["Ana Júlia Conceição"]);
    expect(await names(`q=${encodeURIComponent("529.982.247-25")}`)).toEqual(["Ana Júlia Conceição"]);
    expect(await names(`q=${encodeURIComponent("529.982")}`)).toEqual(["Ana Júlia Conceição"]);
  });

  it("finds by phone (masked or not) and by e-mail", async () => {
    expect(await names(`q=${encodeURIComponent("(21) 99876")}`)).toEqual(["Bruno Henrique Souza"]);
    expect(await names("q=912345678")).toEqual(["Ana Júlia Conceição"]);
    expect(await names("q=BRUNO%40EXEMPLO")).toEqual(["Bruno Henrique Souza"]);
  });

  it("treats % and _ in the search as text", async () => {
    expect(await names("q=100%25")).toEqual(["Carla 100% Teste_x"]);
    expect(await names("q=e_x")).toEqual(["Carla 100% Teste_x"]);
    expect((await search("q=%25")).total).toBe(1);
  });

  it("filters by sex, minors and created period", async () => {
    expect(await names("sexo=masculino")).toEqual(["Bruno Henrique Souza"]);
    expect(await names("menores=sim")).toEqual(["Ana Júlia Conceição"]);
    expect((await names("menores=nao")).sort()).toEqual(["Bruno Henrique Souza", "Carla 100% Teste_x"]);
    expect((await search("criado_ate=2000-01-01")).total).toBe(0);
    expect((await search("criado_de=2000-01-01")).total).toBe(3);
    expect((await search("sexo=feminino&q=carla")).total).toBe(1);
  });

  it("pages with a cursor, newest first, without repeating or skipping", async () => {
    const first = await search("limit=2");
    expect(first.total).toBe(3);
    expect(first.items.map((p) => p.nome)).toEqual(["Carla 100% Teste_x", "Bruno Henrique Souza"]);
    expect(first.next_cursor).not.toBeNull();
    const second = await search(`limit=2&cursor=${first.next_cursor}`);
    expect(second.items.map((p) => p.nome)).toEqual(["Ana Júlia Conceição"]);
    expect(second.next_cursor).toBeNull();
  });

  it("computes the four cards by the spec's rules", async () => {
    await rawRows(
      ctx.database.db,
      sql`update pacientes set created_at = now() - interval '70 days' where tenant_id = ${searchClinic.tenantId} and nome like 'Bruno%'`,
    );
    const stats = await call(searchClinic, "GET", "/api/patients/stats");
    expect(stats.json()).toEqual({ total: 3, ativos: 3, inativos: 0, novos_mes: 2 });
  });
});

describe("patient counters", () => {
  it("keep the total right through single, bulk and deleted rows, per tenant", async () => {
    const a = await newClinic(ctx.app);
    const b = await newClinic(ctx.app);
    const stats = async (who: SignedIn) => (await call(who, "GET", "/api/patients/stats")).json().total;
    const first = await create(a);
    await create(a);
    await rawRows(
      ctx.database.db,
      sql`insert into pacientes (tenant_id, nome) select ${a.tenantId}::uuid, 'Lote ' || i from generate_series(1, 25) i
          union all select ${b.tenantId}::uuid, 'Outro ' || i from generate_series(1, 4) i`,
    );
    expect(await stats(a)).toBe(27);
    expect(await stats(b)).toBe(4);
    expect((await call(a, "DELETE", `/api/patients/${first.id}`)).statusCode).toBe(204);
    expect(await stats(a)).toBe(26);
    const list = await call(a, "GET", "/api/patients?limit=1");
    expect(list.json().total).toBe(26);
    const filtered = await call(a, "GET", "/api/patients?q=lote");
    expect(filtered.json().total).toBe(25);
  });
});

describe("patients and their documents", () => {
  it("counts each patient's documents, filters with/without documents, and refuses deleting a patient with documents", async () => {
    const c = await newClinic(ctx.app);
    const withDocs = await create(c, { nome: "Paciente Com Documentos" });
    const without = await create(c, { nome: "Paciente Sem Documentos", cpf: validCpf() });
    const { templateVersionId } = await publishedVersion(c);
    for (let i = 0; i < 2; i += 1) {
      await insertDocument(ctx.database, { tenantId: c.tenantId, pacienteId: withDocs.id, templateVersionId });
    }
    const list = (await call(c, "GET", "/api/patients")).json() as { items: { id: string; contratos_count: number }[] };
    const counts = Object.fromEntries(list.items.map((p) => [p.id, p.contratos_count]));
    expect(counts).toEqual({ [withDocs.id]: 2, [without.id]: 0 });
    expect((await call(c, "GET", `/api/patients/${withDocs.id}`)).json().contratos_count).toBe(2);
    const names = async (query: string) =>
      (await call(c, "GET", `/api/patients?${query}`)).json().items.map((p: { nome: string }) => p.nome);
    expect(await names("documentos=com")).toEqual(["Paciente Com Documentos"]);
    expect(await names("documentos=sem")).toEqual(["Paciente Sem Documentos"]);
    expect((await call(c, "GET", "/api/patients?documentos=talvez")).statusCode).toBe(400);

    const refused = await call(c, "DELETE", `/api/patients/${withDocs.id}`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({
      code: "PATIENT_HAS_DOCUMENTS",
      message: "Este paciente possui 2 documento(s) e não pode ser excluído.",
    });
    expect((await call(c, "DELETE", `/api/patients/${without.id}`)).statusCode).toBe(204);
  });
});

async function publishedVersion(who: SignedIn) {
  const specialties = (await call(who, "GET", "/api/templates/specialties")).json().items as string[];
  const created = await call(who, "POST", "/api/templates", {
    titulo: "TCLE",
    especialidade: specialties[0],
    categoria: "Consentimento",
    estrutura: { title: "TCLE", introduction: "Eu, {{paciente_nome}}", sections: [] },
  });
  expect(created.statusCode, created.body).toBe(201);
  return { templateVersionId: created.json().versao_atual_id as string };
}
