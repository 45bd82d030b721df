/**
 * The document's own event chain (decision 014): the audit events of ONE document,
 * numbered 1..n, each linked to the previous one by its hash. It is built when the final PDF is
 * made, printed in its "Registro de assinaturas" and embedded in its evidencias.json, so anyone
 * holding the PDF can recompute it without our server (src/server/cli/verify-pdf.ts).
 *
 * hash = SHA-256 (hex) of the RFC 8785 canonical JSON of the entry without `hash` (that is, its
 * fields plus `prev_hash`); the first entry's prev_hash is 64 zeros. Pure: Node's crypto and
 * `canonicalize` only (used by the finalize job and by the verifier).
 */
import { createHash } from "node:crypto";
import canonicalize from "canonicalize";
import { checkDocumentChainWith, type DocumentChainCheck, GENESIS_HASH } from "./document-chain-check.js";

export { GENESIS_HASH };

/** One event as stored, before it is numbered and linked. */
export interface DocumentChainEvent {
  action: string;
  /** pt-BR label (src/shared/audit/labels.ts) at the time the PDF was made. */
  label: string;
  /** ISO 8601 UTC, as the database gave it (milliseconds). */
  created_at: string;
  /** Name of the staff member who acted, or null (patient, system). */
  actor: string | null;
  ip: string | null;
  user_agent: string | null;
  /** The event's `data` as stored. */
  data: unknown;
  /** Where the event sits in the clinic's own audit chain (audit_events.seq / hash). */
  cadeia_clinica: { seq: number; hash: string } | null;
}

export interface DocumentChainEntry extends DocumentChainEvent {
  seq: number;
  prev_hash: string;
  hash: string;
}

/** SHA-256 (hex) of the canonical JSON of `value`. */
export function canonicalHash(value: unknown): string {
  return createHash("sha256")
    .update(canonicalize(value) ?? "null")
    .digest("hex");
}

/** The hash an entry must carry: of every field except `hash` itself. */
export function entryHash(entry: Omit<DocumentChainEntry, "hash"> | DocumentChainEntry): string {
  const { hash: _ignored, ...fields } = entry as DocumentChainEntry;
  return canonicalHash(fields);
}

/** Numbers and links the events in the order given (created_at, then the clinic's seq). */
export function buildDocumentChain(events: readonly DocumentChainEvent[]): DocumentChainEntry[] {
  const chain: DocumentChainEntry[] = [];
  let prev = GENESIS_HASH;
  events.forEach((event, index) => {
    const unhashed = { ...event, seq: index + 1, prev_hash: prev };
    const hash = entryHash(unhashed);
    chain.push({ ...unhashed, hash });
    prev = hash;
  });
  return chain;
}

/** The last hash of a chain (the genesis hash for an empty one). */
export function chainHead(chain: readonly Pick<DocumentChainEntry, "hash">[]): string {
  return chain.length === 0 ? GENESIS_HASH : chain[chain.length - 1]!.hash;
}

export type { DocumentChainCheck } from "./document-chain-check.js";

/**
 * Recomputes a chain read from JSON: seq 1..n without gaps, each prev_hash equal to the hash of
 * the entry before it (zeros for the first), each hash equal to the hash of its fields. The check
 * itself is shared with the browser verifier (document-chain-check.ts, decision 077).
 */
export function checkDocumentChain(entries: unknown): DocumentChainCheck {
  return checkDocumentChainWith(entries, (text) => createHash("sha256").update(text).digest("hex"));
}
