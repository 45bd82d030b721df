import * as React from "react";
import { matchRoutes, NavLink, type NavLinkProps, type RouteObject } from "react-router";

/**
 * Route prefetching (decision 033): each screen is its own chunk (app/router.tsx, `lazy`), so the
 * first load carries only the shell and the dashboard. A menu link downloads its screen when the
 * pointer rests on it, it takes focus or a finger touches it; once the browser is idle it fetches a
 * few likely next screens (navigation.ts, LIKELY_NEXT_SCREENS), not every screen of the menu:
 * loading and running each one's chunks costs a phone's CPU, and most are rarely opened next.
 */
let knownRoutes: RouteObject[] = [];
const started = new Set<unknown>();

/** Called once by the router with its routes, so links can find the chunk of a path. */
export function registerPrefetchRoutes(routes: RouteObject[]): void {
  knownRoutes = routes;
}

/** Starts downloading the screens of `path` (each lazy route once; a failure may be retried). */
export function prefetchRoute(path: string): void {
  for (const { route } of matchRoutes(knownRoutes, path) ?? []) {
    const lazy = route.lazy;
    if (typeof lazy !== "function" || started.has(route)) continue;
    started.add(route);
    Promise.resolve()
      .then(() => (lazy as () => unknown)())
      .catch(() => started.delete(route));
  }
}

/**
 * Prefetches `paths` (keep it to a few screens) one by one while the browser is idle, after the
 * page has loaded; nothing under Save-Data or on a 2G link.
 */
export function usePrefetchWhenIdle(paths: readonly string[]): void {
  const key = paths.join("\n");
  React.useEffect(() => {
    const queue = key ? key.split("\n") : [];
    // Save-Data or a 2G link: only hover and focus prefetch.
    const connection = (navigator as Navigator & { connection?: { saveData?: boolean; effectiveType?: string } })
      .connection;
    if (connection?.saveData || /2g/.test(connection?.effectiveType ?? "")) return;
    const hasIdle = typeof window.requestIdleCallback === "function";
    const idle = (callback: () => void): number =>
      hasIdle ? window.requestIdleCallback(callback, { timeout: 5000 }) : Number(globalThis.setTimeout(callback, 1500));
    const cancel = (handle: number) => (hasIdle ? window.cancelIdleCallback(handle) : globalThis.clearTimeout(handle));
    let handle = 0;
    const next = () => {
      const path = queue.shift();
      if (!path) return;
      prefetchRoute(path);
      handle = idle(next);
    };
    const begin = () => (handle = idle(next));
    if (document.readyState === "complete") begin();
    else window.addEventListener("load", begin, { once: true });
    return () => {
      window.removeEventListener("load", begin);
      cancel(handle);
    };
  }, [key]);
}

/** A NavLink that prefetches its screen on hover, focus or touch. */
export function PrefetchNavLink({
  onMouseEnter,
  onFocus,
  onTouchStart,
  ...props
}: NavLinkProps & React.RefAttributes<HTMLAnchorElement>) {
  const path = typeof props.to === "string" ? props.to : (props.to.pathname ?? "");
  return (
    <NavLink
      {...props}
      onMouseEnter={(event) => {
        prefetchRoute(path);
        onMouseEnter?.(event);
      }}
      onFocus={(event) => {
        prefetchRoute(path);
        onFocus?.(event);
      }}
      onTouchStart={(event) => {
        prefetchRoute(path);
        onTouchStart?.(event);
      }}
    />
  );
}
