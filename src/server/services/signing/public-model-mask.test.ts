import { describe, expect, it } from "vitest";
import { maskPublicDeep, maskPublicText } from "./public-model-mask.js";

describe("maskPublicText (decision 051)", () => {
  it("masks every valid CPF, formatted or not, and known CPFs even when invalid", () => {
    const text = "Paciente 529.982.247-25, responsável 52998224725, outro 111.222.333-44, número 12345678900123";
    const out = maskPublicText(text, { cpfs: ["11122233344"] });
    expect(out).toBe(
      "Paciente ***.982.247-**, responsável ***.982.247-**, outro ***.222.333-**, número 12345678900123",
    );
    expect(out).not.toContain("52998224725");
  });

  it("leaves numbers that are not CPFs alone", () => {
    expect(maskPublicText("Valor R$ 1.234,56 em 12/03/2026; protocolo 123.456.789-00", { cpfs: [] })).toBe(
      "Valor R$ 1.234,56 em 12/03/2026; protocolo 123.456.789-00",
    );
  });

  it("for a witness, masks the patient's birth date, e-mail and phone", () => {
    const text = "Nascida em 15/03/1983, e-mail maria.silva@exemplo.com.br, telefone (11) 98765-4321.";
    const out = maskPublicText(text, {
      cpfs: [],
      personal: {
        dataNascimento: "15/03/1983",
        emails: ["maria.silva@exemplo.com.br"],
        telefones: ["(11) 98765-4321"],
      },
    });
    expect(out).toBe("Nascida em **/**/****, e-mail ma***@exemplo.com.br, telefone (**) *****-4321.");
  });

  it("walks a frozen model", () => {
    const model = { title: "T", sections: [{ id: "s1", paragraphs: [[{ kind: "text", text: "CPF 52998224725" }]] }] };
    expect(JSON.stringify(maskPublicDeep(model, { cpfs: [] }))).not.toContain("52998224725");
  });
});
