import { sql } from "drizzle-orm";
import { rawRows } from "../../src/db/raw.js";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startFakeCepServer, type FakeCepServer } from "../fakes/cep-server.js";
import { createTestApp, type TestContext } from "../helpers/test-app.js";

let viacep: FakeCepServer;
let brasilapi: FakeCepServer;
let ctx: TestContext;

beforeAll(async () => {
  viacep = await startFakeCepServer();
  brasilapi = await startFakeCepServer();
  ctx = await createTestApp({ env: { VIACEP_URL: viacep.url, BRASILAPI_URL: brasilapi.url } });
});
afterAll(async () => {
  await ctx.close();
  await viacep.close();
  await brasilapi.close();
});
beforeEach(async () => {
  viacep.failing = false;
  brasilapi.failing = false;
  viacep.requests.length = 0;
  brasilapi.requests.length = 0;
  await rawRows(ctx.database.db, sql`delete from cep_cache`);
});

const lookup = (cep: string) => ctx.app.inject({ method: "GET", url: `/api/cep/${cep}` });

describe("GET /api/cep/:cep", () => {
  it("answers the address from ViaCEP, with or without the mask, and caches it", async () => {
    const first = await lookup("01310-100");
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({
      cep: "01310100",
      logradouro: "Avenida Paulista",
      complemento: "",
      bairro: "Bela Vista",
      cidade: "São Paulo",
      uf: "SP",
    });
    expect(viacep.requests).toEqual(["/ws/01310100/json/"]);

    const second = await lookup("01310100");
    expect(second.json().cidade).toBe("São Paulo");
    expect(viacep.requests).toHaveLength(1);
    expect(brasilapi.requests).toHaveLength(0);
  });

  it("falls back to BrasilAPI when ViaCEP fails", async () => {
    viacep.failing = true;
    const response = await lookup("20040002");
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ logradouro: "Rua da Assembleia", cidade: "Rio de Janeiro", uf: "RJ" });
    expect(brasilapi.requests).toEqual(["/api/cep/v2/20040002"]);
  });

  it("says 'CEP não encontrado' for an unknown CEP (ViaCEP's erro: \"true\") and caches that too", async () => {
    const response = await lookup("99999999");
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ code: "CEP_NOT_FOUND", message: "CEP não encontrado" });
    await lookup("99999999");
    expect(viacep.requests).toHaveLength(1);
  });

  it("uses BrasilAPI's 404 as not found when ViaCEP is down", async () => {
    viacep.failing = true;
    const response = await lookup("88888888");
    expect(response.statusCode).toBe(404);
    expect(brasilapi.requests).toEqual(["/api/cep/v2/88888888"]);
  });

  it("says 'Erro ao buscar CEP' when every source fails, and caches nothing", async () => {
    viacep.failing = true;
    brasilapi.failing = true;
    const response = await lookup("30130010");
    expect(response.statusCode).toBe(502);
    expect(response.json().message).toBe("Erro ao buscar CEP");
    const rows = await rawRows(ctx.database.db, sql`select count(*)::int as n from cep_cache`);
    expect(rows[0]).toEqual({ n: 0 });
  });

  it("refuses a malformed CEP without calling anyone", async () => {
    const response = await lookup("123");
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe("CEP inválido. Informe os 8 dígitos.");
    expect(viacep.requests).toHaveLength(0);
  });
});
