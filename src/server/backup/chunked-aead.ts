import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes, timingSafeEqual } from "node:crypto";
import { BACKUP_MESSAGES, BackupError } from "./backup-error.js";
import { ByteQueue } from "./byte-queue.js";

/**
 * The backup file's encryption (decision 027): a short plaintext header, then the stream cut in
 * chunks, each sealed with AES-256-GCM under a key made for this file alone.
 *
 *   header  = MAGIC(16) | format(1) | key source(1) | salt(32) | key check(16) | chunk size(4)
 *   chunk   = final flag(1) | ciphertext length(4) | ciphertext | tag(16)
 *   nonce   = 4 zero bytes | chunk index (8, big-endian)
 *   AAD     = header | chunk index (8) | final flag (1)
 *
 * A chunk cannot be moved, dropped, repeated or marked final by someone without the key (its index
 * and flag are authenticated), so a truncated file (no final chunk) and a reordered one are found.
 * The file key is HKDF-SHA256(backup root key, salt, info): a fresh random salt per file makes the
 * counter nonces unique. The key check (HMAC of the file key) tells "another key" from "tampered".
 */
export const MAGIC = Buffer.from("CONSENTIR-BACKUP", "ascii");
export const FORMAT_VERSION = 1;
export const HEADER_BYTES = MAGIC.length + 1 + 1 + 32 + 16 + 4;
export const DEFAULT_CHUNK_BYTES = 1024 * 1024;
const TAG_BYTES = 16;
const FRAME_PREFIX_BYTES = 5;
const MAX_CHUNK_BYTES = 64 * 1024 * 1024;

export type KeySource = "instance" | "backup_key";
const KEY_SOURCE_CODES: Record<KeySource, number> = { instance: 1, backup_key: 2 };

export interface BackupHeader {
  format: number;
  keySource: KeySource;
  salt: Buffer;
  keyCheck: Buffer;
  chunkBytes: number;
  /** The header exactly as stored (part of every chunk's AAD). */
  bytes: Buffer;
}

/** The key of one backup file. */
export function fileKey(rootKey: Buffer, salt: Buffer): Buffer {
  return Buffer.from(hkdfSync("sha256", rootKey, salt, "consentir:backup-file-v1", 32));
}

function keyCheckOf(key: Buffer): Buffer {
  return createHmac("sha256", key).update("consentir:backup-key-check").digest().subarray(0, 16);
}

/** A new header (fresh salt) and the file key it stands for. */
export function newHeader(
  rootKey: Buffer,
  keySource: KeySource,
  chunkBytes = DEFAULT_CHUNK_BYTES,
): { header: BackupHeader; key: Buffer } {
  const salt = randomBytes(32);
  const key = fileKey(rootKey, salt);
  const keyCheck = keyCheckOf(key);
  const bytes = Buffer.alloc(HEADER_BYTES);
  let at = MAGIC.copy(bytes, 0);
  bytes[at++] = FORMAT_VERSION;
  bytes[at++] = KEY_SOURCE_CODES[keySource];
  at += salt.copy(bytes, at);
  at += keyCheck.copy(bytes, at);
  bytes.writeUInt32BE(chunkBytes, at);
  return { header: { format: FORMAT_VERSION, keySource, salt, keyCheck, chunkBytes, bytes }, key };
}

/** Reads the header at the start of a file; refuses anything that is not one of ours. */
export function parseHeader(bytes: Buffer): BackupHeader {
  if (bytes.length < HEADER_BYTES || !bytes.subarray(0, MAGIC.length).equals(MAGIC))
    throw new BackupError(BACKUP_MESSAGES.notABackup);
  let at = MAGIC.length;
  const format = bytes[at++] ?? 0;
  if (format !== FORMAT_VERSION) throw new BackupError(BACKUP_MESSAGES.unsupportedFormat(format));
  const code = bytes[at++];
  const keySource = (Object.keys(KEY_SOURCE_CODES) as KeySource[]).find((source) => KEY_SOURCE_CODES[source] === code);
  if (!keySource) throw new BackupError(BACKUP_MESSAGES.notABackup);
  const salt = Buffer.from(bytes.subarray(at, at + 32));
  at += 32;
  const keyCheck = Buffer.from(bytes.subarray(at, at + 16));
  at += 16;
  const chunkBytes = bytes.readUInt32BE(at);
  if (chunkBytes === 0 || chunkBytes > MAX_CHUNK_BYTES) throw new BackupError(BACKUP_MESSAGES.notABackup);
  return { format, keySource, salt, keyCheck, chunkBytes, bytes: Buffer.from(bytes.subarray(0, HEADER_BYTES)) };
}

/** The file key, when `rootKey` is the one the file was made with (else null: another key). */
export function unlockHeader(header: BackupHeader, rootKey: Buffer): Buffer | null {
  const key = fileKey(rootKey, header.salt);
  return timingSafeEqual(keyCheckOf(key), header.keyCheck) ? key : null;
}

function nonce(index: bigint): Buffer {
  const iv = Buffer.alloc(12);
  iv.writeBigUInt64BE(index, 4);
  return iv;
}

function aad(header: Buffer, index: bigint, final: boolean): Buffer {
  const tail = Buffer.alloc(9);
  tail.writeBigUInt64BE(index, 0);
  tail[8] = final ? 1 : 0;
  return Buffer.concat([header, tail]);
}

/** Seals plaintext into chunk frames; `finish` seals the rest as the final chunk (maybe empty). */
export class ChunkSealer {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private index = 0n;
  private finished = false;

  constructor(
    private readonly key: Buffer,
    private readonly header: BackupHeader,
  ) {}

  /** Frames for every full chunk now available. */
  push(data: Buffer): Buffer[] {
    if (this.finished) throw new Error("backup stream already finished");
    this.pending.push(data);
    this.pendingBytes += data.length;
    const frames: Buffer[] = [];
    const size = this.header.chunkBytes;
    // Keep at least one byte back: the last chunk must be the one sealed as final.
    if (this.pendingBytes <= size) return frames;
    const all = this.pending.length === 1 ? data : Buffer.concat(this.pending);
    let at = 0;
    while (all.length - at > size) {
      frames.push(this.seal(all.subarray(at, at + size), false));
      at += size;
    }
    this.pending = [all.subarray(at)];
    this.pendingBytes = all.length - at;
    return frames;
  }

  finish(): Buffer {
    if (this.finished) throw new Error("backup stream already finished");
    this.finished = true;
    return this.seal(Buffer.concat(this.pending), true);
  }

  private seal(plain: Buffer, final: boolean): Buffer {
    const cipher = createCipheriv("aes-256-gcm", this.key, nonce(this.index));
    cipher.setAAD(aad(this.header.bytes, this.index, final));
    const body = Buffer.concat([cipher.update(plain), cipher.final()]);
    this.index += 1n;
    const prefix = Buffer.alloc(FRAME_PREFIX_BYTES);
    prefix[0] = final ? 1 : 0;
    prefix.writeUInt32BE(body.length, 1);
    return Buffer.concat([prefix, body, cipher.getAuthTag()]);
  }
}

/**
 * Opens the chunk frames that follow the header: yields each chunk's plaintext once its tag
 * checks; throws a BackupError on a bad tag (tampered or reordered), on a file that ends without
 * its final chunk (truncated) and on bytes after it.
 */
export async function* openChunks(
  source: AsyncIterable<Buffer>,
  key: Buffer,
  header: BackupHeader,
): AsyncGenerator<Buffer> {
  const queue = new ByteQueue();
  let index = 0n;
  let ended = false;
  const maxFrame = FRAME_PREFIX_BYTES + header.chunkBytes + TAG_BYTES;
  for await (const piece of source) {
    if (ended) {
      if (piece.length > 0) throw new BackupError(BACKUP_MESSAGES.trailingData);
      continue;
    }
    queue.push(piece);
    while (!ended && queue.length >= FRAME_PREFIX_BYTES) {
      const prefix = queue.peek(FRAME_PREFIX_BYTES);
      const flag = prefix[0];
      const length = prefix.readUInt32BE(1);
      const frameBytes = FRAME_PREFIX_BYTES + length + TAG_BYTES;
      if ((flag !== 0 && flag !== 1) || frameBytes > maxFrame) throw new BackupError(BACKUP_MESSAGES.tampered);
      if (queue.length < frameBytes) break;
      const frame = queue.take(frameBytes);
      const final = flag === 1;
      let plain: Buffer;
      try {
        const decipher = createDecipheriv("aes-256-gcm", key, nonce(index));
        decipher.setAAD(aad(header.bytes, index, final));
        decipher.setAuthTag(frame.subarray(FRAME_PREFIX_BYTES + length));
        plain = Buffer.concat([
          decipher.update(frame.subarray(FRAME_PREFIX_BYTES, FRAME_PREFIX_BYTES + length)),
          decipher.final(),
        ]);
      } catch {
        throw new BackupError(BACKUP_MESSAGES.tampered);
      }
      index += 1n;
      if (final) ended = true;
      if (plain.length > 0) yield plain;
    }
    if (ended && queue.length > 0) throw new BackupError(BACKUP_MESSAGES.trailingData);
  }
  if (!ended) throw new BackupError(BACKUP_MESSAGES.truncated);
}
