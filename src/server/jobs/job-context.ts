import type { FastifyBaseLogger } from "fastify";
import type { Database, Db } from "../../db/client.js";
import type { Env } from "../env.js";
import type { PdfRenderer } from "../pdf-pool/pdf-pool.js";
import type { SecretBox } from "../lib/secret-box.js";
import type { FileStorage } from "../storage/file-storage.js";

/** What background work may use (links use siteOrigin(env), as requests do). */
export interface JobContext {
  db: Db;
  storage: FileStorage;
  secretBox: SecretBox;
  env: Env;
  /** Site origin for links written by jobs (QR code, e-mails). */
  origin: string;
  log: Pick<FastifyBaseLogger, "info" | "warn" | "error">;
  /** Where the final PDF is drawn and sealed: the app's worker pool (default: this thread). */
  pdf?: PdfRenderer;
  /** The app's database itself (the daily backup copies PGlite's data dir through it). */
  database?: Database;
}
