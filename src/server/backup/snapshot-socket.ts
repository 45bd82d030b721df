import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { existsSync, rmSync } from "node:fs";
import { chmod } from "node:fs/promises";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { BackupError } from "./backup-error.js";
import { ByteQueue } from "./byte-queue.js";

/**
 * While the app runs on embedded PGlite it holds the data directory alone (one process; decision
 * 002). `npm run backup` then asks the app, through a Unix socket next to the data, for PGlite's
 * own dump of the data dir (a consistent copy taken between two queries), and exports from that
 * copy in its own process — the app is held only for the dump. Both ends prove they know the key
 * derived from the instance secret (HMAC over two fresh nonces) before any byte of data moves.
 */
export const SNAPSHOT_SOCKET_PURPOSE = "backup-socket-v1";
const GREETING = Buffer.from("CSNAP1", "ascii");
const NONCE_BYTES = 32;
const MAC_BYTES = 32;
const HANDSHAKE_MS = 15_000;

/** DATA_DIR/backup.sock, or a hashed name in the temp folder when that path is too long for a socket. */
export function snapshotSocketPath(dataDir: string): string {
  const preferred = path.join(path.resolve(dataDir), "backup.sock");
  if (Buffer.byteLength(preferred) <= 100) return preferred;
  const id = createHash("sha256").update(path.resolve(dataDir)).digest("hex").slice(0, 16);
  return path.join(os.tmpdir(), `consentir-${id}.sock`);
}

const mac = (key: Buffer, who: "client" | "server", serverNonce: Buffer, clientNonce: Buffer) =>
  createHmac("sha256", key).update(who).update(serverNonce).update(clientNonce).digest();

/** Reads exact byte counts from a socket. */
class SocketReader {
  private readonly queue = new ByteQueue();
  private waiting: (() => void) | null = null;
  private ended = false;
  private failure: Error | null = null;

  constructor(socket: net.Socket) {
    socket.on("data", (piece: Buffer) => {
      this.queue.push(piece);
      this.wake();
    });
    socket.on("end", () => {
      this.ended = true;
      this.wake();
    });
    socket.on("close", () => {
      this.ended = true;
      this.wake();
    });
    socket.on("error", (error) => {
      this.failure = error;
      this.wake();
    });
  }

  private wake() {
    const waiting = this.waiting;
    this.waiting = null;
    waiting?.();
  }

  async read(n: number): Promise<Buffer> {
    while (this.queue.length < n) {
      if (this.failure) throw this.failure;
      if (this.ended) throw new Error("conexão encerrada antes do fim");
      await new Promise<void>((resolve) => (this.waiting = resolve));
    }
    return this.queue.take(n);
  }
}

export interface SnapshotSocketServer {
  path: string;
  close(): Promise<void>;
}

export interface SnapshotSocketOptions {
  dataDir: string;
  /** secretBox.deriveKey(SNAPSHOT_SOCKET_PURPOSE) */
  key: Buffer;
  /** The consistent copy of the data dir (checkpoint + PGlite dumpDataDir). */
  snapshot(): Promise<Blob>;
  log: { info(obj: object, msg: string): void; warn(obj: object, msg: string): void };
}

/** The app's end: started by main.ts when it runs on PGlite. */
export async function serveSnapshotSocket(options: SnapshotSocketOptions): Promise<SnapshotSocketServer> {
  const socketPath = snapshotSocketPath(options.dataDir);
  // The data dir's lock is ours (taken when the database opened): a socket file left here is stale.
  if (existsSync(socketPath)) rmSync(socketPath, { force: true });
  let queue: Promise<unknown> = Promise.resolve();
  const server = net.createServer((socket) => {
    socket.setTimeout(HANDSHAKE_MS, () => socket.destroy());
    socket.on("error", () => undefined);
    const reader = new SocketReader(socket);
    const serverNonce = randomBytes(NONCE_BYTES);
    socket.write(Buffer.concat([GREETING, serverNonce]));
    void (async () => {
      const clientNonce = await reader.read(NONCE_BYTES);
      const proof = await reader.read(MAC_BYTES);
      if (!timingSafeEqual(proof, mac(options.key, "client", serverNonce, clientNonce))) {
        options.log.warn({}, "backup socket: a client failed the key check");
        socket.destroy();
        return;
      }
      socket.setTimeout(0);
      socket.write(mac(options.key, "server", serverNonce, clientNonce));
      // One dump at a time; the app is held only while PGlite copies its files.
      const taken = queue.then(() => options.snapshot());
      queue = taken.catch(() => undefined);
      const blob = await taken;
      const size = Buffer.alloc(8);
      size.writeBigUInt64BE(BigInt(blob.size));
      socket.write(size);
      const bytes = Buffer.from(await blob.arrayBuffer());
      const piece = 1024 * 1024;
      for (let at = 0; at < bytes.length; at += piece) {
        if (!socket.write(bytes.subarray(at, at + piece)))
          await new Promise((resolve) => socket.once("drain", resolve));
      }
      socket.end();
      options.log.info({ bytes: blob.size }, "backup socket: data dir snapshot sent");
    })().catch((error: unknown) => {
      options.log.warn({ err: error }, "backup socket: snapshot failed");
      socket.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(socketPath, () => {
      server.off("error", reject);
      resolve();
    });
  });
  await chmod(socketPath, 0o600).catch(() => undefined);
  return {
    path: socketPath,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        rmSync(socketPath, { force: true });
      }),
  };
}

/**
 * The CLI's end: the running app's copy of its data dir, or null when no app answers there (the
 * CLI then opens the database itself).
 */
export async function requestSnapshot(dataDir: string, key: Buffer): Promise<Blob | null> {
  const socketPath = snapshotSocketPath(dataDir);
  if (!existsSync(socketPath)) return null;
  const socket = net.createConnection(socketPath);
  const connected = await new Promise<boolean>((resolve, reject) => {
    socket.once("connect", () => resolve(true));
    socket.once("error", (error: NodeJS.ErrnoException) => {
      if (error.code === "ECONNREFUSED" || error.code === "ENOENT") resolve(false);
      else reject(error);
    });
  });
  if (!connected) {
    socket.destroy();
    return null;
  }
  const reader = new SocketReader(socket);
  try {
    const greeting = await reader.read(GREETING.length);
    if (!greeting.equals(GREETING)) throw new BackupError(`O socket ${socketPath} não é o do Consentir.`);
    const serverNonce = await reader.read(NONCE_BYTES);
    const clientNonce = randomBytes(NONCE_BYTES);
    socket.write(Buffer.concat([clientNonce, mac(key, "client", serverNonce, clientNonce)]));
    const proof = await reader.read(MAC_BYTES).catch(() => {
      throw new BackupError(
        "O app em execução recusou o pedido de backup: a chave desta linha de comando (APP_SECRET / secret.key) não é a do app.",
      );
    });
    if (!timingSafeEqual(proof, mac(key, "server", serverNonce, clientNonce))) {
      throw new BackupError(`Quem responde em ${socketPath} não provou ter a chave desta instalação.`);
    }
    const size = Number((await reader.read(8)).readBigUInt64BE());
    const parts: Buffer[] = [];
    const piece = 16 * 1024 * 1024;
    for (let left = size; left > 0; left -= piece) parts.push(await reader.read(Math.min(piece, left)));
    return new Blob(parts as Uint8Array<ArrayBuffer>[]);
  } finally {
    socket.destroy();
  }
}

/** What main.ts starts when the app runs on PGlite (the app's secret box, PGlite's own dump). */
export function serveAppSnapshots(
  dataDir: string,
  secretBox: { deriveKey(purpose: string): Buffer },
  dump: () => Promise<Blob>,
  log: SnapshotSocketOptions["log"],
): Promise<SnapshotSocketServer> {
  return serveSnapshotSocket({ dataDir, key: secretBox.deriveKey(SNAPSHOT_SOCKET_PURPOSE), snapshot: dump, log });
}
