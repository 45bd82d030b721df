import { describe, expect, it } from "vitest";
import { patientEditLink, safeReturnPath } from "./patient-edit-link";

describe("patientEditLink", () => {
  it("points at the edit page, with the way back", () => {
    expect(patientEditLink("abc")).toBe("/patients/abc/edit");
    expect(patientEditLink("abc", "/documents/create?paciente=abc")).toBe(
      "/patients/abc/edit?voltar=%2Fdocuments%2Fcreate%3Fpaciente%3Dabc",
    );
  });
});

describe("safeReturnPath", () => {
  it("keeps paths of this app only", () => {
    expect(safeReturnPath("/documents/create?paciente=1")).toBe("/documents/create?paciente=1");
    expect(safeReturnPath("//evil.example")).toBeNull();
    expect(safeReturnPath("/\\evil.example")).toBeNull();
    expect(safeReturnPath("https://evil.example")).toBeNull();
    expect(safeReturnPath(null)).toBeNull();
  });
});
