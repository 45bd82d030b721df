import { describe, expect, it } from "vitest";
import { audioConsentLines } from "./audio-consent-lines.js";
import { comprehensionReadingLines, READING_NOT_SENT } from "./comprehension-reading-lines.js";

// Shapes as the finalize job writes them into evidencias.json: `partes[]` (final-pdf-input.ts) and
// the document's chain `eventos[]` with each event's data as sign-document.ts / record-audio.ts
// store it (decisions 069 and 052).
const SHA = "a".repeat(64);
const OTHER_SHA = "b".repeat(64);
const FRASE =
  "Eu, Ana Souza, li e entendi o documento “TCLE para teleconsulta”, tive a oportunidade de tirar minhas dúvidas e concordo com ele.";
const recordedAudio = {
  pedido: true,
  gravado: true,
  sha256: SHA,
  duracao_ms: 12_000,
  mime: "audio/ogg",
  tamanho: 48_213,
  frase: FRASE,
  gravado_em: "2026-12-03T13:00:05.000Z",
};
const leitura = {
  secoes: [
    { id: "s1", titulo: "Riscos", ms: 62_000, exibida: true },
    { id: "s2", titulo: "Declaração", ms: 0, exibida: false },
  ],
  salto: false,
  ouvir: [],
  texto_grande: false,
  lotes: 2,
};
const model = { sections: [{ id: "s1" }, { id: "s2" }] };
const PATIENT_ID = "0b7c1a52-58d4-4a1e-9d3e-3b1f0f3c2a10";
const PROFESSIONAL_ID = "9d1e2f3a-1b2c-4d5e-8f90-a1b2c3d4e5f6";

function event(action: string, data: Record<string, unknown>) {
  return {
    action,
    label: action,
    created_at: "2026-12-03T13:00:00.000Z",
    actor: null,
    ip: null,
    user_agent: null,
    data,
  };
}
function chain(options: { asked?: boolean; signedAudio?: unknown; signedLeitura?: unknown; recordings?: string[] }) {
  const { asked = true, signedAudio = recordedAudio, signedLeitura = leitura, recordings = [OTHER_SHA, SHA] } = options;
  return [
    event("document.created", { titulo: "TCLE para teleconsulta", ...(asked ? { pedir_audio: true } : {}) }),
    event("document.party_signed", { parte_id: PROFESSIONAL_ID, papel: "profissional" }),
    ...recordings.map((sha256, i) =>
      event("document.audio_recorded", {
        link_id: "c2d3e4f5-0000-4000-8000-000000000001",
        file_id: `f0000000-0000-4000-8000-00000000000${i}`,
        sha256,
        duracao_ms: 12_000,
        mime: "audio/ogg",
        tamanho: 48_213,
        frase: FRASE,
        tentativa: i + 1,
        em: "2026-12-03T13:00:05.000Z",
      }),
    ),
    event("document.party_signed", {
      parte_id: PATIENT_ID,
      papel: "paciente",
      nivel: "avancada",
      ...(signedLeitura ? { leitura: signedLeitura } : {}),
      ...(signedAudio ? { audio: signedAudio } : {}),
    }),
    event("document.signed", {}),
  ];
}
const patient = (extra: Record<string, unknown>) => ({
  id: PATIENT_ID,
  papel: "paciente",
  nome: "Ana Souza",
  tipo_assinatura: "desenhada",
  ...extra,
});
const professional = { id: PROFESSIONAL_ID, papel: "profissional", nome: "Dra. Lia", tipo_assinatura: "senha" };

describe("audio of the agreement in the verifier's report (decision 069)", () => {
  it("checks a recording against the signature's event and the recorded uploads, then lists hash, length and type", () => {
    const lines = comprehensionReadingLines(
      model,
      [professional, patient({ audio: recordedAudio, leitura })],
      chain({}),
    );
    expect(lines[0]).toEqual({
      ok: true,
      text: "O áudio do aceite de Ana Souza é o da sua assinatura registrada na cadeia de eventos, e uma gravação com esse SHA-256, duração e formato foi registrada na cadeia ao ser recebida.",
    });
    expect(lines[1]).toEqual({ ok: null, text: `Ana Souza — Áudio do aceite: SHA-256 ${SHA}, 0 min 12 s.` });
    expect(lines[2]!.text).toMatch(
      /^Ana Souza — Gravação: formato audio\/ogg, 48\.213 bytes, recebido em 03\/12\/2026/,
    );
    expect(lines).toContainEqual({
      ok: null,
      text: `Ana Souza — Frase pedida para a leitura em voz alta: “${FRASE}”`,
    });
    expect(lines.find((l) => l.text.includes("Gravado pelo aparelho do signatário"))!.text).toContain(
      "não conferiu que a voz seja a do signatário",
    );
    // Then the reading record, as the device's word; nothing for the professional.
    expect(lines).toContainEqual({
      ok: true,
      text: expect.stringContaining(
        "O registro de leitura de Ana Souza cita as 2 seções do conteúdo congelado e é o da sua assinatura registrada na cadeia de eventos",
      ),
    });
    expect(lines).toContainEqual({
      ok: null,
      text: "Ana Souza — Registrado pelo aparelho do signatário (não conferido):",
    });
    expect(lines).toContainEqual({ ok: null, text: "Ana Souza — Seção “Riscos”: na tela por 1 min 2 s." });
    expect(lines.some((l) => l.text.includes("Dra. Lia"))).toBe(false);
  });

  it("says “asked, not recorded” when the patient signed without it", () => {
    const notRecorded = { pedido: true, gravado: false };
    const lines = audioConsentLines(
      patient({ audio: notRecorded }),
      chain({ signedAudio: notRecorded, recordings: [] }),
    );
    expect(lines).toEqual([
      {
        ok: true,
        text: "A cadeia de eventos registra, na assinatura de Ana Souza, que o áudio do aceite foi pedido e não foi gravado.",
      },
      {
        ok: null,
        text: "Ana Souza — Áudio do aceite: pedido pela clínica, não gravado (o signatário assinou sem gravar).",
      },
    ]);
  });

  it("fails evidence whose audio differs from the sealed chain, is missing from it, or names no recorded upload", () => {
    const first = (party: Record<string, unknown>, events: unknown[]) => audioConsentLines(patient(party), events)[0];
    // Another hash in evidencias.json than in the signature's event.
    expect(first({ audio: { ...recordedAudio, sha256: OTHER_SHA } }, chain({}))).toEqual({
      ok: false,
      text: "O áudio do aceite de Ana Souza não confere com a assinatura registrada na cadeia de eventos.",
    });
    // "Not recorded" in the evidence while the signature's event kept a recording.
    expect(first({ audio: { pedido: true, gravado: false } }, chain({}))?.ok).toBe(false);
    // Both say a hash no upload of the chain had.
    expect(first({ audio: recordedAudio }, chain({ recordings: [OTHER_SHA] }))).toEqual({
      ok: false,
      text: "O áudio do aceite de Ana Souza não confere com as gravações registradas na cadeia de eventos.",
    });
    // Another length than the upload's.
    const longer = { ...recordedAudio, duracao_ms: 15_000 };
    expect(first({ audio: longer }, chain({ signedAudio: longer }))?.ok).toBe(false);
    // The audio dropped from the evidence, the chain still holding it.
    expect(first({}, chain({}))).toEqual({
      ok: false,
      text: "As evidências de Ana Souza não trazem o áudio do aceite que a assinatura registrada na cadeia de eventos traz.",
    });
    // Asked at creation, and neither the evidence nor the chain says what happened.
    expect(first({}, chain({ signedAudio: null }))?.ok).toBe(false);
    expect(first({ audio: "gravado" }, chain({}))).toEqual({
      ok: false,
      text: "O áudio do aceite de Ana Souza não confere com o formato das evidências.",
    });
  });

  it("says nothing of audio when the document did not ask for it, nor for a witness", () => {
    expect(audioConsentLines(patient({}), chain({ asked: false, signedAudio: null, recordings: [] }))).toEqual([]);
    expect(audioConsentLines({ id: "w1", papel: "testemunha", nome: "T" }, chain({}))).toEqual([]);
  });
});

describe("reading record in the verifier's report (decision 052)", () => {
  it("says explicitly that the device sent none", () => {
    const lines = comprehensionReadingLines(
      model,
      [patient({})],
      chain({ asked: false, signedAudio: null, signedLeitura: null }),
    );
    expect(lines).toEqual([{ ok: null, text: `Ana Souza — ${READING_NOT_SENT}` }]);
  });

  it("fails a record dropped from, or changed in, the evidence while the sealed chain holds another", () => {
    const only = (party: Record<string, unknown>) =>
      comprehensionReadingLines(model, [party], chain({ asked: false, signedAudio: null }));
    expect(only(patient({}))).toEqual([
      {
        ok: false,
        text: "As evidências de Ana Souza não trazem o registro de leitura que a assinatura registrada na cadeia de eventos traz.",
      },
    ]);
    const longer = { ...leitura, secoes: [{ ...leitura.secoes[0]!, ms: 600_000 }, leitura.secoes[1]!] };
    expect(only(patient({ leitura: longer }))[0]).toEqual({
      ok: false,
      text: "O registro de leitura de Ana Souza difere do registrado na sua assinatura na cadeia de eventos.",
    });
  });
});
