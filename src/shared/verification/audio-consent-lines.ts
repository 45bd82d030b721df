import { type AudioEvidence, audioEvidenceLine, readAudioEvidence } from "../audio/audio-consent.js";
import { canonicalJson } from "../evidence/canonical-json.js";
import { formatDateTimeSeconds } from "../format/index.js";
import type { EvidenceLine } from "./optional-consent-lines.js";

interface ChainEvent {
  action?: unknown;
  data?: unknown;
}

/** The roles the clinic's request for the audio reaches: witnesses are never asked (decision 069). */
const ASKED_ROLES = new Set(["paciente", "responsavel"]);

/**
 * What the embedded evidence says of one signer's audio of the agreement (decision 069). Checks:
 * the party's `audio` is the one of its own "Assinatura registrada" event of the sealed chain;
 * a recording's SHA-256, length and type are those of a `document.audio_recorded` event of that
 * chain; a document whose creation event asked for the audio has an `audio` for its patient or
 * guardian. Then, as information, the hash, length, type and sentence — or "asked, not recorded".
 * The recording itself is not in the PDF, and its content is not checked against the person.
 */
export function audioConsentLines(
  party: { id?: unknown; nome?: string; papel?: string; audio?: unknown },
  events: readonly unknown[],
): EvidenceLine[] {
  const nome = party.nome ?? "Signatário";
  const chain = events as ChainEvent[];
  const asked = chain.some(
    (e) => e?.action === "document.created" && (e.data as { pedir_audio?: unknown } | null)?.pedir_audio === true,
  );
  const signedEvent = chain.find(
    (e) =>
      e?.action === "document.party_signed" &&
      party.id !== undefined &&
      (e.data as { parte_id?: unknown } | null)?.parte_id === party.id,
  );
  const chainAudio = (signedEvent?.data as { audio?: unknown } | undefined)?.audio;
  const present = party.audio !== undefined && party.audio !== null;

  if (!present) {
    if (chainAudio !== undefined && chainAudio !== null)
      return [
        {
          ok: false,
          text: `As evidências de ${nome} não trazem o áudio do aceite que a assinatura registrada na cadeia de eventos traz.`,
        },
      ];
    if (asked && ASKED_ROLES.has(party.papel ?? ""))
      return [
        {
          ok: false,
          text: `O documento pediu o áudio do aceite, mas nem as evidências nem a cadeia de eventos dizem se ${nome} gravou ou não.`,
        },
      ];
    return [];
  }

  const audio = readAudioEvidence(party.audio);
  const sameAsChain =
    !!audio && canonicalJson(audio) === canonicalJson(readAudioEvidence(chainAudio) ?? { ausente: true });
  const recorded =
    !!audio &&
    (!audio.gravado ||
      (!!audio.sha256 &&
        chain.some((e) => {
          if (e?.action !== "document.audio_recorded") return false;
          const d = (e.data ?? {}) as { sha256?: unknown; duracao_ms?: unknown; mime?: unknown };
          return d.sha256 === audio.sha256 && d.duracao_ms === audio.duracao_ms && d.mime === audio.mime;
        })));
  const ok = sameAsChain && recorded;
  const lines: EvidenceLine[] = [
    {
      ok,
      text: ok
        ? audio!.gravado
          ? `O áudio do aceite de ${nome} é o da sua assinatura registrada na cadeia de eventos, e uma gravação com esse SHA-256, duração e formato foi registrada na cadeia ao ser recebida.`
          : `A cadeia de eventos registra, na assinatura de ${nome}, que o áudio do aceite foi pedido e não foi gravado.`
        : `O áudio do aceite de ${nome} não confere com ${
            !audio
              ? "o formato das evidências"
              : !sameAsChain
                ? "a assinatura registrada na cadeia de eventos"
                : "as gravações registradas na cadeia de eventos"
          }.`,
    },
  ];
  if (audio) lines.push(...audioInfoLines(audio).map((text) => ({ ok: null, text: `${nome} — ${text}` })));
  return lines;
}

/** The audio as information: the registry's line, then the type, size, time and sentence. */
export function audioInfoLines(audio: AudioEvidence): string[] {
  const head = audioEvidenceLine(audio);
  if (!audio.gravado || !audio.sha256) return [head];
  const details = [
    audio.mime ? `formato ${audio.mime}` : null,
    audio.tamanho !== undefined ? `${audio.tamanho.toLocaleString("pt-BR")} bytes` : null,
    audio.gravado_em && !Number.isNaN(Date.parse(audio.gravado_em))
      ? `recebido em ${formatDateTimeSeconds(new Date(audio.gravado_em))} (America/Sao_Paulo, relógio do servidor)`
      : null,
  ].filter((d): d is string => d !== null);
  return [
    head,
    ...(details.length > 0 ? [`Gravação: ${details.join(", ")}.`] : []),
    ...(audio.frase ? [`Frase pedida para a leitura em voz alta: “${audio.frase}”`] : []),
    "Gravado pelo aparelho do signatário: o servidor identificou o formato pelos próprios bytes e limitou o tamanho e a duração ao receber; não conferiu que a voz seja a do signatário nem o que foi dito. O arquivo de áudio não está neste PDF; a clínica o guarda, e o SHA-256 permite conferir que uma gravação é esta.",
  ];
}
