import { describe, expect, it } from "vitest";
import {
  everyPartySigned,
  signerContacts,
  isMinorOn,
  maskCpfDeep,
  maskCpfInText,
  missingRoles,
  nameMatches,
  requiredSigner,
} from "./signing-rules.js";

describe("nameMatches (the registered name, not a part of it)", () => {
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
    expect(maskCpfInText(text, "03121201506")).toBe(
      "Eu, Ana, CPF ***.212.015-** (***.212.015-**), telefone 11 98888-7777.",
    );
    expect(maskCpfInText(text, null)).toBe(text);
  });
  it("walks a whole model", () => {
    const model = {
      title: "Termo",
      introduction: [{ kind: "text", text: "CPF 031.212.015-06" }],
      sections: [{ items: ["03121201506"] }],
      n: 3,
    };
    expect(maskCpfDeep(model, "031.212.015-06")).toEqual({
      title: "Termo",
      introduction: [{ kind: "text", text: "CPF ***.212.015-**" }],
      sections: [{ items: ["***.212.015-**"] }],
      n: 3,
    });
  });
});

describe("who signs (a minor's guardian signs as themselves)", () => {
  const base = {
    nome: "Pedro Souza",
    cpf: "03121201506",
    data_nascimento: "2012-06-15",
    responsavel_nome: "Marta Souza",
    responsavel_cpf: "52998224725",
  };
  it("is the guardian for a minor, with their own name and CPF and the capacity", () => {
    expect(requiredSigner(base, "2026-11-23")).toEqual({
      papel: "responsavel",
      nome: "Marta Souza",
      cpf: "52998224725",
      qualidade: "responsável legal de Pedro Souza",
    });
  });
  it("turns 18 on the birthday, not a day before", () => {
    expect(isMinorOn("2008-11-23", "2026-11-22")).toBe(true);
    expect(isMinorOn("2008-11-23", "2026-11-23")).toBe(false);
    expect(isMinorOn(null, "2026-11-23")).toBe(false);
  });
  it("is the patient when adult and without a guardian; the guardian when one is named even for an adult", () => {
    expect(
      requiredSigner(
        { ...base, data_nascimento: "1990-01-01", responsavel_nome: null, responsavel_cpf: null },
        "2026-11-23",
      ),
    ).toMatchObject({ papel: "paciente", nome: "Pedro Souza", qualidade: null });
    expect(requiredSigner({ ...base, data_nascimento: "1990-01-01" }, "2026-11-23").papel).toBe("responsavel");
  });
});

describe("missingRoles and everyPartySigned with witnesses (decision 021)", () => {
  it("lists the professional, the link signer, then each witness still to sign", () => {
    expect(missingRoles("paciente", true, [], 2)).toEqual(["profissional", "paciente", "testemunha", "testemunha"]);
    expect(missingRoles("paciente", true, ["profissional", "testemunha"], 2)).toEqual(["paciente", "testemunha"]);
    expect(missingRoles("responsavel", false, ["responsavel", "testemunha", "testemunha"], 2)).toEqual([]);
    expect(missingRoles("paciente", true, ["profissional"])).toEqual(["paciente"]);
  });

  it("is complete only when every required party signed, witnesses counted one by one", () => {
    expect(everyPartySigned("paciente", true, ["profissional", "paciente"])).toBe(true);
    expect(everyPartySigned("paciente", true, ["profissional", "paciente"], 1)).toBe(false);
    expect(everyPartySigned("paciente", true, ["profissional", "paciente", "testemunha"], 2)).toBe(false);
    expect(everyPartySigned("paciente", true, ["testemunha", "profissional", "paciente", "testemunha"], 2)).toBe(true);
    // The guardian signed although the patient has since come of age: the link signer signed.
    expect(everyPartySigned("paciente", false, ["responsavel"])).toBe(true);
    expect(everyPartySigned("paciente", false, ["testemunha", "testemunha"], 2)).toBe(false);
  });
});

describe("signerContacts", () => {
  const today = "2026-12-02";
  const minor = {
    nome: "Pedro Souza",
    cpf: null,
    data_nascimento: "2015-05-05",
    email: "pedro@exemplo.com.br",
    telefone: "11987650000",
    responsavel_nome: "Maria Souza",
    responsavel_cpf: "11144477735",
    responsavel_email: "maria@exemplo.com.br",
    responsavel_telefone: "11912341234",
  };

  it("sends the guardian's messages to the guardian's own contacts, never the minor's", () => {
    expect(signerContacts(minor, today)).toEqual({
      email: "maria@exemplo.com.br",
      telefone: "11912341234",
      titular: "responsavel",
    });
  });

  it("never mixes: a guardian with only a mobile gets no e-mail at the minor's address", () => {
    expect(signerContacts({ ...minor, responsavel_email: null }, today)).toEqual({
      email: null,
      telefone: "11912341234",
      titular: "responsavel",
    });
  });

  it("falls back to the patient's record when the guardian has no contact of their own", () => {
    expect(signerContacts({ ...minor, responsavel_email: null, responsavel_telefone: " " }, today)).toEqual({
      email: "pedro@exemplo.com.br",
      telefone: "11987650000",
      titular: "paciente",
    });
  });

  it("keeps an adult's own contacts even when a guardian's contacts were left on the record", () => {
    const adult = { ...minor, data_nascimento: "1990-01-01", responsavel_nome: null };
    expect(signerContacts(adult, today)).toEqual({
      email: "pedro@exemplo.com.br",
      telefone: "11987650000",
      titular: "paciente",
    });
  });
});
