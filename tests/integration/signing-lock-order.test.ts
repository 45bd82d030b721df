/**
 * Seen in the signers-cluster bench: with many patients of one clinic signing at once, a signature
 * deadlocked against another patient opening their link. Opening moves a document to 'viewed'
 * (its clinic's document_counters rows, by trigger) and then writes 'document.viewed' (the
 * clinic's audit chain head); the signature wrote 'document.party_signed' (chain head) and then
 * moved its document to 'signed' (counters) — opposite orders. Now the signature changes the
 * status first, like every other transaction.
 *
 * On PostgreSQL: a transaction in the opening order holds the counters the signature needs; the
 * signature must wait for them WITHOUT holding the chain head, so that transaction can write its
 * audit event and commit, and then the signature completes. (In the old order the two deadlocked
 * and PostgreSQL aborted one of them.) On PGlite (one connection, nothing runs concurrently) the
 * signature completes with its events in their order: party_signed, then signed.
 */
import { and, asc, eq } from "drizzle-orm";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditEvents, contratos } from "../../src/db/schema.js";
import { newClinic } from "../helpers/sessions.js";
import { signableDocument, signAsPatient, tokenOf } from "../helpers/signing.js";
import { createTestApp, type TestContext } from "../helpers/test-app.js";
import { waitFor } from "../helpers/server-process.js";

const onPostgres = process.env.TEST_DB === "postgres";
let ctx: TestContext;

beforeAll(async () => {
  ctx = await createTestApp({ env: { RATE_LIMIT_PUBLIC_PER_MINUTE: "100000" } });
});
afterAll(async () => {
  await ctx.app.close();
  await ctx.database.close();
});

describe("a patient's signature and the clinic's other status changes take their locks in one order", () => {
  it("signs while another transaction holds the clinic's counters and then writes to its audit chain", async () => {
    const { app, database } = ctx;
    const clinic = await newClinic(app);
    // No e-mail on record: the signature needs no code (the lock order is the same with it).
    const { documentId, patient } = await signableDocument(app, clinic, { email: null });
    const sent = await app.inject({
      method: "POST",
      url: `/api/documents/${documentId}/send`,
      payload: {},
      headers: { cookie: clinic.cookie },
    });
    expect(sent.statusCode, sent.body).toBe(200);
    const token = tokenOf(sent.json().link as string);
    // Opened before: the move to 'viewed' is behind us, the signature is the one status change left.
    expect((await app.inject({ method: "GET", url: `/api/public/sign/${token}` })).statusCode).toBe(200);

    let blocker: pg.Client | undefined;
    let observer: pg.Client | undefined;
    try {
      let signing: ReturnType<typeof signAsPatient>;
      if (onPostgres) {
        const url = process.env.TEST_DATABASE_URL ?? "";
        blocker = new pg.Client({ connectionString: url });
        observer = new pg.Client({ connectionString: url });
        await Promise.all([blocker.connect(), observer.connect()]);
        // The opening order, first half: this clinic's counter rows for every bucket the signature
        // will touch ('viewed' out, 'signed' in), in every shard, taken and held.
        await blocker.query("begin");
        await blocker.query(
          `insert into document_counters (tenant_id, bucket, shard, n)
             select c.tenant_id, b, s, 0
               from contratos c,
                    unnest(document_counter_buckets('viewed', c.created_at, null) || document_counter_buckets('sent', c.created_at, null)
                           || document_counter_buckets('signed', c.created_at, now())) b,
                    generate_series(0, 7) s
              where c.id = $1
             on conflict do nothing`,
          [documentId],
        );
        await blocker.query("select 1 from document_counters where tenant_id = $1 for update", [clinic.tenantId]);
        signing = signAsPatient(app, database, token, patient);
        // The signature's transaction now waits for those rows.
        await waitFor(
          "a assinatura esperar pelos contadores",
          async () => {
            const { rows } = await observer!.query<{ n: number }>(
              "select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock' and pid <> $1",
              [(blocker as unknown as { processID: number }).processID],
            );
            return (rows[0]?.n ?? 0) > 0;
          },
          20_000,
          50,
        );
        // Second half: its own audit event (the chain head), then commit. In the old order the
        // signature held the chain head here, and one of the two was aborted as a deadlock.
        await blocker.query(
          "insert into audit_events (tenant_id, action, entity_type, entity_id, data) values ($1, 'teste.ordem_das_travas', 'contrato', $2, '{}')",
          [clinic.tenantId, documentId],
        );
        await blocker.query("commit");
      } else {
        signing = signAsPatient(app, database, token, patient);
      }
      const { response } = await signing;
      expect(response.statusCode, response.body).toBe(200);
    } finally {
      await blocker?.end();
      await observer?.end();
    }

    const [row] = await database.db
      .select({ status: contratos.status })
      .from(contratos)
      .where(eq(contratos.id, documentId));
    expect(row?.status).toBe("signed");
    const events = await database.db
      .select({ action: auditEvents.action })
      .from(auditEvents)
      .where(and(eq(auditEvents.tenant_id, clinic.tenantId), eq(auditEvents.entity_id, documentId)))
      .orderBy(asc(auditEvents.seq));
    const actions = events.map((e) => e.action).filter((a) => a === "document.party_signed" || a === "document.signed");
    expect(actions.slice(-2)).toEqual(["document.party_signed", "document.signed"]);
  });
});
