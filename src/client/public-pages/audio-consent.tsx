import { Mic, RotateCcw, Square, Upload } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { audioDurationLabel } from "@shared/audio/audio-consent";
import type { SigningPage } from "@shared/schemas/signing";
import { Notice, Panel, PlainButton } from "./components/public-shell";
import { Spinner } from "./components/spinner";
import { publicFetch } from "./lib/http";

type AudioRequest = NonNullable<SigningPage["audio"]>;

/** What MediaRecorder may make here, best first (Chrome and Firefox: WebM/Ogg Opus; Safari: MP4). */
const RECORDING_TYPES = ["audio/webm;codecs=opus", "audio/ogg;codecs=opus", "audio/mp4", "audio/webm"];

type Phase =
  | { kind: "idle" }
  | { kind: "asking" }
  | { kind: "unavailable"; reason: string }
  | { kind: "recording"; started: number }
  | { kind: "review"; blob: Blob; url: string; ms: number }
  | { kind: "uploading"; blob: Blob; url: string; ms: number };

function supportedType(): string | undefined {
  if (typeof MediaRecorder === "undefined" || typeof MediaRecorder.isTypeSupported !== "function") return undefined;
  return RECORDING_TYPES.find((t) => MediaRecorder.isTypeSupported(t));
}

/** Why there is no recording, in words a patient understands. */
function unavailableReason(error: unknown): string {
  const name = (error as { name?: string } | null)?.name;
  if (name === "NotAllowedError" || name === "SecurityError")
    return "Você não permitiu o uso do microfone (ou o navegador bloqueou).";
  if (name === "NotFoundError" || name === "OverconstrainedError")
    return "Não encontramos um microfone neste aparelho.";
  if (name === "NotReadableError") return "O microfone está sendo usado por outro aplicativo.";
  return "Este navegador não consegue gravar áudio.";
}

/**
 * "Grave o seu aceite em áudio" (decision 069): the patient reads the sentence aloud and records
 * it here, at most 3 minutes; they listen again, redo, then send it. Without a microphone or
 * permission the page says why and how to go on: signing stays possible (the clinic sees that
 * no audio was recorded), or they talk to the clinic. The server checks the file again.
 */
export function AudioConsent({
  token,
  audio,
  onSaved,
  onInvalid,
  onStale,
}: {
  token: string;
  audio: AudioRequest;
  onSaved: (audio: AudioRequest) => void;
  onInvalid: () => void;
  onStale: () => void;
}) {
  const [phase, setPhase] = useState<Phase>({ kind: "idle" });
  const [elapsed, setElapsed] = useState(0);
  const [error, setError] = useState<string | null>(null);
  const recorder = useRef<MediaRecorder | null>(null);
  const stream = useRef<MediaStream | null>(null);
  const urlRef = useRef<string | null>(null);

  const releaseMic = () => {
    stream.current?.getTracks().forEach((t) => t.stop());
    stream.current = null;
  };
  const setUrl = (url: string | null) => {
    if (urlRef.current) URL.revokeObjectURL(urlRef.current);
    urlRef.current = url;
  };
  useEffect(
    () => () => {
      if (recorder.current?.state === "recording") recorder.current.stop();
      releaseMic();
      setUrl(null);
    },
    [],
  );

  // The clock while recording; the recording stops by itself at the limit.
  useEffect(() => {
    if (phase.kind !== "recording") return;
    const timer = window.setInterval(() => {
      const ms = performance.now() - phase.started;
      setElapsed(ms);
      if (ms >= audio.max_ms) recorder.current?.stop();
    }, 250);
    return () => window.clearInterval(timer);
  }, [phase, audio.max_ms]);

  const start = async () => {
    setError(null);
    const type = supportedType();
    if (!navigator.mediaDevices?.getUserMedia || typeof MediaRecorder === "undefined") {
      setPhase({ kind: "unavailable", reason: "Este navegador não consegue gravar áudio." });
      return;
    }
    setPhase({ kind: "asking" });
    let mic: MediaStream;
    try {
      mic = await navigator.mediaDevices.getUserMedia({ audio: true });
    } catch (failure) {
      setPhase({ kind: "unavailable", reason: unavailableReason(failure) });
      return;
    }
    stream.current = mic;
    const made = new MediaRecorder(mic, type ? { mimeType: type, audioBitsPerSecond: 32_000 } : undefined);
    const chunks: Blob[] = [];
    let size = 0;
    const started = performance.now();
    made.ondataavailable = (event) => {
      if (event.data.size === 0) return;
      chunks.push(event.data);
      size += event.data.size;
      // Near the size cap: stop rather than make a file the server refuses.
      if (size > audio.max_bytes * 0.95 && made.state === "recording") made.stop();
    };
    made.onstop = () => {
      releaseMic();
      const ms = Math.min(performance.now() - started, audio.max_ms);
      const blob = new Blob(chunks, { type: made.mimeType || type || "audio/webm" });
      const url = URL.createObjectURL(blob);
      setUrl(url);
      setPhase({ kind: "review", blob, url, ms });
    };
    recorder.current = made;
    made.start(1000);
    setElapsed(0);
    setPhase({ kind: "recording", started });
  };

  const stop = () => {
    if (recorder.current?.state === "recording") recorder.current.stop();
  };

  const send = async () => {
    if (phase.kind !== "review") return;
    setPhase({ ...phase, kind: "uploading" });
    setError(null);
    const result = await publicFetch<{ sha256: string; duracao_ms: number; envios: number }>(
      `/api/public/sign/${encodeURIComponent(token)}/audio?duracao_ms=${Math.round(phase.ms)}`,
      { bytes: phase.blob, contentType: phase.blob.type.split(";")[0] || "application/octet-stream" },
    );
    if (!result.ok) {
      if (result.status === 410) return onInvalid();
      if (result.code === "SIGNING_ALREADY_SIGNED" || result.code === "AUDIO_NOT_REQUESTED") return onStale();
      setPhase({ ...phase, kind: "review" });
      setError(result.message ?? "Não foi possível enviar a gravação. Verifique sua conexão e tente novamente.");
      return;
    }
    setUrl(null);
    setPhase({ kind: "idle" });
    onSaved({
      ...audio,
      envios: result.data.envios,
      gravacao: { duracao_ms: result.data.duracao_ms, sha256: result.data.sha256 },
    });
  };

  const redo = () => {
    setUrl(null);
    setPhase({ kind: "idle" });
    void start();
  };

  const canRedo = audio.envios < audio.max_envios;
  const maxLabel = `${Math.round(audio.max_ms / 60_000)} minutos`;

  return (
    <Panel aria-labelledby="audio-title" className="grid gap-3" data-testid="audio-consent">
      <h2 id="audio-title" className="text-base font-semibold">
        Grave o seu aceite em áudio
      </h2>
      <p className="text-sm">
        A clínica pediu que você grave a sua voz lendo a frase abaixo, em voz alta (até {maxLabel}). A gravação fica
        guardada com segurança junto com a sua assinatura.
      </p>
      <blockquote
        className="rounded-lg border-l-4 border-primary bg-primary/5 px-4 py-3 text-base"
        data-testid="audio-sentence"
      >
        {audio.frase}
      </blockquote>

      {audio.gravacao && phase.kind === "idle" ? (
        <Notice tone="success" title="Áudio gravado e enviado" data-testid="audio-saved">
          Duração: {audioDurationLabel(audio.gravacao.duracao_ms)}. Agora é só assinar abaixo.
        </Notice>
      ) : null}

      {phase.kind === "unavailable" ? (
        <Notice tone="error" title="Não foi possível usar o microfone" data-testid="audio-unavailable">
          <p>{phase.reason}</p>
          <p className="mt-1">
            Para tentar de novo, permita o uso do microfone nas configurações do navegador e toque em “Gravar”. Se não
            conseguir, fale com a clínica: eles podem registrar o seu aceite de outro jeito. Você também pode assinar
            sem o áudio; a clínica verá que ele não foi gravado.
          </p>
        </Notice>
      ) : null}

      {phase.kind === "recording" ? (
        <p
          className="flex items-center gap-2 text-sm font-medium text-destructive"
          role="status"
          data-testid="audio-recording"
        >
          <span className="inline-block size-3 animate-pulse rounded-full bg-destructive" aria-hidden />
          Gravando… {audioDurationLabel(elapsed)} de {maxLabel}
        </p>
      ) : null}

      {phase.kind === "review" || phase.kind === "uploading" ? (
        <div className="grid gap-2">
          <p className="text-sm">Ouça a gravação antes de enviar ({audioDurationLabel(phase.ms)}):</p>
          <audio controls src={phase.url} className="w-full" data-testid="audio-preview">
            <track kind="captions" />
          </audio>
        </div>
      ) : null}

      {error ? (
        <Notice tone="error" title="Gravação não enviada" data-testid="audio-error">
          {error}
        </Notice>
      ) : null}

      <div className="flex flex-wrap gap-2">
        {phase.kind === "idle" || phase.kind === "unavailable" || phase.kind === "asking" ? (
          audio.gravacao && !canRedo ? null : (
            <PlainButton
              variant={audio.gravacao ? "outline" : "primary"}
              onClick={() => void start()}
              disabled={phase.kind === "asking"}
              data-testid="audio-record"
            >
              {phase.kind === "asking" ? <Spinner /> : <Mic className="size-4" aria-hidden />}
              {audio.gravacao ? "Gravar de novo" : "Gravar"}
            </PlainButton>
          )
        ) : null}
        {phase.kind === "recording" ? (
          <PlainButton onClick={stop} data-testid="audio-stop">
            <Square className="size-4" aria-hidden />
            Parar
          </PlainButton>
        ) : null}
        {phase.kind === "review" || phase.kind === "uploading" ? (
          <>
            <PlainButton onClick={() => void send()} disabled={phase.kind === "uploading"} data-testid="audio-send">
              {phase.kind === "uploading" ? <Spinner /> : <Upload className="size-4" aria-hidden />}
              Enviar gravação
            </PlainButton>
            {canRedo ? (
              <PlainButton
                variant="outline"
                onClick={redo}
                disabled={phase.kind === "uploading"}
                data-testid="audio-redo"
              >
                <RotateCcw className="size-4" aria-hidden />
                Gravar de novo
              </PlainButton>
            ) : null}
          </>
        ) : null}
      </div>
    </Panel>
  );
}
