import { describe, expect, it } from "vitest";
import {
  countActiveFilters,
  documentListQueryString,
  readDocumentListState,
  toApiQuery,
  writeDocumentListState,
} from "./list-params";

const PATIENT = "3f2b8c1e-4d5a-4b6c-8d7e-9f0a1b2c3d4e";

describe("documents list state in the address bar", () => {
  it("reads the filters the dashboard and the patients list link to, and drops malformed ones", () => {
    expect(readDocumentListState(new URLSearchParams(`status=expired&paciente=${PATIENT}`))).toEqual({
      q: "",
      filters: { status: "expired", paciente: PATIENT },
    });
    expect(
      readDocumentListState(new URLSearchParams("status=lost&paciente=x&de=2026-13&ate=2026-01-31&q=%20ana%20")),
    ).toEqual({
      q: "ana",
      filters: { ate: "2026-01-31" },
    });
  });

  it("writes only what is set, in a stable order, and round-trips", () => {
    const params = writeDocumentListState(" joana ", { ate: "2026-02-01", status: "sent", de: "2026-01-01" });
    expect(params.toString()).toBe("q=joana&status=sent&de=2026-01-01&ate=2026-02-01");
    expect(readDocumentListState(params)).toEqual({
      q: "joana",
      filters: { status: "sent", de: "2026-01-01", ate: "2026-02-01" },
    });
    expect(countActiveFilters({ status: "sent", de: "2026-01-01" })).toBe(2);
  });

  it("maps to the API's names and leaves blanks out", () => {
    const query = toApiQuery(
      "",
      { status: "expired", paciente: PATIENT, profissional: PATIENT, de: "2026-01-01" },
      "abc",
    );
    expect(documentListQueryString(query)).toBe(
      `status=expired&paciente_id=${PATIENT}&medico_responsavel_id=${PATIENT}&from=2026-01-01&cursor=abc`,
    );
    expect(documentListQueryString(toApiQuery("", {}, undefined))).toBe("");
  });
});
