import { describe, expect, it } from "vitest";
import { parseDocumentSearch } from "./document-search.js";
import { shortDocumentId } from "./schemas/document-basics.js";

describe("parseDocumentSearch", () => {
  it("reads the short id as the list shows it", () => {
    const id = "3f0c2a9e-1b2c-4d5e-8f90-12345aa51af9";
    expect(shortDocumentId(id)).toBe("#5aa51af9");
    expect(parseDocumentSearch(shortDocumentId(id))).toEqual({ kind: "short-id", prefix: "5aa51af9" });
  });

  it("accepts upper case, spaces and the first characters only", () => {
    expect(parseDocumentSearch("  #5AA51AF9 ")).toEqual({ kind: "short-id", prefix: "5aa51af9" });
    expect(parseDocumentSearch("# 5aa5")).toEqual({ kind: "short-id", prefix: "5aa5" });
  });

  it("searches text without '#', and drops a '#' before a word", () => {
    expect(parseDocumentSearch("5aa51af9")).toEqual({ kind: "text", term: "5aa51af9" });
    expect(parseDocumentSearch("#Ana Souza")).toEqual({ kind: "text", term: "Ana Souza" });
    expect(parseDocumentSearch("#5aa51af9x")).toEqual({ kind: "text", term: "5aa51af9x" });
  });

  it("ignores an empty search", () => {
    expect(parseDocumentSearch("  ")).toBeNull();
    expect(parseDocumentSearch("#")).toBeNull();
  });
});
