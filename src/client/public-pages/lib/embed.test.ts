import { describe, expect, it } from "vitest";
import { embedParentOrigin } from "./embed";

const frame = (href: string, ancestors?: string[]) => {
  const parent = {} as Window;
  const location = { href, ...(ancestors ? { ancestorOrigins: Object.assign([...ancestors], {}) } : {}) };
  return { parent, location } as unknown as Pick<Window, "parent" | "location">;
};

describe("embedParentOrigin (decision 071)", () => {
  const allowed = ["https://sistema.clinica.com.br"];

  it("is the ?origem= site when the clinic allows it and the frame's parent is that site", () => {
    expect(
      embedParentOrigin(
        allowed,
        frame("https://consentir.test/assinar/x?origem=https%3A%2F%2Fsistema.clinica.com.br", [
          "https://sistema.clinica.com.br",
        ]),
      ),
    ).toBe("https://sistema.clinica.com.br");
  });

  it("is null for a site the clinic does not allow, a parent that is another site, or no ?origem=", () => {
    expect(embedParentOrigin(allowed, frame("https://consentir.test/assinar/x?origem=https://outro.com"))).toBeNull();
    expect(
      embedParentOrigin(
        allowed,
        frame("https://consentir.test/assinar/x?origem=https://sistema.clinica.com.br", ["https://outro.com"]),
      ),
    ).toBeNull();
    expect(embedParentOrigin(allowed, frame("https://consentir.test/assinar/x"))).toBeNull();
  });

  it("is null outside a frame", () => {
    const win = { location: { href: "https://consentir.test/assinar/x?origem=https://sistema.clinica.com.br" } };
    const self = Object.assign(win, { parent: win });
    expect(embedParentOrigin(allowed, self as unknown as Pick<Window, "parent" | "location">)).toBeNull();
  });
});
