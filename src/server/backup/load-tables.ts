import { sql } from "drizzle-orm";
import type { Tx } from "../../db/client.js";
import { rawRows } from "../../db/raw.js";
import type { FileStorage } from "../storage/file-storage.js";
import { BACKUP_MESSAGES, BackupError } from "./backup-error.js";
import { useCanonicalTextForms } from "./export-snapshot.js";
import type { BackupRecord } from "./record-stream.js";
import { ident, listTables, type TableInfo } from "./table-catalog.js";

const BATCH_CHARS = 4 * 1024 * 1024;

export interface LoadedCounts {
  rows: number;
  files: number;
}

/**
 * Loads a verified backup's records into a migrated, empty database inside `tx`: stored files into
 * storage (content-addressed: writing one twice is harmless), then each table's rows exactly as
 * they were — with the triggers that would refuse or rewrite them (append-only, hash chain,
 * immutable versions, counters, notifications) off for this transaction, so the audit chain comes
 * back byte for byte instead of being recomputed.
 */
export async function loadRecords(
  tx: Tx,
  records: AsyncIterable<BackupRecord>,
  storage: FileStorage,
): Promise<LoadedCounts> {
  await useCanonicalTextForms(tx);
  const targetTables = new Map((await listTables(tx)).map((t) => [t.name, t]));
  const restoreTriggers = await disableTriggers(tx, [...targetTables.keys()]);
  let current: { insert: (json: string) => Promise<void> } | null = null;
  const counts: LoadedCounts = { rows: 0, files: 0 };
  for await (const record of records) {
    switch (record.type) {
      case "F":
        await storage.put(record.payload);
        counts.files += 1;
        break;
      case "T": {
        const { name, columns } = JSON.parse(record.payload.toString("utf8")) as { name: string; columns: string[] };
        current = insertInto(tx, targetTables.get(name), name, columns);
        break;
      }
      case "R": {
        if (!current) throw new BackupError(BACKUP_MESSAGES.partMismatch("linhas fora de uma tabela"));
        const lines = record.payload.toString("utf8").split("\n");
        counts.rows += lines.length;
        let batch: string[] = [];
        let size = 0;
        for (const line of lines) {
          batch.push(line);
          size += line.length;
          if (size >= BATCH_CHARS) {
            await current.insert(`[${batch.join(",")}]`);
            batch = [];
            size = 0;
          }
        }
        if (batch.length > 0) await current.insert(`[${batch.join(",")}]`);
        break;
      }
      default:
        break;
    }
  }
  await restoreTriggers();
  await resetSequences(tx);
  return counts;
}

/** One INSERT … SELECT per batch: each JSON array's texts cast to the target column's type. */
function insertInto(tx: Tx, table: TableInfo | undefined, name: string, columns: string[]) {
  if (!table) throw new BackupError(BACKUP_MESSAGES.incompatibleTable(name, "não existe nesta versão"));
  const unknown = columns.filter((c) => !(c in table.types));
  if (unknown.length > 0)
    throw new BackupError(BACKUP_MESSAGES.incompatibleTable(name, `colunas ${unknown.join(", ")}`));
  const target = sql.raw(`${ident(name)} (${columns.map(ident).join(", ")})`);
  const values = sql.raw(columns.map((c, i) => `(r->>${i})::${table.types[c]}`).join(", "));
  return {
    insert: async (json: string) => {
      await tx.execute(sql`insert into ${target} select ${values} from jsonb_array_elements(${json}::jsonb) as r`);
    },
  };
}

/**
 * A superuser (PGlite always; PostgreSQL's usual owner) sets session_replication_role = replica
 * for the transaction: no ordinary trigger and no foreign-key check fires. Otherwise the table
 * owner turns its own triggers off (ALTER TABLE … DISABLE TRIGGER USER) until the end; foreign
 * keys still check, which the dependency order of the backup satisfies.
 */
async function disableTriggers(tx: Tx, tables: string[]): Promise<() => Promise<void>> {
  const [role] = await rawRows<{ superuser: string }>(tx, sql`select current_setting('is_superuser') as superuser`);
  if (role?.superuser === "on") {
    await tx.execute(sql`select set_config('session_replication_role', 'replica', true)`);
    return async () => {
      await tx.execute(sql`select set_config('session_replication_role', 'origin', true)`);
    };
  }
  for (const table of tables) await tx.execute(sql.raw(`alter table ${ident(table)} disable trigger user`));
  return async () => {
    for (const table of tables) await tx.execute(sql.raw(`alter table ${ident(table)} enable trigger user`));
  };
}

/** Sequences owned by a column continue after the largest restored value. */
async function resetSequences(tx: Tx): Promise<void> {
  const owned = await rawRows<{ seq: string; tbl: string; col: string }>(
    tx,
    sql`select s.oid::regclass::text as seq, t.relname as tbl, a.attname as col
          from pg_class s
          join pg_depend d on d.objid = s.oid and d.classid = 'pg_class'::regclass and d.deptype in ('a', 'i')
          join pg_class t on t.oid = d.refobjid
          join pg_attribute a on a.attrelid = t.oid and a.attnum = d.refobjsubid
         where s.relkind = 'S' and t.relnamespace = 'public'::regnamespace`,
  );
  for (const { seq, tbl, col } of owned) {
    await tx.execute(
      sql.raw(
        `select setval('${seq.replace(/'/g, "''")}', coalesce((select max(${ident(col)}) from ${ident(tbl)}), 0) + 1, false)`,
      ),
    );
  }
}
