import { connect } from "node:net";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditEvents, contratos, rateLimitCounters } from "../../src/db/schema.js";
import type { Release } from "../../src/server/lib/admission-gate.js";
import { COME_BACK_MAX_MS } from "../../src/server/lib/admission-gate.js";
import { ERRORS } from "../../src/shared/errors.js";
import { newClinic, type SignedIn } from "../helpers/sessions.js";
import {
  latestSigningCode,
  publishedTemplateVersion,
  signableDocument,
  signatureDataUrl,
  tokenOf,
} from "../helpers/signing.js";
import { createTestApp, type TestContext } from "../helpers/test-app.js";

/**
 * Admission control of the public routes (decision 040): past this process's places and its short
 * queue, a public request is answered 503 PUBLIC_BUSY with Retry-After before anything is done —
 * no rate-limit count, no audit event, no attempt — while the staff's routes keep answering.
 * `ctx`: one place, one may wait 300 ms; `noQueue` (same database): one place, nobody waits.
 */
let ctx: TestContext;
let noQueue: TestContext;
let clinic: SignedIn;
let versionId: string;

const PHONE = { remoteAddress: "203.0.113.40", headers: { "user-agent": "Mozilla/5.0 (iPhone) Mobile Safari" } };

beforeAll(async () => {
  ctx = await createTestApp({
    env: {
      PUBLIC_MAX_IN_FLIGHT: "1",
      PUBLIC_MAX_WAITING: "1",
      PUBLIC_MAX_WAIT_MS: "300",
      RATE_LIMIT_PUBLIC_PER_MINUTE: "1000",
    },
  });
  clinic = await newClinic(ctx.app);
  versionId = await publishedTemplateVersion(ctx.app, clinic);
  noQueue = await createTestApp({
    database: ctx.database,
    env: { PUBLIC_MAX_IN_FLIGHT: "1", PUBLIC_MAX_WAITING: "0", RATE_LIMIT_PUBLIC_PER_MINUTE: "1000" },
  });
});

afterAll(async () => {
  await noQueue?.close();
  await ctx?.close();
});

const staff = (method: "GET" | "POST", url: string, payload?: unknown) =>
  ctx.app.inject({ method, url, payload: payload as object, headers: { cookie: clinic.cookie } });
const publicCall = (method: "GET" | "POST", url: string, payload?: unknown) =>
  ctx.app.inject({ method, url, payload: payload as object, ...PHONE });

async function sentDocument() {
  const { documentId, patient } = await signableDocument(ctx.app, clinic, { versionId });
  const sent = await staff("POST", `/api/documents/${documentId}/send`, {});
  expect(sent.statusCode, sent.body).toBe(200);
  return { documentId, patient, token: tokenOf(sent.json().link as string) };
}

const expectBusy = (response: { statusCode: number; headers: Record<string, unknown>; json(): any; body: string }) => {
  expect(response.statusCode, response.body).toBe(503);
  expect(response.json()).toEqual({ code: "PUBLIC_BUSY", message: ERRORS.PUBLIC_BUSY.message });
  // Its own turn, in whole seconds (decision 044).
  expect(String(response.headers["retry-after"])).toMatch(/^[1-9]\d*$/);
  expect(Number(response.headers["retry-after"])).toBeLessThanOrEqual(COME_BACK_MAX_MS / 1000);
  expect(response.headers["cache-control"]).toBe("no-store");
};

const counted = async () => {
  const [row] = await ctx.database.db
    .select({ hits: sql<number>`coalesce(sum(${rateLimitCounters.hits}), 0)::int` })
    .from(rateLimitCounters);
  return row!.hits;
};
const eventsOf = async (documentId: string) =>
  (
    await ctx.database.db
      .select({ n: sql<number>`count(*)::int` })
      .from(auditEvents)
      .where(eq(auditEvents.entity_id, documentId))
  )[0]!.n;

/** Takes the gate's one place, as a request in its handler would: the next ones wait (if the app has a queue) or are turned away. */
async function holdThePlace(app = ctx.app): Promise<Release> {
  const release = await app.publicAdmission.enter();
  expect(release).toBeTypeOf("function");
  return release!;
}

describe("public admission control", () => {
  it("turns public requests away with 503 PUBLIC_BUSY before doing anything, and serves the staff meanwhile", async () => {
    const { documentId, patient, token } = await sentDocument();
    const hitsBefore = await counted();
    const eventsBefore = await eventsOf(documentId);
    const release = await holdThePlace(noQueue.app);
    const call = (method: "GET" | "POST", url: string, payload?: unknown) =>
      noQueue.app.inject({ method, url, payload: payload as object, ...PHONE });
    try {
      expect(noQueue.app.publicAdmission.full).toBe(true);
      expectBusy(await call("GET", `/api/public/sign/${token}`));
      expectBusy(await call("POST", `/api/public/sign/${token}/code`, {}));
      expectBusy(await call("POST", `/api/public/sign/${token}/verify-code`, { codigo: "000000" }));
      expectBusy(
        await call("POST", `/api/public/sign/${token}`, {
          nome: patient.nome,
          cpf: patient.cpf,
          email: patient.email,
          assinatura: signatureDataUrl(),
          conteudo_sha256: "0".repeat(64),
          aceite_eletronico: true,
        }),
      );
      expectBusy(await call("GET", "/api/public/verify/ABCD-1234"));
      // Turned away on arrival: nothing was counted, recorded or changed; the link was not even opened.
      expect(await counted()).toBe(hitsBefore);
      expect(await eventsOf(documentId)).toBe(eventsBefore);
      const [row] = await ctx.database.db
        .select({ status: contratos.status })
        .from(contratos)
        .where(eq(contratos.id, documentId));
      expect(row!.status).toBe("sent");
      // The staff's routes are not gated.
      const list = await noQueue.app.inject({
        method: "GET",
        url: "/api/documents?limit=5",
        headers: { cookie: clinic.cookie },
      });
      expect(list.statusCode, list.body).toBe(200);
      expect((await noQueue.app.inject({ method: "GET", url: "/api/health" })).statusCode).toBe(200);
    } finally {
      release();
    }

    // With the place free again, the same patient goes through, and this time it counts.
    const opened = await call("GET", `/api/public/sign/${token}`);
    expect(opened.statusCode, opened.body).toBe(200);
    expect(await counted()).toBeGreaterThan(hitsBefore);
    expect(await eventsOf(documentId)).toBeGreaterThan(eventsBefore);
    expect(noQueue.app.publicAdmission.inFlight).toBe(0);
  });

  it("a request that finds the places taken waits its turn and is served when one frees", async () => {
    const { token } = await sentDocument();
    const gate = ctx.app.publicAdmission;
    const holder = await holdThePlace();
    const waiting = publicCall("GET", `/api/public/sign/${token}`);
    await expect.poll(() => gate.waiting).toBe(1);
    holder();
    const response = await waiting;
    expect(response.statusCode, response.body).toBe(200);
    expect(gate.inFlight).toBe(0);
  });

  it("a signer's later step goes before a newcomer, and may wait when newcomers are turned away", async () => {
    const lanes = await createTestApp({
      database: ctx.database,
      env: {
        PUBLIC_MAX_IN_FLIGHT: "1",
        PUBLIC_MAX_WAITING: "1",
        PUBLIC_MAX_WAIT_MS: "20000",
        RATE_LIMIT_PUBLIC_PER_MINUTE: "1000",
      },
    });
    try {
      const call = (method: "GET" | "POST", url: string, payload?: unknown) =>
        lanes.app.inject({ method, url, payload: payload as object, ...PHONE });
      const begun = await sentDocument();
      const fresh = await sentDocument();
      expect((await call("GET", `/api/public/sign/${begun.token}`)).statusCode).toBe(200);
      const gate = lanes.app.publicAdmission;
      const holder = await holdThePlace(lanes.app);
      const done: string[] = [];
      const newcomer = call("GET", `/api/public/sign/${fresh.token}`).then((response) => (done.push("abre"), response));
      await expect.poll(() => gate.waiting).toBe(1);
      // The queue is full for newcomers: the next one is turned away on arrival ...
      expectBusy(await call("GET", `/api/public/sign/${fresh.token}`));
      // ... but the patient who already opened their link may still wait, and goes first.
      const code = call("POST", `/api/public/sign/${begun.token}/code`, {}).then(
        (response) => (done.push("código"), response),
      );
      await expect.poll(() => gate.waiting).toBe(2);
      holder();
      const [codeAnswer, openAnswer] = await Promise.all([code, newcomer]);
      expect(codeAnswer.statusCode, codeAnswer.body).toBe(200);
      expect(openAnswer.statusCode, openAnswer.body).toBe(200);
      expect(done).toEqual(["código", "abre"]);
      expect(gate.inFlight).toBe(0);
    } finally {
      await lanes.close();
    }
  });

  it("a request that waits longer than PUBLIC_MAX_WAIT_MS is turned away, and takes no place after", async () => {
    const { token } = await sentDocument();
    const gate = ctx.app.publicAdmission;
    const holder = await holdThePlace();
    try {
      const hitsBefore = await counted();
      const started = performance.now();
      expectBusy(await publicCall("GET", `/api/public/sign/${token}`));
      expect(performance.now() - started).toBeGreaterThanOrEqual(250);
      expect(gate.waiting).toBe(0);
      // Turned away after its wait: it counted against no limit either (a page that waits and tries
      // again must not use up the link's five code requests).
      expect(await counted()).toBe(hitsBefore);
    } finally {
      holder();
    }
    expect(gate.inFlight).toBe(0);
  });

  it("a patient turned away again and again after waiting is not locked out of the code (5 per quarter hour)", async () => {
    const { token } = await sentDocument();
    const holder = await holdThePlace();
    try {
      for (let i = 0; i < 6; i++) expectBusy(await publicCall("POST", `/api/public/sign/${token}/code`, {}));
    } finally {
      holder();
    }
    const asked = await publicCall("POST", `/api/public/sign/${token}/code`, {});
    expect(asked.statusCode, asked.body).toBe(200);
  });

  it("gives every place back, whatever the answer: 200, 410, 400, 429; a slow body or a client that leaves holds none", async () => {
    const { token, patient } = await sentDocument();
    const gate = ctx.app.publicAdmission;
    expect((await publicCall("GET", `/api/public/sign/${token}`)).statusCode).toBe(200);
    expect((await publicCall("GET", `/api/public/sign/${"Z".repeat(43)}`)).statusCode).toBe(410);
    expect((await publicCall("POST", `/api/public/sign/${token}`, { nome: 5 })).statusCode).toBe(400);
    expect((await publicCall("POST", `/api/public/sign/${token}/verify-code`, { codigo: "12" })).statusCode).toBe(400);
    // A wrong code: counted, audited, refused; the place is given back all the same.
    await publicCall("POST", `/api/public/sign/${token}/code`, {});
    const code = await latestSigningCode(ctx, patient.email!);
    const wrong = await publicCall("POST", `/api/public/sign/${token}/verify-code`, {
      codigo: code === "111111" ? "222222" : "111111",
    });
    expect(wrong.statusCode, wrong.body).toBe(400);
    expect(gate.inFlight).toBe(0);
    // A rate-limited request (429) was admitted first, and gives its place back too.
    const strict = await createTestApp({
      database: ctx.database,
      env: { PUBLIC_MAX_IN_FLIGHT: "1", RATE_LIMIT_PUBLIC_PER_MINUTE: "2" },
    });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 3; i++)
        statuses.push(
          (await strict.app.inject({ method: "GET", url: `/api/public/sign/${token}`, remoteAddress: "198.51.100.41" }))
            .statusCode,
        );
      expect(statuses).toEqual([200, 200, 429]);
      expect(strict.app.publicAdmission.inFlight).toBe(0);
    } finally {
      await strict.close();
    }

    // Over real HTTP: a client that sends its body slowly holds no place while it does.
    const address = await ctx.app.listen({ port: 0, host: "127.0.0.1" });
    const { port } = new URL(address);
    const slow = connect(Number(port), "127.0.0.1");
    await new Promise<void>((resolve) => slow.once("connect", resolve));
    slow.write(
      `POST /api/public/sign/${token}/verify-code HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 400\r\n\r\n{"codigo":`,
    );
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(gate.inFlight).toBe(0);
    expect((await publicCall("GET", `/api/public/sign/${token}`)).statusCode).toBe(200);
    slow.destroy();

    // A client that sends its request while the place is taken and goes away before its turn
    // leaves the queue at once.
    const holder = await holdThePlace();
    try {
      const socket = connect(Number(port), "127.0.0.1");
      await new Promise<void>((resolve) => socket.once("connect", resolve));
      socket.write(`GET /api/public/sign/${token} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
      await expect.poll(() => gate.waiting).toBe(1);
      socket.destroy();
      await expect.poll(() => gate.waiting).toBe(0);
    } finally {
      holder();
    }
    expect(gate.inFlight).toBe(0);
  });

  it("under a burst every public answer is 200 or 503 PUBLIC_BUSY, nothing else, and no place is left taken", async () => {
    const { token } = await sentDocument();
    const answers = await Promise.all(Array.from({ length: 40 }, () => publicCall("GET", `/api/public/sign/${token}`)));
    const statuses = answers.map((response) => response.statusCode);
    expect(statuses.filter((status) => status !== 200 && status !== 503)).toEqual([]);
    // One place and one waiting: some are served, and most of a same-instant burst is turned away.
    expect(statuses.filter((status) => status === 200).length).toBeGreaterThanOrEqual(1);
    expect(statuses.filter((status) => status === 503).length).toBeGreaterThan(0);
    for (const busy of answers.filter((response) => response.statusCode === 503)) expectBusy(busy);
    expect(ctx.app.publicAdmission.inFlight).toBe(0);
    expect(ctx.app.publicAdmission.waiting).toBe(0);
  });
});

describe("public admission control, turned off", () => {
  it("PUBLIC_MAX_IN_FLIGHT=0 admits a whole burst (the tests' default, like their generous rate limits)", async () => {
    const open = await createTestApp({ database: ctx.database });
    try {
      const { token } = await sentDocument();
      const answers = await Promise.all(
        Array.from({ length: 20 }, () =>
          open.app.inject({ method: "GET", url: `/api/public/sign/${token}`, ...PHONE }),
        ),
      );
      expect(answers.map((response) => response.statusCode)).toEqual(Array(20).fill(200));
    } finally {
      await open.close();
    }
  });
});
