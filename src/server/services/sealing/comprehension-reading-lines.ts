import { comprehensionLines, readingLines } from "../../../pdf/signature-registry.js";
import { modelQuestions, readComprehension } from "../../../shared/document-model/comprehension.js";
import { readingSummarySchema } from "../../../shared/reading/reading-record.js";
import type { EvidenceLine } from "./verify-signed-pdf.js";

interface ChainEvent {
  action?: unknown;
  data?: unknown;
}

/**
 * What the embedded evidence says of each signer's comprehension answers (decision 061) and
 * reading record (decision 052). Answers: a check that the questions are exactly the frozen
 * documento.json's (text, options, right option), that each try is scored as that right option
 * says and that each try is an event of the sealed chain; then the summary and every try
 * (information). Reading: a check that it names the frozen model's sections; then what the
 * device said (information — the device's word, not verified).
 */
export function comprehensionReadingLines(
  documentValue: unknown,
  parties: readonly unknown[],
  events: readonly unknown[],
): EvidenceLine[] {
  const frozen = modelQuestions(documentValue);
  const sectionIds = modelSectionIds(documentValue);
  const answered = (events as ChainEvent[])
    .filter((e) => e?.action === "document.comprehension_answered")
    .map((e) => (e.data ?? {}) as { pergunta_id?: unknown; opcao?: unknown; correta?: unknown; em?: unknown });
  const lines: EvidenceLine[] = [];
  for (const party of parties) {
    const p = party as { nome?: string; papel?: string; compreensao?: unknown; leitura?: unknown };
    const nome = p.nome ?? "Signatário";
    if (p.compreensao !== undefined && p.compreensao !== null) {
      const summary = readComprehension(p.compreensao);
      const sameQuestions =
        !!summary &&
        summary.perguntas.length === frozen.length &&
        summary.perguntas.every((q, i) => {
          const f = frozen[i]!;
          return (
            q.id === f.id &&
            q.secao_id === f.section_id &&
            q.pergunta === f.text &&
            q.certa === f.correct &&
            q.opcoes.length === f.options.length &&
            q.opcoes.every((o, j) => o === f.options[j])
          );
        });
      const scored =
        !!summary &&
        summary.perguntas.every(
          (q) =>
            q.tentativas.every((t) => t.correta === (t.opcao === q.certa)) &&
            q.verificada === q.tentativas.some((t) => t.correta),
        ) &&
        summary.verificadas === summary.perguntas.filter((q) => q.verificada).length &&
        summary.total === summary.perguntas.length;
      const inChain =
        !!summary &&
        summary.perguntas.every((q) =>
          q.tentativas.every((t) =>
            answered.some(
              (a) => a.pergunta_id === q.id && a.opcao === t.opcao && a.correta === t.correta && a.em === t.em,
            ),
          ),
        );
      const ok = sameQuestions && scored && inChain;
      lines.push({
        ok,
        text: ok
          ? `As respostas de ${nome} às perguntas de compreensão são das perguntas do conteúdo congelado, cada tentativa conferida pela opção certa e registrada na cadeia de eventos.`
          : `As respostas de ${nome} às perguntas de compreensão não conferem com ${
              !sameQuestions
                ? "as perguntas do conteúdo congelado"
                : !scored
                  ? "a opção certa de cada pergunta"
                  : "os eventos da cadeia"
            }.`,
      });
      if (summary) for (const line of comprehensionLines(summary)) lines.push({ ok: null, text: `${nome} — ${line}` });
    }
    if (p.leitura !== undefined && p.leitura !== null) {
      const parsed = readingSummarySchema.safeParse(p.leitura);
      const same =
        parsed.success &&
        parsed.data.secoes.length === sectionIds.length &&
        parsed.data.secoes.every((s, i) => s.id === sectionIds[i]);
      lines.push({
        ok: same,
        text: same
          ? `O registro de leitura de ${nome} cita as ${sectionIds.length} seções do conteúdo congelado (tempos medidos pelo aparelho do signatário, não conferidos).`
          : `O registro de leitura de ${nome} não corresponde às seções do conteúdo congelado.`,
      });
      if (parsed.success)
        for (const line of readingLines(parsed.data)) lines.push({ ok: null, text: `${nome} — ${line}` });
    }
  }
  return lines;
}

function modelSectionIds(documentValue: unknown): string[] {
  const sections = (documentValue as { sections?: { id?: unknown }[] } | null)?.sections;
  return Array.isArray(sections) ? sections.map((s) => String(s?.id)) : [];
}
