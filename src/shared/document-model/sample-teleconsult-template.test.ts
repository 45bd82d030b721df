import { describe, expect, it } from "vitest";
import { templateInputSchema } from "../schemas/template.js";
import { buildDocumentModel } from "./build-document-model.js";
import { questionSectionProblems } from "./comprehension.js";
import { SAMPLE_TELECONSULT_TEMPLATE } from "./sample-teleconsult-template.js";
import { TemplateStructureSchema } from "./structure.js";
import { PREVIEW_SAMPLE_VALUES, findPlaceholders, isKnownVariable } from "./variables.js";

const { estrutura } = SAMPLE_TELECONSULT_TEMPLATE;
const texts = [estrutura.title, estrutura.introduction, ...estrutura.sections.flatMap((s) => [s.title, s.content])];
const placeholders = [...new Set(texts.flatMap(findPlaceholders))];

describe("SAMPLE_TELECONSULT_TEMPLATE", () => {
  it("is a valid structure, unchanged by parsing, and passes the create-template input", () => {
    const parsed = TemplateStructureSchema.safeParse(estrutura);
    expect(parsed.success).toBe(true);
    expect(parsed.data).toEqual(estrutura);
    const input = templateInputSchema.safeParse({ ...SAMPLE_TELECONSULT_TEMPLATE, especialidade: "Clínica Médica" });
    expect(input.error?.issues ?? []).toEqual([]);
  });

  it("makes its documents ask for the audio of the agreement by default, outside the document's content", () => {
    // CFM Res. 2.314/2022 (decision 069): the create form comes ticked; the model does not carry it.
    expect(estrutura.pedir_audio).toBe(true);
    expect(buildDocumentModel(estrutura, PREVIEW_SAMPLE_VALUES)).not.toHaveProperty("pedir_audio");
  });

  it("uses only known variables, all filled when a document is created", () => {
    expect(placeholders.filter((name) => !isKnownVariable(name))).toEqual([]);
    expect(placeholders).toEqual(expect.arrayContaining(["paciente_nome", "paciente_cpf", "profissional_crm"]));
    expect(buildDocumentModel(estrutura, PREVIEW_SAMPLE_VALUES).unresolved).toEqual([]);
    expect(buildDocumentModel(estrutura, {}).unresolved).toEqual(expect.arrayContaining(["paciente_nome"]));
  });

  it("ties each comprehension question to one of its sections, with the right option among the options", () => {
    const questions = estrutura.comprehension ?? [];
    expect(questions.length).toBeGreaterThan(0);
    expect(
      questionSectionProblems(
        questions,
        estrutura.sections.map((s) => s.id),
      ),
    ).toEqual([]);
    for (const q of questions) expect(q.correct).toBeLessThan(q.options.length);
  });

  it("covers what a telemedicine consent must say", () => {
    const text = [...texts, ...(estrutura.optional_consents ?? []).map((c) => c.text)].join("\n");
    for (const fragment of [
      "Resolução CFM nº 2.314/2022",
      "consulta presencial",
      "SAMU (192)",
      "Lei nº 13.709/2018",
      "recusar a teleconsulta",
      "gravação em áudio e vídeo",
    ]) {
      expect(text, fragment).toContain(fragment);
    }
  });
});
