import { describe, expect, it } from "vitest";
import { LOGO_MAX_BYTES, LOGO_MESSAGES, clinicLogoUrl, logoFileProblem } from "./clinic-logo.js";

describe("logoFileProblem", () => {
  it("accepts PNG, JPEG and SVG up to 1 MB", () => {
    expect(logoFileProblem({ size: 10, type: "image/png", name: "a.png" })).toBeNull();
    expect(logoFileProblem({ size: LOGO_MAX_BYTES, type: "image/jpeg", name: "a.jpg" })).toBeNull();
    expect(logoFileProblem({ size: 10, type: "image/svg+xml", name: "a.svg" })).toBeNull();
    expect(logoFileProblem({ size: 10, type: "", name: "LOGO.JPEG" })).toBeNull();
  });
  it("refuses a file over 1 MB and other formats, in Portuguese", () => {
    expect(logoFileProblem({ size: LOGO_MAX_BYTES + 1, type: "image/png", name: "a.png" })).toBe(
      LOGO_MESSAGES.tooLarge,
    );
    expect(logoFileProblem({ size: 10, type: "image/gif", name: "a.gif" })).toBe(LOGO_MESSAGES.unsupported);
    expect(logoFileProblem({ size: 10, type: "application/pdf", name: "a.png" })).toBe(LOGO_MESSAGES.unsupported);
  });
});

describe("clinicLogoUrl", () => {
  it("is content-addressed under the public API", () => {
    expect(clinicLogoUrl("ab".repeat(32))).toBe(`/api/public/clinic-logos/${"ab".repeat(32)}.png`);
  });
});
