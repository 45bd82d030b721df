/**
 * Byte helpers without Node's Buffer, so the PDF readers in src/shared run in a browser (decision
 * 077) as well as in the server and the CLI (a Buffer is a Uint8Array: it passes as one).
 */

/** Latin-1 text of bytes[start, end): one character per byte (WHATWG "latin1" is windows-1252, not this). */
export function latin1(bytes: Uint8Array, start = 0, end = bytes.length): string {
  const from = Math.max(0, Math.min(start, bytes.length));
  const to = Math.max(from, Math.min(end, bytes.length));
  let out = "";
  for (let at = from; at < to; at += 8192)
    out += String.fromCharCode.apply(null, bytes.subarray(at, Math.min(to, at + 8192)) as unknown as number[]);
  return out;
}

/** Bytes of a hex string (an odd last digit is dropped, as Buffer.from(hex, "hex") does; stops at a non-hex pair). */
export function fromHex(hex: string): Uint8Array {
  const out = new Uint8Array(hex.length >> 1);
  for (let i = 0; i < out.length; i++) {
    const byte = parseInt(hex.substr(i * 2, 2), 16);
    if (Number.isNaN(byte)) return out.subarray(0, i);
    out[i] = byte;
  }
  return out;
}

export function toHex(bytes: Uint8Array): string {
  let out = "";
  for (const byte of bytes) out += byte.toString(16).padStart(2, "0");
  return out;
}

export function concatBytes(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

export function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** UTF-8 text (invalid sequences replaced, as Buffer#toString("utf8") does). */
export const utf8 = (bytes: Uint8Array): string => new TextDecoder().decode(bytes);
