import { describe, expect, it } from "vitest";
import {
  boundBatch,
  type StoredReadingBatch,
  formatOnScreen,
  keptTotals,
  readingBatchSchema,
  sectionLine,
  summarize,
} from "./reading-record.js";

const known = new Set(["s1", "s2", "s3"]);

describe("boundBatch (decision 052)", () => {
  it("drops unknown sections and caps each section's total at the wall time", () => {
    const batch = readingBatchSchema.parse({
      secoes: [
        { id: "s1", ms: 50_000 },
        { id: "zz", ms: 1_000 },
        { id: "s2", ms: 5_000 },
        { id: "s2", ms: 5_000 },
      ],
      ouvir: ["s3", "zz"],
    });
    expect(boundBatch(batch, { known, kept: { s1: 20_000 }, wallMs: 30_000 })).toEqual({
      secoes: { s1: 10_000, s2: 10_000 },
      salto: false,
      ouvir: ["s3"],
      texto_grande: false,
    });
  });

  it("keeps nothing more once a section's total reached the wall time", () => {
    const batch = readingBatchSchema.parse({ secoes: [{ id: "s1", ms: 10 }] });
    expect(boundBatch(batch, { known, kept: { s1: 30_000 }, wallMs: 30_000 }).secoes).toEqual({ s1: 0 });
    expect(boundBatch(batch, { known, kept: {}, wallMs: -5 }).secoes).toEqual({ s1: 0 });
  });

  it("the schema refuses negative, fractional and huge durations, and unknown keys", () => {
    for (const ms of [-1, 1.5, 24 * 60 * 60 * 1000 + 1, "10"]) {
      expect(readingBatchSchema.safeParse({ secoes: [{ id: "s1", ms }] }).success).toBe(false);
    }
    expect(readingBatchSchema.safeParse({ secoes: [], teclas: ["a"] }).success).toBe(false);
  });
});

describe("summarize", () => {
  it("sums batches in the model's order; a section with no time is 'não exibida'", () => {
    const sections = [
      { id: "s1", title: "Riscos" },
      { id: "s2", title: "Benefícios" },
      { id: "s3", title: "Cuidados" },
    ];
    const batches: StoredReadingBatch[] = [
      { secoes: { s1: 60_000, s2: 0 }, salto: false, ouvir: [], texto_grande: false },
      { secoes: { s1: 42_000 }, salto: true, ouvir: ["s1"], texto_grande: true },
    ];
    expect(keptTotals(batches)).toEqual({ s1: 102_000, s2: 0 });
    const summary = summarize(sections, batches);
    expect(summary).toEqual({
      secoes: [
        { id: "s1", titulo: "Riscos", ms: 102_000, exibida: true },
        { id: "s2", titulo: "Benefícios", ms: 0, exibida: false },
        { id: "s3", titulo: "Cuidados", ms: 0, exibida: false },
      ],
      salto: true,
      ouvir: ["s1"],
      texto_grande: true,
      lotes: 2,
    });
    expect(summary.secoes.map(sectionLine)).toEqual(["na tela por 1 min 42 s", "não exibida", "não exibida"]);
  });

  it("formats durations in pt-BR", () => {
    expect([400, 8_000, 60_000, 102_000, 3_720_000].map(formatOnScreen)).toEqual([
      "menos de 1 s",
      "8 s",
      "1 min",
      "1 min 42 s",
      "1 h 2 min",
    ]);
  });
});
