/**
 * The check of a document's event chain (decision 014), with the SHA-256 given by the caller:
 * node:crypto in the server and the CLI (document-chain.ts), a synchronous one in the browser
 * verifier (decision 077). Pure: `canonicalize` only.
 */
import canonicalize from "canonicalize";
import type { DocumentChainEntry } from "./document-chain.js";

export const GENESIS_HASH = "0".repeat(64);
const HEX64 = /^[0-9a-f]{64}$/;

export interface DocumentChainCheck {
  ok: boolean;
  /** Entries read. */
  count: number;
  /** The recomputed hash of the last entry (null when an entry could not be read). */
  head: string | null;
  /** What is wrong, in pt-BR, one line each (empty when ok). */
  problems: string[];
}

/**
 * Recomputes a chain read from JSON: seq 1..n without gaps, each prev_hash equal to the hash of
 * the entry before it (zeros for the first), each hash equal to the hash of its fields.
 */
export function checkDocumentChainWith(entries: unknown, sha256Hex: (text: string) => string): DocumentChainCheck {
  if (!Array.isArray(entries))
    return { ok: false, count: 0, head: null, problems: ["a lista de eventos está ausente"] };
  const problems: string[] = [];
  let prev = GENESIS_HASH;
  entries.forEach((raw, index) => {
    const position = index + 1;
    if (!raw || typeof raw !== "object") {
      problems.push(`evento ${position}: não é um objeto`);
      return;
    }
    const entry = raw as DocumentChainEntry;
    if (entry.seq !== position)
      problems.push(
        `evento ${position}: número de sequência ${String(entry.seq)} (esperado ${position}) — falta ou sobra um evento`,
      );
    if (entry.prev_hash !== prev)
      problems.push(
        `evento ${position}: o hash anterior não é o hash do evento ${position - 1 || "inicial"} — a cadeia foi quebrada`,
      );
    const { hash: _ignored, ...fields } = entry;
    const recomputed = sha256Hex(canonicalize(fields) ?? "null");
    if (typeof entry.hash !== "string" || !HEX64.test(entry.hash) || entry.hash !== recomputed) {
      problems.push(`evento ${position}: o hash não corresponde ao conteúdo do evento — o evento foi alterado`);
    }
    prev = recomputed;
  });
  return {
    ok: problems.length === 0,
    count: entries.length,
    head: entries.length === 0 ? GENESIS_HASH : prev,
    problems,
  };
}
