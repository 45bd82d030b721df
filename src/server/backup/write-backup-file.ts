import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, open, rename, rm } from "node:fs/promises";
import path from "node:path";
import type { BackupManifest } from "./backup-manifest.js";
import { backupFileName, partialFileName } from "./backup-file-name.js";
import type { BackupRootKey } from "./backup-keys.js";
import { ChunkSealer, newHeader } from "./chunked-aead.js";
import type { RecordSink } from "./export-snapshot.js";
import { encodeRecord } from "./record-stream.js";

export interface WrittenBackup {
  path: string;
  bytes: number;
  manifest: BackupManifest;
}

/**
 * Writes a backup into `dir`: to a hidden temporary name first, fsync, then renamed to its final
 * name and the folder fsynced — so a process killed half-way (kill -9, power cut) leaves at most a
 * `.partial` file, never a file named as a complete backup. `produce` writes the records.
 */
export async function writeBackupFile(
  dir: string,
  root: BackupRootKey,
  produce: (sink: RecordSink) => Promise<BackupManifest>,
  now: Date = new Date(),
): Promise<WrittenBackup> {
  await mkdir(dir, { recursive: true });
  let name = backupFileName(now);
  for (let n = 1; existsSync(path.join(dir, name)); n++) name = backupFileName(new Date(now.getTime() + n));
  const finalPath = path.join(dir, name);
  const temporary = path.join(dir, partialFileName(name, process.pid, randomBytes(4).toString("hex")));
  const handle = await open(temporary, "wx", 0o600);
  let bytes = 0;
  let closed = false;
  try {
    const { header, key } = newHeader(root.key, root.source);
    const sealer = new ChunkSealer(key, header);
    const write = async (buffers: Buffer[]) => {
      if (buffers.length === 0) return;
      const data = buffers.length === 1 ? (buffers[0] as Buffer) : Buffer.concat(buffers);
      await handle.write(data);
      bytes += data.length;
    };
    await write([header.bytes]);
    const manifest = await produce({
      write: async (type, payload) => {
        const frames: Buffer[] = [];
        for (const part of encodeRecord(type, payload)) frames.push(...sealer.push(part));
        await write(frames);
      },
    });
    await write([sealer.finish()]);
    await handle.sync();
    await handle.close();
    closed = true;
    await rename(temporary, finalPath);
    await syncFolder(dir);
    return { path: finalPath, bytes, manifest };
  } catch (error) {
    if (!closed) await handle.close().catch(() => undefined);
    await rm(temporary, { force: true });
    throw error;
  }
}

/** fsync of the folder, so the rename itself survives a power cut (ignored where unsupported). */
async function syncFolder(dir: string): Promise<void> {
  try {
    const folder = await open(dir, "r");
    try {
      await folder.sync();
    } finally {
      await folder.close();
    }
  } catch {
    // Some filesystems refuse fsync on a directory; the file itself is already synced.
  }
}
