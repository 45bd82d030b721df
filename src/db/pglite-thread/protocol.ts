/**
 * What the app's thread and the PGlite thread say to each other (decision 038). Everything here
 * crosses a worker_threads port, so it is plain data: no functions, no class instances.
 */

/** How the thread opens PGlite. */
export interface PgliteThreadInit {
  /** A folder on disk; absent: in memory. */
  dataDir?: string;
  /** A tarball from dumpDataDir to start an in-memory database from (tests). */
  loadDataDir?: ArrayBuffer;
}

/** Options of one query, as PGlite's own `query` takes them (parsers only as "keep the text" per type oid). */
export interface ThreadQueryOptions {
  rowMode?: "array" | "object";
  /** Type oids whose values stay the text PostgreSQL sent (what drizzle's PGlite driver asks for). */
  textTypes?: number[];
}

export type ToThread =
  /** `begin`: run BEGIN first (a transaction's first statement). */
  | { id: number; kind: "query"; sql: string; params: unknown[]; options: ThreadQueryOptions; begin?: boolean }
  | { id: number; kind: "exec"; sql: string; begin?: boolean }
  | { id: number; kind: "listen"; channel: string }
  | { id: number; kind: "unlisten"; channel: string }
  | { id: number; kind: "dump" }
  | { id: number; kind: "close" };

/** The fields of a PostgreSQL error the app reads (code, constraint…), copied off PGlite's error. */
export interface ThreadError {
  message: string;
  name?: string;
  code?: string;
  constraint?: string;
  detail?: string;
  table?: string;
  column?: string;
  schema?: string;
  severity?: string;
  hint?: string;
  position?: string;
  where?: string;
  routine?: string;
}

export type FromThread =
  | { kind: "ready" }
  | { kind: "failed"; error: ThreadError }
  | { id: number; kind: "result"; value: unknown }
  | { id: number; kind: "error"; error: ThreadError }
  | { kind: "notification"; channel: string; payload: string };

const ERROR_FIELDS = [
  "name",
  "code",
  "constraint",
  "detail",
  "table",
  "column",
  "schema",
  "severity",
  "hint",
  "position",
  "where",
  "routine",
] as const;

/** A PGlite error as plain data. */
export function toThreadError(error: unknown): ThreadError {
  if (!(error instanceof Error)) return { message: String(error) };
  const copy: ThreadError = { message: error.message };
  for (const field of ERROR_FIELDS) {
    const value = (error as unknown as Record<string, unknown>)[field];
    if (typeof value === "string") copy[field] = value;
  }
  return copy;
}

/** Back to an Error with the same fields (isUniqueViolation and friends read `code` and `constraint`). */
export function fromThreadError(error: ThreadError): Error {
  const rebuilt = new Error(error.message);
  for (const field of ERROR_FIELDS) if (error[field] !== undefined) Object.assign(rebuilt, { [field]: error[field] });
  return rebuilt;
}
