import { describe, expect, it } from "vitest";
import { readTrustList } from "./trust-list.js";

describe("readTrustList", () => {
  it("reads the JSON of /api/public/seal-certificates", () => {
    const list = readTrustList(
      JSON.stringify({ certificados: [{ assunto: "CN=Selo", sha256: "ab".repeat(32) }, { assunto: "sem sha" }] }),
      "x.json",
    );
    expect(list).toEqual([{ sha256: "ab".repeat(32), label: "CN=Selo (lista x.json)" }]);
  });
  it("reads one fingerprint per line, ignoring blanks and # comments", () => {
    const list = readTrustList("# selos\nAB:CD\n\n  ef01 # clínica\n", "l.txt");
    expect(list.map((c) => c.sha256)).toEqual(["AB:CD", "ef01"]);
  });
  it("throws on broken JSON (the CLI turns it into a usage error)", () => {
    expect(() => readTrustList("{nope", "x")).toThrow();
  });
});
