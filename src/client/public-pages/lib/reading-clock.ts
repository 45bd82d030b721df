/**
 * Time accounting of the reading record (decision 052): a section's time counts only while it is
 * visible (IntersectionObserver) AND the page is in the foreground (Page Visibility). Pure, with
 * the clock passed in, so it is tested without a browser. No keystrokes, pointer trails or images.
 */
export interface ReadingBatchOut {
  secoes: { id: string; ms: number }[];
  salto?: boolean;
  ouvir?: string[];
  texto_grande?: boolean;
}

export class ReadingClock {
  private visible = new Set<string>();
  private foreground: boolean;
  private since: number;
  private pending = new Map<string, number>();
  private jumped = false;
  private heard = new Set<string>();
  private large = false;

  constructor(now: number, foreground = true) {
    this.since = now;
    this.foreground = foreground;
  }

  /** Adds the time since the last change to every visible section, when in the foreground. */
  private settle(now: number): void {
    const elapsed = Math.max(0, Math.floor(now - this.since));
    if (this.foreground && elapsed > 0) {
      for (const id of this.visible) this.pending.set(id, (this.pending.get(id) ?? 0) + elapsed);
    }
    this.since = Math.max(this.since, now);
  }

  setVisible(id: string, visible: boolean, now: number): void {
    this.settle(now);
    if (visible) this.visible.add(id);
    else this.visible.delete(id);
  }

  setForeground(foreground: boolean, now: number): void {
    this.settle(now);
    this.foreground = foreground;
  }

  jump(): void {
    this.jumped = true;
  }

  heardAloud(id: string): void {
    this.heard.add(id);
  }

  largeText(on: boolean): void {
    if (on) this.large = true;
  }

  /** What accumulated since the last batch (then forgotten); null when there is nothing to send. */
  take(now: number): ReadingBatchOut | null {
    this.settle(now);
    const secoes = [...this.pending].filter(([, ms]) => ms > 0).map(([id, ms]) => ({ id, ms }));
    const batch: ReadingBatchOut = {
      secoes,
      ...(this.jumped ? { salto: true } : {}),
      ...(this.heard.size > 0 ? { ouvir: [...this.heard] } : {}),
      ...(this.large ? { texto_grande: true } : {}),
    };
    this.pending.clear();
    this.heard.clear();
    this.jumped = false;
    this.large = false;
    return secoes.length > 0 || batch.salto || batch.ouvir || batch.texto_grande ? batch : null;
  }
}
