import { describe, expect, it } from "vitest";
import { parseDocumentSearch, patientNamePatterns } from "./document-search.js";
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

describe("patientNamePatterns", () => {
  it("a name: anywhere in a patient's name, or what follows each space at its start", () => {
    expect(patientNamePatterns("maria silva")).toEqual(["%maria silva%", "silva%"]);
    expect(patientNamePatterns("toxina maria da silva")).toEqual(["%toxina maria da silva%", "maria da silva%", "da silva%", "silva%"]);
    expect(patientNamePatterns("oliveira")).toEqual(["%oliveira%"]);
  });

  it("a space at either end crosses into a name, or reaches the id", () => {
    expect(patientNamePatterns(" silva")).toEqual(["% silva%", "silva%"]);
    expect(patientNamePatterns("silva ")).toBeNull();
  });

  it("a last word that could be part of an id (hex digits and dashes) is left to the trigram index", () => {
    expect(patientNamePatterns("termo 1234")).toBeNull();
    expect(patientNamePatterns("ana c")).toBeNull();
    expect(patientNamePatterns("5aa51af9")).toBeNull();
    expect(patientNamePatterns("maria 4d5e-8f90")).toBeNull();
    expect(patientNamePatterns("cafe")).toBeNull();
    expect(patientNamePatterns("cafe 1234x")).toEqual(["%cafe 1234x%", "1234x%"]);
  });

  it("LIKE wildcards and escapes are left to the trigram index", () => {
    expect(patientNamePatterns("100\\% silva")).toBeNull();
    expect(patientNamePatterns("maria\\_silva")).toBeNull();
  });
});
