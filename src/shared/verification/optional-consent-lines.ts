import { answerLabel, readOptionalAnswers } from "../document-model/optional-consents.js";

/** A line of a verification report: true ✓, false ✗, null: information (not a check). */
export interface EvidenceLine {
  ok: boolean | null;
  text: string;
}

/**
 * What the embedded evidence says of the separate optional consents (decision 057): for each
 * signer who answered, whether the answers name exactly the items of the frozen documento.json
 * (a check), then each item with its Sim/Não (information). Shared by the CLI and the browser
 * verifier (decision 077).
 */
export function optionalConsentLines(documentValue: unknown, parties: readonly unknown[]): EvidenceLine[] {
  const offered = (documentValue as { optional_consents?: { id?: unknown }[] } | null)?.optional_consents;
  const offeredIds = Array.isArray(offered) ? offered.map((item) => String(item?.id)) : [];
  const lines: EvidenceLine[] = [];
  for (const party of parties) {
    const p = party as { nome?: string; papel?: string; consentimentos_opcionais?: unknown };
    const answers = readOptionalAnswers(p.consentimentos_opcionais);
    const answersSigner = p.papel === "paciente" || p.papel === "responsavel";
    if (!answersSigner || (answers.length === 0 && offeredIds.length === 0)) continue;
    const same = answers.length === offeredIds.length && answers.every((a, i) => a.id === offeredIds[i]);
    lines.push({
      ok: same,
      text: same
        ? `${p.nome ?? "Signatário"} respondeu a cada um dos ${offeredIds.length} consentimentos opcionais do conteúdo congelado.`
        : `As respostas de ${p.nome ?? "um signatário"} aos consentimentos opcionais não correspondem aos itens do conteúdo congelado.`,
    });
    for (const answer of answers)
      lines.push({ ok: null, text: `Consentimento opcional “${answer.titulo}”: ${answerLabel(answer.aceito)}.` });
  }
  return lines;
}
