import { eq, sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { sessions } from "../../src/db/schema.js";
import { rawRows } from "../../src/db/raw.js";
import { ERRORS } from "../../src/shared/errors.js";
import {
  EVENT_DEADLINE_MS,
  type EventStreamClient,
  listenForStreams,
  openEventStream,
  type StreamEvent,
} from "../helpers/event-stream.js";
import { newClinic, type SignedIn } from "../helpers/sessions.js";
import {
  publishedTemplateVersion,
  signableDocument,
  signAsPatient,
  signingPatient,
  tokenOf,
} from "../helpers/signing.js";
import { createTestApp, type TestContext } from "../helpers/test-app.js";
import { newEstablishment, professionalUser } from "./users-helpers.js";

/**
 * Live updates (decision 022) against a listening server: GET /api/events read as a
 * browser reads it, changes made through the API (and the patient's public signing page).
 */

const onPostgres = process.env.TEST_DB === "postgres";

let ctx: TestContext;
let baseUrl: string;
let clinic: SignedIn;
let other: SignedIn;
let versionId: string;
const opened: EventStreamClient[] = [];

beforeAll(async () => {
  // The heartbeat stays long here, so an ended stream proves the database's notification did it.
  ctx = await createTestApp({ live: { maxStreamsPerUser: 2, heartbeatMs: 10 * 60 * 1000 } });
  baseUrl = await listenForStreams(ctx.app);
  clinic = await newClinic(ctx.app);
  other = await newClinic(ctx.app);
  versionId = await publishedTemplateVersion(ctx.app, clinic);
});
afterEach(() => {
  for (const stream of opened.splice(0)) stream.close();
});
afterAll(async () => {
  await ctx?.close();
});

const staffCall = (who: { cookie: string }, method: "GET" | "POST" | "PATCH", url: string, payload?: unknown) =>
  ctx.app.inject({
    method,
    url,
    headers: { cookie: who.cookie },
    ...(payload === undefined ? {} : { payload: payload as object }),
  });

async function openStream(who?: { cookie: string }, url = baseUrl): Promise<EventStreamClient> {
  const stream = await openEventStream(url, who?.cookie);
  opened.push(stream);
  return stream;
}

/** A stream that is open and listening (the server says `ready` once its LISTEN is in place). */
async function readyStream(who: { cookie: string }, url = baseUrl): Promise<EventStreamClient> {
  const stream = await openStream(who, url);
  expect(stream.status, stream.text()).toBe(200);
  await stream.waitFor((e) => e.event === "ready", "ready");
  return stream;
}

const about = (kind: string, id: string, status?: string) => (e: StreamEvent) =>
  e.event === kind && e.json.id === id && (status === undefined || e.json.status === status);

/** Polls `check` until it holds (for server-side state the test cannot be told about). */
async function eventually(
  check: () => boolean | Promise<boolean>,
  what: string,
  timeoutMs = EVENT_DEADLINE_MS,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe("GET /api/events", () => {
  it("answers 401 in Portuguese without a session", async () => {
    const stream = await openStream();
    await stream.ended;
    expect(stream.status).toBe(401);
    expect(JSON.parse(stream.text())).toEqual({ code: "UNAUTHENTICATED", message: ERRORS.UNAUTHENTICATED.message });
  });

  it("streams server-sent events: no-store, a retry hint and 'ready' first", async () => {
    const stream = await readyStream(clinic);
    expect(stream.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
    expect(stream.headers.get("cache-control")).toBe("no-store");
    expect(stream.headers.get("content-encoding")).toBeNull();
    expect(stream.retries).toEqual([3000]);
    expect(stream.events[0]).toMatchObject({ event: "ready", json: {} });
  });

  it("tells the clinic its patient opened and signed a document — and tells no other clinic", async () => {
    const clinicStream = await readyStream(clinic);
    const otherStream = await readyStream(other);
    const { documentId, patient } = await signableDocument(ctx.app, clinic, { versionId });
    await clinicStream.waitFor(about("patient", patient.id), "the new patient");
    await clinicStream.waitFor(about("document", documentId, "draft"), "the new draft");

    const sent = await staffCall(clinic, "POST", `/api/documents/${documentId}/send`, {});
    expect(sent.statusCode, sent.body).toBe(200);
    await clinicStream.waitFor(about("document", documentId, "sent"), "sent");
    const { response } = await signAsPatient(ctx.app, ctx.database, tokenOf(sent.json().link as string), patient);
    expect(response.statusCode, response.body).toBe(200);
    await clinicStream.waitFor(about("document", documentId, "viewed"), "viewed");
    await clinicStream.waitFor(about("document", documentId, "signed"), "signed");

    // The other clinic's own change comes after ours on the one channel: had ours leaked, it
    // would have arrived first.
    const marker = await signingPatient(ctx.app, other, { nome: "Marcos Teixeira" });
    await otherStream.waitFor(about("patient", marker.id), "the other clinic's own change");
    expect(otherStream.events.filter((e) => e.json.id === documentId || e.json.id === patient.id)).toEqual([]);

    // Ids and a document's status only: no names, CPFs, e-mails or titles.
    for (const event of clinicStream.events) {
      expect(
        Object.keys(event.json).every((key) => key === "id" || key === "status"),
        event.data,
      ).toBe(true);
    }
    for (const personal of [patient.nome, patient.cpf, patient.email ?? "", clinic.email, "Blefaroplastia"]) {
      expect(clinicStream.text()).not.toContain(personal);
    }
  });

  it("tells the owner about the clinic's users, ends a deactivated user's stream at once, and answers 401 after", async () => {
    const owner = await newEstablishment(ctx.app);
    const body = professionalUser({ role: "atendente", conselho_tipo: "", especialidades: [] });
    const created = await staffCall(owner, "POST", "/api/users", body);
    expect(created.statusCode, created.body).toBe(201);
    const staffId = created.json().id as string;
    const signIn = await ctx.app.inject({
      method: "POST",
      url: "/api/auth/sign-in",
      payload: { email: body.email, password: body.password },
    });
    expect(signIn.statusCode, signIn.body).toBe(200);
    const staff = { cookie: `consentir_session=${signIn.cookies.find((c) => c.name === "consentir_session")?.value}` };

    const ownerStream = await readyStream(owner);
    const staffStream = await readyStream(staff);
    const deactivated = await staffCall(owner, "PATCH", `/api/users/${staffId}/status`, { is_active: false });
    expect(deactivated.statusCode, deactivated.body).toBe(200);

    await staffStream.waitForEnd("the deactivated user's stream to end");
    await ownerStream.waitFor(about("profile", staffId), "the owner hears of the change (users list)");
    const again = await openStream(staff);
    await again.ended;
    expect(again.status).toBe(401);
    expect((await staffCall(staff, "GET", "/api/patients")).statusCode).toBe(401);
    // An attendant hears nothing of other users' profiles.
    expect(staffStream.events.filter((e) => e.event === "profile")).toEqual([]);
  });

  it("ends the stream at sign-out", async () => {
    const someone = await newClinic(ctx.app);
    const stream = await readyStream(someone);
    expect((await staffCall(someone, "POST", "/api/auth/sign-out", {})).statusCode).toBe(200);
    await stream.waitForEnd("the signed-out session's stream to end");
  });

  it("refuses a user's streams past the limit with 429 in Portuguese, and takes one again once a tab closes", async () => {
    const someone = await newClinic(ctx.app);
    const first = await readyStream(someone);
    await readyStream(someone);
    const third = await openStream(someone);
    await third.ended;
    expect(third.status).toBe(429);
    expect(JSON.parse(third.text())).toEqual({
      code: "LIVE_TOO_MANY_STREAMS",
      message: ERRORS.LIVE_TOO_MANY_STREAMS.message,
    });
    // Another user of the same process is not affected.
    await readyStream(other);

    const before = ctx.app.live.hub.size;
    first.close();
    await eventually(() => ctx.app.live.hub.size < before, "the server to notice the closed tab");
    await readyStream(someone);
  });
});

describe("the session behind a stream, re-checked on each heartbeat", () => {
  let quick: TestContext;
  let quickUrl: string;
  beforeAll(async () => {
    quick = await createTestApp({ database: ctx.database, live: { heartbeatMs: 200 } });
    quickUrl = await listenForStreams(quick.app);
  });
  afterAll(async () => {
    await quick?.close();
  });

  it("sends heartbeat comments", async () => {
    const stream = await readyStream(clinic, quickUrl);
    await eventually(() => stream.comments.includes("ping"), "a heartbeat comment");
  });

  it("ends the stream of a session gone idle (an open stream is not activity)", async () => {
    const someone = await newClinic(ctx.app);
    const stream = await readyStream(someone, quickUrl);
    const [row] = await rawRows<{ id: string }>(
      ctx.database.db,
      sql`select id from sessions where profile_id = ${someone.profileId}`,
    );
    const idleSince = new Date(Date.now() - (quick.env.SESSION_IDLE_HOURS + 1) * 60 * 60 * 1000);
    await ctx.database.db.update(sessions).set({ last_seen_at: idleSince }).where(eq(sessions.id, row!.id));
    await stream.waitForEnd("the idle session's stream to end");
  });
});

describe("closing the app", () => {
  it("ends open streams promptly", async () => {
    const closing = await createTestApp({ database: ctx.database });
    const url = await listenForStreams(closing.app);
    const streams = [await readyStream(clinic, url), await readyStream(other, url)];
    const started = Date.now();
    await closing.close();
    expect(Date.now() - started).toBeLessThan(EVENT_DEADLINE_MS);
    for (const stream of streams) await stream.waitForEnd("the stream to end with the app");
  });
});

// Registered only on PostgreSQL (PGlite is one process): not a skipped test on the embedded run.
if (onPostgres)
  describe("several processes on one PostgreSQL", () => {
    let second: TestContext;
    let secondUrl: string;
    beforeAll(async () => {
      // Its own pool and its own LISTEN connection: another process, as far as PostgreSQL can tell.
      second = await createTestApp();
      secondUrl = await listenForStreams(second.app);
    });
    afterAll(async () => {
      await second?.close();
    });

    it("delivers to a second app the change the first one made", async () => {
      const stream = await readyStream(clinic, secondUrl);
      const { documentId, patient } = await signableDocument(ctx.app, clinic, { versionId });
      const sent = await staffCall(clinic, "POST", `/api/documents/${documentId}/send`, {});
      expect(sent.statusCode, sent.body).toBe(200);
      const { response } = await signAsPatient(ctx.app, ctx.database, tokenOf(sent.json().link as string), patient);
      expect(response.statusCode, response.body).toBe(200);
      await stream.waitFor(about("document", documentId, "signed"), "signed, through the other app");
    });

    it("listens again after its connection drops, and tells browsers to refetch (resync)", async () => {
      const stream = await readyStream(clinic, secondUrl);
      const killed = await rawRows<{ ok: boolean }>(
        ctx.database.db,
        sql`select pg_terminate_backend(pid) as ok from pg_stat_activity where datname = current_database() and application_name = 'consentir-listen'`,
      );
      expect(killed.length).toBeGreaterThan(0);
      await stream.waitFor((e) => e.event === "resync", "resync after reconnecting");
      const patient = await signingPatient(ctx.app, clinic, { nome: "Rita Moreira" });
      await stream.waitFor(about("patient", patient.id), "a change after reconnecting");
    });
  });
