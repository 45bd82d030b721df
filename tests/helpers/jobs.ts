import { and, eq, sql } from "drizzle-orm";
import type { Database } from "../../src/db/client.js";
import { jobs } from "../../src/db/schema.js";
import type { JobKind } from "../../src/server/jobs/enqueue-job.js";
import type { JobContext } from "../../src/server/jobs/job-context.js";
import type { TestContext } from "./test-app.js";

/** The pending jobs of `kind` queued for one document (by the payload's contratoId). */
export function pendingJobsOf(database: Database, kind: JobKind, documentId: string) {
  return database.db
    .select()
    .from(jobs)
    .where(and(eq(jobs.kind, kind), eq(jobs.status, "pending"), sql`${jobs.payload} ->> 'contratoId' = ${documentId}`));
}

/** What a job handler is given, on the test app's database and services (a silent log). */
export function jobContextOf(on: TestContext, origin = "http://localhost"): JobContext {
  return {
    db: on.database.db,
    storage: on.app.services.storage,
    secretBox: on.app.services.secretBox,
    env: on.env,
    origin,
    log: { info() {}, warn() {}, error() {} },
  };
}
