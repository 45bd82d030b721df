import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { BACKUP_MESSAGES } from "./backup-error.js";
import { ChunkSealer, HEADER_BYTES, newHeader, openChunks, parseHeader, unlockHeader } from "./chunked-aead.js";

const root = randomBytes(32);

/** Seals `plain` in chunks of 64 bytes; returns the header and each frame apart. */
function seal(plain: Buffer) {
  const { header, key } = newHeader(root, "instance", 64);
  const sealer = new ChunkSealer(key, header);
  const frames = [...sealer.push(plain.subarray(0, 100)), ...sealer.push(plain.subarray(100)), sealer.finish()];
  return { header, key, frames };
}

async function open(frames: Buffer[], header = seal(Buffer.alloc(0)).header, key?: Buffer): Promise<Buffer> {
  const source = (async function* () {
    // Odd piece sizes: a frame may arrive in several reads.
    const all = Buffer.concat(frames);
    for (let at = 0; at < all.length; at += 37) yield all.subarray(at, at + 37);
  })();
  const parts: Buffer[] = [];
  for await (const part of openChunks(source, key ?? Buffer.alloc(32), header)) parts.push(part);
  return Buffer.concat(parts);
}

describe("chunked AES-256-GCM of the backup stream", () => {
  const plain = randomBytes(300);

  it("gives back the plaintext, cut into authenticated chunks of the header's size", async () => {
    const { header, key, frames } = seal(plain);
    expect(frames).toHaveLength(5); // 4 full chunks of 64 bytes, then the final one with 44
    expect(await open(frames, header, key)).toEqual(plain);
    const parsed = parseHeader(header.bytes);
    expect(parsed.chunkBytes).toBe(64);
    expect(unlockHeader(parsed, root)).toEqual(key);
  });

  it("finds a file cut at a chunk boundary (no final chunk), a dropped, a repeated and a swapped chunk", async () => {
    const { header, key, frames } = seal(plain);
    await expect(open(frames.slice(0, 4), header, key)).rejects.toThrow(BACKUP_MESSAGES.truncated);
    await expect(open([frames[0], frames[2], frames[3], frames[4]] as Buffer[], header, key)).rejects.toThrow(
      BACKUP_MESSAGES.tampered,
    );
    await expect(open([frames[0], frames[0], ...frames.slice(1)] as Buffer[], header, key)).rejects.toThrow(
      BACKUP_MESSAGES.tampered,
    );
    await expect(open([frames[1], frames[0], ...frames.slice(2)] as Buffer[], header, key)).rejects.toThrow(
      BACKUP_MESSAGES.tampered,
    );
  });

  it("refuses a middle chunk marked final, bytes after the end and a header from another file", async () => {
    const { header, key, frames } = seal(plain);
    const markedFinal = Buffer.from(frames[1] as Buffer);
    markedFinal[0] = 1;
    await expect(open([frames[0] as Buffer, markedFinal], header, key)).rejects.toThrow(BACKUP_MESSAGES.tampered);
    await expect(open([...frames, Buffer.from([0])], header, key)).rejects.toThrow(BACKUP_MESSAGES.trailingData);
    const other = seal(plain);
    await expect(open(frames, other.header, key)).rejects.toThrow(BACKUP_MESSAGES.tampered);
  });

  it("tells another key from a damaged file before any chunk is opened", () => {
    const { header } = seal(plain);
    expect(unlockHeader(header, randomBytes(32))).toBeNull();
    expect(() => parseHeader(header.bytes.subarray(0, HEADER_BYTES - 1))).toThrow(BACKUP_MESSAGES.notABackup);
    const future = Buffer.from(header.bytes);
    future[16] = 9;
    expect(() => parseHeader(future)).toThrow(BACKUP_MESSAGES.unsupportedFormat(9));
  });
});
