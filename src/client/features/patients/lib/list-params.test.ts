import { describe, expect, it } from "vitest";
import {
  countActiveFilters,
  isDateRangeInverted,
  patientListQueryString,
  readListState,
  writeListState,
} from "./list-params";

describe("readListState / writeListState", () => {
  it("round-trips the search and the filters", () => {
    const params = writeListState(" maria ", { sexo: "feminino", criado_de: "2025-01-01", menores: "sim" });
    expect(params.toString()).toBe("q=maria&sexo=feminino&criado_de=2025-01-01&menores=sim");
    expect(readListState(params)).toEqual({
      q: "maria",
      filters: { sexo: "feminino", criado_de: "2025-01-01", menores: "sim" },
    });
  });

  it("ignores malformed values from the address bar", () => {
    expect(
      readListState(new URLSearchParams("sexo=x&criado_de=01/02/2025&criado_ate=2025-02-31x&menores=talvez")),
    ).toEqual({
      q: "",
      filters: {},
    });
  });

  it("writes nothing for an empty state", () => {
    expect(writeListState("  ", {}).toString()).toBe("");
  });
});

describe("countActiveFilters", () => {
  it("counts each filter that is set", () => {
    expect(countActiveFilters({})).toBe(0);
    expect(countActiveFilters({ sexo: "masculino" })).toBe(1);
    expect(
      countActiveFilters({ sexo: "outro", criado_de: "2025-01-01", criado_ate: "2025-02-01", menores: "nao" }),
    ).toBe(4);
    expect(countActiveFilters({ documentos: "sem" })).toBe(1);
    expect(readListState(new URLSearchParams("documentos=com")).filters).toEqual({ documentos: "com" });
    expect(readListState(new URLSearchParams("documentos=talvez")).filters).toEqual({});
    expect(writeListState("", { documentos: "sem" }).toString()).toBe("documentos=sem");
  });
});

describe("isDateRangeInverted", () => {
  it("spots a start after the end", () => {
    expect(isDateRangeInverted({ criado_de: "2025-02-01", criado_ate: "2025-01-01" })).toBe(true);
    expect(isDateRangeInverted({ criado_de: "2025-01-01", criado_ate: "2025-01-01" })).toBe(false);
    expect(isDateRangeInverted({ criado_de: "2025-01-01" })).toBe(false);
  });
});

describe("patientListQueryString", () => {
  it("leaves blanks out and keeps the cursor", () => {
    expect(patientListQueryString({ q: "", sexo: "feminino", cursor: "abc==", limit: 20 })).toBe(
      "sexo=feminino&cursor=abc%3D%3D&limit=20",
    );
    expect(patientListQueryString({ q: "123.456" })).toBe("q=123.456");
    expect(patientListQueryString({})).toBe("");
  });
});
