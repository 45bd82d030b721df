import { createHash } from "node:crypto";
import { type SQL, sql } from "drizzle-orm";
import type { DbOrTx } from "../../db/client.js";
import { rawRows } from "../../db/raw.js";
import type { FileStorage } from "../storage/file-storage.js";
import type { BackupManifest, BackupPreamble, TablePart } from "./backup-manifest.js";
import { FORMAT_VERSION } from "./chunked-aead.js";
import { jsonPayload, type RecordType } from "./record-stream.js";
import { readSchemaVersion } from "./schema-version.js";
import { ident, listTables, type TableInfo } from "./table-catalog.js";

export interface RecordSink {
  write(type: RecordType, payload: Buffer): Promise<void>;
}

export interface ExportOptions {
  source: "pglite" | "postgres";
  instanceKeyId: string | null;
  /** Progress lines (the CLI prints them on stderr). */
  progress?: (message: string) => void;
}

const FILE_PAGE = 1000;
const MIN_ROWS = 100;
const MAX_ROWS = 5000;
const PAGE_BYTES = 8 * 1024 * 1024;

/**
 * Text forms that read back the same anywhere: ISO dates in UTC, every float digit, hex bytea.
 * Local to the snapshot's transaction; a restore sets the same.
 */
export async function useCanonicalTextForms(tx: DbOrTx): Promise<void> {
  await tx.execute(sql`select set_config('datestyle', 'ISO, YMD', true), set_config('timezone', 'UTC', true),
    set_config('intervalstyle', 'postgres', true), set_config('extra_float_digits', '3', true), set_config('bytea_output', 'hex', true)`);
}

/**
 * Writes one consistent snapshot as records (record-stream.ts): preamble, every stored file the
 * `files` table names, then every table's rows in dependency order, then the manifest. `tx` must
 * be a REPEATABLE READ transaction (or a database nobody else writes).
 */
export async function exportSnapshot(
  tx: DbOrTx,
  storage: FileStorage,
  sink: RecordSink,
  options: ExportOptions,
): Promise<BackupManifest> {
  await useCanonicalTextForms(tx);
  const createdAt = new Date().toISOString();
  const schema = await readSchemaVersion(tx);
  const preamble: BackupPreamble = {
    app: "consentir",
    format: FORMAT_VERSION,
    created_at: createdAt,
    source: options.source,
    schema,
    instance_key_id: options.instanceKeyId,
  };
  const preambleBytes = jsonPayload(preamble);
  await sink.write("P", preambleBytes);

  const files = await exportFiles(tx, storage, sink, options.progress);
  const tables: TablePart[] = [];
  for (const table of await listTables(tx)) {
    tables.push(await exportTable(tx, table, sink));
    options.progress?.(`${table.name}: ${tables.at(-1)?.rows ?? 0} linhas`);
  }
  const manifest: BackupManifest = {
    format: FORMAT_VERSION,
    created_at: createdAt,
    finished_at: new Date().toISOString(),
    schema,
    preamble_sha256: createHash("sha256").update(preambleBytes).digest("hex"),
    tables,
    files,
  };
  await sink.write("M", jsonPayload(manifest));
  return manifest;
}

async function exportFiles(
  tx: DbOrTx,
  storage: FileStorage,
  sink: RecordSink,
  progress?: (message: string) => void,
): Promise<BackupManifest["files"]> {
  const digest = createHash("sha256");
  const missing: string[] = [];
  let count = 0;
  let bytes = 0;
  let after = "";
  for (;;) {
    const page = await rawRows<{ sha256: string }>(
      tx,
      sql`select distinct sha256 from files where sha256 > ${after} order by sha256 limit ${FILE_PAGE}`,
    );
    for (const { sha256 } of page) {
      const content = await storage.get(sha256);
      if (!content || createHash("sha256").update(content).digest("hex") !== sha256) {
        missing.push(sha256);
        continue;
      }
      await sink.write("F", content);
      digest.update(sha256);
      count += 1;
      bytes += content.length;
    }
    if (page.length < FILE_PAGE) break;
    after = page.at(-1)?.sha256 ?? after;
  }
  progress?.(`arquivos: ${count} (${bytes} bytes)${missing.length ? `, ${missing.length} ausentes` : ""}`);
  return { count, bytes, sha256: digest.digest("hex"), missing };
}

/** Keyset pages on the primary key, each column in its text form, one JSON array per row. */
async function exportTable(tx: DbOrTx, table: TableInfo, sink: RecordSink): Promise<TablePart> {
  await sink.write("T", jsonPayload({ name: table.name, columns: table.columns }));
  const digest = createHash("sha256");
  const row = sql.raw(`json_build_array(${table.columns.map((c) => `${ident(c)}::text`).join(", ")})::text`);
  const key = table.primaryKey;
  const from = sql.raw(ident(table.name));
  let rows = 0;
  let limit = 500;
  let last: string[] | null = null;
  for (;;) {
    const asked = limit;
    let query: SQL;
    if (key.length === 0) {
      query = sql`select ${row} as r from ${from}`;
    } else {
      const keyText = sql.raw(key.map((c, i) => `${ident(c)}::text as k${i}`).join(", "));
      const order = sql.raw(key.map(ident).join(", "));
      const after = last
        ? sql`where (${order}) > (${sql.join(
            last.map((value, i) => sql`${value}::${sql.raw(table.types[key[i] ?? ""] ?? "text")}`),
            sql`, `,
          )})`
        : sql``;
      query = sql`select ${row} as r, ${keyText} from ${from} ${after} order by ${order} limit ${asked}`;
    }
    const page = await rawRows<Record<string, string>>(tx, query);
    if (page.length > 0) {
      const lines = page.map((p) => p.r ?? "");
      let size = 0;
      for (const line of lines) {
        digest.update(line);
        digest.update("\n");
        size += line.length;
      }
      await sink.write("R", Buffer.from(lines.join("\n"), "utf8"));
      rows += lines.length;
      limit =
        size > PAGE_BYTES
          ? Math.max(MIN_ROWS, limit >> 1)
          : size < PAGE_BYTES / 8
            ? Math.min(MAX_ROWS, limit * 2)
            : limit;
    }
    if (key.length === 0 || page.length < asked) break;
    const end = page.at(-1) as Record<string, string>;
    last = key.map((_, i) => end[`k${i}`] ?? "");
  }
  return { name: table.name, rows, sha256: digest.digest("hex") };
}
