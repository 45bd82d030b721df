import { describe, expect, it } from "vitest";
import { choiceRecordLines, readChoiceRecord } from "./choice-record-lines.js";
import { sha256Hex as sha } from "./sha256.js";

const original = new TextEncoder().encode("%PDF original");
const content = "a".repeat(64);
const revocation = {
  registro: {
    tipo: "revogacao",
    origem: "paciente",
    meio: "link",
    nome: "Ana Souza",
    otp_verificado: true,
    ocorrido_em: "2026-12-01T13:00:00.000Z",
    codigo_verificacao: "ABC123DEF4",
    conteudo_sha256: content,
    original_pdf_sha256: sha(original),
    original_codigo_verificacao: "ORIG000001",
    original_assinado_em: "2026-11-30T12:00:00.000Z",
    item: { id: "pesquisa", titulo: "Contato para pesquisas", texto: "…" },
  },
};
const model = { optional_consents: [{ id: "pesquisa", title: "Contato para pesquisas" }] };

describe("choice record lines (decision 056)", () => {
  it("reads nothing from a signed document's evidence, or from a hostile registro", () => {
    expect(readChoiceRecord({ documento: {} })).toBeNull();
    expect(readChoiceRecord({ registro: { tipo: "apagar" } })).toBeNull();
    expect(readChoiceRecord(null)).toBeNull();
    expect(readChoiceRecord({ registro: { tipo: "recusa", meio: 42 } })).toMatchObject({ tipo: "recusa", meio: null });
  });

  it("says what the record is, checks its content, item and original", () => {
    const record = readChoiceRecord(revocation)!;
    const lines = choiceRecordLines(record, {
      contentSha256: content,
      documentValue: model,
      originalSha256: sha(original),
    });
    expect(lines[0]).toEqual({
      ok: null,
      text: "Este arquivo é um Registro de revogação (código de verificação ABC123DEF4): revogação em 01/12/2026 às 10:00 (horário de Brasília), feita por Ana Souza pelo link de assinatura, com código de confirmação.",
    });
    expect(lines.filter((l) => l.ok === false)).toEqual([]);
    expect(lines.map((l) => l.text)).toContain(
      "Revoga só a autorização opcional “Contato para pesquisas”; o consentimento principal continua válido.",
    );
  });

  it("fails on another content, an item not in the frozen model, another original", () => {
    const record = readChoiceRecord(revocation)!;
    const lines = choiceRecordLines(record, {
      contentSha256: "b".repeat(64),
      documentValue: { optional_consents: [] },
      originalSha256: sha("outro"),
    });
    expect(lines.filter((l) => l.ok === false).map((l) => l.text)).toEqual([
      expect.stringContaining("O registro declara outro conteúdo"),
      "A autorização opcional revogada (pesquisa) não é um item do conteúdo congelado.",
      expect.stringContaining("NÃO é o que este registro revoga"),
    ]);
  });

  it("a staff-recorded refusal names who recorded it and how; no original to check", () => {
    const record = readChoiceRecord({
      registro: {
        tipo: "recusa",
        origem: "equipe",
        meio: "presencial",
        registrado_por: "Bia",
        conteudo_sha256: content,
      },
    })!;
    const lines = choiceRecordLines(record, { contentSha256: content, documentValue: model });
    expect(lines).toHaveLength(2);
    expect(lines[0]!.text).toContain("registrada por Bia, comunicada pessoalmente, à equipe");
  });
});
