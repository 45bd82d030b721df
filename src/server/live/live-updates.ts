import type { FastifyBaseLogger } from "fastify";
import type { Database } from "../../db/client.js";
import type { NotificationSubscription } from "../../db/listen.js";
import { CHANGES_CHANNEL, parseChange } from "./change.js";
import { createLiveHub, type LiveHub, type LiveLimits } from "./live-hub.js";

export interface LiveUpdates {
  hub: LiveHub;
  /** Starts this process's one LISTEN (on the first stream), and waits for it. */
  listening(): Promise<void>;
  /** Ends every stream (before the server closes: preClose). */
  endStreams(): void;
  /** Stops listening (onClose, before the database closes). */
  close(): Promise<void>;
}

/**
 * Live updates of one process (decision 022): one LISTEN on the database — a dedicated
 * connection on PostgreSQL, in-process on PGlite — fanned out to this process's streams.
 */
export function createLiveUpdates(
  database: Database,
  options: { idleHours: number; limits: LiveLimits; log: FastifyBaseLogger },
): LiveUpdates {
  const hub = createLiveHub(database.db, options);
  let subscription: Promise<NotificationSubscription> | undefined;
  let closed = false;

  const listening = async () => {
    if (closed) throw new Error("live updates closed");
    subscription ??= database
      .listen(CHANGES_CHANNEL, {
        onNotification: (payload) => {
          const change = parseChange(payload);
          if (change) hub.publish(change);
          else options.log.warn("live: notification not understood");
        },
        onReconnect: () => {
          options.log.info("live: listening again; browsers refetch what they show");
          hub.resync();
        },
        onError: (error) => options.log.warn({ err: error }, "live: listen connection failed"),
      })
      .catch((error: unknown) => {
        subscription = undefined;
        throw error;
      });
    await subscription;
  };

  return {
    hub,
    listening,
    endStreams: () => hub.close(),
    close: async () => {
      closed = true;
      hub.close();
      const current = await subscription?.catch(() => undefined);
      await current?.close();
    },
  };
}
