/**
 * Webhooks (decision 062): endpoints in Configurações (owner/admin, session or API key), events
 * emitted with the change by the audit trail's trigger, each attempt signed per Standard Webhooks
 * and verified here as a receiver would, retried for three days on the queue's clock, delivered
 * once under two workers, never to this machine or a private network without
 * WEBHOOKS_ALLOW_PRIVATE, and an endpoint failing for three days disabled with a notice.
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { jobs, systemNotices, webhookDeliveries, webhookEndpoints } from "../../src/db/schema.js";
import { rawRows } from "../../src/db/raw.js";
import { jobHandlers } from "../../src/server/jobs/handlers.js";
import type { JobContext } from "../../src/server/jobs/job-context.js";
import { runDueJobs } from "../../src/server/jobs/run-due-jobs.js";
import {
  createWebhookEndpoint,
  presentWebhookEndpoint,
} from "../../src/server/services/webhooks/manage-webhook-endpoints.js";
import { deliverWebhook, WEBHOOK_RETRY_WINDOW_MS } from "../../src/server/services/webhooks/deliver-webhook.js";
import { AppError } from "../../src/server/errors.js";
import { ERRORS } from "../../src/shared/errors.js";
import { WEBHOOK_SECRET_PATTERN } from "../../src/shared/schemas/webhooks.js";
import { startWebhookReceiver, type FakeWebhookReceiver, type ReceivedWebhook } from "../fakes/webhook-receiver.js";
import { newClinic, newStaff, type SignedIn } from "../helpers/sessions.js";
import { signableDocument, signAsPatient, signingPatient, tokenOf } from "../helpers/signing.js";
import { createTestApp, type TestContext } from "../helpers/test-app.js";

let ctx: TestContext;
let clinic: SignedIn;
let other: SignedIn;
let receiver: FakeWebhookReceiver;
let versionId: string | undefined;

const DAY = 24 * 60 * 60 * 1000;

beforeAll(async () => {
  ctx = await createTestApp({ env: { WEBHOOKS_ALLOW_PRIVATE: "true", RATE_LIMIT_API_KEY_PER_MINUTE: "1000" } });
  // On PostgreSQL every file shares one database: others' queued work is closed so the moved
  // clock below runs only this file's jobs.
  await ctx.database.db.execute(sql`update jobs set status = 'done' where status in ('pending', 'running')`);
  clinic = await newClinic(ctx.app);
  other = await newClinic(ctx.app);
  receiver = await startWebhookReceiver();
});
afterAll(async () => {
  await receiver.close();
  await ctx.close();
});
beforeEach(() => {
  receiver.mode = "ok";
  receiver.received.length = 0;
});
// A test that failed midway leaves no endpoint behind to receive the next test's events.
afterEach(async () => {
  await ctx.database.db.execute(
    sql`delete from webhook_endpoints where tenant_id in (${clinic.tenantId}, ${other.tenantId})`,
  );
});

type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
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

const jobContext = (env: Partial<TestContext["env"]> = {}): JobContext => ({
  db: ctx.database.db,
  storage: ctx.app.services.storage,
  secretBox: ctx.app.services.secretBox,
  env: { ...ctx.env, ...env },
  origin: "http://localhost:3000",
  log: { info() {}, warn() {}, error() {} },
  pdf: ctx.app.pdfPool,
});
/** One worker's rounds until nothing is due, at the queue's clock `at` (or the real one). */
async function work(at?: Date, env: Partial<TestContext["env"]> = {}, concurrency = 1): Promise<number> {
  let total = 0;
  for (;;) {
    const ran = await runDueJobs({
      ctx: jobContext(env),
      handlers: jobHandlers,
      limit: 20,
      now: () => at ?? new Date(),
      lease: { concurrency },
    });
    total += ran;
    if (ran === 0) return total;
  }
}

interface Endpoint {
  endpoint: { id: string; url: string; eventos: string[]; ativo: boolean };
  segredo: string;
}
async function createEndpoint(who: SignedIn, body: Record<string, unknown>): Promise<Endpoint> {
  const response = await call(who, "POST", "/api/settings/webhooks", body);
  expect(response.statusCode, response.body).toBe(201);
  return response.json() as Endpoint;
}
async function deliveriesOf(endpointId: string) {
  return ctx.database.db
    .select()
    .from(webhookDeliveries)
    .where(eq(webhookDeliveries.endpoint_id, endpointId))
    .orderBy(webhookDeliveries.created_at);
}

/**
 * What a receiver does (Standard Webhooks): the three headers present, the timestamp within five
 * minutes of its clock, HMAC-SHA256 with the base64-decoded secret over `id.timestamp.body`, and
 * one of the space-separated `v1,` signatures equal in constant time.
 */
function verifyAsReceiver(secret: string, message: ReceivedWebhook, clock: Date = new Date()): boolean {
  const id = message.headers["webhook-id"];
  const timestamp = message.headers["webhook-timestamp"];
  const signatures = message.headers["webhook-signature"];
  if (!id || !timestamp || !signatures) return false;
  if (!/^\d+$/.test(timestamp) || Math.abs(clock.getTime() / 1000 - Number(timestamp)) > 300) return false;
  const key = Buffer.from(secret.replace(/^whsec_/, ""), "base64");
  const expected = createHmac("sha256", key).update(`${id}.${timestamp}.${message.body}`).digest();
  return signatures.split(" ").some((entry) => {
    const [version, value] = entry.split(",");
    if (version !== "v1" || !value) return false;
    const given = Buffer.from(value, "base64");
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}

const ALL_EVENTS = [
  "document.created",
  "document.sent",
  "document.viewed",
  "document.signed",
  "document.refused",
  "document.revoked",
  "document.expired",
  "document.cancelled",
  "document.sealed",
  "patient.created",
  "patient.updated",
];

describe("endpoints in Configurações", () => {
  it("shows the secret once, keeps it sealed, lists, changes, rotates and deletes, each audited", async () => {
    const created = await createEndpoint(clinic, {
      url: receiver.url,
      descricao: "Sistema da clínica",
      eventos: ["patient.created", "patient.created", "document.signed"],
    });
    expect(created.segredo).toMatch(WEBHOOK_SECRET_PATTERN);
    expect(created.endpoint).toMatchObject({
      url: receiver.url,
      ativo: true,
      eventos: ["patient.created", "document.signed"],
    });
    const [asText] = await rawRows<{ t: string }>(
      ctx.database.db,
      sql`select row_to_json(e)::text as t from webhook_endpoints e where id = ${created.endpoint.id}`,
    );
    expect(asText?.t).not.toContain(created.segredo.slice(6, 30));

    const list = await call(clinic, "GET", "/api/settings/webhooks");
    expect(list.statusCode).toBe(200);
    expect(list.body).not.toContain(created.segredo.slice(6));
    expect(list.json()).toContainEqual(
      expect.objectContaining({ id: created.endpoint.id, descricao: "Sistema da clínica" }),
    );

    const changed = await call(clinic, "PATCH", `/api/settings/webhooks/${created.endpoint.id}`, {
      eventos: ["patient.updated"],
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json().eventos).toEqual(["patient.updated"]);

    const rotated = await call(clinic, "POST", `/api/settings/webhooks/${created.endpoint.id}/rotate-secret`);
    expect(rotated.statusCode).toBe(200);
    expect(rotated.json().segredo).toMatch(WEBHOOK_SECRET_PATTERN);
    expect(rotated.json().segredo).not.toBe(created.segredo);

    // The new secret signs from now on, and the previous one too for 24 hours (see below).
    const patient = await signingPatient(ctx.app, clinic);
    expect(
      (
        await call(clinic, "PUT", `/api/patients/${patient.id}`, {
          nome: "Ana Luíza C.",
          cpf: patient.cpf,
          data_nascimento: "1990-05-10",
        })
      ).statusCode,
    ).toBeLessThan(300);
    await work();
    const got = receiver.received.filter((r) => r.body.includes(patient.id));
    expect(got).toHaveLength(1);
    expect(verifyAsReceiver(rotated.json().segredo, got[0]!)).toBe(true);
    expect(got[0]!.headers["webhook-signature"]!.split(" ")).toHaveLength(2);

    const deleted = await call(clinic, "DELETE", `/api/settings/webhooks/${created.endpoint.id}`);
    expect(deleted.statusCode).toBe(204);
    expect((await call(clinic, "GET", "/api/settings/webhooks")).json()).not.toContainEqual(
      expect.objectContaining({ id: created.endpoint.id }),
    );
    const actions = await rawRows<{ action: string }>(
      ctx.database.db,
      sql`select action from audit_events where tenant_id = ${clinic.tenantId} and entity_id = ${created.endpoint.id} order by seq`,
    );
    expect(actions.map((a) => a.action)).toEqual([
      "webhook.created",
      "webhook.updated",
      "webhook.secret_rotated",
      "webhook.deleted",
    ]);
  });

  it("is for the owner and administrators, with a session or an API key of that role", async () => {
    const atendente = await newStaff(ctx.app, ctx.database, clinic.tenantId, "atendente");
    expect((await call(atendente, "GET", "/api/settings/webhooks")).statusCode).toBe(403);
    expect(
      (await call(atendente, "POST", "/api/settings/webhooks", { url: receiver.url, eventos: ["patient.created"] }))
        .statusCode,
    ).toBe(403);
    const admin = await newStaff(ctx.app, ctx.database, clinic.tenantId, "admin");
    expect((await call(admin, "GET", "/api/settings/webhooks")).statusCode).toBe(200);

    const adminKey = await call(clinic, "POST", "/api/settings/api-keys", { nome: "Integração", role: "admin" });
    const auditorKey = await call(clinic, "POST", "/api/settings/api-keys", { nome: "Leitura", role: "auditor" });
    const byKey = await withKey(adminKey.json().segredo, "POST", "/api/settings/webhooks", {
      url: receiver.url,
      eventos: ["document.sealed"],
    });
    expect(byKey.statusCode, byKey.body).toBe(201);
    expect((await withKey(adminKey.json().segredo, "GET", "/api/settings/webhooks")).statusCode).toBe(200);
    expect((await withKey(auditorKey.json().segredo, "GET", "/api/settings/webhooks")).statusCode).toBe(403);
    await call(clinic, "DELETE", `/api/settings/webhooks/${byKey.json().endpoint.id}`);
  });

  it("answers malformed input with a pt-BR 400, never a 500", async () => {
    const bad: [unknown, string][] = [
      [{ url: "", eventos: ["patient.created"] }, "Informe a URL do endpoint"],
      [
        { url: "não é uma url", eventos: ["patient.created"] },
        "URL inválida: use um endereço http:// ou https:// completo",
      ],
      [
        { url: "ftp://exemplo.com.br/x", eventos: ["patient.created"] },
        "URL inválida: use um endereço http:// ou https:// completo",
      ],
      [{ url: "https://u:s@exemplo.com.br/x", eventos: ["patient.created"] }, "A URL não pode conter usuário ou senha"],
      [{ url: "https://exemplo.com.br/x", eventos: [] }, "Escolha ao menos um evento"],
      [{ url: "https://exemplo.com.br/x" }, "Escolha ao menos um evento"],
      [{ url: "https://exemplo.com.br/x", eventos: ["document.deleted"] }, "Evento desconhecido"],
      [{ url: 12, eventos: "patient.created" }, "Informe a URL do endpoint"],
      [
        { url: `https://exemplo.com.br/${"a".repeat(2100)}`, eventos: ["patient.created"] },
        "Use no máximo 2000 caracteres",
      ],
    ];
    for (const [body, message] of bad) {
      const response = await call(clinic, "POST", "/api/settings/webhooks", body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json()).toMatchObject({ code: "VALIDATION", message });
    }
    const notJson = await ctx.app.inject({
      method: "POST",
      url: "/api/settings/webhooks",
      headers: { cookie: clinic.cookie, "content-type": "application/json" },
      payload: "{não é json",
    });
    expect(notJson.statusCode).toBe(400);
    expect((await call(clinic, "PATCH", "/api/settings/webhooks/nao-e-um-id", { ativo: true })).statusCode).toBe(400);
    const created = await createEndpoint(clinic, { url: receiver.url, eventos: ["patient.created"] });
    const empty = await call(clinic, "PATCH", `/api/settings/webhooks/${created.endpoint.id}`, {});
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toBe("Informe ao menos um campo para alterar");
    const badActive = await call(clinic, "PATCH", `/api/settings/webhooks/${created.endpoint.id}`, { ativo: "sim" });
    expect(badActive.statusCode).toBe(400);
    const badDelivery = await call(clinic, "POST", `/api/settings/webhooks/${created.endpoint.id}/deliveries/x/resend`);
    expect(badDelivery.statusCode).toBe(400);
    expect(badDelivery.json().message).toBe("Entrega de webhook não encontrada");
    await call(clinic, "DELETE", `/api/settings/webhooks/${created.endpoint.id}`);
  });

  it("requires https:// when NODE_ENV=production", async () => {
    const actor = { tenantId: clinic.tenantId, profileId: clinic.profileId, role: "profissional", isOwner: true };
    const settings = { db: ctx.database.db, secretBox: ctx.app.services.secretBox, production: true };
    const refused = await createWebhookEndpoint(
      settings,
      actor as never,
      { url: "http://exemplo.com.br/hooks", descricao: undefined, eventos: ["patient.created"] },
      {},
    ).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(AppError);
    expect((refused as AppError).code).toBe("VALIDATION");
    expect((refused as AppError).message).toBe("Use uma URL https:// (obrigatório em produção)");
    const allowed = await createWebhookEndpoint(
      settings,
      actor as never,
      { url: "https://exemplo.com.br/hooks", descricao: undefined, eventos: ["patient.created"] },
      {},
    );
    expect(allowed.endpoint.url).toBe("https://exemplo.com.br/hooks");
    await call(clinic, "DELETE", `/api/settings/webhooks/${allowed.endpoint.id}`);
  });
});

describe("another clinic", () => {
  it("never sees, changes or receives this clinic's endpoints and deliveries (404)", async () => {
    const mine = await createEndpoint(clinic, { url: receiver.url, eventos: ["patient.created"] });
    await signingPatient(ctx.app, clinic);
    const [delivery] = await deliveriesOf(mine.endpoint.id);
    expect(delivery).toBeDefined();
    const base = `/api/settings/webhooks/${mine.endpoint.id}`;
    for (const [method, url, body] of [
      ["PATCH", base, { ativo: false }],
      ["DELETE", base, undefined],
      ["POST", `${base}/rotate-secret`, undefined],
      ["GET", `${base}/deliveries`, undefined],
      ["POST", `${base}/deliveries/${delivery!.id}/resend`, undefined],
      ["POST", `${base}/test`, {}],
    ] as const) {
      const response = await call(other, method, url, body);
      expect(response.statusCode, `${method} ${url}`).toBe(404);
      expect(response.json().code).toBe("WEBHOOK_ENDPOINT_NOT_FOUND");
    }
    expect((await call(other, "GET", "/api/settings/webhooks")).json()).toEqual([]);
    // The other clinic's own endpoint cannot resend this clinic's delivery either.
    const theirs = await createEndpoint(other, { url: receiver.url, eventos: ["patient.created"] });
    const crossed = await call(
      other,
      "POST",
      `/api/settings/webhooks/${theirs.endpoint.id}/deliveries/${delivery!.id}/resend`,
    );
    expect(crossed.statusCode).toBe(404);
    expect(crossed.json()).toEqual({
      code: "WEBHOOK_DELIVERY_NOT_FOUND",
      message: ERRORS.WEBHOOK_DELIVERY_NOT_FOUND.message,
    });

    // Events of one clinic go only to its own endpoints.
    const theirPatient = await signingPatient(ctx.app, other);
    await work();
    const toMine = receiver.received.filter((r) => verifyAsReceiver(mine.segredo, r));
    const toTheirs = receiver.received.filter((r) => verifyAsReceiver(theirs.segredo, r));
    expect(toMine.some((r) => r.body.includes(theirPatient.id))).toBe(false);
    expect(toTheirs.map((r) => JSON.parse(r.body).data.id)).toEqual([theirPatient.id]);
    await call(clinic, "DELETE", base);
    await call(other, "DELETE", `/api/settings/webhooks/${theirs.endpoint.id}`);
  });
});

describe("events and signed deliveries", () => {
  it("sends a document's life and a patient's changes, signed, with ids, status and times only", async () => {
    const hook = await createEndpoint(clinic, { url: receiver.url, eventos: ALL_EVENTS });
    const doc = await signableDocument(ctx.app, clinic, { nome: "Maria Sigilosa de Souza" });
    versionId = doc.versionId;
    const sent = await call(clinic, "POST", `/api/documents/${doc.documentId}/send`, { email: true });
    expect(sent.statusCode, sent.body).toBe(200);
    const token = tokenOf(sent.json().link as string);
    const signed = await signAsPatient(ctx.app, ctx.database, token, doc.patient);
    expect(signed.response.statusCode, signed.response.body).toBe(200);
    const cancelled = await signableDocument(ctx.app, clinic, { versionId });
    expect(
      (
        await call(clinic, "POST", `/api/documents/${cancelled.documentId}/cancel`, {
          motivo: "Procedimento remarcado",
        })
      ).statusCode,
    ).toBeLessThan(300);

    // Nothing is sent before the worker runs; each delivery is one job, written with the change.
    expect(receiver.received).toHaveLength(0);
    await work();
    const mine = receiver.received.filter((r) => verifyAsReceiver(hook.segredo, r));
    expect(mine).toHaveLength(receiver.received.length);
    const events = mine.map(
      (r) => JSON.parse(r.body) as { type: string; timestamp: string; data: Record<string, unknown> },
    );
    const ofDoc = events.filter((e) => e.data.id === doc.documentId).map((e) => e.type);
    expect(ofDoc).toEqual(
      expect.arrayContaining([
        "document.created",
        "document.sent",
        "document.viewed",
        "document.signed",
        "document.sealed",
      ]),
    );
    expect(events.filter((e) => e.data.id === doc.patient.id).map((e) => e.type)).toEqual(["patient.created"]);
    expect(events.filter((e) => e.data.id === cancelled.documentId).map((e) => e.type)).toEqual(
      expect.arrayContaining(["document.created", "document.cancelled"]),
    );
    const sealed = events.find((e) => e.type === "document.sealed")!;
    expect(sealed.data).toMatchObject({ id: doc.documentId, status: "signed", paciente_id: doc.patient.id });
    expect(sealed.data.pdf_assinado_sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(sealed.timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(events.find((e) => e.type === "document.sent")!.data.status).toBe("sent");
    // No health or personal data: no name, CPF, title, procedure or text.
    for (const r of mine) {
      for (const secret of ["Maria", "Sigilosa", doc.patient.cpf, "Blefaroplastia", "TCLE", "Hematoma", "remarcado"])
        expect(r.body).not.toContain(secret);
      expect(r.headers["content-type"]).toBe("application/json");
      expect(r.headers["webhook-id"]).toMatch(/^msg_[0-9a-f-]{36}$/);
    }
    // Logged: delivered, the answer's code, its duration, one attempt.
    const list = await call(clinic, "GET", `/api/settings/webhooks/${hook.endpoint.id}/deliveries`);
    expect(list.statusCode).toBe(200);
    expect(list.json()[0]).toMatchObject({
      status: "delivered",
      ultimo_status_http: 204,
      tentativas: 1,
      ultimo_erro: null,
    });
    expect(list.json()[0].ultima_duracao_ms).toEqual(expect.any(Number));
    await call(clinic, "DELETE", `/api/settings/webhooks/${hook.endpoint.id}`);
  });

  it("writes nothing for events the endpoint did not choose", async () => {
    const hook = await createEndpoint(clinic, { url: receiver.url, eventos: ["document.signed"] });
    await signingPatient(ctx.app, clinic);
    expect(await deliveriesOf(hook.endpoint.id)).toHaveLength(0);
    await call(clinic, "DELETE", `/api/settings/webhooks/${hook.endpoint.id}`);
  });
});

describe("secret rotation with 24 hours of grace", () => {
  it("signs with the new and the previous secret for 24 hours, then with the new one only", async () => {
    const hook = await createEndpoint(clinic, { url: receiver.url, eventos: ["patient.created"] });
    const before = Date.now();
    const rotated = await call(clinic, "POST", `/api/settings/webhooks/${hook.endpoint.id}/rotate-secret`);
    expect(rotated.statusCode, rotated.body).toBe(200);
    const { segredo, anterior_valido_ate } = rotated.json() as { segredo: string; anterior_valido_ate: string };
    expect(segredo).toMatch(WEBHOOK_SECRET_PATTERN);
    const graceUntil = new Date(anterior_valido_ate).getTime();
    expect(graceUntil).toBeGreaterThanOrEqual(before + DAY);
    expect(graceUntil).toBeLessThanOrEqual(Date.now() + DAY);
    // The list says until when; the previous secret is sealed, never shown.
    const listed = await call(clinic, "GET", "/api/settings/webhooks");
    expect(listed.json()).toContainEqual(
      expect.objectContaining({ id: hook.endpoint.id, segredo_anterior_ate: anterior_valido_ate }),
    );
    expect(listed.body).not.toContain(hook.segredo.slice(6));
    const [stored] = await rawRows<{ t: string }>(
      ctx.database.db,
      sql`select row_to_json(e)::text as t from webhook_endpoints e where id = ${hook.endpoint.id}`,
    );
    expect(stored?.t).not.toContain(hook.segredo.slice(6, 30));

    // Within the 24 hours: two v1 signatures, one per secret; a receiver with either accepts it.
    await signingPatient(ctx.app, clinic);
    const inGrace = new Date(graceUntil - 60_000);
    await work(inGrace);
    expect(receiver.received).toHaveLength(1);
    const first = receiver.received[0]!;
    expect(first.headers["webhook-signature"]).toMatch(/^v1,[A-Za-z0-9+/]{43}= v1,[A-Za-z0-9+/]{43}=$/);
    expect(verifyAsReceiver(segredo, first, inGrace)).toBe(true);
    expect(verifyAsReceiver(hook.segredo, first, inGrace)).toBe(true);
    expect(verifyAsReceiver(`whsec_${Buffer.alloc(32, 7).toString("base64")}`, first, inGrace)).toBe(false);

    // After them: the new secret only.
    await signingPatient(ctx.app, clinic);
    const after = new Date(graceUntil + 1000);
    await work(after);
    expect(receiver.received).toHaveLength(2);
    const second = receiver.received[1]!;
    expect(second.headers["webhook-signature"]!.split(" ")).toHaveLength(1);
    expect(verifyAsReceiver(segredo, second, after)).toBe(true);
    expect(verifyAsReceiver(hook.segredo, second, after)).toBe(false);
    // …and the screen no longer says the previous secret signs.
    const [row] = await ctx.database.db
      .select()
      .from(webhookEndpoints)
      .where(eq(webhookEndpoints.id, hook.endpoint.id));
    expect(presentWebhookEndpoint(row!, inGrace).segredo_anterior_ate).toBe(anterior_valido_ate);
    expect(presentWebhookEndpoint(row!, after).segredo_anterior_ate).toBeNull();

    // A second rotation within the grace drops the oldest: the first secret signs no more.
    const third = await call(clinic, "POST", `/api/settings/webhooks/${hook.endpoint.id}/rotate-secret`);
    await signingPatient(ctx.app, clinic);
    await work();
    const last = receiver.received[2]!;
    expect(last.headers["webhook-signature"]!.split(" ")).toHaveLength(2);
    expect(verifyAsReceiver(third.json().segredo, last)).toBe(true);
    expect(verifyAsReceiver(segredo, last)).toBe(true);
    expect(verifyAsReceiver(hook.segredo, last)).toBe(false);
    const [audit] = await rawRows<{ data: { anterior_valido_ate: string } }>(
      ctx.database.db,
      sql`select data from audit_events where tenant_id = ${clinic.tenantId} and entity_id = ${hook.endpoint.id}
        and action = 'webhook.secret_rotated' order by seq limit 1`,
    );
    expect(audit?.data.anterior_valido_ate).toBe(anterior_valido_ate);
    await call(clinic, "DELETE", `/api/settings/webhooks/${hook.endpoint.id}`);
  });
});

describe("Enviar evento de teste", () => {
  const testUrl = (id: string) => `/api/settings/webhooks/${id}/test`;

  it("sends one signed webhook.test with the endpoint's id only, logged, tried once", async () => {
    const hook = await createEndpoint(clinic, { url: receiver.url, eventos: ["document.signed"] });
    const sent = await call(clinic, "POST", testUrl(hook.endpoint.id));
    expect(sent.statusCode, sent.body).toBe(202);
    expect(sent.json()).toMatchObject({ evento: "webhook.test", status: "pending", tentativas: 0 });
    // An empty JSON object is accepted too (what the screen sends).
    expect((await call(clinic, "POST", testUrl(hook.endpoint.id), {})).statusCode).toBe(202);
    await work();
    expect(receiver.received).toHaveLength(2);
    for (const message of receiver.received) {
      expect(verifyAsReceiver(hook.segredo, message)).toBe(true);
      const body = JSON.parse(message.body) as { type: string; timestamp: string; data: unknown };
      expect(body.type).toBe("webhook.test");
      expect(body.data).toEqual({ endpoint_id: hook.endpoint.id });
      expect(body.timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    }
    const log = await call(clinic, "GET", `/api/settings/webhooks/${hook.endpoint.id}/deliveries`);
    expect(log.json()).toHaveLength(2);
    expect(log.json()[0]).toMatchObject({
      evento: "webhook.test",
      status: "delivered",
      ultimo_status_http: 204,
      tentativas: 1,
    });

    // A failing receiver: one attempt, failed at once, no retry queued; Reenviar tries again.
    receiver.mode = "fail";
    const failing = await call(clinic, "POST", testUrl(hook.endpoint.id));
    await work();
    const [failed] = await ctx.database.db
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.id, failing.json().id as string));
    expect(failed).toMatchObject({
      status: "failed",
      tentativas: 1,
      ultimo_status_http: 500,
      proxima_tentativa_em: null,
    });
    const queued = await rawRows<{ n: number }>(
      ctx.database.db,
      sql`select count(*)::int as n from jobs where kind = 'webhook.deliver' and status = 'pending'
        and payload->>'deliveryId' = ${failed!.id}`,
    );
    expect(queued[0]?.n).toBe(0);
    receiver.mode = "ok";
    const resent = await call(
      clinic,
      "POST",
      `/api/settings/webhooks/${hook.endpoint.id}/deliveries/${failed!.id}/resend`,
    );
    expect(resent.statusCode).toBe(200);
    await work();
    expect(receiver.received.at(-1)!.headers["webhook-id"]).toBe(`msg_${failed!.id}`);

    const actions = await rawRows<{ action: string }>(
      ctx.database.db,
      sql`select action from audit_events where tenant_id = ${clinic.tenantId} and entity_id = ${hook.endpoint.id}
        and action = 'webhook.test_sent'`,
    );
    expect(actions).toHaveLength(3);
    await call(clinic, "DELETE", `/api/settings/webhooks/${hook.endpoint.id}`);
  });

  it("is for the owner and administrators, 404 for another clinic's endpoint, 409 when disabled, 400 for a malformed body", async () => {
    const hook = await createEndpoint(clinic, { url: receiver.url, eventos: ["patient.created"] });
    const atendente = await newStaff(ctx.app, ctx.database, clinic.tenantId, "atendente");
    expect((await call(atendente, "POST", testUrl(hook.endpoint.id))).statusCode).toBe(403);
    const auditorKey = await call(clinic, "POST", "/api/settings/api-keys", { nome: "Leitura 2", role: "auditor" });
    expect((await withKey(auditorKey.json().segredo, "POST", testUrl(hook.endpoint.id))).statusCode).toBe(403);
    const adminKey = await call(clinic, "POST", "/api/settings/api-keys", { nome: "Integração 2", role: "admin" });
    expect((await withKey(adminKey.json().segredo, "POST", testUrl(hook.endpoint.id))).statusCode).toBe(202);

    const crossed = await call(other, "POST", testUrl(hook.endpoint.id));
    expect(crossed.statusCode).toBe(404);
    expect(crossed.json()).toEqual({
      code: "WEBHOOK_ENDPOINT_NOT_FOUND",
      message: ERRORS.WEBHOOK_ENDPOINT_NOT_FOUND.message,
    });
    const unknown = await call(clinic, "POST", testUrl("00000000-0000-4000-8000-000000000000"));
    expect(unknown.statusCode).toBe(404);
    const badId = await call(clinic, "POST", testUrl("nao-e-um-id"));
    expect(badId.statusCode).toBe(400);
    expect(badId.json().message).toBe("Endpoint de webhook não encontrado");

    for (const [body, message] of [
      [{ evento: "document.signed" }, "Envie um objeto JSON vazio ou nenhum corpo"],
      [["lista"], "Envie um objeto JSON vazio ou nenhum corpo"],
      ["texto", "Envie um objeto JSON vazio ou nenhum corpo"],
    ] as const) {
      const response = await ctx.app.inject({
        method: "POST",
        url: testUrl(hook.endpoint.id),
        headers: { cookie: clinic.cookie, "content-type": "application/json" },
        payload: JSON.stringify(body),
      });
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json()).toMatchObject({ code: "VALIDATION", message });
    }
    const notJson = await ctx.app.inject({
      method: "POST",
      url: testUrl(hook.endpoint.id),
      headers: { cookie: clinic.cookie, "content-type": "application/json" },
      payload: "{não é json",
    });
    expect(notJson.statusCode).toBe(400);
    expect(notJson.json().message).not.toMatch(/Unexpected|JSON at position|Body/);

    await call(clinic, "PATCH", `/api/settings/webhooks/${hook.endpoint.id}`, { ativo: false });
    const disabled = await call(clinic, "POST", testUrl(hook.endpoint.id));
    expect(disabled.statusCode).toBe(409);
    expect(disabled.json().message).toBe(ERRORS.WEBHOOK_ENDPOINT_INACTIVE.message);
    await call(clinic, "DELETE", `/api/settings/webhooks/${hook.endpoint.id}`);
  });
});

describe("retries on the queue's clock", () => {
  it("retries a failing receiver with growing pauses, then succeeds; Reenviar sends the same message again", async () => {
    const hook = await createEndpoint(clinic, { url: receiver.url, eventos: ["patient.created"] });
    receiver.mode = "fail";
    const patient = await signingPatient(ctx.app, clinic);
    const t0 = new Date(Date.now() + 1000);
    await work(t0);
    let [row] = await deliveriesOf(hook.endpoint.id);
    expect(row).toMatchObject({ status: "pending", tentativas: 1, ultimo_status_http: 500 });
    expect(row!.ultimo_erro).toBe("Resposta HTTP 500");
    expect(row!.proxima_tentativa_em!.getTime() - t0.getTime()).toBe(5_000);
    // Not yet due: nothing sent.
    await work(new Date(t0.getTime() + 4_000));
    expect(receiver.received).toHaveLength(1);
    await work(new Date(t0.getTime() + 5_000));
    [row] = await deliveriesOf(hook.endpoint.id);
    expect(row).toMatchObject({ status: "pending", tentativas: 2 });
    expect(row!.proxima_tentativa_em!.getTime() - (t0.getTime() + 5_000)).toBe(30_000);
    const [endpoint] = await ctx.database.db
      .select()
      .from(webhookEndpoints)
      .where(eq(webhookEndpoints.id, hook.endpoint.id));
    expect(endpoint?.falhando_desde?.getTime()).toBe(t0.getTime());

    receiver.mode = "ok";
    const t2 = row!.proxima_tentativa_em!;
    await work(t2);
    [row] = await deliveriesOf(hook.endpoint.id);
    expect(row).toMatchObject({ status: "delivered", tentativas: 3, ultimo_status_http: 204, ultimo_erro: null });
    const [healed] = await ctx.database.db
      .select()
      .from(webhookEndpoints)
      .where(eq(webhookEndpoints.id, hook.endpoint.id));
    expect(healed?.falhando_desde).toBeNull();
    // Every attempt carried the same webhook-id and body, signed at its own time.
    expect(receiver.received).toHaveLength(3);
    expect(new Set(receiver.received.map((r) => r.headers["webhook-id"])).size).toBe(1);
    expect(new Set(receiver.received.map((r) => r.body)).size).toBe(1);
    const times = [t0, new Date(t0.getTime() + 5_000), t2];
    receiver.received.forEach((r, i) => expect(verifyAsReceiver(hook.segredo, r, times[i])).toBe(true));
    expect(JSON.parse(receiver.received[0]!.body).data.id).toBe(patient.id);

    // Reenviar: once more, now.
    const resent = await call(
      clinic,
      "POST",
      `/api/settings/webhooks/${hook.endpoint.id}/deliveries/${row!.id}/resend`,
    );
    expect(resent.statusCode, resent.body).toBe(200);
    expect(resent.json()).toMatchObject({ status: "pending", tentativas: 3 });
    await work();
    expect(receiver.received).toHaveLength(4);
    expect(receiver.received[3]!.headers["webhook-id"]).toBe(`msg_${row!.id}`);
    [row] = await deliveriesOf(hook.endpoint.id);
    expect(row).toMatchObject({ status: "delivered", tentativas: 4 });
    await call(clinic, "DELETE", `/api/settings/webhooks/${hook.endpoint.id}`);
  });

  it("gives up after three days, disables the endpoint with a notice, and Reenviar waits for its reactivation", async () => {
    const hook = await createEndpoint(clinic, { url: receiver.url, eventos: ["patient.created", "patient.updated"] });
    receiver.mode = "fail";
    await signingPatient(ctx.app, clinic);
    const t0 = new Date(Date.now() + 1000);
    let at = t0;
    const attempts: number[] = [];
    for (let i = 0; i < 40; i++) {
      await work(at);
      const [row] = await deliveriesOf(hook.endpoint.id);
      attempts.push(row!.ultima_tentativa_em!.getTime() - t0.getTime());
      if (row!.status !== "pending") break;
      at = row!.proxima_tentativa_em!;
    }
    const [row] = await deliveriesOf(hook.endpoint.id);
    expect(row).toMatchObject({ status: "failed", ultimo_status_http: 500 });
    // 5 s, 30 s, 3 min, 18 min, 1 h 48 min, then every 10 h, the last at exactly three days.
    const pauses = attempts.slice(1).map((t, i) => t - attempts[i]!);
    expect(pauses.slice(0, 6)).toEqual([5_000, 30_000, 180_000, 1_080_000, 6_480_000, 36_000_000]);
    expect(attempts.at(-1)).toBe(WEBHOOK_RETRY_WINDOW_MS);
    expect(row!.tentativas).toBe(attempts.length);
    expect(receiver.received).toHaveLength(attempts.length);

    const [endpoint] = await ctx.database.db
      .select()
      .from(webhookEndpoints)
      .where(eq(webhookEndpoints.id, hook.endpoint.id));
    expect(endpoint).toMatchObject({ ativo: false });
    expect(endpoint!.desativado_em!.getTime()).toBe(t0.getTime() + 3 * DAY);
    const notices = await ctx.database.db
      .select()
      .from(systemNotices)
      .where(and(eq(systemNotices.tenant_id, clinic.tenantId), eq(systemNotices.kind, "webhook.disabled")));
    expect(notices).toHaveLength(1);
    expect(notices[0]!.title).toBe("Webhook desativado");
    expect(notices[0]!.body).toContain(receiver.url);
    const avisos = await call(clinic, "GET", "/api/notices");
    expect(avisos.body).toContain("Webhook desativado");

    // Disabled: no new deliveries; Reenviar refused until reactivated.
    const before = (await deliveriesOf(hook.endpoint.id)).length;
    await signingPatient(ctx.app, clinic);
    expect(await deliveriesOf(hook.endpoint.id)).toHaveLength(before);
    const refused = await call(
      clinic,
      "POST",
      `/api/settings/webhooks/${hook.endpoint.id}/deliveries/${row!.id}/resend`,
    );
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(ERRORS.WEBHOOK_ENDPOINT_INACTIVE.message);
    const listed = (await call(clinic, "GET", "/api/settings/webhooks")).json() as { id: string; ativo: boolean }[];
    expect(listed.find((e) => e.id === hook.endpoint.id)?.ativo).toBe(false);

    receiver.mode = "ok";
    const reactivated = await call(clinic, "PATCH", `/api/settings/webhooks/${hook.endpoint.id}`, { ativo: true });
    expect(reactivated.json()).toMatchObject({ ativo: true, falhando_desde: null, desativado_em: null });
    expect(
      (await call(clinic, "POST", `/api/settings/webhooks/${hook.endpoint.id}/deliveries/${row!.id}/resend`))
        .statusCode,
    ).toBe(200);
    await work(new Date(t0.getTime() + 3 * DAY + 60_000));
    const [done] = await ctx.database.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, row!.id));
    expect(done?.status).toBe("delivered");
    await call(clinic, "DELETE", `/api/settings/webhooks/${hook.endpoint.id}`);
  });
});

describe("two workers, hanging receivers, private addresses", () => {
  it("delivers each attempt once under two workers, and once when the same attempt's job runs twice", async () => {
    const hook = await createEndpoint(clinic, { url: receiver.url, eventos: ["patient.created"] });
    receiver.mode = "slow";
    receiver.slowMs = 150;
    for (let i = 0; i < 4; i++) await signingPatient(ctx.app, clinic);
    const now = new Date(Date.now() + 1000);
    await Promise.all([work(now, {}, 2), work(now, {}, 2)]);
    const ids = receiver.received.map((r) => r.headers["webhook-id"]);
    expect(ids).toHaveLength(4);
    expect(new Set(ids).size).toBe(4);
    const rows = await deliveriesOf(hook.endpoint.id);
    expect(rows.every((r) => r.status === "delivered" && r.tentativas === 1)).toBe(true);

    // The same attempt handed to two runs at once (a job taken again): one POST.
    receiver.received.length = 0;
    const patient = await signingPatient(ctx.app, clinic);
    const [delivery] = (await deliveriesOf(hook.endpoint.id)).filter((r) => r.corpo.includes(patient.id));
    await ctx.database.db
      .update(jobs)
      .set({ status: "done" })
      .where(sql`${jobs.payload} ->> 'deliveryId' = ${delivery!.id}`);
    const runs = await Promise.allSettled([
      deliverWebhook({
        ctx: jobContext(),
        payload: { deliveryId: delivery!.id, attempt: 1 },
        tenantId: clinic.tenantId,
        now,
      }),
      deliverWebhook({
        ctx: jobContext(),
        payload: { deliveryId: delivery!.id, attempt: 1 },
        tenantId: clinic.tenantId,
        now,
      }),
    ]);
    expect(receiver.received).toHaveLength(1);
    // The run that found the attempt under way leaves it to the queue (fails, to be tried later).
    expect(runs.some((r) => r.status === "fulfilled")).toBe(true);
    for (const run of runs)
      if (run.status === "rejected") expect(String(run.reason)).toContain("webhook attempt still under way elsewhere");
    const [after] = await ctx.database.db
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.id, delivery!.id));
    expect(after).toMatchObject({ status: "delivered", tentativas: 1 });
    // Later runs of that attempt do nothing.
    await deliverWebhook({
      ctx: jobContext(),
      payload: { deliveryId: delivery!.id, attempt: 1 },
      tenantId: clinic.tenantId,
      now,
    });
    expect(receiver.received).toHaveLength(1);
    await call(clinic, "DELETE", `/api/settings/webhooks/${hook.endpoint.id}`);
  });

  it("cuts a receiver that hangs at the timeout without holding up other jobs", async () => {
    const hanging = await startWebhookReceiver();
    hanging.mode = "hang";
    try {
      const slowHook = await createEndpoint(clinic, { url: hanging.url, eventos: ["patient.created"] });
      const okHook = await createEndpoint(clinic, { url: receiver.url, eventos: ["patient.created"] });
      await signingPatient(ctx.app, clinic);
      const started = Date.now();
      await work(new Date(Date.now() + 1000), { WEBHOOK_TIMEOUT_MS: 400 }, 2);
      expect(Date.now() - started).toBeLessThan(20_000);
      const [cut] = await deliveriesOf(slowHook.endpoint.id);
      expect(cut).toMatchObject({ status: "pending", tentativas: 1, ultimo_status_http: null });
      expect(cut!.ultimo_erro).toBe("Sem resposta em 0,4 s");
      expect(cut!.ultima_duracao_ms).toBeGreaterThanOrEqual(350);
      const [delivered] = await deliveriesOf(okHook.endpoint.id);
      expect(delivered?.status).toBe("delivered");
      expect(hanging.received).toHaveLength(1);
      await call(clinic, "DELETE", `/api/settings/webhooks/${slowHook.endpoint.id}`);
      await call(clinic, "DELETE", `/api/settings/webhooks/${okHook.endpoint.id}`);
    } finally {
      await hanging.close();
    }
  });

  it("never sends to loopback, link-local or private addresses, nor follows a redirect, without WEBHOOKS_ALLOW_PRIVATE", async () => {
    const v6 = await startWebhookReceiver("::1").catch(() => undefined);
    const targets = [
      receiver.url,
      `http://localhost:${receiver.port}/hooks`,
      "http://169.254.169.254/latest/meta-data/",
      "http://10.0.0.1/hooks",
      "http://192.168.1.10/hooks",
      "http://[::ffff:127.0.0.1]:9/hooks",
      v6?.url ?? "http://[::1]:9/hooks",
    ];
    const hooks = [];
    for (const url of targets) hooks.push(await createEndpoint(clinic, { url, eventos: ["patient.created"] }));
    await signingPatient(ctx.app, clinic);
    await work(new Date(Date.now() + 1000), { WEBHOOKS_ALLOW_PRIVATE: false });
    expect(receiver.received).toHaveLength(0);
    expect(v6?.received ?? []).toHaveLength(0);
    for (const hook of hooks) {
      const [row] = await deliveriesOf(hook.endpoint.id);
      expect(row, hook.endpoint.url).toMatchObject({ status: "pending", tentativas: 1, ultimo_status_http: null });
      expect(row!.ultimo_erro, hook.endpoint.url).toMatch(
        /^Endereço recusado: .+ é desta máquina ou de uma rede privada$/,
      );
      await call(clinic, "DELETE", `/api/settings/webhooks/${hook.endpoint.id}`);
    }
    await v6?.close();

    // Allowed by the operator: a redirect answer is a failed attempt, never followed.
    receiver.mode = "redirect";
    const hook = await createEndpoint(clinic, { url: receiver.url, eventos: ["patient.created"] });
    await signingPatient(ctx.app, clinic);
    await work(new Date(Date.now() + 1000));
    const [row] = await deliveriesOf(hook.endpoint.id);
    expect(row).toMatchObject({
      status: "pending",
      ultimo_status_http: 302,
      ultimo_erro: "Redirecionamento (302) não seguido",
    });
    expect(receiver.received).toHaveLength(1);
    await call(clinic, "DELETE", `/api/settings/webhooks/${hook.endpoint.id}`);
  });
});
