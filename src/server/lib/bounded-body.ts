/**
 * Reads a response body up to `maxBytes` (an answer from an address a certificate names is a
 * stranger's, decision 049): the declared length is checked first, then each chunk as it comes.
 */
export type BoundedBody = { ok: true; bytes: Buffer } | { ok: false; why: "too-large" | "incomplete" };

export async function readBoundedBody(response: Response, maxBytes: number): Promise<BoundedBody> {
  if (!response.body) return { ok: true, bytes: Buffer.alloc(0) };
  const declared = Number(response.headers.get("content-length") ?? "0");
  if (declared > maxBytes) {
    await response.body.cancel().catch(() => undefined);
    return { ok: false, why: "too-large" };
  }
  const chunks: Buffer[] = [];
  let size = 0;
  const reader = response.body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes) {
        await reader.cancel().catch(() => undefined);
        return { ok: false, why: "too-large" };
      }
      chunks.push(Buffer.from(value));
    }
  } catch {
    return { ok: false, why: "incomplete" };
  }
  return { ok: true, bytes: Buffer.concat(chunks) };
}
