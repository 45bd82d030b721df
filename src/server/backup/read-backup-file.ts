import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { open } from "node:fs/promises";
import type { Env } from "../env.js";
import { BACKUP_MESSAGES, BackupError } from "./backup-error.js";
import { keySourceLabel, restoreRootKey } from "./backup-keys.js";
import type { BackupManifest, BackupPreamble, TablePart } from "./backup-manifest.js";
import { type BackupHeader, HEADER_BYTES, openChunks, parseHeader, unlockHeader } from "./chunked-aead.js";
import { type BackupRecord, readRecords } from "./record-stream.js";

export interface UnlockedBackup {
  file: string;
  header: BackupHeader;
  key: Buffer;
}

/**
 * Reads a backup's header and finds its key (BACKUP_KEY or the instance key, as the header says);
 * refuses a file that is not a backup, or one made with another key, with a pt-BR message.
 */
export async function unlockBackup(
  file: string,
  env: Pick<Env, "APP_SECRET" | "DATA_DIR" | "BACKUP_KEY">,
  instanceKey: Buffer | null,
): Promise<UnlockedBackup> {
  const handle = await open(file, "r").catch((error: NodeJS.ErrnoException) => {
    throw new BackupError(
      error.code === "ENOENT" ? `Arquivo não encontrado: ${file}` : `Não foi possível abrir ${file}: ${error.message}`,
    );
  });
  let headerBytes: Buffer;
  try {
    const buffer = Buffer.alloc(HEADER_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, HEADER_BYTES, 0);
    headerBytes = buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
  const header = parseHeader(headerBytes);
  const key = unlockHeader(header, restoreRootKey(header.keySource, env, instanceKey));
  if (!key) throw new BackupError(BACKUP_MESSAGES.otherKey(keySourceLabel(header.keySource, env)));
  return { file, header, key };
}

/** The records of an unlocked backup, each authenticated before it is given out. */
export function backupRecords(backup: UnlockedBackup): AsyncGenerator<BackupRecord> {
  const stream = createReadStream(backup.file, {
    start: HEADER_BYTES,
    highWaterMark: 1024 * 1024,
  }) as AsyncIterable<Buffer>;
  return readRecords(openChunks(stream, backup.key, backup.header));
}

export interface VerifiedBackup {
  preamble: BackupPreamble;
  manifest: BackupManifest;
}

const sha256Hex = (data: Buffer | string) => createHash("sha256").update(data).digest("hex");
const parseJson = <T>(payload: Buffer, part: string): T => {
  try {
    return JSON.parse(payload.toString("utf8")) as T;
  } catch {
    throw new BackupError(BACKUP_MESSAGES.partMismatch(part));
  }
};

/**
 * Reads the whole backup once, before anything is touched: every chunk's tag, the records' order
 * (preamble, files, tables, manifest), each file's SHA-256, each table's row count and SHA-256
 * against the manifest, and nothing after the end. `checkPreamble` may refuse early (e.g. a newer
 * schema) right after the first record.
 */
export async function verifyBackup(
  backup: UnlockedBackup,
  checkPreamble: (preamble: BackupPreamble) => void = () => undefined,
): Promise<VerifiedBackup> {
  let preamble: BackupPreamble | null = null;
  let manifest: BackupManifest | null = null;
  let preambleSha = "";
  const files = { count: 0, bytes: 0, digest: createHash("sha256") };
  const tables: TablePart[] = [];
  let current: { name: string; rows: number; digest: ReturnType<typeof createHash> } | null = null;
  const closeTable = () => {
    if (current) tables.push({ name: current.name, rows: current.rows, sha256: current.digest.digest("hex") });
    current = null;
  };
  for await (const record of backupRecords(backup)) {
    if (manifest) throw new BackupError(BACKUP_MESSAGES.trailingData);
    if (!preamble) {
      if (record.type !== "P") throw new BackupError(BACKUP_MESSAGES.partMismatch("preâmbulo"));
      preamble = parseJson<BackupPreamble>(record.payload, "preâmbulo");
      if (preamble.app !== "consentir") throw new BackupError(BACKUP_MESSAGES.notABackup);
      preambleSha = sha256Hex(record.payload);
      checkPreamble(preamble);
      continue;
    }
    switch (record.type) {
      case "F":
        if (current || tables.length > 0) throw new BackupError(BACKUP_MESSAGES.partMismatch("ordem dos arquivos"));
        files.count += 1;
        files.bytes += record.payload.length;
        files.digest.update(sha256Hex(record.payload));
        break;
      case "T":
        closeTable();
        current = {
          name: parseJson<{ name: string }>(record.payload, "tabela").name,
          rows: 0,
          digest: createHash("sha256"),
        };
        break;
      case "R": {
        if (!current) throw new BackupError(BACKUP_MESSAGES.partMismatch("linhas fora de uma tabela"));
        const table: { rows: number; digest: ReturnType<typeof createHash> } = current;
        for (const line of record.payload.toString("utf8").split("\n")) {
          table.digest.update(line);
          table.digest.update("\n");
          table.rows += 1;
        }
        break;
      }
      case "M":
        closeTable();
        manifest = parseJson<BackupManifest>(record.payload, "manifesto");
        break;
      default:
        throw new BackupError(BACKUP_MESSAGES.partMismatch(`registro ${record.type} fora de lugar`));
    }
  }
  if (!preamble || !manifest) throw new BackupError(BACKUP_MESSAGES.truncated);
  const m: BackupManifest = manifest;
  if (m.preamble_sha256 !== preambleSha) throw new BackupError(BACKUP_MESSAGES.partMismatch("preâmbulo"));
  if (m.files.count !== files.count || m.files.bytes !== files.bytes || m.files.sha256 !== files.digest.digest("hex")) {
    throw new BackupError(BACKUP_MESSAGES.partMismatch("arquivos guardados"));
  }
  if (m.tables.length !== tables.length) throw new BackupError(BACKUP_MESSAGES.partMismatch("lista de tabelas"));
  m.tables.forEach((expected, i) => {
    const found = tables[i];
    if (!found || found.name !== expected.name || found.rows !== expected.rows || found.sha256 !== expected.sha256) {
      throw new BackupError(BACKUP_MESSAGES.partMismatch(`tabela ${expected.name}`));
    }
  });
  return { preamble, manifest: m };
}
