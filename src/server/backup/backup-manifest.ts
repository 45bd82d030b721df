import type { SchemaVersion } from "./schema-version.js";

/** First record of a backup: enough to refuse it before reading the rest. */
export interface BackupPreamble {
  app: "consentir";
  format: number;
  created_at: string;
  /** The database it was taken from (a PGlite backup restores into PostgreSQL and back). */
  source: "pglite" | "postgres";
  schema: SchemaVersion;
  /** Fingerprint of the instance key (APP_SECRET / secret.key) of the installation: never the key. */
  instance_key_id: string | null;
}

export interface TablePart {
  name: string;
  rows: number;
  /** SHA-256 of the table's lines, each followed by "\n". */
  sha256: string;
}

/** Last record: counts and SHA-256 of each part, checked again by every read. */
export interface BackupManifest {
  format: number;
  created_at: string;
  finished_at: string;
  schema: SchemaVersion;
  preamble_sha256: string;
  tables: TablePart[];
  files: {
    count: number;
    bytes: number;
    /** SHA-256 over the stored files' SHA-256 (hex), in the order written. */
    sha256: string;
    /** Files the database names but storage did not have (or had with other bytes). */
    missing: string[];
  };
}
