import type { AddressInfo } from "node:net";
import type { FastifyInstance } from "fastify";

/** One server-sent event as a browser would dispatch it (comments kept apart). */
export interface StreamEvent {
  event: string;
  data: string;
  /** `data` parsed as JSON (every event of ours carries one JSON line). */
  json: Record<string, unknown>;
}

export interface EventStreamClient {
  status: number;
  headers: Headers;
  /** Everything received, in order. */
  events: StreamEvent[];
  /** `retry:` values and comment lines (heartbeats) received. */
  retries: number[];
  comments: string[];
  /** The raw body text (JSON error bodies for non-200 answers). */
  text(): string;
  /** The first event (already received or to come) matching `test`; fails after `timeoutMs`. */
  waitFor(test: (event: StreamEvent) => boolean, what: string, timeoutMs?: number): Promise<StreamEvent>;
  /** Resolves when the server ends the stream (or the connection drops). */
  ended: Promise<void>;
  /** Waits for the end, failing after `timeoutMs`. */
  waitForEnd(what: string, timeoutMs?: number): Promise<void>;
  close(): void;
}

/** Deadlines are generous: CI runs busy processes beside the suite. */
export const EVENT_DEADLINE_MS = 15_000;

/** The app listening on a free port of 127.0.0.1 (app.inject cannot stream): its base URL. */
export async function listenForStreams(app: FastifyInstance): Promise<string> {
  await app.listen({ port: 0, host: "127.0.0.1" });
  const address = app.server.address() as AddressInfo;
  return `http://127.0.0.1:${address.port}`;
}

/** Opens GET /api/events as a browser's EventSource would (no reconnecting: tests reopen by hand). */
export async function openEventStream(baseUrl: string, cookie?: string): Promise<EventStreamClient> {
  const abort = new AbortController();
  const response = await fetch(`${baseUrl}/api/events`, {
    headers: { accept: "text/event-stream", ...(cookie ? { cookie } : {}) },
    signal: abort.signal,
  });
  const events: StreamEvent[] = [];
  const retries: number[] = [];
  const comments: string[] = [];
  const waiters = new Set<() => void>();
  let raw = "";
  let buffer = "";
  let done = false;

  const notify = () => {
    for (const waiter of [...waiters]) waiter();
  };
  const dispatch = (block: string) => {
    let event = "message";
    const data: string[] = [];
    for (const line of block.split("\n")) {
      if (line.startsWith(":")) comments.push(line.slice(1).trim());
      else if (line.startsWith("event:")) event = line.slice(6).trim();
      else if (line.startsWith("data:")) data.push(line.slice(5).trimStart());
      else if (line.startsWith("retry:")) retries.push(Number(line.slice(6).trim()));
    }
    if (data.length === 0) return;
    const text = data.join("\n");
    events.push({ event, data: text, json: JSON.parse(text) as Record<string, unknown> });
  };

  const ended = (async () => {
    if (!response.body) return;
    const decoder = new TextDecoder();
    try {
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
        const text = decoder.decode(chunk, { stream: true });
        raw += text;
        if (response.status !== 200) continue;
        buffer += text.replaceAll("\r\n", "\n");
        let at: number;
        while ((at = buffer.indexOf("\n\n")) >= 0) {
          dispatch(buffer.slice(0, at));
          buffer = buffer.slice(at + 2);
        }
        notify();
      }
    } catch {
      // aborted by close(), or the connection dropped: both end the stream
    } finally {
      done = true;
      notify();
    }
  })();

  const until = <T>(check: () => T | undefined, what: string, timeoutMs: number) =>
    new Promise<T>((resolve, reject) => {
      const settle = () => {
        let found: T | undefined;
        try {
          found = check();
        } catch (error) {
          cleanup();
          reject(error as Error);
          return;
        }
        if (found !== undefined) {
          cleanup();
          resolve(found);
        }
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(
          new Error(
            `timed out after ${timeoutMs} ms waiting for ${what}; got ${JSON.stringify(events.map((e) => `${e.event} ${e.data}`))}`,
          ),
        );
      }, timeoutMs);
      const cleanup = () => {
        clearTimeout(timer);
        waiters.delete(settle);
      };
      waiters.add(settle);
      settle();
    });

  return {
    status: response.status,
    headers: response.headers,
    events,
    retries,
    comments,
    text: () => raw,
    waitFor: (test, what, timeoutMs = EVENT_DEADLINE_MS) =>
      until(() => events.find(test) ?? (done ? failEnded(what) : undefined), what, timeoutMs),
    ended,
    waitForEnd: (what, timeoutMs = EVENT_DEADLINE_MS) =>
      until(() => (done ? true : undefined), what, timeoutMs).then(() => undefined),
    close: () => abort.abort(),
  };
}

function failEnded(what: string): never {
  throw new Error(`the stream ended before ${what}`);
}
