import type { ServerResponse } from "node:http";

/** A slow reader is cut off past this much unsent data (it reconnects and refetches). */
const MAX_BUFFERED_BYTES = 256 * 1024;

export interface SseStreamOptions {
  /** The browser waits this long before reconnecting after the stream ends. */
  retryMs: number;
}

/**
 * One server-sent-events response written straight to the socket: the headers, `retry:`, named
 * events with one JSON data line, and comment lines as heartbeats. Ends once, whoever ends it.
 */
export class SseStream {
  private ended = false;
  private readonly closeListeners: (() => void)[] = [];

  constructor(
    private readonly res: ServerResponse,
    options: SseStreamOptions,
  ) {
    res.socket?.setNoDelay(true);
    res.socket?.setTimeout(0);
    res.writeHead(200, {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-store",
      connection: "keep-alive",
      // Reverse proxies (nginx and the like) must pass events on as they come.
      "x-accel-buffering": "no",
    });
    res.on("close", () => this.end());
    res.write(`retry: ${Math.round(options.retryMs)}\n\n`);
  }

  get isOpen(): boolean {
    return !this.ended;
  }

  /** `event: <name>` with `data` as one line of JSON. */
  send(event: string, data: Record<string, unknown>): void {
    this.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  }

  /** A comment line: keeps proxies and the browser from timing the connection out. */
  heartbeat(): void {
    this.write(": ping\n\n");
  }

  onClose(listener: () => void): void {
    if (this.ended) listener();
    else this.closeListeners.push(listener);
  }

  end(): void {
    if (this.ended) return;
    this.ended = true;
    if (!this.res.writableEnded) this.res.end();
    for (const listener of this.closeListeners.splice(0)) listener();
  }

  private write(chunk: string): void {
    if (this.ended) return;
    if (this.res.writableLength > MAX_BUFFERED_BYTES) {
      this.res.destroy();
      this.end();
      return;
    }
    this.res.write(chunk);
  }
}
