import type { BackupManifest } from "./backup-manifest.js";
import { asDestination, type BackupDestination } from "./backup-destination.js";
import { backupFileName } from "./backup-file-name.js";
import type { BackupRootKey } from "./backup-keys.js";
import { ChunkSealer, newHeader } from "./chunked-aead.js";
import type { RecordSink } from "./export-snapshot.js";
import { encodeRecord } from "./record-stream.js";

export interface WrittenBackup {
  /** The file's path, or s3://bucket/key in the bucket. */
  path: string;
  bytes: number;
  manifest: BackupManifest;
}

/**
 * Writes a backup into a folder (`target` a path) or another destination (the S3 bucket): the
 * destination shows it under its final name only once complete — a folder writes a hidden
 * `.partial`, fsyncs and renames it; the bucket completes a multipart upload — so a process killed
 * half-way (kill -9, power cut) never leaves a file named as a complete backup. `produce` writes
 * the records.
 */
export async function writeBackupFile(
  target: string | BackupDestination,
  root: BackupRootKey,
  produce: (sink: RecordSink) => Promise<BackupManifest>,
  now: Date = new Date(),
): Promise<WrittenBackup> {
  const destination = asDestination(target);
  let name = backupFileName(now);
  for (let n = 1; await destination.exists(name); n++) name = backupFileName(new Date(now.getTime() + n));
  const out = await destination.begin(name);
  let bytes = 0;
  try {
    const { header, key } = newHeader(root.key, root.source);
    const sealer = new ChunkSealer(key, header);
    const write = async (buffers: Buffer[]) => {
      if (buffers.length === 0) return;
      const data = buffers.length === 1 ? (buffers[0] as Buffer) : Buffer.concat(buffers);
      await out.write(data);
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
    return { path: await out.commit(), bytes, manifest };
  } catch (error) {
    await out.abort();
    throw error;
  }
}
