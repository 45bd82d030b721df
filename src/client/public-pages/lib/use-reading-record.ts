import { type RefObject, useEffect, useRef } from "react";
import { type ReadingBatchOut, ReadingClock } from "./reading-clock";

/** A batch every 15 s while reading (decision 052); also when the page is hidden or left. */
const BATCH_EVERY_MS = 15_000;

export interface ReadingRecorder {
  jump(): void;
  heardAloud(id: string): void;
  largeText(on: boolean): void;
  /** The last batch, sent with the signature. */
  takeFinal(): ReadingBatchOut | null;
  /** Signed: nothing more is sent (the server would refuse it). */
  stop(): void;
}

/**
 * The reading record on the signing page (decision 052): each `[data-section-id]` inside
 * `container` is watched by an IntersectionObserver, the page's foreground by the Page Visibility
 * API; time is counted by ReadingClock. Batches go with fetch keepalive (they survive the page
 * closing); a failed one is not retried — the record is the device's word and never blocks signing.
 */
export function useReadingRecord(
  token: string,
  container: RefObject<HTMLElement | null>,
  enabled: boolean,
): ReadingRecorder {
  const clock = useRef<ReadingClock | null>(null);
  const done = useRef(false);
  const path = `/api/public/sign/${encodeURIComponent(token)}/reading`;

  useEffect(() => {
    const root = container.current;
    if (!enabled || !root || typeof IntersectionObserver === "undefined") return;
    done.current = false;
    const now = () => performance.now();
    const c = new ReadingClock(now(), document.visibilityState === "visible");
    clock.current = c;
    const send = () => {
      if (done.current) return;
      const batch = c.take(now());
      if (!batch) return;
      void fetch(path, {
        method: "POST",
        keepalive: true,
        headers: { "content-type": "application/json", accept: "application/json" },
        body: JSON.stringify(batch),
      }).catch(() => undefined);
    };
    const observer = new IntersectionObserver(
      (entries) => {
        for (const entry of entries) {
          const id = (entry.target as HTMLElement).dataset.sectionId;
          if (id) c.setVisible(id, entry.isIntersecting, now());
        }
      },
      { threshold: 0.15 },
    );
    root.querySelectorAll<HTMLElement>("[data-section-id]").forEach((node) => observer.observe(node));
    const onVisibility = () => {
      const visible = document.visibilityState === "visible";
      c.setForeground(visible, now());
      if (!visible) send();
    };
    const onPageHide = () => {
      c.setForeground(false, now());
      send();
    };
    document.addEventListener("visibilitychange", onVisibility);
    window.addEventListener("pagehide", onPageHide);
    const timer = window.setInterval(send, BATCH_EVERY_MS);
    return () => {
      window.clearInterval(timer);
      observer.disconnect();
      document.removeEventListener("visibilitychange", onVisibility);
      window.removeEventListener("pagehide", onPageHide);
      send();
      clock.current = null;
    };
  }, [container, enabled, path]);

  return {
    jump: () => clock.current?.jump(),
    heardAloud: (id) => clock.current?.heardAloud(id),
    largeText: (on) => clock.current?.largeText(on),
    takeFinal: () => clock.current?.take(performance.now()) ?? null,
    stop: () => {
      done.current = true;
    },
  };
}
