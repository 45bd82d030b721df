/**
 * Embedded signing (decision 071): the clinic's allowed sites (Configurações and API, owner and
 * administrators), the signing page's frame-ancestors for its own clinic only, and the evidence
 * of a signature made inside an allowed site — in the event and on the final PDF's registry.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rawRows } from "../../src/db/raw.js";
import { buildApp } from "../../src/server/app.js";
import { withFrameAncestors } from "../../src/server/plugins/client-app.js";
import type { Actor } from "../../src/server/policies/roles.js";
import { saveEmbedSettings } from "../../src/server/services/embedding/embed-settings.js";
import { newClinic, newStaff, type SignedIn } from "../helpers/sessions.js";
import { latestSigningCode, signableDocument, signAsPatient, tokenOf } from "../helpers/signing.js";
import { createTestApp, testEnv, type TestContext } from "../helpers/test-app.js";

let ctx: TestContext;
let clinic: SignedIn;
let other: SignedIn;
let versionId: string;
let pages: FastifyInstance;
const scratch = mkdtempSync(path.join(os.tmpdir(), "consentir-incorporada-"));
const URL_SETTINGS = "/api/settings/embedding";
const SITE = "https://sistema.clinica-exemplo.com.br";
const LOCAL = "http://localhost:5199";

type Method = "GET" | "PUT" | "POST";
const call = (who: { cookie: string }, method: Method, url: string, payload?: unknown) =>
  ctx.app.inject({
    method,
    url,
    headers: { cookie: who.cookie },
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
const withKey = (key: string, method: Method, url: string, payload?: unknown) =>
  ctx.app.inject({
    method,
    url,
    headers: { authorization: `Bearer ${key}` },
    ...(payload === undefined ? {} : { payload: payload as object }),
  });

async function sentLink(who: SignedIn) {
  const doc = await signableDocument(ctx.app, who, who === clinic ? { versionId } : {});
  const sent = await call(who, "POST", `/api/documents/${doc.documentId}/send`, {});
  expect(sent.statusCode, sent.body).toBe(200);
  return { ...doc, token: tokenOf(sent.json().link as string) };
}

beforeAll(async () => {
  ctx = await createTestApp();
  clinic = await newClinic(ctx.app);
  other = await newClinic(ctx.app);
  versionId = (await signableDocument(ctx.app, clinic)).versionId;
  // A second app on the same database with a client folder, to answer /assinar/:token as sign.html.
  writeFileSync(path.join(scratch, "index.html"), "<!doctype html><title>Consentir</title>");
  writeFileSync(path.join(scratch, "sign.html"), "<!doctype html><title>Assinatura</title>");
  pages = await buildApp({ env: testEnv(), database: ctx.database, logger: false, clientDir: scratch });
}, 120_000);
afterAll(async () => {
  await pages?.close();
  await ctx.close();
  rmSync(scratch, { recursive: true, force: true });
});

describe("GET/PUT /api/settings/embedding", () => {
  it("starts empty, saves bare origins (normalised, duplicates once) and audits what changed", async () => {
    const empty = await call(clinic, "GET", URL_SETTINGS);
    expect(empty.statusCode).toBe(200);
    expect(empty.json()).toEqual({ origens: [] });

    const saved = await call(clinic, "PUT", URL_SETTINGS, {
      origens: [`${SITE}/`, "HTTPS://Sistema.Clinica-Exemplo.com.br", LOCAL],
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toEqual({ origens: [SITE, LOCAL] });
    expect((await call(clinic, "GET", URL_SETTINGS)).json()).toEqual({ origens: [SITE, LOCAL] });
    const [event] = await rawRows<{ data: Record<string, unknown> }>(
      ctx.database.db,
      sql`select data from audit_events where tenant_id = ${clinic.tenantId} and action = 'settings.embedding_updated' order by seq desc limit 1`,
    );
    expect(event!.data).toEqual({ adicionados: [SITE, LOCAL], removidos: [] });
  });

  it("keeps each clinic's list its own", async () => {
    expect((await call(other, "GET", URL_SETTINGS)).json()).toEqual({ origens: [] });
    expect((await call(other, "PUT", URL_SETTINGS, { origens: ["https://outra.exemplo"] })).statusCode).toBe(200);
    expect((await call(clinic, "GET", URL_SETTINGS)).json()).toEqual({ origens: [SITE, LOCAL] });
    expect((await call(other, "PUT", URL_SETTINGS, { origens: [] })).json()).toEqual({ origens: [] });
  });

  it("refuses paths, other schemes, plain http to a remote host, wildcards, too many and malformed bodies in pt-BR", async () => {
    const cases: [unknown, string][] = [
      [
        { origens: [`${SITE}/assinaturas`] },
        "Use só o início do endereço (protocolo, domínio e porta), sem caminho, parâmetros ou #",
      ],
      [
        { origens: [`${SITE}?a=1`] },
        "Use só o início do endereço (protocolo, domínio e porta), sem caminho, parâmetros ou #",
      ],
      [
        { origens: ["http://sistema.clinica-exemplo.com.br"] },
        "Use um endereço https:// (http:// só para localhost ou 127.0.0.1, em desenvolvimento)",
      ],
      [
        { origens: ["javascript:alert(1)"] },
        "Endereço inválido: use só o início do endereço, como https://sistema.clinica.com.br",
      ],
      [
        { origens: ["https://*.clinica.com.br"] },
        "Endereço inválido: use só o início do endereço, como https://sistema.clinica.com.br",
      ],
      [
        { origens: ["https://user:senha@clinica.com.br"] },
        "Endereço inválido: use só o início do endereço, como https://sistema.clinica.com.br",
      ],
      [{ origens: ["nada"] }, "Endereço inválido: use só o início do endereço, como https://sistema.clinica.com.br"],
      [{ origens: [""] }, "Informe o endereço do site"],
      [{ origens: Array.from({ length: 11 }, (_, i) => `https://s${i}.exemplo.com`) }, "No máximo 10 sites"],
      [{ origens: "https://a.com" }, "Informe a lista de sites"],
      [{}, "Informe a lista de sites"],
    ];
    for (const [body, message] of cases) {
      const response = await call(clinic, "PUT", URL_SETTINGS, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json().issues.map((i: { message: string }) => i.message)).toContain(message);
    }
    const extra = await call(clinic, "PUT", URL_SETTINGS, { origens: [], outro: 1 });
    expect(extra.statusCode).toBe(400);
    const notJson = await ctx.app.inject({
      method: "PUT",
      url: URL_SETTINGS,
      headers: { cookie: clinic.cookie, "content-type": "application/json" },
      payload: "{",
    });
    expect(notJson.statusCode).toBe(400);
    expect(notJson.json().message).toMatch(/[ãçé]|inválid/);
    // Nothing of it was saved.
    expect((await call(clinic, "GET", URL_SETTINGS)).json()).toEqual({ origens: [SITE, LOCAL] });
  });

  it("refuses http:// origins in production", async () => {
    const actor: Actor = { tenantId: clinic.tenantId, profileId: clinic.profileId, role: "admin", isOwner: true };
    await expect(
      saveEmbedSettings({ db: ctx.database.db, actor, input: { origens: [SITE, LOCAL] }, production: true, audit: {} }),
    ).rejects.toMatchObject({
      code: "VALIDATION",
      message: "Use um endereço https:// (obrigatório em produção)",
      extra: { issues: [{ path: "origens.1", message: "Use um endereço https:// (obrigatório em produção)" }] },
    });
    expect((await call(clinic, "GET", URL_SETTINGS)).json()).toEqual({ origens: [SITE, LOCAL] });
  });

  it("is the owner's and administrators' (session or API key): others get 403", async () => {
    const admin = await newStaff(ctx.app, ctx.database, clinic.tenantId, "admin");
    expect((await call(admin, "GET", URL_SETTINGS)).statusCode).toBe(200);
    for (const role of ["atendente", "profissional", "auditor"] as const) {
      const staff = await newStaff(ctx.app, ctx.database, clinic.tenantId, role);
      const read = await call(staff, "GET", URL_SETTINGS);
      expect(read.statusCode, role).toBe(403);
      expect(read.json().message).toBe("Acesso negado");
      expect((await call(staff, "PUT", URL_SETTINGS, { origens: [] })).statusCode, role).toBe(403);
    }
    const adminKey = await call(clinic, "POST", "/api/settings/api-keys", { nome: "Incorporação", role: "admin" });
    const auditorKey = await call(clinic, "POST", "/api/settings/api-keys", { nome: "Leitura", role: "auditor" });
    expect((await withKey(adminKey.json().segredo, "GET", URL_SETTINGS)).json()).toEqual({ origens: [SITE, LOCAL] });
    expect((await withKey(adminKey.json().segredo, "PUT", URL_SETTINGS, { origens: [SITE, LOCAL] })).statusCode).toBe(
      200,
    );
    expect((await withKey(auditorKey.json().segredo, "GET", URL_SETTINGS)).statusCode).toBe(403);
    expect((await ctx.app.inject({ method: "GET", url: URL_SETTINGS })).statusCode).toBe(401);
  });
});

describe("the signing page's headers", () => {
  it("let only the document's clinic's sites frame it; unknown links and other clinics stay non-embeddable", async () => {
    const ours = await sentLink(clinic);
    const theirs = await sentLink(other);
    const page = await pages.inject({
      method: "GET",
      url: `/assinar/${ours.token}?origem=${encodeURIComponent(SITE)}`,
    });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain("Assinatura");
    const csp = String(page.headers["content-security-policy"]);
    expect(csp).toContain(`frame-ancestors 'self' ${SITE} ${LOCAL}`);
    expect(csp).not.toContain("frame-ancestors 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(page.headers["x-frame-options"]).toBeUndefined();

    for (const url of [`/assinar/${theirs.token}`, "/assinar/nao-e-um-link", "/verificar/ABC"]) {
      const closed = await pages.inject({ method: "GET", url });
      expect(closed.statusCode, url).toBe(200);
      expect(String(closed.headers["content-security-policy"]), url).toContain("frame-ancestors 'none'");
      expect(closed.headers["x-frame-options"], url).toBe("SAMEORIGIN");
    }
  });

  it("withFrameAncestors replaces helmet's directive, or adds one", () => {
    expect(withFrameAncestors("default-src 'self';frame-ancestors 'none';base-uri 'self'", ["https://a.com"])).toBe(
      "default-src 'self';frame-ancestors 'self' https://a.com;base-uri 'self'",
    );
    expect(withFrameAncestors("default-src 'self'", ["https://a.com"])).toBe(
      "default-src 'self';frame-ancestors 'self' https://a.com",
    );
  });
});

describe("a signature inside an allowed site", () => {
  it("the page learns the allowed sites and the document's id; the event and the final PDF say where it was embedded", async () => {
    const doc = await sentLink(clinic);
    const opened = await ctx.app.inject({ method: "GET", url: `/api/public/sign/${doc.token}` });
    expect(opened.json().incorporacao).toEqual({ documento_id: doc.documentId, origens: [SITE, LOCAL] });
    const theirs = await sentLink(other);
    expect(
      (await ctx.app.inject({ method: "GET", url: `/api/public/sign/${theirs.token}` })).json().incorporacao,
    ).toBeNull();

    const signed = await signAsPatient(ctx.app, ctx.database, doc.token, doc.patient, {
      incorporado: { origem: SITE },
    });
    expect(signed.response.statusCode, signed.response.body).toBe(200);
    const [event] = await rawRows<{ data: Record<string, unknown> }>(
      ctx.database.db,
      sql`select data from audit_events where entity_id = ${doc.documentId} and action = 'document.party_signed' and data ->> 'papel' = 'paciente'`,
    );
    expect(event!.data.incorporado).toEqual({ origem: SITE });

    await ctx.app.worker.tick();
    const pdf = await call(clinic, "GET", `/api/documents/${doc.documentId}/signed-pdf`);
    expect(pdf.statusCode, pdf.body).toBe(200);
    const file = path.join(scratch, "incorporada.pdf");
    writeFileSync(file, pdf.rawPayload);
    const text = execFileSync("pdftotext", [file, "-"], { encoding: "utf8" }).replace(/\s+/g, " ");
    expect(text).toContain(`Assinado em página incorporada em ${SITE}`);
  });

  it("a site the clinic does not allow, or a malformed claim, is not recorded and does not refuse the signature", async () => {
    for (const incorporado of [{ origem: "https://intruso.exemplo" }, { origem: 42 }, "x"]) {
      const doc = await sentLink(clinic);
      const signed = await signAsPatient(ctx.app, ctx.database, doc.token, doc.patient, { incorporado });
      expect(signed.response.statusCode, signed.response.body).toBe(200);
      const [event] = await rawRows<{ data: Record<string, unknown> }>(
        ctx.database.db,
        sql`select data from audit_events where entity_id = ${doc.documentId} and action = 'document.party_signed' and data ->> 'papel' = 'paciente'`,
      );
      expect(event!.data).not.toHaveProperty("incorporado");
    }
  });

  it("a refusal made inside an allowed site is recorded with it, on the record and its sealed PDF; another site is not", async () => {
    const refuse = async (origem: string) => {
      const doc = await sentLink(clinic);
      const page = (await ctx.app.inject({ method: "GET", url: `/api/public/sign/${doc.token}` })).json();
      let codigo: string | undefined;
      if (page.codigo_obrigatorio) {
        expect((await ctx.app.inject({ method: "POST", url: `/api/public/sign/${doc.token}/code` })).statusCode).toBe(
          200,
        );
        codigo = await latestSigningCode({ app: ctx.app, database: ctx.database }, doc.patient.email ?? "");
      }
      const refused = await ctx.app.inject({
        method: "POST",
        url: `/api/public/sign/${doc.token}/refuse`,
        payload: {
          nome: doc.patient.nome,
          cpf: doc.patient.cpf,
          conteudo_sha256: page.documento.conteudo_sha256,
          motivo: "Prefiro pensar",
          incorporado: { origem },
          ...(codigo ? { codigo } : {}),
        },
      });
      expect(refused.statusCode, refused.body).toBe(200);
      const [record] = await rawRows<{ id: string; incorporado_origem: string | null }>(
        ctx.database.db,
        sql`select id, incorporado_origem from contrato_registros where contrato_id = ${doc.documentId}`,
      );
      const [event] = await rawRows<{ data: Record<string, unknown> }>(
        ctx.database.db,
        sql`select data from audit_events where entity_id = ${doc.documentId} and action = 'document.refused'`,
      );
      return { doc, record: record!, event: event! };
    };
    const inside = await refuse(SITE);
    expect(inside.record.incorporado_origem).toBe(SITE);
    expect(inside.event.data.incorporado).toEqual({ origem: SITE });
    // The staff page's trail carries it too.
    const detail = await call(clinic, "GET", `/api/documents/${inside.doc.documentId}`);
    expect(
      (detail.json().audit as { action: string; data: Record<string, unknown> }[]).find(
        (e) => e.action === "document.refused",
      )?.data.incorporado,
    ).toEqual({ origem: SITE });
    await ctx.app.worker.tick();
    const record = await call(clinic, "GET", `/api/documents/${inside.doc.documentId}/records/${inside.record.id}/pdf`);
    expect(record.statusCode, record.body).toBe(200);
    const file = path.join(scratch, "recusa-incorporada.pdf");
    writeFileSync(file, record.rawPayload);
    const text = execFileSync("pdftotext", [file, "-"], { encoding: "utf8" }).replace(/\s+/g, " ");
    expect(text).toContain(`incorporada em ${SITE}`);

    const outside = await refuse("https://intruso.exemplo");
    expect(outside.record.incorporado_origem).toBeNull();
    expect(outside.event.data).not.toHaveProperty("incorporado");
  });
});
