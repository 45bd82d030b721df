/**
 * The Content-Security-Policy of the saveable verifier page, dist/client/verificador.html
 * (decision 077, amended): its one script and one style are inline, so that the same file works
 * opened from disk with no network, and the app's policy (`script-src 'self'`) would block them.
 * This route gets its own policy, stricter than the app's: only those exact inline blocks (by their
 * SHA-256), a worker only from a blob: URL (the page starts its checker from one), no network at
 * all — the file never leaves the computer — no frames, forms, plugins or base URL.
 */
import { createHash } from "node:crypto";

const hashOf = (text: string) => `'sha256-${createHash("sha256").update(text, "utf8").digest("base64")}'`;

/** The SHA-256 sources of every inline `<tag>` element's text (attributes not allowed: none are written). */
function inlineHashes(html: string, tag: "script" | "style"): string[] {
  return [...html.matchAll(new RegExp(`<${tag}>([\\s\\S]*?)</${tag}>`, "gi"))].map((match) => hashOf(match[1]!));
}

/** The policy for this page's exact bytes; a page with no inline script gets none that runs. */
export function verifierPageCsp(html: string): string {
  const scripts = inlineHashes(html, "script");
  const styles = inlineHashes(html, "style");
  return [
    "default-src 'none'",
    `script-src ${scripts.length ? scripts.join(" ") : "'none'"}`,
    `style-src ${styles.length ? styles.join(" ") : "'none'"}`,
    "worker-src blob:",
    "connect-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
    "object-src 'none'",
  ].join("; ");
}

/** The file the policy is for, also as its precompressed twins (scripts/precompress.mjs). */
export const VERIFIER_PAGE = /(^|[\\/])verificador\.html(\.br|\.gz)?$/;
