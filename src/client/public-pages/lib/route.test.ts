import { describe, expect, it } from "vitest";
import { matchPublicRoute } from "./route";

describe("matchPublicRoute", () => {
  it("reads the token and the code", () => {
    expect(matchPublicRoute("/assinar/abc_DEF-123")).toEqual({ page: "sign", param: "abc_DEF-123" });
    expect(matchPublicRoute("/verificar/X7K2-9QPA/")).toEqual({ page: "verify", param: "X7K2-9QPA" });
  });

  it("opens the code-less check at /verificar", () => {
    expect(matchPublicRoute("/verificar")).toEqual({ page: "verify-start" });
    expect(matchPublicRoute("/verificar/")).toEqual({ page: "verify-start" });
    expect(matchPublicRoute("/verificarx")).toBeNull();
  });

  it("refuses anything else", () => {
    expect(matchPublicRoute("/assinar")).toBeNull();
    expect(matchPublicRoute("/assinar/")).toBeNull();
    expect(matchPublicRoute("/assinar/a/b")).toBeNull();
    expect(matchPublicRoute("/documents/1")).toBeNull();
    expect(matchPublicRoute("/assinar/%E0%A4%A")).toBeNull();
  });
});
