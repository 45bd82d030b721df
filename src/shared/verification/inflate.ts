/**
 * A bounded zlib inflater for the browser verifier (decision 077), with fflate: fed 1 KB at a time,
 * it stops as soon as the output passes the limit — a deflate bomb (decision 049) costs at most
 * the limit plus one chunk's worth, never the gigabytes it claims.
 */
import { Unzlib } from "fflate";
import { concatBytes } from "../pdf-reader/bytes.js";

const CHUNK = 1024;

export function boundedInflate(raw: Uint8Array, maxOutputLength: number): Uint8Array {
  const parts: Uint8Array[] = [];
  let total = 0;
  const inflater = new Unzlib((chunk) => {
    total += chunk.length;
    if (total > maxOutputLength) throw new Error("grande demais");
    parts.push(chunk);
  });
  if (raw.length === 0) throw new Error("fluxo vazio");
  for (let at = 0; at < raw.length; at += CHUNK) inflater.push(raw.subarray(at, at + CHUNK), at + CHUNK >= raw.length);
  return concatBytes(parts);
}
