import { comprehensionLines, modelQuestions, readComprehension } from "../document-model/comprehension.js";
import { READING_HEADING, readingLines, readingSummarySchema } from "../reading/reading-record.js";
import { canonicalJson } from "../evidence/canonical-json.js";
import { audioConsentLines } from "./audio-consent-lines.js";
import type { EvidenceLine } from "./optional-consent-lines.js";

interface ChainEvent {
  action?: unknown;
  data?: unknown;
}

/**
 * What the embedded evidence says of each signer's comprehension answers (decision 061), audio of
 * the agreement (decision 069) and reading record (decision 052), in the registry's order; the
 * professional, who signs in the app, has none of them. Answers: a check that the questions are
 * exactly the frozen documento.json's (text, options, right option), that each try is scored as
 * that right option says and that each try is an event of the sealed chain; then the summary and
 * every try (information). Audio: ./audio-consent-lines.ts. Reading: a check that it names the
 * frozen model's sections and is the one of the signer's own event in the sealed chain; then what
 * the device said (information — the device's word, not verified), or that it sent none.
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
    const p = party as { id?: unknown; nome?: string; papel?: string; compreensao?: unknown; leitura?: unknown };
    if (p.papel === "profissional") continue;
    const nome = p.nome ?? "Signatário";
    const signed = signedEventData(events, p.id);
    if (isAbsent(p.compreensao)) {
      // Evidence that drops what the sealed chain's own signature event holds is not this signature's.
      if (!isAbsent(signed?.compreensao))
        lines.push({
          ok: false,
          text: `As evidências de ${nome} não trazem as respostas às perguntas de compreensão que a assinatura registrada na cadeia de eventos traz.`,
        });
      else if (frozen.length > 0 && p.papel !== "testemunha")
        lines.push({
          ok: null,
          text: `${nome} — Perguntas de compreensão: nenhuma resposta registrada com a assinatura.`,
        });
    } else {
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
    lines.push(...audioConsentLines(p, events));
    if (isAbsent(p.leitura)) {
      lines.push(
        isAbsent(signed?.leitura)
          ? { ok: null, text: `${nome} — ${READING_NOT_SENT}` }
          : {
              ok: false,
              text: `As evidências de ${nome} não trazem o registro de leitura que a assinatura registrada na cadeia de eventos traz.`,
            },
      );
    } else {
      const parsed = readingSummarySchema.safeParse(p.leitura);
      const same =
        parsed.success &&
        parsed.data.secoes.length === sectionIds.length &&
        parsed.data.secoes.every((s, i) => s.id === sectionIds[i]);
      // Only when the chain has the signer's event (a refusal record's parties have theirs too).
      const inChain = signed === null || canonicalJson(signed.leitura ?? null) === canonicalJson(p.leitura);
      lines.push({
        ok: same && inChain,
        text:
          same && inChain
            ? `O registro de leitura de ${nome} cita as ${sectionIds.length} seções do conteúdo congelado e é o da sua assinatura registrada na cadeia de eventos (tempos medidos pelo aparelho do signatário, não conferidos).`
            : !same
              ? `O registro de leitura de ${nome} não corresponde às seções do conteúdo congelado.`
              : `O registro de leitura de ${nome} difere do registrado na sua assinatura na cadeia de eventos.`,
      });
      if (parsed.success) {
        lines.push({ ok: null, text: `${nome} — ${READING_HEADING}:` });
        for (const line of readingLines(parsed.data)) lines.push({ ok: null, text: `${nome} — ${line}` });
      }
    }
  }
  return lines;
}

/** Said of a signer whose device sent no reading record (old signatures, a page that sent none). */
export const READING_NOT_SENT =
  "Registro de leitura: não enviado pelo aparelho do signatário (nenhum tempo de leitura por seção foi registrado).";

const isAbsent = (value: unknown) => value === undefined || value === null;

/** The data of this party's own "Assinatura registrada" event of the sealed chain, or null. */
function signedEventData(
  events: readonly unknown[],
  parteId: unknown,
): { leitura?: unknown; compreensao?: unknown } | null {
  if (parteId === undefined) return null;
  const found = (events as ChainEvent[]).find(
    (e) => e?.action === "document.party_signed" && (e.data as { parte_id?: unknown } | null)?.parte_id === parteId,
  );
  return found ? ((found.data ?? {}) as { leitura?: unknown; compreensao?: unknown }) : null;
}

function modelSectionIds(documentValue: unknown): string[] {
  const sections = (documentValue as { sections?: { id?: unknown }[] } | null)?.sections;
  return Array.isArray(sections) ? sections.map((s) => String(s?.id)) : [];
}
