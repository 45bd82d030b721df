/**
 * Comprehension questions (decision 061): a template version may ask 1–5 questions, each tied to
 * one of its sections, with 2–4 options and exactly one right option. The document freezes them,
 * right answers included, in its DocumentModel (so in conteudo_sha256 and documento.json); the
 * public page gets them without the right answers (`publicQuestions`) and the server scores each
 * answer. Pure: no database, used by the editor, the server, the registry and the tests.
 */
import { z } from "zod";
import { text } from "../schemas/safe-input.js";

export const MIN_QUESTIONS = 1;
export const MAX_QUESTIONS = 5;
export const MIN_OPTIONS = 2;
export const MAX_OPTIONS = 4;
export const MAX_QUESTION_TEXT = 300;
export const MAX_OPTION_TEXT = 200;
/** Answers kept per question and link; the next one is refused (429). */
export const MAX_ATTEMPTS_PER_QUESTION = 10;

const ID_PATTERN = /^[a-z0-9][a-z0-9-]{0,63}$/;

export const COMPREHENSION_MESSAGES = {
  heading: "Verificação de compreensão",
  hint: "Antes de assinar, responda a cada pergunta sobre o termo. Se errar, mostramos de novo o trecho e você pode tentar outra vez ou pedir para falar com o profissional.",
  tooMany: `Use no máximo ${MAX_QUESTIONS} perguntas de compreensão`,
  tooFew: `Use ao menos ${MIN_QUESTIONS} pergunta de compreensão, ou remova a verificação`,
  badId: "Identificador de pergunta inválido",
  duplicateId: "Perguntas de compreensão com identificador repetido",
  textRequired: "Escreva a pergunta",
  textTooLong: `Use no máximo ${MAX_QUESTION_TEXT} caracteres na pergunta`,
  optionRequired: "Escreva o texto de cada opção",
  optionTooLong: `Use no máximo ${MAX_OPTION_TEXT} caracteres em cada opção`,
  optionsCount: `Cada pergunta tem de ${MIN_OPTIONS} a ${MAX_OPTIONS} opções`,
  correctRequired: "Marque a opção certa de cada pergunta",
  unknownSection: "Cada pergunta deve se referir a uma seção do template",
  sectionRequired: "Escolha a seção a que a pergunta se refere",
  right: "Resposta certa.",
  wrong: "Essa não é a resposta esperada. Leia de novo o trecho destacado.",
  talk: "Quero falar com o profissional",
  retry: "Tentar de novo",
  paused:
    "Você pediu para falar com o profissional. A assinatura está pausada: a clínica vai entrar em contato com você. Nada foi assinado.",
  pausedStaff: "Assinatura pausada: o paciente pediu para falar com o profissional antes de assinar.",
  pending: "Responda corretamente às perguntas de compreensão antes de assinar.",
} as const;

/** A question as stored in a template version (read leniently: stored content is already checked). */
export const ComprehensionQuestionSchema = z.object({
  id: text().min(1),
  section_id: text().min(1),
  text: text(),
  options: z.array(text()),
  correct: z.number().int().min(0),
});
export type ComprehensionQuestion = z.output<typeof ComprehensionQuestionSchema>;

/** A question as the template editor sends it (pt-BR messages). */
export const comprehensionQuestionInputSchema = z
  .object({
    id: text().trim().regex(ID_PATTERN, COMPREHENSION_MESSAGES.badId),
    section_id: text({ error: COMPREHENSION_MESSAGES.sectionRequired })
      .trim()
      .min(1, COMPREHENSION_MESSAGES.sectionRequired)
      .max(64, COMPREHENSION_MESSAGES.unknownSection),
    text: text({ error: COMPREHENSION_MESSAGES.textRequired })
      .trim()
      .min(1, COMPREHENSION_MESSAGES.textRequired)
      .max(MAX_QUESTION_TEXT, COMPREHENSION_MESSAGES.textTooLong),
    options: z
      .array(
        text({ error: COMPREHENSION_MESSAGES.optionRequired })
          .trim()
          .min(1, COMPREHENSION_MESSAGES.optionRequired)
          .max(MAX_OPTION_TEXT, COMPREHENSION_MESSAGES.optionTooLong),
        { error: COMPREHENSION_MESSAGES.optionsCount },
      )
      .min(MIN_OPTIONS, COMPREHENSION_MESSAGES.optionsCount)
      .max(MAX_OPTIONS, COMPREHENSION_MESSAGES.optionsCount),
    correct: z
      .number({ error: COMPREHENSION_MESSAGES.correctRequired })
      .int(COMPREHENSION_MESSAGES.correctRequired)
      .min(0, COMPREHENSION_MESSAGES.correctRequired),
  })
  .refine((q) => q.correct < q.options.length, { message: COMPREHENSION_MESSAGES.correctRequired, path: ["correct"] });

export const comprehensionInputSchema = z
  .array(comprehensionQuestionInputSchema)
  .min(MIN_QUESTIONS, COMPREHENSION_MESSAGES.tooFew)
  .max(MAX_QUESTIONS, COMPREHENSION_MESSAGES.tooMany)
  .refine((items) => new Set(items.map((i) => i.id)).size === items.length, COMPREHENSION_MESSAGES.duplicateId);

/** Problems of questions against the sections of the same structure (a question must name one of them). */
export function questionSectionProblems(
  questions: readonly { section_id: string }[],
  sectionIds: readonly string[],
): number[] {
  const known = new Set(sectionIds);
  return questions.flatMap((q, index) => (known.has(q.section_id) ? [] : [index]));
}

/** An id for a new question, unique among `taken` ("pergunta-1", "pergunta-2", …). */
export function questionId(taken: readonly string[]): string {
  let n = taken.length + 1;
  while (taken.includes(`pergunta-${n}`)) n++;
  return `pergunta-${n}`;
}

/** A question as the document freezes it (placeholders resolved). */
export interface DocumentQuestion {
  id: string;
  section_id: string;
  text: string;
  options: string[];
  correct: number;
}

/** What the signing page may see of a question before it is answered: never the right option. */
export interface PublicQuestion {
  id: string;
  section_id: string;
  text: string;
  options: string[];
}

/** The frozen model's questions (none: an empty list), read leniently from stored JSON. */
export function modelQuestions(documento: unknown): DocumentQuestion[] {
  const raw = (documento as { comprehension?: unknown } | null)?.comprehension;
  if (!Array.isArray(raw)) return [];
  return raw.filter(
    (q): q is DocumentQuestion =>
      !!q &&
      typeof q === "object" &&
      typeof (q as DocumentQuestion).id === "string" &&
      typeof (q as DocumentQuestion).section_id === "string" &&
      typeof (q as DocumentQuestion).text === "string" &&
      Array.isArray((q as DocumentQuestion).options) &&
      Number.isInteger((q as DocumentQuestion).correct),
  );
}

/** The questions as the public page reads them from its model (which has no right option). */
export function readPublicQuestions(documento: unknown): PublicQuestion[] {
  const raw = (documento as { comprehension?: unknown } | null)?.comprehension;
  if (!Array.isArray(raw)) return [];
  return raw
    .filter(
      (q): q is PublicQuestion =>
        !!q &&
        typeof q === "object" &&
        typeof (q as PublicQuestion).id === "string" &&
        typeof (q as PublicQuestion).section_id === "string" &&
        typeof (q as PublicQuestion).text === "string" &&
        Array.isArray((q as PublicQuestion).options),
    )
    .map(({ id, section_id, text, options }) => ({ id, section_id, text, options: options.map(String) }));
}

/** The questions without their right option. */
export function publicQuestions(questions: readonly DocumentQuestion[]): PublicQuestion[] {
  return questions.map(({ id, section_id, text, options }) => ({ id, section_id, text, options: [...options] }));
}

/** The model as the public page gets it: the questions stripped of their right option. */
export function withoutRightAnswers<T>(documento: T): T {
  if (!documento || typeof documento !== "object" || !("comprehension" in documento)) return documento;
  return { ...documento, comprehension: publicQuestions(modelQuestions(documento)) };
}

/** One answer as the signing page sends it. */
export const comprehensionAnswerInputSchema = z
  .object({
    /** The content the page shows (the document's SHA-256): questions of another version are refused. */
    conteudo_sha256: text().max(100),
    pergunta_id: text().max(64),
    opcao: z.number({ error: "Escolha uma opção" }).int("Escolha uma opção").min(0, "Escolha uma opção").max(50),
  })
  .strict();
export type ComprehensionAnswerInput = z.output<typeof comprehensionAnswerInputSchema>;

/** One kept answer (the data of a 'document.comprehension_answered' event). */
export interface StoredAnswer {
  pergunta_id: string;
  opcao: number;
  correta: boolean;
  em: string;
}

/** A question's outcome in the evidence: the question as asked, every try, in order. */
export interface QuestionRecord {
  id: string;
  secao_id: string;
  pergunta: string;
  opcoes: string[];
  certa: number;
  tentativas: { opcao: number; correta: boolean; em: string }[];
  verificada: boolean;
}

/** The signer's record, in the model's question order. */
export interface ComprehensionSummary {
  perguntas: QuestionRecord[];
  verificadas: number;
  total: number;
  /** When the signer asked to talk to the professional (ISO), if they did. */
  pausada_em?: string | null;
}

export const comprehensionSummarySchema = z.object({
  perguntas: z.array(
    z.object({
      id: z.string(),
      secao_id: z.string(),
      pergunta: z.string(),
      opcoes: z.array(z.string()),
      certa: z.number().int(),
      tentativas: z.array(z.object({ opcao: z.number().int(), correta: z.boolean(), em: z.string() })),
      verificada: z.boolean(),
    }),
  ),
  verificadas: z.number().int(),
  total: z.number().int(),
  pausada_em: z.string().nullable().optional(),
});

/** Whether an option is the right one (an out-of-range option is the caller's 400). */
export function isRight(question: DocumentQuestion, opcao: number): boolean {
  return question.correct === opcao;
}

/** Sums kept answers per question of the model (answers to unknown questions are ignored). */
export function summarizeAnswers(
  questions: readonly DocumentQuestion[],
  answers: readonly StoredAnswer[],
  pausadaEm: string | null = null,
): ComprehensionSummary {
  const perguntas = questions.map((q): QuestionRecord => {
    const tentativas = answers
      .filter((a) => a.pergunta_id === q.id)
      .map(({ opcao, correta, em }) => ({ opcao, correta, em }));
    return {
      id: q.id,
      secao_id: q.section_id,
      pergunta: q.text,
      opcoes: [...q.options],
      certa: q.correct,
      tentativas,
      verificada: tentativas.some((t) => t.correta),
    };
  });
  return {
    perguntas,
    verificadas: perguntas.filter((p) => p.verificada).length,
    total: perguntas.length,
    ...(pausadaEm ? { pausada_em: pausadaEm } : {}),
  };
}

/** Every question answered rightly (a model without questions: true). */
export function allVerified(summary: Pick<ComprehensionSummary, "verificadas" | "total">): boolean {
  return summary.verificadas === summary.total;
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** "compreensão verificada: 3 de 3, 1 nova tentativa na pergunta 2". */
export function comprehensionLine(summary: ComprehensionSummary): string {
  const retries = summary.perguntas
    .map((p, index) => ({ index, extra: Math.max(0, p.tentativas.length - 1) }))
    .filter((r) => r.extra > 0)
    .map((r) => `${plural(r.extra, "nova tentativa", "novas tentativas")} na pergunta ${r.index + 1}`);
  const head = `compreensão verificada: ${summary.verificadas} de ${summary.total}`;
  const tail = retries.length > 0 ? retries.join(", ") : "todas na primeira tentativa";
  return `${head}, ${tail}`;
}

/** One line per question: the question, each try and whether it was right. */
export function questionLines(summary: ComprehensionSummary): string[] {
  return summary.perguntas.map((p, index) => {
    const tries =
      p.tentativas.length === 0
        ? "sem resposta"
        : p.tentativas
            .map((t) => `“${p.opcoes[t.opcao] ?? `opção ${t.opcao + 1}`}” (${t.correta ? "certa" : "errada"})`)
            .join(", ");
    return `Pergunta ${index + 1}: “${p.pergunta}” — respostas: ${tries}.`;
  });
}

/** Reads a recorded summary from JSON (an event's data, the evidence); null when absent or malformed. */
export function readComprehension(value: unknown): ComprehensionSummary | null {
  const parsed = comprehensionSummarySchema.safeParse(value);
  return parsed.success ? parsed.data : null;
}

/**
 * The comprehension questions (decision 061): the count verified and the retries, then each
 * question with every try. Proves what was answered, not that the patient understood everything.
 * Printed in the PDF's registry and said by both verifiers (decision 077).
 */
export function comprehensionLines(compreensao: ComprehensionSummary): string[] {
  const line = comprehensionLine(compreensao);
  return [`${line.charAt(0).toUpperCase()}${line.slice(1)}.`, ...questionLines(compreensao)];
}
