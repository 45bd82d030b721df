import { describe, expect, it } from "vitest";
import { maskCpfDeep, maskCpfInText, nameMatches } from "./signing-rules.js";

describe("nameMatches (issue 11: the registered name, not a part of it)", () => {
  it("accepts the registered name whatever the case, accents and spaces", () => {
    expect(nameMatches("ana luiza conceicao", "Ana Luíza Conceição")).toBe(true);
    expect(nameMatches("  ANA   LUÍZA  CONCEIÇÃO ", "Ana Luíza Conceição")).toBe(true);
  });
  it("refuses a first name, a part, another name or nothing", () => {
    expect(nameMatches("Ana", "Ana Luíza Conceição")).toBe(false);
    expect(nameMatches("Ana Luíza", "Ana Luíza Conceição")).toBe(false);
    expect(nameMatches("Luíza Conceição", "Ana Luíza Conceição")).toBe(false);
    expect(nameMatches("Ana Luíza Conceição Silva", "Ana Luíza Conceição")).toBe(false);
    expect(nameMatches("   ", "Ana")).toBe(false);
  });
});

describe("CPF masking on the signing page before the code", () => {
  it("masks the formatted and the bare CPF, and nothing else", () => {
    const text = "Eu, Ana, CPF 031.212.015-06 (03121201506), telefone 11 98888-7777.";
    expect(maskCpfInText(text, "03121201506")).toBe("Eu, Ana, CPF ***.212.015-** (***.212.015-**), telefone 11 98888-7777.");
    expect(maskCpfInText(text, null)).toBe(text);
  });
  it("walks a whole model", () => {
    const model = { title: "Termo", introduction: [{ kind: "text", text: "CPF 031.212.015-06" }], sections: [{ items: ["03121201506"] }], n: 3 };
    expect(maskCpfDeep(model, "031.212.015-06")).toEqual({
      title: "Termo",
      introduction: [{ kind: "text", text: "CPF ***.212.015-**" }],
      sections: [{ items: ["***.212.015-**"] }],
      n: 3,
    });
  });
});
