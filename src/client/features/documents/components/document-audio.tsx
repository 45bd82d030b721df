import { AudioLines, Play } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { useCurrentUser } from "@/features/auth";
import { audioDurationLabel } from "@shared/audio/audio-consent";
import { profileCan } from "@shared/permissions";
import type { SignatureSummary } from "@shared/schemas/signing";

/**
 * The audio of the agreement each signer recorded (decision 069): its length and SHA-256, and a
 * player. The bytes are fetched only when "Ouvir" is pressed; each fetch is a play in the trail
 * ("Áudio do aceite reproduzido"). The front desk sees that it exists, not the player.
 */
export function DocumentAudio({ documentId, signatures }: { documentId: string; signatures: SignatureSummary[] }) {
  const asked = signatures.filter((s) => s.audio);
  const { data: user } = useCurrentUser();
  const mayPlay = profileCan(user?.profile, "documents.playAudio");
  if (asked.length === 0) return null;
  return (
    <div className="grid gap-3" data-testid="document-audio">
      <h3 className="flex items-center gap-2 text-sm font-semibold">
        <AudioLines className="size-4 text-primary" aria-hidden /> Áudio do aceite
      </h3>
      {asked.map((signature) => (
        <div key={`${signature.papel}-${signature.assinou_em}`} className="grid gap-2 rounded-md border p-3 text-sm">
          <p className="font-medium">{signature.nome}</p>
          {signature.audio!.gravado && signature.audio!.sha256 && signature.parte_id ? (
            <>
              <p className="text-xs break-all text-muted-foreground" data-testid="audio-line">
                {audioDurationLabel(signature.audio!.duracao_ms ?? 0)} · SHA-256 {signature.audio!.sha256}
              </p>
              {signature.audio!.frase ? <p className="text-xs italic">“{signature.audio!.frase}”</p> : null}
              {mayPlay ? (
                <AudioPlayer documentId={documentId} parteId={signature.parte_id} />
              ) : (
                <p className="text-xs text-muted-foreground">Seu perfil não reproduz o áudio do aceite.</p>
              )}
            </>
          ) : (
            <p className="text-xs text-muted-foreground" data-testid="audio-missing">
              A clínica pediu o áudio, mas o signatário assinou sem gravar.
            </p>
          )}
        </div>
      ))}
    </div>
  );
}

function AudioPlayer({ documentId, parteId }: { documentId: string; parteId: string }) {
  const [url, setUrl] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const player = useRef<HTMLAudioElement | null>(null);
  useEffect(() => () => void (url && URL.revokeObjectURL(url)), [url]);
  useEffect(() => {
    if (url) void player.current?.play().catch(() => undefined);
  }, [url]);

  const play = async () => {
    setBusy(true);
    setError(null);
    try {
      const response = await fetch(
        `/api/documents/${encodeURIComponent(documentId)}/parties/${encodeURIComponent(parteId)}/audio`,
        { credentials: "same-origin" },
      );
      if (!response.ok) {
        const body = (await response.json().catch(() => ({}))) as { message?: string };
        setError(body.message ?? "Não foi possível carregar o áudio.");
        return;
      }
      const blob = await response.blob();
      setUrl(URL.createObjectURL(blob));
    } catch {
      setError("Não foi possível falar com o servidor.");
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="grid gap-2">
      {url ? (
        <audio ref={player} controls src={url} className="w-full" data-testid="staff-audio-player">
          <track kind="captions" />
        </audio>
      ) : null}
      <div>
        <Button
          type="button"
          variant="outline"
          size="sm"
          onClick={() => void play()}
          disabled={busy}
          data-testid="audio-play"
        >
          <Play className="size-4" aria-hidden /> {url ? "Ouvir de novo" : "Ouvir o áudio"}
        </Button>
      </div>
      {error ? (
        <p className="text-xs text-destructive" role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}
