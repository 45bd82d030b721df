import type { ServerResponse } from "node:http";
import type { Db } from "../../db/client.js";
import { AppError } from "../errors.js";
import type { Actor } from "../policies/roles.js";
import type { SessionUser } from "../services/auth/sessions.js";
import type { Change } from "./change.js";
import { hears } from "./event-audience.js";
import { liveSessions } from "./live-sessions.js";
import { SseStream } from "./sse-stream.js";

export interface LiveLimits {
  /** Open streams one user may hold in this process (tabs). */
  maxStreamsPerUser: number;
  /** Open streams this process holds in all. */
  maxStreams: number;
  /** Heartbeat and session re-check period. */
  heartbeatMs: number;
  /** The browser's pause before reconnecting (`retry:`). */
  retryMs: number;
}

export const DEFAULT_LIVE_LIMITS: LiveLimits = {
  maxStreamsPerUser: 5,
  maxStreams: 2000,
  heartbeatMs: 25_000,
  retryMs: 3000,
};

interface Connection {
  stream: SseStream;
  sessionId: string;
  actor: Actor;
}

export interface LiveHub {
  /** Opens a stream for a signed-in user (429/503 past the limits): the caller has hijacked the reply. */
  open(user: SessionUser, res: ServerResponse): SseStream;
  /** Checks the limits without opening (so the route can answer an error before hijacking). */
  assertRoom(user: SessionUser): void;
  /** A committed change from the listener. */
  publish(change: Change): void;
  /** Notifications may have been lost (the listener reconnected): every browser refetches. */
  resync(): void;
  /** Streams open now (tests, health). */
  readonly size: number;
  /** Ends every stream (the app is closing) and stops the heartbeat. */
  close(): void;
}

/**
 * The streams of this process, by clinic. Each committed change goes to the streams of its
 * clinic whose user may see that kind of thing; a session that ends (deleted, deactivated,
 * expired, idle) ends its streams — at once when the database announces it, else at the next
 * heartbeat's re-check.
 */
export function createLiveHub(
  db: Db,
  options: { idleHours: number; limits: LiveLimits; log: { warn(obj: object, msg: string): void } },
): LiveHub {
  const { limits } = options;
  const byTenant = new Map<string, Set<Connection>>();
  let total = 0;
  let checking = false;
  let closed = false;

  const each = (visit: (connection: Connection) => void) => {
    for (const set of byTenant.values()) for (const connection of [...set]) visit(connection);
  };
  const streamsOf = (profileId: string) => {
    let count = 0;
    each((c) => {
      if (c.actor.profileId === profileId) count++;
    });
    return count;
  };

  /** Re-reads these connections' sessions: ends the dead ones, refreshes role and ownership. */
  const recheck = async (connections: Connection[]) => {
    if (connections.length === 0) return;
    const live = await liveSessions(db, [...new Set(connections.map((c) => c.sessionId))], {
      idleHours: options.idleHours,
    });
    for (const connection of connections) {
      const actor = live.get(connection.sessionId);
      if (actor) connection.actor = actor;
      else connection.stream.end();
    }
  };

  const heartbeat = setInterval(() => {
    each((c) => c.stream.heartbeat());
    if (checking) return;
    checking = true;
    const all: Connection[] = [];
    each((c) => all.push(c));
    recheck(all)
      .catch((error: unknown) => options.log.warn({ err: error }, "live: session re-check failed"))
      .finally(() => {
        checking = false;
      });
  }, limits.heartbeatMs);
  heartbeat.unref();

  const assertRoom = (user: SessionUser) => {
    if (closed || total >= limits.maxStreams) throw new AppError("LIVE_UNAVAILABLE");
    if (streamsOf(user.profileId) >= limits.maxStreamsPerUser) throw new AppError("LIVE_TOO_MANY_STREAMS");
  };

  return {
    assertRoom,
    open(user, res) {
      assertRoom(user);
      const stream = new SseStream(res, { retryMs: limits.retryMs });
      const connection: Connection = {
        stream,
        sessionId: user.sessionId,
        actor: { profileId: user.profileId, tenantId: user.tenantId, role: user.role, isOwner: user.isOwner },
      };
      const set = byTenant.get(user.tenantId) ?? new Set<Connection>();
      byTenant.set(user.tenantId, set);
      set.add(connection);
      total++;
      stream.onClose(() => {
        if (!set.delete(connection)) return;
        total--;
        if (set.size === 0 && byTenant.get(user.tenantId) === set) byTenant.delete(user.tenantId);
      });
      stream.send("ready", {});
      return stream;
    },
    publish(change) {
      const set = byTenant.get(change.tenantId);
      if (!set) return;
      const connections = [...set];
      if (change.kind === "session") {
        for (const c of connections) if (c.sessionId === change.id) c.stream.end();
        return;
      }
      if (change.kind === "profile") {
        // Deactivated, or given another role: settle it before telling anyone.
        const own = connections.filter((c) => c.actor.profileId === change.id);
        if (own.length > 0) {
          recheck(own)
            .catch((error: unknown) => options.log.warn({ err: error }, "live: session re-check failed"))
            .finally(() => deliver(connections, change));
          return;
        }
      }
      deliver(connections, change);
    },
    resync() {
      each((c) => c.stream.send("resync", {}));
    },
    get size() {
      return total;
    },
    close() {
      closed = true;
      clearInterval(heartbeat);
      each((c) => c.stream.end());
    },
  };

  function deliver(connections: Connection[], change: Change) {
    if (change.kind === "session") return;
    const data = change.status === undefined ? { id: change.id } : { id: change.id, status: change.status };
    for (const c of connections) {
      if (c.stream.isOpen && hears(c.actor, change.kind, change.id)) c.stream.send(change.kind, data);
    }
  }
}
