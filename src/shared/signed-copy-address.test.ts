import { describe, expect, it } from "vitest";
import { signedCopyAddress } from "./signed-copy-address.js";

describe("where a signer's sealed copy goes", () => {
  it("to the address on record, whatever was typed", () => {
    expect(signedCopyAddress("ana@exemplo.com.br", "ana@exemplo.com.br")).toEqual({
      to: "ana@exemplo.com.br",
      source: "cadastro",
      typedDiffers: false,
    });
    expect(signedCopyAddress("ana@exenplo.com.br", "ana@exemplo.com.br")).toEqual({
      to: "ana@exemplo.com.br",
      source: "cadastro",
      typedDiffers: true,
    });
  });

  it("compares without case or surrounding spaces", () => {
    expect(signedCopyAddress("  Ana@Exemplo.com.BR ", "ana@exemplo.com.br")).toEqual({
      to: "ana@exemplo.com.br",
      source: "cadastro",
      typedDiffers: false,
    });
  });

  it("to the typed address only when the clinic has none for the signer", () => {
    expect(signedCopyAddress("ana@exemplo.com.br", null)).toEqual({
      to: "ana@exemplo.com.br",
      source: "digitado",
      typedDiffers: false,
    });
    expect(signedCopyAddress("ana@exemplo.com.br", "  ")).toEqual({
      to: "ana@exemplo.com.br",
      source: "digitado",
      typedDiffers: false,
    });
  });

  it("nowhere when there is no address at all", () => {
    expect(signedCopyAddress("", null)).toBeNull();
    expect(signedCopyAddress(undefined, undefined)).toBeNull();
  });
});
