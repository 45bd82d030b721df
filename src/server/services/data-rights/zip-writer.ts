import { createHash, type Hash } from "node:crypto";
import { PassThrough } from "node:stream";
import { strToU8, Zip, ZipDeflate, ZipPassThrough } from "fflate";

/** What the manifest says of each entry: its name, size and SHA-256 (of the bytes once extracted). */
export interface ZipEntryRecord {
  nome: string;
  bytes: number;
  sha256: string;
}

/** The client went away (or the stream failed): the export stops reading the database. */
export class ExportAborted extends Error {
  constructor() {
    super("export aborted: the download stream closed");
    this.name = "ExportAborted";
  }
}

/** fflate writes no ZIP64: at most 65,535 entries and 4 GiB (decision 026). */
export const ZIP_MAX_ENTRIES = 65_000;
export const ZIP_MAX_BYTES = 4 * 1024 ** 3 - 64 * 1024 ** 2;

export interface ZipEntryStream {
  write(chunk: string | Uint8Array): Promise<void>;
  end(): Promise<void>;
}

/**
 * A ZIP written while it is downloaded: fflate's streaming `Zip` feeds `output` (a Node stream the
 * route sends), one entry at a time. Every write waits while the client is behind (backpressure),
 * so a large clinic never sits whole in memory; if the client leaves, the next write throws
 * ExportAborted. Already-compressed files (PDF, PNG) are stored, text is deflated.
 */
export class ZipWriter {
  readonly output = new PassThrough({ highWaterMark: 1024 * 1024 });
  readonly entries: ZipEntryRecord[] = [];
  private readonly zip: Zip;
  private failed: Error | null = null;
  private written = 0;

  constructor(private readonly mtime: Date = new Date()) {
    this.zip = new Zip((error, chunk, final) => {
      if (error) {
        this.failed = error;
        this.output.destroy(error);
        return;
      }
      this.written += chunk.byteLength;
      if (this.written > ZIP_MAX_BYTES + 64 * 1024 ** 2) {
        // Past what a ZIP without ZIP64 can address: end it broken rather than wrong.
        this.abort(new Error("export larger than a ZIP without ZIP64 can hold"));
        return;
      }
      if (!this.output.destroyed) this.output.write(chunk);
      if (final) this.output.end();
    });
  }

  /** One entry written in pieces (JSON arrays page by page, CSV…). */
  entry(nome: string, options: { compress?: boolean } = {}): ZipEntryStream {
    this.check();
    const file = options.compress === false ? new ZipPassThrough(nome) : new ZipDeflate(nome, { level: 6 });
    file.mtime = this.mtime;
    this.zip.add(file);
    const hash: Hash = createHash("sha256");
    let bytes = 0;
    return {
      write: async (chunk) => {
        this.check();
        const data = typeof chunk === "string" ? strToU8(chunk) : chunk;
        if (data.byteLength === 0) return;
        hash.update(data);
        bytes += data.byteLength;
        file.push(data);
        await this.drained();
      },
      end: async () => {
        this.check();
        file.push(new Uint8Array(0), true);
        this.entries.push({ nome, bytes, sha256: hash.digest("hex") });
        await this.drained();
      },
    };
  }

  /** A whole entry at once (a PDF from storage, a small text). */
  async add(nome: string, content: string | Uint8Array, options: { compress?: boolean } = {}): Promise<void> {
    const stream = this.entry(nome, options);
    await stream.write(content);
    await stream.end();
  }

  /** Ends the archive (central directory); the stream ends once it is flushed. */
  finish(): void {
    this.check();
    this.zip.end();
  }

  /** Stops the archive after a failure: the download ends early, never as a valid ZIP. */
  abort(error: Error): void {
    this.failed ??= error;
    this.zip.terminate();
    if (!this.output.destroyed) this.output.destroy(error);
  }

  private check(): void {
    if (this.failed) throw this.failed;
    if (this.output.destroyed) throw new ExportAborted();
  }

  /** Resolves when the client has taken enough of what was written (or throws if it left). */
  private async drained(): Promise<void> {
    this.check();
    if (!this.output.writableNeedDrain) return;
    await new Promise<void>((resolve, reject) => {
      const cleanup = () => {
        this.output.off("drain", onDrain);
        this.output.off("close", onClose);
        this.output.off("error", onClose);
      };
      const onDrain = () => {
        cleanup();
        resolve();
      };
      const onClose = () => {
        cleanup();
        reject(new ExportAborted());
      };
      this.output.on("drain", onDrain);
      this.output.on("close", onClose);
      this.output.on("error", onClose);
    });
  }
}
