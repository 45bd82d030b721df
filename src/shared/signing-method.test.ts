import { describe, expect, it } from "vitest";
import { appliedSigningMethod, signatureLevelBadge, signaturePlaceholder } from "./signing-method";

describe("appliedSigningMethod", () => {
  it("shows a professional's chosen ICP-Brasil signature only while it stands or once applied", () => {
    const professional = { metodo_assinatura: "ICP-Brasil", papel: "profissional" };
    expect(appliedSigningMethod(professional, null)).toBe("ICP-Brasil");
    expect(appliedSigningMethod(professional, true)).toBe("ICP-Brasil");
    expect(appliedSigningMethod(professional, false)).toBe("eletronica");
  });

  it("leaves every other party as recorded", () => {
    expect(appliedSigningMethod({ metodo_assinatura: "eletronica", papel: "paciente" }, false)).toBe("eletronica");
    expect(appliedSigningMethod({ metodo_assinatura: "eletronica", papel: "profissional" }, false)).toBe("eletronica");
    expect(appliedSigningMethod({ metodo_assinatura: "ICP-Brasil", papel: "testemunha" }, false)).toBe("ICP-Brasil");
  });
});

describe("signature placeholder and level badge", () => {
  it("says 'Assinatura Digital' only for a certificate signature", () => {
    expect(signaturePlaceholder({ metodo_assinatura: "ICP-Brasil", papel: "profissional" })).toBe("Assinatura Digital");
    expect(signaturePlaceholder({ metodo_assinatura: "eletronica", papel: "profissional" })).toBe(
      "Assinado no sistema com login e senha",
    );
    expect(signaturePlaceholder({ metodo_assinatura: "eletronica", papel: "paciente" })).toBe(
      "Imagem da assinatura indisponível",
    );
  });

  it("names the professional's password signature instead of a level", () => {
    expect(signatureLevelBadge({ nivel_assinatura: "avancada", tipo_assinatura: "senha" })).toBe("Login e senha");
    expect(signatureLevelBadge({ nivel_assinatura: "avancada", tipo_assinatura: "desenhada" })).toBe("Avançada");
    expect(signatureLevelBadge({ nivel_assinatura: "simples", tipo_assinatura: "digitada" })).toBe("Simples");
  });
});
