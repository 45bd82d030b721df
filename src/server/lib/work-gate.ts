/**
 * At most `running` jobs of one kind at once in this process, and at most `waiting` more queued
 * (decision 049): heavy native work (an SVG drawn by librsvg) must not take every thread that the
 * other clinics' requests (password hashing, compression) share. Past that, {@link GateFull}.
 */
export class GateFull extends Error {
  constructor() {
    super("gate full");
    this.name = "GateFull";
  }
}

export interface WorkGate {
  run<T>(work: () => Promise<T>): Promise<T>;
  readonly active: number;
  readonly queued: number;
}

export function createWorkGate(limits: { running: number; waiting: number }): WorkGate {
  let active = 0;
  const queue: (() => void)[] = [];
  const release = () => {
    active -= 1;
    const next = queue.shift();
    if (next) {
      active += 1;
      next();
    }
  };
  return {
    get active() {
      return active;
    },
    get queued() {
      return queue.length;
    },
    async run<T>(work: () => Promise<T>): Promise<T> {
      if (active >= limits.running) {
        if (queue.length >= limits.waiting) throw new GateFull();
        await new Promise<void>((resolve) => queue.push(resolve));
      } else active += 1;
      try {
        return await work();
      } finally {
        release();
      }
    },
  };
}
