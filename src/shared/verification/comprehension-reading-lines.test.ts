import { describe, expect, it } from "vitest";
import { comprehensionReadingLines, READING_NOT_SENT } from "./comprehension-reading-lines.js";

const model = {
  sections: [{ id: "s1" }, { id: "s2" }],
  comprehension: [
    { id: "q1", section_id: "s1", text: "Há garantia?", options: ["Sim", "Não"], correct: 1 },
    { id: "q2", section_id: "s2", text: "Posso desistir?", options: ["Sim", "Não"], correct: 0 },
  ],
};
const tries = {
  q1: [{ opcao: 1, correta: true, em: "2026-12-02T10:00:00.000Z" }],
  q2: [
    { opcao: 1, correta: false, em: "2026-12-02T10:01:00.000Z" },
    { opcao: 0, correta: true, em: "2026-12-02T10:02:00.000Z" },
  ],
};
const summary = (changes: { certa?: number; pergunta?: string } = {}) => ({
  perguntas: model.comprehension.map((q) => ({
    id: q.id,
    secao_id: q.section_id,
    pergunta: q.id === "q2" && changes.pergunta ? changes.pergunta : q.text,
    opcoes: q.options,
    certa: q.id === "q2" && changes.certa !== undefined ? changes.certa : q.correct,
    tentativas: tries[q.id as "q1" | "q2"],
    verificada: true,
  })),
  verificadas: 2,
  total: 2,
});
const chain = Object.entries(tries).flatMap(([pergunta_id, list]) =>
  list.map((t) => ({ action: "document.comprehension_answered", data: { pergunta_id, ...t } })),
);
const leitura = {
  secoes: [
    { id: "s1", titulo: "Riscos", ms: 62_000, exibida: true },
    { id: "s2", titulo: "Declaração", ms: 0, exibida: false },
  ],
  salto: false,
  ouvir: ["s1"],
  texto_grande: false,
  lotes: 2,
};
const patient = (extra: Record<string, unknown>) => ({ nome: "Ana", papel: "paciente", ...extra });

describe("comprehensionReadingLines (decisions 061 and 052)", () => {
  it("checks the answers against the frozen questions and the chain, then lists them and the reading", () => {
    const lines = comprehensionReadingLines(model, [patient({ compreensao: summary(), leitura })], chain);
    expect(lines[0]).toEqual({ ok: true, text: expect.stringContaining("As respostas de Ana às perguntas") });
    expect(lines).toContainEqual({
      ok: null,
      text: "Ana — Compreensão verificada: 2 de 2, 1 nova tentativa na pergunta 2.",
    });
    expect(lines).toContainEqual({
      ok: null,
      text: "Ana — Pergunta 2: “Posso desistir?” — respostas: “Não” (errada), “Sim” (certa).",
    });
    expect(lines).toContainEqual({
      ok: true,
      text: expect.stringContaining("O registro de leitura de Ana cita as 2 seções"),
    });
    expect(lines).toContainEqual({ ok: null, text: "Ana — Seção “Riscos”: na tela por 1 min 2 s." });
    expect(lines).toContainEqual({ ok: null, text: "Ana — Seção “Declaração”: não exibida." });
    expect(lines).toContainEqual({
      ok: null,
      text: "Ana — “Ouvir” (leitura em voz alta no aparelho) usado em: Riscos.",
    });
  });

  it("fails a summary whose questions, scoring or tries differ from the frozen model and the chain", () => {
    const first = (p: unknown, events: unknown[] = chain) => comprehensionReadingLines(model, [p], events)[0]!;
    expect(first(patient({ compreensao: summary({ pergunta: "Outra pergunta?" }) })).ok).toBe(false);
    expect(first(patient({ compreensao: summary({ certa: 1 }) }))).toMatchObject({
      ok: false,
      text: expect.stringContaining("as perguntas do conteúdo congelado"),
    });
    // A try missing from the chain (dropped after the fact).
    expect(first(patient({ compreensao: summary() }), chain.slice(1))).toMatchObject({
      ok: false,
      text: expect.stringContaining("os eventos da cadeia"),
    });
    expect(first(patient({ compreensao: { perguntas: "nada" } })).ok).toBe(false);
    const otherSections = { ...leitura, secoes: [{ id: "x", titulo: "X", ms: 1, exibida: true }] };
    const reading = comprehensionReadingLines(model, [patient({ leitura: otherSections })], chain);
    expect(reading.find((l) => l.text.startsWith("O registro de leitura"))).toEqual({
      ok: false,
      text: "O registro de leitura de Ana não corresponde às seções do conteúdo congelado.",
    });
  });

  it("says so when a signer has no answers or no reading record; nothing for the professional", () => {
    const lines = comprehensionReadingLines(
      model,
      [patient({}), { nome: "T", papel: "testemunha" }, { nome: "Dra. Lia", papel: "profissional" }],
      chain,
    );
    expect(lines).toEqual([
      { ok: null, text: "Ana — Perguntas de compreensão: nenhuma resposta registrada com a assinatura." },
      { ok: null, text: `Ana — ${READING_NOT_SENT}` },
      // Witnesses answer no questions (decision 061), but their page records the reading too.
      { ok: null, text: `T — ${READING_NOT_SENT}` },
    ]);
    expect(READING_NOT_SENT).toMatch(/^Registro de leitura: não enviado pelo aparelho/);
  });
});
