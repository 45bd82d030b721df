import { describe, expect, it } from "vitest";
import { optionalConsentLines } from "./optional-consent-lines.js";

const model = { optional_consents: [{ id: "imagem-prontuario" }, { id: "contato-pesquisas" }] };
const patient = (consentimentos_opcionais: unknown) => ({ nome: "Ana", papel: "paciente", consentimentos_opcionais });
const answers = [
  { id: "imagem-prontuario", titulo: "Uso de imagem no prontuário", aceito: true },
  { id: "contato-pesquisas", titulo: "Contato para pesquisas", aceito: false },
];

describe("optionalConsentLines (decision 057)", () => {
  it("checks the answers against the frozen model's items and lists each answer", () => {
    expect(optionalConsentLines(model, [{ nome: "Dra. Bia", papel: "profissional" }, patient(answers)])).toEqual([
      { ok: true, text: "Ana respondeu a cada um dos 2 consentimentos opcionais do conteúdo congelado." },
      { ok: null, text: "Consentimento opcional “Uso de imagem no prontuário”: Sim." },
      { ok: null, text: "Consentimento opcional “Contato para pesquisas”: Não." },
    ]);
  });

  it("fails when an answer is missing, foreign or out of the model's order, or when items went unanswered", () => {
    for (const given of [answers.slice(0, 1), [answers[1], answers[0]], [{ ...answers[0]!, id: "outro" }, answers[1]]])
      expect(optionalConsentLines(model, [patient(given)])[0]!.ok).toBe(false);
    expect(optionalConsentLines(model, [patient(undefined)])).toEqual([
      {
        ok: false,
        text: "As respostas de Ana aos consentimentos opcionais não correspondem aos itens do conteúdo congelado.",
      },
    ]);
  });

  it("says nothing for a document without items, nor for a witness", () => {
    expect(optionalConsentLines({}, [patient(undefined)])).toEqual([]);
    expect(optionalConsentLines(model, [{ nome: "T", papel: "testemunha" }])).toEqual([]);
  });
});
