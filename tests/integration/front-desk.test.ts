/**
 * front-desk signing ("Assinar neste aparelho"): the staff member hands their own
 * device to the patient. Their session is locked to that document — every private route answers
 * 423 and the session endpoint shows no one — until their password unlocks it; the hand-over and
 * the unlock are audit events; a signature made through the patient's link from the locked
 * session is recorded as presencial, in the event and on the final PDF's registry.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rawRows } from "../../src/db/raw.js";
import { newClinic, newStaff, type SignedIn } from "../helpers/sessions.js";
import {
  draftDocument,
  publishedTemplateVersion,
  type SignablePatient,
  signAsPatient,
  signingPatient,
  tokenOf,
} from "../helpers/signing.js";
import { createTestApp, type TestContext } from "../helpers/test-app.js";

let ctx: TestContext;
let clinic: SignedIn;
let other: SignedIn;
let versionId: string;
let patient: SignablePatient;
let documentId: string;
let handedOver: string;
const scratch = mkdtempSync(path.join(os.tmpdir(), "consentir-balcao-"));
const LOCKED = "Este aparelho está com o paciente para assinatura. Digite a sua senha para voltar ao sistema.";

const call = (who: SignedIn | { cookie: string }, method: "GET" | "POST", url: string, payload?: unknown) =>
  ctx.app.inject({
    method,
    url,
    headers: { cookie: who.cookie },
    ...(payload === undefined ? {} : { payload: payload as object }),
  });

const eventsOf = (id: string, action: string) =>
  rawRows<{ data: Record<string, unknown>; actor_profile_id: string | null }>(
    ctx.database.db,
    sql`select data, actor_profile_id from audit_events where entity_id = ${id} and action = ${action} order by seq`,
  );

beforeAll(async () => {
  ctx = await createTestApp();
  clinic = await newClinic(ctx.app);
  other = await newClinic(ctx.app);
  versionId = await publishedTemplateVersion(ctx.app, clinic);
  patient = await signingPatient(ctx.app, clinic, { nome: "Beatriz Nogueira Falcão" });
  documentId = await draftDocument(ctx.app, clinic, versionId, patient.id, "TCLE - Otoplastia");
}, 120_000);
afterAll(async () => {
  await ctx.close();
});

describe("POST /api/documents/:id/front-desk", () => {
  it("refuses a draft (409), another clinic's document (404), a role that may not send (403), a malformed body or id (400)", async () => {
    const draft = await call(clinic, "POST", `/api/documents/${documentId}/front-desk`, {});
    expect(draft.statusCode).toBe(409);
    expect(draft.json()).toMatchObject({
      code: "FRONT_DESK_NOT_WAITING",
      message: "Este documento não está aguardando a assinatura do paciente.",
    });

    expect((await call(clinic, "POST", `/api/documents/${documentId}/send`, {})).statusCode).toBe(200);
    expect((await call(other, "POST", `/api/documents/${documentId}/front-desk`, {})).statusCode).toBe(404);
    const auditor = await newStaff(ctx.app, ctx.database, clinic.tenantId, "auditor");
    expect((await call(auditor, "POST", `/api/documents/${documentId}/front-desk`, {})).statusCode).toBe(403);
    expect(
      (await call(clinic, "POST", `/api/documents/${documentId}/front-desk`, { bloquear: false })).statusCode,
    ).toBe(400);
    expect((await call(clinic, "POST", "/api/documents/nao-e-um-id/front-desk", {})).statusCode).toBe(400);
    // None of the refusals locked anything.
    expect((await call(clinic, "GET", "/api/patients")).statusCode).toBe(200);
  });

  it("locks the session to the document: 423 on private routes, no one on /api/auth/session; another session of the same user is free", async () => {
    const started = await call(clinic, "POST", `/api/documents/${documentId}/front-desk`, {});
    expect(started.statusCode, started.body).toBe(200);
    expect(started.json().caminho).toMatch(/^\/assinar\/[A-Za-z0-9_-]{43}\?balcao=1$/);
    handedOver = started.json().caminho;
    const link = await call(clinic, "GET", `/api/documents/${documentId}/link`);
    expect(link.statusCode).toBe(423);
    expect(link.json()).toMatchObject({ code: "SESSION_LOCKED", message: LOCKED });
    for (const url of ["/api/patients", "/api/documents", "/api/auth/me", "/api/users"]) {
      expect((await call(clinic, "GET", url)).statusCode, url).toBe(423);
    }
    expect((await call(clinic, "GET", "/api/auth/session")).json()).toEqual({ user: null, bloqueada: true });
    const [event] = await eventsOf(documentId, "document.front_desk_started");
    expect(event).toMatchObject({ actor_profile_id: clinic.profileId, data: { por: clinic.profileId } });

    const elsewhere = await ctx.app.inject({
      method: "POST",
      url: "/api/auth/sign-in",
      payload: { email: clinic.email, password: clinic.password },
    });
    const cookie = elsewhere.cookies.map((c) => `${c.name}=${c.value}`).join("; ");
    expect((await call({ cookie }, "GET", "/api/patients")).statusCode).toBe(200);
  });

  it("the patient signs on the locked device: the signature is presencial, naming the staff member", async () => {
    // A locked device cannot hand over again (423): the patient uses the path it was given.
    expect((await call(clinic, "POST", `/api/documents/${documentId}/front-desk`, {})).statusCode).toBe(423);
    const token = tokenOf(new URL(handedOver, "https://clinica.exemplo").toString());
    const signed = await signAsPatient(
      ctx.app,
      ctx.database,
      token,
      patient,
      {},
      { headers: { cookie: clinic.cookie } },
    );
    expect(signed.response.statusCode, signed.response.body).toBe(200);
    const event = (await eventsOf(documentId, "document.party_signed")).find((e) => e.data.papel === "paciente");
    expect(event!.data).toMatchObject({ papel: "paciente", presencial: { atendente_id: clinic.profileId } });
    // Still locked after signing: only the staff member's password gives the device back.
    expect((await call(clinic, "GET", "/api/patients")).statusCode).toBe(423);
  });

  it("unlocks only with the staff member's own password, audited; the final PDF says the signature was presencial", async () => {
    const wrong = await call(clinic, "POST", "/api/auth/unlock", { senha_atual: "nao-e-a-senha" });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().issues).toEqual([{ path: "senha_atual", message: "Senha atual incorreta." }]);
    expect((await call(clinic, "POST", "/api/auth/unlock", {})).statusCode).toBe(400);
    expect((await call(clinic, "GET", "/api/patients")).statusCode).toBe(423);

    const unlocked = await call(clinic, "POST", "/api/auth/unlock", { senha_atual: clinic.password });
    expect(unlocked.statusCode, unlocked.body).toBe(200);
    expect((await call(clinic, "GET", "/api/patients")).statusCode).toBe(200);
    expect((await call(clinic, "GET", "/api/auth/session")).json().user.profile).toMatchObject({
      id: clinic.profileId,
    });
    expect(await eventsOf(documentId, "document.front_desk_ended")).toHaveLength(1);

    await ctx.app.worker.tick();
    const pdf = await call(clinic, "GET", `/api/documents/${documentId}/signed-pdf`);
    expect(pdf.statusCode, pdf.body).toBe(200);
    const file = path.join(scratch, "presencial.pdf");
    writeFileSync(file, pdf.rawPayload);
    const text = execFileSync("pdftotext", [file, "-"], { encoding: "utf8" }).replace(/\s+/g, " ");
    expect(text).toContain("Assinatura presencial, no aparelho de");
    expect(text).toContain("aparelho da equipe entregue ao signatário para assinatura presencial");
  });

  it("a signature from an unlocked device or through another document's lock is not presencial", async () => {
    const second = await draftDocument(
      ctx.app,
      clinic,
      versionId,
      (await signingPatient(ctx.app, clinic, { nome: "Carlos Eduardo Pires" })).id,
    );
    const third = await draftDocument(
      ctx.app,
      clinic,
      versionId,
      (await signingPatient(ctx.app, clinic, { nome: "Denise Moura Teles" })).id,
    );
    const secondLink = (await call(clinic, "POST", `/api/documents/${second}/send`, {})).json().link as string;
    expect((await call(clinic, "POST", `/api/documents/${third}/send`, {})).statusCode).toBe(200);
    // Locked for the third document; the second one's patient signs from this device anyway.
    expect((await call(clinic, "POST", `/api/documents/${third}/front-desk`, {})).statusCode).toBe(200);
    const [secondPatient] = await rawRows<{ nome: string; cpf: string; email: string }>(
      ctx.database.db,
      sql`select p.nome, p.cpf, p.email from contratos c join pacientes p on p.id = c.paciente_id where c.id = ${second}`,
    );
    const signed = await signAsPatient(
      ctx.app,
      ctx.database,
      tokenOf(secondLink),
      { id: "", ...secondPatient! },
      {},
      { headers: { cookie: clinic.cookie } },
    );
    expect(signed.response.statusCode, signed.response.body).toBe(200);
    const event = (await eventsOf(second, "document.party_signed")).find((e) => e.data.papel === "paciente");
    expect(event).toBeDefined();
    expect(event!.data.presencial).toBeUndefined();
    expect((await call(clinic, "POST", "/api/auth/unlock", { senha_atual: clinic.password })).statusCode).toBe(200);
  });

  it("lists only what waits for a signature with ?aguardando=1 (the Assinar screen), refusing other values", async () => {
    const draft = await draftDocument(
      ctx.app,
      clinic,
      versionId,
      (await signingPatient(ctx.app, clinic, { nome: "Elisa Prado Campos" })).id,
    );
    const waiting = await draftDocument(
      ctx.app,
      clinic,
      versionId,
      (await signingPatient(ctx.app, clinic, { nome: "Fábio Nunes Rocha" })).id,
    );
    expect((await call(clinic, "POST", `/api/documents/${waiting}/send`, {})).statusCode).toBe(200);
    const listed = await call(clinic, "GET", "/api/documents?aguardando=1&limit=100");
    expect(listed.statusCode).toBe(200);
    const items = listed.json().items as { id: string; status: string }[];
    expect(items.map((item) => item.id)).toContain(waiting);
    expect(items.map((item) => item.id)).not.toContain(draft);
    expect(items.map((item) => item.id)).not.toContain(documentId);
    expect(new Set(items.map((item) => item.status))).toEqual(new Set(["sent"]));
    expect((await call(clinic, "GET", "/api/documents?aguardando=2")).statusCode).toBe(400);
    expect((await call(other, "GET", "/api/documents?aguardando=1")).json().items).toEqual([]);
  });
});
