/** Bytes arriving in pieces, taken from the front without copying everything on each arrival. */
export class ByteQueue {
  private pieces: Buffer[] = [];
  private total = 0;

  get length(): number {
    return this.total;
  }

  push(piece: Buffer): void {
    if (piece.length === 0) return;
    this.pieces.push(piece);
    this.total += piece.length;
  }

  /** The first n bytes without removing them (n ≤ length). */
  peek(n: number): Buffer {
    const first = this.pieces[0];
    if (first && first.length >= n) return first.subarray(0, n);
    this.pieces = [Buffer.concat(this.pieces)];
    return (this.pieces[0] as Buffer).subarray(0, n);
  }

  /** Removes and returns the first n bytes (n ≤ length). */
  take(n: number): Buffer {
    const head = this.peek(n);
    const first = this.pieces[0] as Buffer;
    if (first.length === n) this.pieces.shift();
    else this.pieces[0] = first.subarray(n);
    this.total -= n;
    return head;
  }
}
