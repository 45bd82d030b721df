import type { EmbedEvent } from "@shared/schemas/embedding";

/**
 * Embedded signing (decision 071): the parent site this page may talk to, or null. Only when the
 * page is in a frame, the link names the site (`?origem=`), the clinic allows it, and — where the
 * browser tells (location.ancestorOrigins) — the frame's parent really is that site. The browser
 * already refused the frame to any other site (CSP frame-ancestors); this keeps events from ever
 * going anywhere else, and never to "*".
 */
export function embedParentOrigin(
  allowed: readonly string[],
  win: Pick<Window, "parent" | "location"> = window,
): string | null {
  if ((win.parent as unknown) === win) return null;
  let claimed: string | null;
  try {
    claimed = new URL(win.location.href).searchParams.get("origem");
  } catch {
    return null;
  }
  if (!claimed || !allowed.includes(claimed)) return null;
  const ancestors = (win.location as Location & { ancestorOrigins?: DOMStringList }).ancestorOrigins;
  if (ancestors && ancestors.length > 0 && ancestors[0] !== claimed) return null;
  return claimed;
}

/** Posts an event to the parent site, only to that origin; nothing when there is none. */
export function postToParent(origin: string | null, event: EmbedEvent): void {
  if (!origin || window.parent === window) return;
  window.parent.postMessage(event, origin);
}
