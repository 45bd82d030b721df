/**
 * Admission control for one process (decision 040): at most `maxInFlight` requests do their work at
 * once; the next `maxWaiting` wait their turn in arrival order for at most `maxWaitMs`; anyone past
 * that is turned away at once, so the caller can answer "busy, try again" while the work admitted
 * still finishes in time. Turning away costs nothing: a refused request has done no work yet.
 */
export interface AdmissionLimits {
  /** Requests doing their work at once (0: no gate, everyone is admitted). */
  maxInFlight: number;
  /** Requests waiting for a place; past this they are turned away without waiting. */
  maxWaiting: number;
  /** The longest a request waits for a place before it is turned away. */
  maxWaitMs: number;
}

/** Gives the place back; safe to call more than once. */
export type Release = () => void;

export interface AdmissionGate {
  /**
   * A place (its release) once admitted, or null when turned away: the queue is full, the wait ran
   * out, or `signal` aborted while waiting (a client that left takes no place).
   */
  enter(signal?: AbortSignal): Promise<Release | null>;
  /** Requests admitted and not yet released. */
  readonly inFlight: number;
  /** Requests waiting for a place. */
  readonly waiting: number;
  /** Whether `enter()` would turn a request away right now without waiting (every place and the queue taken). */
  readonly full: boolean;
}

interface Waiter {
  admit(release: Release): void;
  turnAway(): void;
}

export function createAdmissionGate(limits: AdmissionLimits): AdmissionGate {
  let inFlight = 0;
  const queue: Waiter[] = [];

  const isFull = () => {
    if (limits.maxInFlight <= 0) return false;
    if (inFlight < limits.maxInFlight && queue.length === 0) return false;
    return queue.length >= limits.maxWaiting || limits.maxWaitMs <= 0;
  };

  const place = (): Release => {
    inFlight += 1;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      inFlight -= 1;
      // The freed place goes to the longest waiting request, if any.
      const next = queue.shift();
      if (next) next.admit(place());
    };
  };

  return {
    get inFlight() {
      return inFlight;
    },
    get waiting() {
      return queue.length;
    },
    get full() {
      return isFull();
    },
    enter(signal) {
      if (limits.maxInFlight <= 0) return Promise.resolve(() => undefined);
      if (signal?.aborted) return Promise.resolve(null);
      if (inFlight < limits.maxInFlight && queue.length === 0) return Promise.resolve(place());
      if (isFull()) return Promise.resolve(null);
      return new Promise<Release | null>((resolve) => {
        const leave = () => {
          clearTimeout(timer);
          signal?.removeEventListener("abort", onAbort);
          const index = queue.indexOf(waiter);
          if (index >= 0) queue.splice(index, 1);
        };
        const waiter: Waiter = {
          admit(release) {
            leave();
            resolve(release);
          },
          turnAway() {
            leave();
            resolve(null);
          },
        };
        const onAbort = () => waiter.turnAway();
        const timer = setTimeout(onAbort, limits.maxWaitMs);
        signal?.addEventListener("abort", onAbort, { once: true });
        queue.push(waiter);
      });
    },
  };
}
