/**
 * Template and document size limits (decision 012): the template schema refuses a
 * structure above any limit with a pt-BR message, document creation's check refuses a filled
 * model above the document limits, and one render at the limits stays under a second.
 */
import { describe, expect, it } from "vitest";
import { renderDocumentPdf } from "../../../src/pdf/document-pdf.js";
import { buildDocumentModel } from "../../../src/shared/document-model/build-document-model.js";
import { documentModelSize, documentSizeProblem, templateTextSize } from "../../../src/shared/document-model/size.js";
import {
  MAX_DOCUMENT_LINES,
  MAX_DOCUMENT_TEXT_CHARS,
  MAX_TEMPLATE_LINE_BREAKS,
  MAX_TEMPLATE_TEXT_CHARS,
  MAX_WORD_CHARS,
} from "../../../src/shared/reference/limits.js";
import { templateInputSchema } from "../../../src/shared/schemas/template.js";
import { documentModelAtLimit, prose, templateAtLimit } from "../../helpers/large-template.js";
import { sampleDocumentInput, sampleValues } from "./fixtures.js";

const input = (estrutura: unknown) => ({
  titulo: "TCLE",
  especialidade: "Dermatologia",
  categoria: "Consentimento",
  estrutura,
});
const messages = (result: ReturnType<typeof templateInputSchema.safeParse>) =>
  result.success ? [] : result.error.issues.map((i) => i.message);

describe("template size limits", () => {
  it("accepts a template exactly at every limit", () => {
    const template = templateAtLimit();
    expect(templateTextSize(template)).toMatchObject({
      chars: MAX_TEMPLATE_TEXT_CHARS,
      lines: MAX_TEMPLATE_LINE_BREAKS,
    });
    const result = templateInputSchema.safeParse(input(template));
    expect(messages(result)).toEqual([]);
  });

  it("refuses one character more, with the count in Portuguese", () => {
    const template = templateAtLimit();
    template.sections[0]!.content += "a";
    expect(messages(templateInputSchema.safeParse(input(template)))).toEqual([
      "O template tem 50.001 caracteres; use no máximo 50.000 somando introdução e seções",
    ]);
  });

  it("refuses one line break more", () => {
    const template = templateAtLimit();
    template.sections[0]!.content = template.sections[0]!.content.replace(/ /, "\n");
    const result = templateInputSchema.safeParse(input(template));
    expect(messages(result)).toEqual(["O template tem 801 quebras de linha; use no máximo 800"]);
    expect(result.success ? null : result.error.issues[0]!.path).toEqual(["estrutura"]);
  });

  it("refuses a run of more than MAX_WORD_CHARS characters without a space (the renderer's quadratic case)", () => {
    const ok = { title: "T", introduction: "x".repeat(MAX_WORD_CHARS), sections: [] };
    expect(templateInputSchema.safeParse(input(ok)).success).toBe(true);
    const tooLong = { title: "T", introduction: `veja ${"x".repeat(MAX_WORD_CHARS + 1)} aqui`, sections: [] };
    expect(messages(templateInputSchema.safeParse(input(tooLong)))).toEqual([
      "Há um trecho de 201 caracteres sem espaço; use no máximo 200 caracteres seguidos sem espaço",
    ]);
  });
});

describe("document size limits (after the values are filled in)", () => {
  it("a template at its limits fills into a document within the document limits", () => {
    const size = documentModelSize(buildDocumentModel(templateAtLimit() as never, sampleValues()));
    expect(size.chars).toBeLessThanOrEqual(MAX_DOCUMENT_TEXT_CHARS);
    expect(size.lines).toBeLessThanOrEqual(MAX_DOCUMENT_LINES);
    expect(documentSizeProblem(size)).toBeNull();
  });

  it("refuses a small template that custom texts and chosen content blow up", () => {
    const structure = {
      title: "T",
      introduction: "",
      sections: Array.from({ length: 4 }, (_, k) => ({
        id: `s${k}`,
        type: "paragraph" as const,
        title: "",
        content: "{{riscos}}",
      })),
    };
    const values = { ...sampleValues(), riscos: prose(20_000) };
    const model = buildDocumentModel(structure, values);
    expect(documentSizeProblem(documentModelSize(model))).toBe(
      "O documento ficou com 80.001 caracteres; o máximo é 60.000. Escolha menos conteúdos ou encurte os textos personalizados.",
    );
    const word = buildDocumentModel(structure, { ...values, riscos: "x".repeat(5_000) });
    expect(documentSizeProblem(documentModelSize(word))).toMatch(
      /^O documento tem um trecho de 5\.000 caracteres sem espaço/,
    );
    const atLimit = documentModelSize(documentModelAtLimit());
    expect(atLimit).toMatchObject({ chars: MAX_DOCUMENT_TEXT_CHARS, lines: MAX_DOCUMENT_LINES });
    expect(documentSizeProblem(atLimit)).toBeNull();
  });
});

describe("render time at the limits", () => {
  const base = sampleDocumentInput();
  const time = async (model: ReturnType<typeof documentModelAtLimit>) => {
    const runs: number[] = [];
    let pages = 0;
    for (let i = 0; i < 3; i++) {
      const started = performance.now();
      const pdf = await renderDocumentPdf({ ...base, model });
      runs.push(Math.round(performance.now() - started));
      pages = (pdf.toString("latin1").match(/\/Type\s*\/Page[^s]/g) ?? []).length;
    }
    return { median: [...runs].sort((a, b) => a - b)[1]!, runs, pages };
  };

  it("renders a template at its limits, and a document at its limits, in well under 1 s (asserted < 1.5 s for CI load)", async () => {
    // Fonts and JIT warm, as in a running server's worker threads.
    for (let i = 0; i < 3; i++) await renderDocumentPdf(base);
    const template = await time(buildDocumentModel(templateAtLimit() as never, sampleValues()));
    const document = await time(documentModelAtLimit());
    console.info(
      `render at the template limits: ${JSON.stringify(template)}; at the document limits: ${JSON.stringify(document)}`,
    );
    expect(template.median).toBeLessThan(1500);
    expect(document.median).toBeLessThan(1500);
  }, 60_000);
});
