import { describe, expect, it } from "vitest";
import { TEMPLATE_TAGS, templateDefaultsSchema } from "@shared/schemas/template";
import { countItems, DEFAULT_FIELDS, tagText } from "./default-fields";

describe("DEFAULT_FIELDS", () => {
  it("has one field per template tag, in the tags' order", () => {
    expect(DEFAULT_FIELDS.map((f) => f.tag)).toEqual([...TEMPLATE_TAGS]);
  });

  it("names exactly the fields of the API's defaults", () => {
    expect(DEFAULT_FIELDS.map((f) => f.name).sort()).toEqual(Object.keys(templateDefaultsSchema.shape).sort());
  });

  it("uses textareas for the three lists and an input for the value", () => {
    expect(DEFAULT_FIELDS.filter((f) => f.multiline).map((f) => f.tag)).toEqual([
      "riscos",
      "beneficios",
      "cuidados_pos",
    ]);
  });
});

describe("tagText and countItems", () => {
  it("writes a tag between double braces", () => {
    expect(tagText("cuidados_pos")).toBe("{{cuidados_pos}}");
  });

  it("counts non-blank lines, whatever the line ending", () => {
    expect(countItems("Hematoma\n\n  \r\nInfecção\r\nCicatriz\rEdema")).toBe(4);
    expect(countItems("")).toBe(0);
    expect(countItems(null)).toBe(0);
  });
});
