import { useCallback, useEffect, useRef, useState } from "react";
import { publicFetch } from "./http";

/** Every 3 s, for about two minutes; then the page offers to try again. */
export const SIGNED_PDF_POLL_MS = 3000;
export const SIGNED_PDF_POLL_TRIES = 40;

export type SignedPdfState = "ready" | "preparing" | "late";

export const signedPdfPath = (token: string) => `/api/public/sign/${encodeURIComponent(token)}/signed-pdf`;

/**
 * Is the sealed PDF there yet? A background job seals it after the signature; until then this asks
 * the server (HEAD …/signed-pdf: no bytes, nothing audited) every few seconds. 200 → ready;
 * 404 → still being prepared; 410 → the link died meanwhile (onInvalid). A small hook instead of
 * TanStack Query, which the public bundle does not carry (decision 010).
 */
export function useSignedPdfReady(
  token: string,
  { enabled, initiallyReady, onInvalid }: { enabled: boolean; initiallyReady: boolean; onInvalid: () => void },
) {
  const [state, setState] = useState<SignedPdfState>(initiallyReady ? "ready" : "preparing");
  const [round, setRound] = useState(0);
  const invalid = useRef(onInvalid);
  invalid.current = onInvalid;

  useEffect(() => {
    if (initiallyReady) setState("ready");
  }, [initiallyReady]);

  useEffect(() => {
    if (!enabled || initiallyReady) return;
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    let tries = 0;
    setState("preparing");
    const check = async () => {
      tries += 1;
      try {
        const result = await publicFetch(signedPdfPath(token), { method: "HEAD", signal: controller.signal });
        if (result.ok) return setState("ready");
        if (result.status === 410) return invalid.current();
      } catch {
        return; // aborted: the page went away
      }
      if (tries >= SIGNED_PDF_POLL_TRIES) return setState("late");
      timer = setTimeout(() => void check(), SIGNED_PDF_POLL_MS);
    };
    timer = setTimeout(() => void check(), round === 0 ? SIGNED_PDF_POLL_MS : 0);
    return () => {
      controller.abort();
      if (timer) clearTimeout(timer);
    };
  }, [token, enabled, initiallyReady, round]);

  /** After "late": ask again (another round of polling, starting now). */
  const retry = useCallback(() => setRound((n) => n + 1), []);
  return { state, retry };
}
