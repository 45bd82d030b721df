import { createHash } from "node:crypto";
import canonicalize from "canonicalize";
import { describe, expect, it } from "vitest";
import {
  buildDocumentChain,
  chainHead,
  checkDocumentChain,
  type DocumentChainEvent,
  GENESIS_HASH,
} from "./document-chain.js";

const event = (action: string, minute: number, data: unknown = {}): DocumentChainEvent => ({
  action,
  label: action,
  created_at: new Date(Date.UTC(2026, 2, 8, 13, minute, 0, 123)).toISOString(),
  actor: action === "document.sent" ? "Dra. Beatriz" : null,
  ip: "203.0.113.7",
  user_agent: "Mozilla/5.0",
  data,
  cadeia_clinica: { seq: 10 + minute, hash: "f".repeat(64) },
});
const events = [
  event("document.sent", 1),
  event("document.viewed", 2),
  event("document.signed", 3, { nivel: "avancada" }),
];

describe("document chain", () => {
  it("numbers the events 1..n and links each to the previous hash, the first to 64 zeros", () => {
    const chain = buildDocumentChain(events);
    expect(chain.map((e) => e.seq)).toEqual([1, 2, 3]);
    expect(chain[0]!.prev_hash).toBe(GENESIS_HASH);
    expect(chain[1]!.prev_hash).toBe(chain[0]!.hash);
    expect(chain[2]!.prev_hash).toBe(chain[1]!.hash);
    expect(chainHead(chain)).toBe(chain[2]!.hash);
    expect(chainHead([])).toBe(GENESIS_HASH);
  });

  it("hashes the canonical JSON (RFC 8785) of the entry's fields and prev_hash, whatever the key order", () => {
    const [first] = buildDocumentChain(events);
    const { hash, ...fields } = first!;
    expect(hash).toBe(createHash("sha256").update(canonicalize(fields)!).digest("hex"));
    const reordered = Object.fromEntries(Object.entries(first!).reverse());
    expect(checkDocumentChain([reordered, ...buildDocumentChain(events).slice(1)]).ok).toBe(true);
  });

  it("recomputes an intact chain read back from JSON", () => {
    const chain = JSON.parse(JSON.stringify(buildDocumentChain(events)));
    expect(checkDocumentChain(chain)).toEqual({ ok: true, count: 3, head: chain[2].hash, problems: [] });
  });

  it("detects a removed event, an altered event, a swapped order and a missing list", () => {
    const chain = buildDocumentChain(events);
    const removed = checkDocumentChain([chain[0], chain[2]]);
    expect(removed.ok).toBe(false);
    expect(removed.problems.join(" ")).toMatch(/sequência 3 \(esperado 2\)/);
    expect(removed.problems.join(" ")).toMatch(/cadeia foi quebrada/);

    const altered = structuredClone(chain);
    altered[1]!.ip = "198.51.100.1";
    const alteredCheck = checkDocumentChain(altered);
    expect(alteredCheck.ok).toBe(false);
    expect(alteredCheck.problems).toEqual([
      "evento 2: o hash não corresponde ao conteúdo do evento — o evento foi alterado",
      expect.stringMatching(/^evento 3: o hash anterior/),
    ]);

    expect(checkDocumentChain([chain[1], chain[0], chain[2]]).ok).toBe(false);
    expect(checkDocumentChain(undefined)).toMatchObject({ ok: false, count: 0 });
  });

  it("a chain rebuilt without an event has another final hash", () => {
    const full = buildDocumentChain(events);
    const rebuilt = buildDocumentChain([events[0]!, events[2]!]);
    expect(checkDocumentChain(rebuilt).ok).toBe(true);
    expect(chainHead(rebuilt)).not.toBe(chainHead(full));
  });
});
