import { describe, expect, it } from "vitest";
import { BULK_SEND_MAX_ROWS, bulkSendInputSchema, cpfsFromText } from "./bulk-send.js";

describe("cpfsFromText", () => {
  it("takes one CPF a line from pasted text or a CSV, skipping headers and blank lines", () => {
    const csv =
      'nome;cpf\n"Ana Lima";"529.982.247-25"\nBruno,111.444.777-35,bruno@x.com\n\n  52998224725  \r\nsem cpf\n';
    expect(cpfsFromText(csv)).toEqual(["529.982.247-25", "111.444.777-35", "52998224725"]);
  });

  it("keeps invalid CPFs so their row can say so, but not stray short numbers", () => {
    expect(cpfsFromText("123.456.789-00\nlinha 2\n12")).toEqual(["123.456.789-00"]);
  });
});

describe("bulkSendInputSchema", () => {
  const base = { template_version_id: "6f1c2b7e-8d5a-4c3b-9e2f-1a2b3c4d5e6f", titulo: "TCLE", email: true };
  it("takes rows by patient id or CPF, up to the bound", () => {
    const rows = Array.from({ length: BULK_SEND_MAX_ROWS }, () => ({ cpf: "x" }));
    expect(bulkSendInputSchema.safeParse({ ...base, linhas: rows }).success).toBe(true);
    const over = bulkSendInputSchema.safeParse({ ...base, linhas: [...rows, { cpf: "x" }] });
    expect(over.success).toBe(false);
    expect(over.error?.issues[0]?.message).toBe(`Envie no máximo ${BULK_SEND_MAX_ROWS} pacientes por lote`);
  });

  it("refuses a row with both or neither", () => {
    for (const row of [{}, { cpf: "1", paciente_id: base.template_version_id }, { nome: "Ana" }]) {
      expect(bulkSendInputSchema.safeParse({ ...base, linhas: [row] }).success).toBe(false);
    }
  });
});
