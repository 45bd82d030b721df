/**
 * The clinic's full export (owner only, decision 026): every tenant table as JSON in keyset
 * pages, the main ones as CSV, every stored file by SHA-256 with an index, the audit trail with
 * its chain fields — recomputed here in plain JavaScript, as someone would elsewhere — and a
 * manifest; never a secret, never another clinic's row.
 */
import { createHash } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  auditEvents,
  certificados,
  contratos,
  integracoesFeegow,
  procedimentoRiscos,
  procedimentos,
  profiles,
  riscos,
  sessions,
  signingTokens,
} from "../../src/db/schema.js";
import { rawRows } from "../../src/db/raw.js";
import { EXPORT_TABLES, NOT_EXPORTED } from "../../src/server/services/data-rights/clinic-export-tables.js";
import { entryText, signedDocument, unzipEntries } from "../helpers/data-rights.js";
import { validCertificateUpload } from "../helpers/probes.js";
import { newClinic, newStaff, type SignedIn } from "../helpers/sessions.js";
import { signingPatient } from "../helpers/signing.js";
import { createTestApp, type TestContext } from "../helpers/test-app.js";

let ctx: TestContext;
let clinic: SignedIn;
let other: SignedIn;
let signedId: string;
let entries: Record<string, Uint8Array>;
const RISKS = 1_150; // more than two pages of 500
const FEEGOW_TOKEN = "feegow-token-secreto-0123456789abcdef";

const call = (who: SignedIn, method: "GET" | "POST" | "PUT", url: string, payload?: unknown) =>
  ctx.app.inject({ method, url, payload: payload as object, headers: { cookie: who.cookie } });
const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");
const table = <T = Record<string, unknown>>(name: string) =>
  JSON.parse(entryText(entries, `dados/${name}.json`)) as T[];

beforeAll(async () => {
  ctx = await createTestApp({ env: { RATE_LIMIT_PUBLIC_PER_MINUTE: "100000" } });
  clinic = await newClinic(ctx.app);
  other = await newClinic(ctx.app);
  signedId = (await signedDocument(ctx.app, ctx.database, clinic, { nome: "Helena Exportada" })).documentId;
  await signedDocument(ctx.app, ctx.database, other, { nome: "Outra Clínica Paciente" });
  expect((await call(clinic, "POST", "/api/certificates", await validCertificateUpload())).statusCode).toBe(201);
  expect((await call(clinic, "PUT", "/api/integration/feegow", { token: FEEGOW_TOKEN })).statusCode).toBe(200);
  // Enough rows for several keyset pages, in a plain table and in a link table (composite key).
  const inserted = await ctx.database.db
    .insert(riscos)
    .values(
      Array.from({ length: RISKS }, (_, i) => ({
        tenant_id: clinic.tenantId,
        titulo: `Risco ${i}`,
        descricao: `Descrição ${i}`,
      })),
    )
    .returning({ id: riscos.id });
  const [procedure] = await ctx.database.db
    .insert(procedimentos)
    .values({ tenant_id: clinic.tenantId, nome: "Procedimento com muitos riscos" })
    .returning({ id: procedimentos.id });
  await ctx.database.db
    .insert(procedimentoRiscos)
    .values(
      inserted
        .slice(0, 620)
        .map((r) => ({ tenant_id: clinic.tenantId, procedimento_id: procedure!.id, risco_id: r.id })),
    );
  const response = await call(clinic, "GET", "/api/settings/export");
  expect(response.statusCode, response.body.slice(0, 300)).toBe(200);
  expect(response.headers["content-type"]).toBe("application/zip");
  expect(response.headers["content-disposition"]).toMatch(
    /^attachment; filename="consentir_[A-Za-z0-9_]+_\d{8}_\d{6}\.zip"$/,
  );
  entries = unzipEntries(response.rawPayload);
}, 180_000);
afterAll(async () => {
  await ctx?.close();
});

describe("GET /api/settings/export", () => {
  it("has every table of the clinic, every row of it (across pages), and the main ones as CSV", async () => {
    for (const spec of EXPORT_TABLES) expect(entries[`dados/${spec.name}.json`], spec.name).toBeDefined();
    const risks = table<{ id: string; tenant_id: string }>("riscos");
    expect(risks).toHaveLength(RISKS);
    expect(new Set(risks.map((r) => r.id)).size).toBe(RISKS);
    const links = table<{ risco_id: string }>("procedimento_riscos");
    expect(new Set(links.map((l) => l.risco_id)).size).toBe(620);
    const manifest = JSON.parse(entryText(entries, "manifesto.json")) as {
      linhas_por_tabela: Record<string, number>;
      entradas: { nome: string; sha256: string; bytes: number }[];
    };
    for (const [name, count] of Object.entries(manifest.linhas_por_tabela))
      expect(table(name), name).toHaveLength(count);
    const [patients] = await rawRows<{ n: number }>(
      ctx.database.db,
      sql`select count(*)::int as n from pacientes where tenant_id = ${clinic.tenantId}`,
    );
    expect(manifest.linhas_por_tabela.pacientes).toBe(patients!.n);
    for (const sheet of ["pacientes", "documentos", "procedimentos", "templates"]) {
      const csv = entryText(entries, `planilhas/${sheet}.csv`);
      expect(csv.split("\r\n")[0], sheet).toMatch(/^ID;/);
    }
    expect(entryText(entries, "planilhas/pacientes.csv")).toContain(";Helena Exportada;");
    expect(entryText(entries, "planilhas/documentos.csv")).toContain(signedId);
    // The manifest covers every other entry, with the SHA-256 of what one extracts.
    const names = Object.keys(entries).filter((n) => n !== "manifesto.json");
    expect(manifest.entradas.map((e) => e.nome).sort()).toEqual(names.sort());
    for (const entry of manifest.entradas) expect(sha256(entries[entry.nome]!), entry.nome).toBe(entry.sha256);
  });

  it("holds only this clinic's rows", async () => {
    for (const spec of EXPORT_TABLES) {
      for (const row of table<Record<string, unknown>>(spec.name)) {
        expect(row[spec.name === "tenants" ? "id" : "tenant_id"], spec.name).toBe(clinic.tenantId);
      }
    }
    for (const name of Object.keys(entries)) {
      if (name.endsWith(".pdf") || name.endsWith(".png")) continue;
      expect(entryText(entries, name), name).not.toContain("Outra Clínica Paciente");
      expect(entryText(entries, name), name).not.toContain(other.tenantId);
    }
  });

  it("never carries a secret: password hashes, session and link tokens, certificate and Feegow secrets", async () => {
    const db = ctx.database.db;
    const [owner] = await db.select().from(profiles).where(eq(profiles.id, clinic.profileId));
    const tokenHashes = (
      await db.select({ h: sessions.token_hash }).from(sessions).where(eq(sessions.tenant_id, clinic.tenantId))
    ).map((r) => r.h);
    const links = await db.select().from(signingTokens).where(eq(signingTokens.tenant_id, clinic.tenantId));
    const [certificate] = await db.select().from(certificados).where(eq(certificados.tenant_id, clinic.tenantId));
    const [feegow] = await db.select().from(integracoesFeegow).where(eq(integracoesFeegow.tenant_id, clinic.tenantId));
    expect(tokenHashes.length).toBeGreaterThan(0);
    expect(links.length).toBeGreaterThan(0);
    expect(certificate?.secret_encrypted.length).toBeGreaterThan(0);
    const secrets = [
      owner!.password_hash,
      ...tokenHashes,
      ...links.flatMap((l) => [l.token_hash, l.token_encrypted.toString("base64"), l.token_encrypted.toString("hex")]),
      certificate!.secret_encrypted.toString("base64").slice(0, 40),
      certificate!.secret_encrypted.toString("hex").slice(0, 40),
      feegow!.token_encrypted!.toString("base64").slice(0, 40),
      FEEGOW_TOKEN,
    ];
    for (const name of Object.keys(entries)) {
      if (name.startsWith("arquivos/") && !name.endsWith(".json")) continue;
      const text = entryText(entries, name);
      for (const secret of secrets) expect(text.includes(secret), `${name} holds a secret`).toBe(false);
    }
    expect(table("profiles")[0]).not.toHaveProperty("password_hash");
    expect(table("sessions")[0]).not.toHaveProperty("token_hash");
    expect(table("signing_tokens")[0]).not.toHaveProperty("token_encrypted");
    expect(table("certificados")[0]).not.toHaveProperty("secret_encrypted");
    expect(table("integracoes_feegow")[0]).toMatchObject({ token_final: FEEGOW_TOKEN.slice(-4) });
    expect(table("email_outbox")[0]).not.toHaveProperty("text_body");
    expect(table("email_outbox")[0]).not.toHaveProperty("body_sealed");
    const readme = entryText(entries, "LEIA-ME.txt");
    expect(readme).toContain("profiles: password_hash");
    expect(readme).toContain("signing_tokens: token_hash, token_encrypted");
  });

  it("has every stored file once, by SHA-256, with an index naming its entry", async () => {
    const index = JSON.parse(entryText(entries, "arquivos/indice.json")) as {
      id: string;
      sha256: string;
      arquivo: string | null;
    }[];
    expect(index.length).toBe(table("files").length);
    const [document] = await ctx.database.db.select().from(contratos).where(eq(contratos.id, signedId));
    const sealed = index.find((f) => f.id === document!.signed_pdf_file_id);
    expect(sealed?.arquivo).toBe(`arquivos/${document!.signed_pdf_sha256}.pdf`);
    expect(sha256(entries[sealed!.arquivo!]!)).toBe(document!.signed_pdf_sha256);
    expect(index.some((f) => f.arquivo?.endsWith(".png"))).toBe(true); // the drawn signature
    for (const file of index) expect(sha256(entries[file.arquivo!]!), file.id).toBe(file.sha256);
  });

  it("carries the audit trail with its chain: every hash recomputes outside the database, and the head matches", async () => {
    type Event = Record<string, string | number | null> & { seq: number; hash: string; prev_hash: string };
    const events = table<Event>("audit_events");
    expect(events.length).toBeGreaterThan(10);
    const asPostgresJson = (value: string | number | null) =>
      value === null ? "null" : typeof value === "number" ? String(value) : JSON.stringify(value);
    let previous = "0".repeat(64);
    for (const [i, e] of events.entries()) {
      expect(e.seq).toBe(i + 1);
      expect(e.prev_hash).toBe(previous);
      const fields = [
        e.prev_hash,
        e.seq,
        e.tenant_id,
        e.id,
        e.actor_profile_id,
        e.action,
        e.entity_type,
        e.entity_id,
        e.ip_address,
        e.user_agent,
        e.data_text,
        e.created_at_utc,
      ];
      const text = `[${fields.map((f) => asPostgresJson(f ?? null)).join(", ")}]`;
      expect(createHash("sha256").update(text, "utf8").digest("hex"), `event ${e.seq} (${e.action})`).toBe(e.hash);
      previous = e.hash;
    }
    const [head] = table<{ seq: number; hash: string }>("audit_chain_heads");
    expect(head).toMatchObject({ seq: events.length, hash: previous });
    // The export itself is in the trail, by the owner.
    const exported = await ctx.database.db.select().from(auditEvents).where(eq(auditEvents.action, "clinic.exported"));
    expect(
      exported.filter((e) => e.tenant_id === clinic.tenantId && e.actor_profile_id === clinic.profileId),
    ).toHaveLength(1);
    expect(events.some((e) => e.action === "clinic.exported")).toBe(true);
  });

  it("leaves the files out when asked (?arquivos=nao), still indexing them", async () => {
    const response = await call(clinic, "GET", "/api/settings/export?arquivos=nao");
    expect(response.statusCode).toBe(200);
    const light = unzipEntries(response.rawPayload);
    expect(Object.keys(light).filter((n) => n.startsWith("arquivos/"))).toEqual(["arquivos/indice.json"]);
    const index = JSON.parse(entryText(light, "arquivos/indice.json")) as {
      arquivo: string | null;
      observacao: string;
    }[];
    expect(index.length).toBeGreaterThan(0);
    expect(index.every((f) => f.arquivo === null && f.observacao === "exportação sem arquivos")).toBe(true);
  });

  it("is the owner's alone (403 for an administrator), and refuses a malformed query (400)", async () => {
    const admin = await newStaff(ctx.app, ctx.database, clinic.tenantId, "admin");
    const forbidden = await call(admin, "GET", "/api/settings/export");
    expect(forbidden.statusCode).toBe(403);
    expect(forbidden.json().code).toBe("FORBIDDEN");
    const malformed = await call(clinic, "GET", "/api/settings/export?arquivos=talvez");
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toMatchObject({ code: "VALIDATION", message: "Use arquivos=sim ou arquivos=nao." });
    // Another clinic's owner gets their own clinic, never this one.
    const theirs = unzipEntries((await call(other, "GET", "/api/settings/export?arquivos=nao")).rawPayload);
    expect(entryText(theirs, "dados/pacientes.json")).not.toContain("Helena Exportada");
    expect(entryText(theirs, "dados/pacientes.json")).toContain("Outra Clínica Paciente");
  });

  it("covers every table that holds a clinic's rows (a new table must be decided on)", async () => {
    const rows = await rawRows<{ table_name: string }>(
      ctx.database.db,
      sql`select distinct table_name from information_schema.columns where table_schema = 'public' and column_name = 'tenant_id'`,
    );
    const decided = new Set([...EXPORT_TABLES.map((t) => t.name), ...Object.keys(NOT_EXPORTED)]);
    const undecided = rows.map((r) => r.table_name).filter((name) => !decided.has(name));
    expect(rows.length).toBeGreaterThan(20);
    expect(undecided).toEqual([]);
  });
});

describe("the patient's export keeps to its clinic", () => {
  it("answers 404 for another clinic's patient on the export route", async () => {
    const theirs = await signingPatient(ctx.app, other, { nome: "Paciente Alheio" });
    expect((await call(clinic, "GET", `/api/patients/${theirs.id}/export`)).statusCode).toBe(404);
  });
});
