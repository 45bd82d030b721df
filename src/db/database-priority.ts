import { AsyncLocalStorage } from "node:async_hooks";

/**
 * Bulk database work (decision 038): making PDFs and background jobs. Embedded PGlite has one
 * session, so statements wait their turn; when it frees, a waiting interactive call (a list, a
 * save, a patient's signature) goes before waiting bulk work, which gives way for at most
 * BULK_MAX_WAIT_MS. PostgreSQL has a connection per caller and ignores this.
 */
const bulk = new AsyncLocalStorage<true>();

/** Runs `work` with its database calls marked as bulk (they yield to interactive ones on PGlite). */
export function asBulkDatabaseWork<T>(work: () => Promise<T>): Promise<T> {
  return bulk.run(true, work);
}

/** True inside {@link asBulkDatabaseWork}. */
export function isBulkDatabaseWork(): boolean {
  return bulk.getStore() === true;
}
