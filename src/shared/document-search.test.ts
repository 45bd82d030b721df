import { describe, expect, it } from "vitest";
import { documentSearchParts, parseDocumentSearch, uuidPrefixRange } from "./document-search.js";
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

describe("documentSearchParts", () => {
  it("a name: anywhere in a patient's name, or what follows each space at its start", () => {
    expect(documentSearchParts("maria silva")).toEqual({ names: ["%maria silva%", "silva%"], idPrefix: null });
    expect(documentSearchParts("toxina maria da silva")?.names).toEqual([
      "%toxina maria da silva%",
      "maria da silva%",
      "da silva%",
      "silva%",
    ]);
    expect(documentSearchParts("oliveira")).toEqual({ names: ["%oliveira%"], idPrefix: null });
    expect(documentSearchParts(" silva")).toEqual({ names: ["% silva%", "silva%"], idPrefix: null });
  });

  it("a last word that could begin an id (hex digits and dashes) after a space: the id's start too", () => {
    expect(documentSearchParts("termo 1234")).toEqual({ names: ["%termo 1234%", "1234%"], idPrefix: "1234" });
    expect(documentSearchParts("ana c")).toEqual({ names: ["%ana c%", "c%"], idPrefix: "c" });
    expect(documentSearchParts("silva 4d5e-8f90")?.idPrefix).toBe("4d5e-8f90");
    expect(documentSearchParts("cafe 1234x")?.idPrefix).toBeNull();
  });

  it("one word that could sit anywhere in an id, a trailing space, LIKE wildcards: the trigram index on busca", () => {
    expect(documentSearchParts("5aa51af9")).toBeNull();
    expect(documentSearchParts("cafe")).toBeNull();
    expect(documentSearchParts("silva ")).toBeNull();
    expect(documentSearchParts("100\\% silva")).toBeNull();
    expect(documentSearchParts("maria\\_silva")).toBeNull();
  });
});

describe("uuidPrefixRange", () => {
  it("the uuids whose text starts with the prefix", () => {
    expect(uuidPrefixRange("1234")).toEqual([
      "12340000-0000-0000-0000-000000000000",
      "1234ffff-ffff-ffff-ffff-ffffffffffff",
    ]);
    expect(uuidPrefixRange("3f0c2a9e-1b")).toEqual([
      "3f0c2a9e-1b00-0000-0000-000000000000",
      "3f0c2a9e-1bff-ffff-ffff-ffffffffffff",
    ]);
    expect(uuidPrefixRange("")).toEqual([
      "00000000-0000-0000-0000-000000000000",
      "ffffffff-ffff-ffff-ffff-ffffffffffff",
    ]);
  });

  it("none when no uuid's text can start so", () => {
    expect(uuidPrefixRange("12-4")).toBeNull();
    expect(uuidPrefixRange("3f0c2a9e1")).toBeNull();
    expect(uuidPrefixRange(`${"3f0c2a9e-1b2c-4d5e-8f90-12345aa51af9"}0`)).toBeNull();
  });
});
