import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import { currentUserKey, useCurrentUser } from "@/features/auth";
import { api } from "@/lib/api";
import type { CurrentUser } from "@shared/schemas/me";
import { liveInvalidations } from "./live-invalidations";
import { registerLiveStream } from "@/lib/live-streams";

/** After a refused stream (401, 429, 503), the first pause before trying again; doubles up to the max. */
const REFUSED_RETRY_MS = 2000;
const REFUSED_RETRY_MAX_MS = 60_000;

interface IdEvent {
  id?: unknown;
}

function idOf(event: MessageEvent<string>): string | undefined {
  try {
    const data = JSON.parse(event.data) as IdEvent;
    return typeof data.id === "string" ? data.id : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Whether the session still stands, asked without disturbing the current-user query: only a
 * clear "nobody is signed in" forgets the user (the route guard then goes to /auth); a server
 * that is away (restarting) changes nothing.
 */
async function forgetUserIfSignedOut(queryClient: ReturnType<typeof useQueryClient>): Promise<void> {
  try {
    const { user } = await api<{ user: CurrentUser | null }>("/api/auth/session");
    if (!user) queryClient.setQueryData(currentUserKey, null);
  } catch {
    // unreachable or failing: the stream's own retries will find out
  }
}

/**
 * One EventSource per signed-in app (decision 022): what other people and the patients change
 * shows up without reloading. The browser reconnects by itself after a dropped connection (the
 * server's `retry:`); a refused one (session ended, too many tabs, server busy) is retried here
 * with back-off. Each interruption asks whether the session still stands: a session ended
 * elsewhere (signed out, deactivated, idle) sends the person to /auth at once.
 */
export function useLiveUpdates(): void {
  const queryClient = useQueryClient();
  const { data: user } = useCurrentUser();
  const profileId = user?.profile.id;
  const profileIdRef = useRef(profileId);
  profileIdRef.current = profileId;

  useEffect(() => {
    if (!profileId || typeof EventSource === "undefined") return;
    const invalidations = liveInvalidations(queryClient, () => profileIdRef.current);
    let source: EventSource | undefined;
    let retryTimer: ReturnType<typeof setTimeout> | undefined;
    let refusals = 0;
    let connectedBefore = false;
    let stopped = false;
    let askingSession = false;
    const askSession = () => {
      if (askingSession) return;
      askingSession = true;
      void forgetUserIfSignedOut(queryClient).finally(() => {
        askingSession = false;
      });
    };

    const connect = () => {
      const current = new EventSource("/api/events");
      source = current;
      current.addEventListener("ready", () => {
        refusals = 0;
        // A reconnect: whatever changed while the stream was down was missed.
        if (connectedBefore) invalidations.everything();
        connectedBefore = true;
      });
      current.addEventListener("resync", () => invalidations.everything());
      const on = (kind: "document" | "patient" | "profile" | "notice") =>
        current.addEventListener(kind, (event) => {
          const id = idOf(event);
          if (id) invalidations[kind](id);
        });
      on("document");
      on("patient");
      on("profile");
      on("notice");
      current.onerror = () => {
        if (stopped) return;
        askSession();
        // CONNECTING: the browser is already reconnecting. CLOSED: the server refused the stream.
        if (current.readyState !== EventSource.CLOSED) return;
        const delay = Math.min(REFUSED_RETRY_MS * 2 ** refusals, REFUSED_RETRY_MAX_MS) * (0.75 + Math.random() / 2);
        refusals++;
        retryTimer = setTimeout(() => {
          if (!stopped) connect();
        }, delay);
      };
    };

    const stop = () => {
      stopped = true;
      if (retryTimer) clearTimeout(retryTimer);
      source?.close();
    };
    const unregister = registerLiveStream(stop);
    connect();
    return () => {
      stop();
      unregister();
      invalidations.dispose();
    };
  }, [profileId, queryClient]);
}
