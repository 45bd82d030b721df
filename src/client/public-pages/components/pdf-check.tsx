import { CheckCircle2, XCircle } from "lucide-react";
import type * as React from "react";
import { useState } from "react";
import type { PdfVerdict } from "@shared/schemas/signing";
import { publicFetch } from "../lib/http";
import { EvidenceReport } from "./evidence-report";
import { PdfDropZone } from "./pdf-drop-zone";
import { Notice, Panel } from "./public-shell";
import { Spinner } from "./spinner";

type Check<V> =
  | { kind: "idle" }
  | { kind: "checking"; name: string }
  | { kind: "done"; name: string; verdict: V }
  | { kind: "failed"; name: string; message: string };

/** The server reads at most 10 MB (MAX_VERIFY_PDF_BYTES); sealed PDFs are far smaller. */
const MAX_PDF_BYTES = 10 * 1024 * 1024;

/** Drop or choose a PDF; the server checks it (/verificar/:code, or /verificar reading the code from the file). */
export function PdfCheck<V extends PdfVerdict>({
  path,
  sealedKnown,
  intro = "Envie o PDF que você recebeu: conferimos se ele é exatamente o PDF selado deste documento, se a assinatura digital dele é válida e as evidências que ele traz (conteúdo assinado e cadeia de eventos). O arquivo não fica guardado.",
  after,
}: {
  path: string;
  sealedKnown: boolean;
  intro?: string;
  /** What follows a verdict (the code-less page links to the document's own page). */
  after?: (verdict: V) => React.ReactNode;
}) {
  const [check, setCheck] = useState<Check<V>>({ kind: "idle" });

  async function verify(file: File | undefined) {
    if (!file) return;
    if (file.size > MAX_PDF_BYTES)
      return setCheck({
        kind: "failed",
        name: file.name,
        message: "Arquivo grande demais para verificar (máximo 10 MB).",
      });
    setCheck({ kind: "checking", name: file.name });
    const result = await publicFetch<V>(path, { method: "POST", bytes: file });
    if (result.ok) setCheck({ kind: "done", name: file.name, verdict: result.data });
    else
      setCheck({
        kind: "failed",
        name: file.name,
        message: result.message ?? "Não foi possível verificar o arquivo. Tente novamente.",
      });
  }

  return (
    <Panel aria-labelledby="verify-file">
      <div className="grid gap-1">
        <h2 id="verify-file" className="text-base font-semibold">
          Verificar um arquivo PDF
        </h2>
        <p className="text-sm text-muted-foreground">{intro}</p>
      </div>
      <PdfDropZone onFile={(file) => void verify(file)} />

      {check.kind === "checking" ? (
        <p className="flex items-center gap-2 text-sm text-muted-foreground" role="status">
          <Spinner /> Verificando {check.name}…
        </p>
      ) : null}
      {check.kind === "failed" ? <Notice tone="error" title={check.message} /> : null}
      {check.kind === "done" ? (
        <>
          <Verdict name={check.name} verdict={check.verdict} sealedKnown={sealedKnown} />
          {after?.(check.verdict)}
        </>
      ) : null}
    </Panel>
  );
}

function Verdict({ name, verdict, sealedKnown }: { name: string; verdict: PdfVerdict; sealedKnown: boolean }) {
  return (
    <div className="grid gap-2" data-testid="pdf-verdict" aria-live="polite">
      <p className="text-sm break-all text-muted-foreground">Arquivo: {name}</p>
      <Outcome
        ok={verdict.identico}
        testId="verdict-identical"
        yes="Este arquivo é exatamente o PDF selado deste documento."
        no={
          sealedKnown
            ? "Este arquivo NÃO é o PDF selado deste documento: o conteúdo é diferente (SHA-256 não confere)."
            : "Ainda não há PDF selado para comparar: tente de novo em instantes."
        }
      />
      <Outcome
        ok={verdict.assinatura_valida}
        testId="verdict-signature"
        yes={`O selo digital do arquivo está íntegro e é de um certificado conhecido deste servidor ou da clínica${verdict.certificado ? ` (${verdict.certificado})` : ""}.`}
        no={
          verdict.selo_integro
            ? `O selo digital do arquivo está íntegro, mas o certificado${verdict.certificado ? ` “${verdict.certificado}”` : ""} NÃO é deste servidor nem da clínica: qualquer um pode criar um certificado com o mesmo nome.`
            : "O arquivo não tem selo digital válido: foi alterado depois de selado, ou não é um PDF selado."
        }
      />
      <p className="text-xs break-all text-muted-foreground">SHA-256 do arquivo: {verdict.sha256}</p>
      {verdict.evidencias ? (
        <EvidenceReport evidence={verdict.evidencias} />
      ) : (
        <p className="text-sm text-muted-foreground" data-testid="evidence-missing">
          Este arquivo não traz as evidências embutidas (documento.json e evidencias.json) ou elas não puderam ser
          lidas.
        </p>
      )}
    </div>
  );
}

function Outcome({ ok, yes, no, testId }: { ok: boolean; yes: string; no: string; testId: string }) {
  return (
    <p
      data-testid={testId}
      data-ok={ok}
      className={`flex items-start gap-2 rounded-lg border px-3 py-2 text-sm font-medium ${
        ok
          ? "border-success/40 bg-success/10 text-[color-mix(in_oklab,var(--color-success)_55%,black)]"
          : "border-destructive/40 bg-destructive/5 text-destructive"
      }`}
    >
      {ok ? (
        <CheckCircle2 className="mt-0.5 size-4 shrink-0" aria-hidden />
      ) : (
        <XCircle className="mt-0.5 size-4 shrink-0" aria-hidden />
      )}
      <span>{ok ? yes : no}</span>
    </p>
  );
}
