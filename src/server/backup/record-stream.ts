import { BACKUP_MESSAGES, BackupError } from "./backup-error.js";
import { ByteQueue } from "./byte-queue.js";

/**
 * The plaintext inside a backup: a sequence of records, each `type(1) | length(4) | payload`.
 *   P  preamble (JSON): format, time, schema version, source — first, so a restore can refuse early
 *   F  one stored file's bytes (its SHA-256 is its name)
 *   T  a table begins (JSON: name, columns)
 *   R  a page of that table's rows: JSON arrays of each column's PostgreSQL text form, one per line
 *   M  the manifest (JSON): counts and SHA-256 of every part — last
 */
export type RecordType = "P" | "F" | "T" | "R" | "M";
const TYPES = new Set<string>(["P", "F", "T", "R", "M"]);
const PREFIX_BYTES = 5;

export function encodeRecord(type: RecordType, payload: Buffer): Buffer[] {
  const prefix = Buffer.alloc(PREFIX_BYTES);
  prefix.write(type, 0, "ascii");
  prefix.writeUInt32BE(payload.length, 1);
  return [prefix, payload];
}

export const jsonPayload = (value: unknown): Buffer => Buffer.from(JSON.stringify(value), "utf8");

export interface BackupRecord {
  type: RecordType;
  payload: Buffer;
}

/** Splits decrypted plaintext into records (a record may span chunks). */
export async function* readRecords(plain: AsyncIterable<Buffer>): AsyncGenerator<BackupRecord> {
  const queue = new ByteQueue();
  for await (const piece of plain) {
    queue.push(piece);
    for (;;) {
      if (queue.length < PREFIX_BYTES) break;
      const prefix = queue.peek(PREFIX_BYTES);
      const type = String.fromCharCode(prefix[0] ?? 0);
      if (!TYPES.has(type)) throw new BackupError(BACKUP_MESSAGES.partMismatch("registro desconhecido"));
      const length = prefix.readUInt32BE(1);
      if (queue.length < PREFIX_BYTES + length) break;
      queue.take(PREFIX_BYTES);
      yield { type: type as RecordType, payload: queue.take(length) };
    }
  }
  if (queue.length > 0) throw new BackupError(BACKUP_MESSAGES.partMismatch("registro incompleto"));
}
