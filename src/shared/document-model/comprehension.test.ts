import { describe, expect, it } from "vitest";
import { templateStructureInputSchema } from "../schemas/template.js";
import {
  allVerified,
  comprehensionInputSchema,
  comprehensionLine,
  publicQuestions,
  summarizeAnswers,
  withoutRightAnswers,
  type DocumentQuestion,
} from "./comprehension.js";
import { buildDocumentModel } from "./build-document-model.js";
import { SAMPLE_TEMPLATE } from "./sample-template.js";

const q = (id: string, correct = 1): DocumentQuestion => ({
  id,
  section_id: "s1",
  text: `Pergunta ${id}?`,
  options: ["A", "B", "C"],
  correct,
});

describe("comprehension questions", () => {
  it("accepts 1–5 questions with 2–4 options and one right option", () => {
    expect(comprehensionInputSchema.safeParse([q("a")]).success).toBe(true);
    expect(comprehensionInputSchema.safeParse([]).success).toBe(false);
    expect(comprehensionInputSchema.safeParse(["a", "b", "c", "d", "e", "f"].map((id) => q(id))).success).toBe(false);
    expect(comprehensionInputSchema.safeParse([{ ...q("a"), options: ["só uma"], correct: 0 }]).success).toBe(false);
    expect(comprehensionInputSchema.safeParse([{ ...q("a"), options: ["1", "2", "3", "4", "5"] }]).success).toBe(false);
    const out = comprehensionInputSchema.safeParse([{ ...q("a"), correct: 3 }]);
    expect(out.success).toBe(false);
    expect(out.error?.issues[0]?.message).toBe("Marque a opção certa de cada pergunta");
    expect(comprehensionInputSchema.safeParse([q("a"), q("a")]).success).toBe(false);
  });

  it("refuses a question tied to a section the template does not have (pt-BR)", () => {
    const base = {
      title: "T",
      introduction: "",
      sections: [{ id: "s1", type: "paragraph", title: "S", content: "x" }],
    };
    expect(templateStructureInputSchema.safeParse({ ...base, comprehension: [q("a")] }).success).toBe(true);
    const bad = templateStructureInputSchema.safeParse({ ...base, comprehension: [{ ...q("a"), section_id: "nada" }] });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]?.message).toBe("Cada pergunta deve se referir a uma seção do template");
  });

  it("freezes the questions in the model and strips the right option for the public page", () => {
    const model = buildDocumentModel(SAMPLE_TEMPLATE.estrutura, {});
    expect(model.comprehension).toHaveLength(3);
    const ids = new Set(model.sections.map((s) => s.id));
    expect(model.comprehension!.every((question) => ids.has(question.section_id))).toBe(true);
    const shown = withoutRightAnswers(model);
    expect(JSON.stringify(shown.comprehension)).not.toContain("correct");
    expect(publicQuestions([q("a")])[0]).not.toHaveProperty("correct");
    const none = buildDocumentModel({ title: "T", introduction: "", sections: [] }, {});
    expect(none).not.toHaveProperty("comprehension");
  });

  it("scores every try and prints the registry line", () => {
    const questions = [q("a"), q("b", 0), q("c", 2)];
    const em = "2026-12-02T10:00:00.000Z";
    const summary = summarizeAnswers(questions, [
      { pergunta_id: "a", opcao: 1, correta: true, em },
      { pergunta_id: "b", opcao: 2, correta: false, em },
      { pergunta_id: "b", opcao: 0, correta: true, em },
      { pergunta_id: "c", opcao: 2, correta: true, em },
      { pergunta_id: "zzz", opcao: 0, correta: true, em },
    ]);
    expect(summary.verificadas).toBe(3);
    expect(allVerified(summary)).toBe(true);
    expect(summary.perguntas[1]!.tentativas).toHaveLength(2);
    expect(comprehensionLine(summary)).toBe("compreensão verificada: 3 de 3, 1 nova tentativa na pergunta 2");
    const partial = summarizeAnswers(questions, [{ pergunta_id: "a", opcao: 0, correta: false, em }]);
    expect(allVerified(partial)).toBe(false);
    expect(comprehensionLine(summarizeAnswers([q("a")], [{ pergunta_id: "a", opcao: 1, correta: true, em }]))).toBe(
      "compreensão verificada: 1 de 1, todas na primeira tentativa",
    );
  });
});
