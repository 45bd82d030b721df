/**
 * Admission control for one process (decision 040): at most `maxInFlight` requests do their work at
 * once; the next `maxWaiting` wait their turn in arrival order for at most `maxWaitMs` (steps of
 * something begun first, and up to `maxWaiting` of them besides, decision 044); anyone past that is
 * turned away at once, so the caller can answer "busy, try again" while the work admitted
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

/** Bounds of the wait given to a request turned away (see `comeBackInMs`). */
export const COME_BACK_MIN_MS = 1000;
export const COME_BACK_MAX_MS = 60_000;
/** The service time assumed before any request has been measured. */
const INITIAL_SERVICE_MS = 50;
/** Weight of the newest request in the service time's moving average. */
const SERVICE_EWMA_WEIGHT = 0.1;

/** Gives the place back; safe to call more than once. */
export type Release = () => void;

/**
 * `continuing`: a step of something already begun (a patient who opened the link asks for the code,
 * verifies it, signs). Those are served before anyone `new` waiting, and may wait when only newcomers
 * would be turned away: under a burst, the patients already in finish, and the "aguarde" falls on
 * opening the link, not on the signature just drawn.
 */
export type AdmissionKind = "new" | "continuing";

export interface AdmissionGate {
  /**
   * A place (its release) once admitted, or null when turned away: the queue is full, the wait ran
   * out, or `signal` aborted while waiting (a client that left takes no place).
   */
  enter(signal?: AbortSignal, kind?: AdmissionKind): Promise<Release | null>;
  /** Requests admitted and not yet released. */
  readonly inFlight: number;
  /** Requests waiting for a place. */
  readonly waiting: number;
  /** Whether `enter()` would turn a `new` request away right now without waiting (every place and the queue taken). */
  readonly full: boolean;
  /** Whether `enter()` would turn a request of this kind away right now without waiting. */
  turnsAway(kind: AdmissionKind): boolean;
  /**
   * For a request turned away now: in how many ms to come back. Each one turned away is given the
   * next free turn of a schedule kept at the pace the gate serves (places ÷ the moving average of
   * a request's time in its place), so a thousand turned away together come back spread over the
   * time it takes to serve them, not all at once and not over and over. Between COME_BACK_MIN_MS and
   * COME_BACK_MAX_MS.
   */
  comeBackInMs(): number;
  /** The moving average of a request's time in its place (ms). */
  readonly serviceMs: number;
}

interface Waiter {
  admit(release: Release): void;
  turnAway(): void;
}

export function createAdmissionGate(
  limits: AdmissionLimits,
  clock: () => number = () => performance.now(),
): AdmissionGate {
  let inFlight = 0;
  /** Waiting, in arrival order: `continuing` ones are admitted first. */
  const queues: Record<AdmissionKind, Waiter[]> = { continuing: [], new: [] };
  const waitingCount = () => queues.continuing.length + queues.new.length;
  let serviceMs = INITIAL_SERVICE_MS;
  /** The next turn not yet given to a request turned away (on `clock`'s scale). */
  let nextTurnAt = 0;

  const isFull = (kind: AdmissionKind) => {
    if (limits.maxInFlight <= 0) return false;
    if (inFlight < limits.maxInFlight && waitingCount() === 0) return false;
    if (limits.maxWaitMs <= 0) return true;
    // A newcomer counts everyone waiting; a step of something begun counts only its own kind.
    return (kind === "continuing" ? queues.continuing.length : waitingCount()) >= limits.maxWaiting;
  };

  const place = (): Release => {
    inFlight += 1;
    const admittedAt = clock();
    let released = false;
    return () => {
      if (released) return;
      released = true;
      inFlight -= 1;
      serviceMs += SERVICE_EWMA_WEIGHT * (clock() - admittedAt - serviceMs);
      // The freed place goes to the longest waiting step of something begun, else newcomer, if any.
      const next = queues.continuing.shift() ?? queues.new.shift();
      if (next) next.admit(place());
    };
  };

  return {
    get inFlight() {
      return inFlight;
    },
    get waiting() {
      return waitingCount();
    },
    get full() {
      return isFull("new");
    },
    turnsAway(kind) {
      return isFull(kind);
    },
    get serviceMs() {
      return serviceMs;
    },
    comeBackInMs() {
      const now = clock();
      const pace = serviceMs / Math.max(1, limits.maxInFlight);
      const turn = Math.min(now + COME_BACK_MAX_MS, Math.max(now + COME_BACK_MIN_MS, nextTurnAt));
      nextTurnAt = turn + pace;
      return Math.round(turn - now);
    },
    enter(signal, kind = "new") {
      if (limits.maxInFlight <= 0) return Promise.resolve(() => undefined);
      if (signal?.aborted) return Promise.resolve(null);
      if (inFlight < limits.maxInFlight && waitingCount() === 0) return Promise.resolve(place());
      if (isFull(kind)) return Promise.resolve(null);
      const queue = queues[kind];
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
