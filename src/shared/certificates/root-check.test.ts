import { describe, expect, it } from "vitest";
import { certificateRoot, rootCheckLine, rootCheckWarning } from "./root-check";

describe("certificate root check (decision 047)", () => {
  it("names the official root the chain ends at", () => {
    const root = certificateRoot("AC Raiz Brasileira v10", true);
    expect(root).toEqual({ conferencia: "raiz_oficial", nome: "AC Raiz Brasileira v10" });
    expect(rootCheckLine(root)).toBe("Conferida até a raiz oficial da ICP-Brasil “AC Raiz Brasileira v10”");
    expect(rootCheckWarning(root, true)).toBeNull();
  });

  it("tells another root from roots never given to the server", () => {
    const other = certificateRoot(null, true);
    const unknown = certificateRoot(null, false);
    expect(other.conferencia).toBe("outra_raiz");
    expect(unknown.conferencia).toBe("nao_conferida");
    expect(rootCheckLine(other)).toMatch(/Não termina numa raiz oficial/);
    expect(rootCheckLine(unknown)).toMatch(/não recebeu as raízes oficiais/);
    expect(rootCheckWarning(other, true)).toMatch(/não termina numa das raízes oficiais/);
    // Roots never given are the server's setting, said on the card, not a warning to the clinic.
    expect(rootCheckWarning(unknown, true)).toBeNull();
  });

  it("warns about the root only for a certificate that claims ICP-Brasil", () => {
    expect(rootCheckWarning(certificateRoot(null, true), false)).toBeNull();
    expect(rootCheckWarning(certificateRoot(null, false), false)).toBeNull();
  });
});
