/**
 * The reading record (decision 052): what the signer's device says about how the term was on
 * screen — per section of the frozen model, milliseconds visible with the page in the foreground,
 * whether it was reached, whether "Ir para a assinatura" was used, "Ouvir" and large text. The
 * device's word, not verified; bounded by the server, never a reason to refuse a signature.
 */
import { z } from "zod";

/** At most this many batches per link (each is one audit event). */
export const READING_MAX_BATCHES = 200;
/** Body limit of a batch, in bytes. */
export const READING_BODY_LIMIT = 16 * 1024;
/** One entry's duration: a day at most (anything larger is malformed, not a long read). */
export const READING_MAX_ENTRY_MS = 24 * 60 * 60 * 1000;
const MAX_SECTIONS = 200;

const sectionId = z.string().min(1).max(100);

export const READING_MESSAGES = {
  invalid: "Registro de leitura inválido.",
  unknownSection: "O registro de leitura cita uma seção que não existe neste documento.",
  tooMany: "Registros de leitura demais para este link.",
};

/** One batch as the page sends it (every few seconds, when the page is hidden, and with the signature). */
export const readingBatchSchema = z
  .object({
    /** Milliseconds each section was on screen with the page in the foreground since the last batch. */
    secoes: z
      .array(
        z
          .object({
            id: sectionId,
            ms: z
              .number({ error: READING_MESSAGES.invalid })
              .int(READING_MESSAGES.invalid)
              .min(0, READING_MESSAGES.invalid)
              .max(READING_MAX_ENTRY_MS, READING_MESSAGES.invalid),
          })
          .strict(),
      )
      .max(MAX_SECTIONS, READING_MESSAGES.invalid)
      .default([]),
    /** "Ir para a assinatura" was used. */
    salto: z.boolean().optional(),
    /** Sections read aloud with "Ouvir" (the browser's voice, on the device). */
    ouvir: z.array(sectionId).max(MAX_SECTIONS, READING_MESSAGES.invalid).optional(),
    /** The large-text toggle was turned on. */
    texto_grande: z.boolean().optional(),
  })
  .strict();
export type ReadingBatch = z.output<typeof readingBatchSchema>;
export type ReadingBatchInput = z.input<typeof readingBatchSchema>;

/** What a batch keeps once the server has bounded it (the data of one 'document.reading' event). */
export interface StoredReadingBatch {
  secoes: Record<string, number>;
  salto: boolean;
  ouvir: string[];
  texto_grande: boolean;
}

/** The record of one signer, summed over their batches, in the frozen model's order. */
export const readingSummarySchema = z.object({
  secoes: z.array(z.object({ id: z.string(), titulo: z.string(), ms: z.number().int(), exibida: z.boolean() })),
  salto: z.boolean(),
  ouvir: z.array(z.string()),
  texto_grande: z.boolean(),
  lotes: z.number().int(),
});
export type ReadingSummary = z.infer<typeof readingSummarySchema>;

/**
 * Bounds one batch against what was already kept (decision 052): only known section ids; each
 * section's total never above the wall time since the link could first be opened (server clock).
 * Pure: the caller decides what an unknown id means (refused on the reading route, dropped with the
 * signature, which a reading record never blocks).
 */
export function boundBatch(
  batch: ReadingBatch,
  options: { known: ReadonlySet<string>; kept: Readonly<Record<string, number>>; wallMs: number },
): StoredReadingBatch {
  const wall = Math.max(0, Math.floor(options.wallMs));
  const secoes: Record<string, number> = {};
  for (const entry of batch.secoes) {
    if (!options.known.has(entry.id)) continue;
    const already = (options.kept[entry.id] ?? 0) + (secoes[entry.id] ?? 0);
    const room = Math.max(0, wall - already);
    secoes[entry.id] = (secoes[entry.id] ?? 0) + Math.min(entry.ms, room);
  }
  return {
    secoes,
    salto: batch.salto === true,
    ouvir: [...new Set((batch.ouvir ?? []).filter((id) => options.known.has(id)))],
    texto_grande: batch.texto_grande === true,
  };
}

/** Sums kept batches into the signer's record, per section of the frozen model. */
export function summarize(
  sections: readonly { id: string; title: string }[],
  batches: readonly StoredReadingBatch[],
): ReadingSummary {
  const totals: Record<string, number> = {};
  const ouvir = new Set<string>();
  let salto = false;
  let texto = false;
  for (const batch of batches) {
    for (const [id, ms] of Object.entries(batch.secoes)) {
      totals[id] = (totals[id] ?? 0) + ms;
    }
    for (const id of batch.ouvir) ouvir.add(id);
    salto ||= batch.salto;
    texto ||= batch.texto_grande;
  }
  return {
    secoes: sections.map((s) => ({
      id: s.id,
      titulo: s.title,
      ms: totals[s.id] ?? 0,
      exibida: (totals[s.id] ?? 0) > 0,
    })),
    salto,
    ouvir: sections.filter((s) => ouvir.has(s.id)).map((s) => s.id),
    texto_grande: texto,
    lotes: batches.length,
  };
}

/** Sums of what was kept so far, per section. */
export function keptTotals(batches: readonly StoredReadingBatch[]): Record<string, number> {
  const totals: Record<string, number> = {};
  for (const batch of batches) for (const [id, ms] of Object.entries(batch.secoes)) totals[id] = (totals[id] ?? 0) + ms;
  return totals;
}

/** "1 min 42 s", "8 s", "menos de 1 s", "1 h 2 min". */
export function formatOnScreen(ms: number): string {
  const seconds = Math.floor(ms / 1000);
  if (seconds < 1) return "menos de 1 s";
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  if (h > 0) return `${h} h${m > 0 ? ` ${m} min` : ""}`;
  if (m > 0) return `${m} min${s > 0 ? ` ${s} s` : ""}`;
  return `${s} s`;
}

/** The registry's line for one section. */
export function sectionLine(section: ReadingSummary["secoes"][number]): string {
  return section.exibida ? `na tela por ${formatOnScreen(section.ms)}` : "não exibida";
}

export const READING_HEADING = "Registrado pelo aparelho do signatário (não conferido)";

/**
 * The reading record (decision 052): per section of the term, how long the signer's device says it
 * was on screen with the page in the foreground, or that it was never shown; the jump to the
 * signature, "Ouvir" and large text. The device's word: it does not say the signer understood.
 * Printed in the PDF's registry and said by both verifiers (decision 077).
 */
export function readingLines(leitura: ReadingSummary | null): string[] {
  if (!leitura) return ["Leitura: o aparelho não enviou registro de leitura."];
  const titled = (id: string) => leitura.secoes.find((s) => s.id === id)?.titulo || id;
  return [
    ...leitura.secoes.map((s) => `Seção “${s.titulo || s.id}”: ${sectionLine(s)}.`),
    `Atalho “Ir para a assinatura”: ${leitura.salto ? "usado" : "não usado"}.`,
    ...(leitura.ouvir.length > 0
      ? [`“Ouvir” (leitura em voz alta no aparelho) usado em: ${leitura.ouvir.map(titled).join(", ")}.`]
      : []),
    ...(leitura.texto_grande ? ["Texto grande ativado."] : []),
    "Tempo medido na tela do aparelho com a página em primeiro plano; não comprova que o conteúdo foi compreendido.",
  ];
}
