/** PGlite or its thread's stand-in (decision 038): both LISTEN alike. */
interface PgliteListener {
  readonly closed: boolean;
  listen(channel: string, onNotification: (payload: string) => void): Promise<() => Promise<void>>;
}
import pg from "pg";

/** What a LISTEN connection reports. */
export interface NotificationHandlers {
  onNotification(payload: string): void;
  /** The connection came back after a drop: notifications sent meanwhile were lost. */
  onReconnect?(): void;
  /** A connection error (it is retried; for logging). */
  onError?(error: unknown): void;
}

export interface NotificationSubscription {
  close(): Promise<void>;
}

/** PGlite (one process): its own listen(); notifications arrive when a transaction commits. */
export async function listenPglite(
  client: PgliteListener,
  channel: string,
  handlers: NotificationHandlers,
): Promise<NotificationSubscription> {
  const unlisten = await client.listen(channel, (payload) => handlers.onNotification(payload));
  return {
    close: async () => {
      if (!client.closed) await unlisten();
    },
  };
}

export interface PostgresListenOptions {
  /** First pause before reconnecting; doubles up to maxBackoffMs. */
  minBackoffMs?: number;
  maxBackoffMs?: number;
  /** A `select 1` on the connection this often finds a dead one that TCP has not noticed. */
  checkEveryMs?: number;
}

/**
 * PostgreSQL: one dedicated connection (never a pooled one: LISTEN belongs to a session) that
 * reconnects with back-off when it drops. The first connection must succeed; later drops are
 * retried for as long as the subscription is open.
 */
export async function listenPostgres(
  url: string,
  channel: string,
  handlers: NotificationHandlers,
  options: PostgresListenOptions = {},
): Promise<NotificationSubscription> {
  const minBackoffMs = options.minBackoffMs ?? 500;
  const maxBackoffMs = options.maxBackoffMs ?? 30_000;
  const checkEveryMs = options.checkEveryMs ?? 30_000;
  let closed = false;
  let client: pg.Client | undefined;
  let retryTimer: NodeJS.Timeout | undefined;
  let checkTimer: NodeJS.Timeout | undefined;
  let backoffMs = minBackoffMs;

  const connect = async (): Promise<void> => {
    const next = new pg.Client({ connectionString: url, keepAlive: true, application_name: "consentir-listen" });
    next.on("notification", (message) => {
      if (message.channel === channel && message.payload !== undefined) handlers.onNotification(message.payload);
    });
    next.on("error", (error) => {
      handlers.onError?.(error);
      drop(next);
    });
    next.on("end", () => drop(next));
    await next.connect();
    try {
      await next.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
    } catch (error) {
      await next.end().catch(() => undefined);
      throw error;
    }
    if (closed) {
      await next.end().catch(() => undefined);
      return;
    }
    client = next;
    backoffMs = minBackoffMs;
    checkTimer = setInterval(() => {
      next.query("select 1").catch((error: unknown) => {
        handlers.onError?.(error);
        drop(next);
      });
    }, checkEveryMs);
    checkTimer.unref();
  };

  /** The connection is gone (or sick): forget it and reconnect after a pause. */
  const drop = (which: pg.Client) => {
    if (client !== which) return;
    client = undefined;
    if (checkTimer) clearInterval(checkTimer);
    which.end().catch(() => undefined);
    scheduleReconnect();
  };

  const scheduleReconnect = () => {
    if (closed || retryTimer) return;
    const delay = backoffMs * (0.75 + Math.random() / 2);
    backoffMs = Math.min(backoffMs * 2, maxBackoffMs);
    retryTimer = setTimeout(() => {
      retryTimer = undefined;
      connect().then(
        () => {
          if (!closed) handlers.onReconnect?.();
        },
        (error: unknown) => {
          handlers.onError?.(error);
          scheduleReconnect();
        },
      );
    }, delay);
    retryTimer.unref();
  };

  await connect();
  return {
    close: async () => {
      closed = true;
      if (retryTimer) clearTimeout(retryTimer);
      if (checkTimer) clearInterval(checkTimer);
      const last = client;
      client = undefined;
      await last?.end().catch(() => undefined);
    },
  };
}
