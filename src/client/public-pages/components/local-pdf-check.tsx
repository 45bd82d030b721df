import { CheckCircle2, Download, Lock, XCircle } from "lucide-react";
import type * as React from "react";
import { useState } from "react";
import type { BrowserReport } from "@shared/verification/pdf-verifier";
import { LOCAL_LIMITS, LOCAL_PRIVACY, VERDICT_TEXT } from "@shared/verification/verdict-text";
import { verifyLocally } from "../lib/local-verify";
import { moduleWorker } from "../lib/module-worker";
import { PdfDropZone } from "./pdf-drop-zone";
import { Notice, Panel } from "./public-shell";
import { Spinner } from "./spinner";

type Check =
  | { kind: "idle" }
  | { kind: "checking"; name: string }
  | { kind: "done"; name: string; report: BrowserReport }
  | { kind: "failed"; name: string; message: string };

/**
 * Drop or choose a PDF; it is checked in this browser, in a worker, and never sent (decision 077).
 * The offline copy of the same check is /verificador.html, linked here for download.
 */
export function LocalPdfCheck() {
  const [check, setCheck] = useState<Check>({ kind: "idle" });

  async function verify(file: File | undefined) {
    if (!file) return;
    setCheck({ kind: "checking", name: file.name });
    const result = await verifyLocally(file, { makeWorker: moduleWorker });
    setCheck(
      result.kind === "done"
        ? { kind: "done", name: file.name, report: result.report }
        : { kind: "failed", name: file.name, message: result.message },
    );
  }

  return (
    <Panel aria-labelledby="verify-file">
      <div className="grid gap-1">
        <h2 id="verify-file" className="text-base font-semibold">
          Verificar um arquivo PDF
        </h2>
        <p className="text-sm text-muted-foreground">
          Escolha o PDF que você recebeu: conferimos a assinatura digital dele, se algo foi acrescentado depois do selo
          e as evidências que ele traz (conteúdo assinado e cadeia de eventos).
        </p>
        <p className="flex items-center gap-1.5 text-sm font-medium" data-testid="local-privacy">
          <Lock className="size-4 text-primary" aria-hidden /> {LOCAL_PRIVACY}
        </p>
      </div>
      <PdfDropZone onFile={(file) => void verify(file)} />

      {check.kind === "checking" ? (
        <p className="flex items-center gap-2 text-sm text-muted-foreground" role="status">
          <Spinner /> Verificando {check.name} neste navegador…
        </p>
      ) : null}
      {check.kind === "failed" ? (
        <div data-testid="local-verdict" data-verdict="falhou">
          <Notice tone="error" title={check.message} />
        </div>
      ) : null}
      {check.kind === "done" ? <LocalVerdict name={check.name} report={check.report} /> : null}

      <p className="text-xs text-muted-foreground">{LOCAL_LIMITS}</p>
      <a
        href="/verificador.html"
        download="verificador-consentir.html"
        className="inline-flex items-center gap-1.5 text-sm font-medium text-primary underline underline-offset-4"
        data-testid="download-offline-verifier"
      >
        <Download className="size-4" aria-hidden /> Baixar o verificador para usar sem internet
      </a>
    </Panel>
  );
}

function LocalVerdict({ name, report }: { name: string; report: BrowserReport }) {
  const text = VERDICT_TEXT[report.veredito];
  return (
    <div className="grid gap-2" data-testid="local-verdict" data-verdict={report.veredito} aria-live="polite">
      <p className="text-sm break-all text-muted-foreground">Arquivo: {name}</p>
      <p
        data-ok={text.ok}
        className={`flex items-start gap-2 rounded-lg border px-3 py-2 text-sm font-medium ${
          text.ok
            ? "border-success/40 bg-success/10 text-[color-mix(in_oklab,var(--color-success)_55%,black)]"
            : "border-destructive/40 bg-destructive/5 text-destructive"
        }`}
        data-testid="local-verdict-title"
      >
        {text.ok ? (
          <CheckCircle2 className="mt-0.5 size-4 shrink-0" aria-hidden />
        ) : (
          <XCircle className="mt-0.5 size-4 shrink-0" aria-hidden />
        )}
        <span>{text.title}</span>
      </p>
      <p className="text-sm">{text.detail}</p>
      {report.registro ? (
        <p className="text-sm font-medium" data-testid="local-record-title">
          {report.registro.titulo}
        </p>
      ) : null}
      {report.documento ? (
        <p className="text-sm">
          Documento {report.documento.id_curto} — {report.documento.titulo}.{" "}
          {report.documento.codigo_verificacao ? (
            <a
              href={`/verificar/${encodeURIComponent(report.documento.codigo_verificacao)}`}
              className="font-medium text-primary underline underline-offset-4"
              data-testid="verification-open-document"
            >
              Ver quem assinou e quando (código {report.documento.codigo_verificacao})
            </a>
          ) : null}
        </p>
      ) : null}
      {report.certificado ? (
        <p className="text-xs break-all text-muted-foreground">
          Certificado do selo: {report.certificado.assunto} — impressão digital SHA-256 {report.certificado.sha256}
        </p>
      ) : null}
      <details className="text-sm">
        <summary className="cursor-pointer font-medium">Ver cada verificação ({report.linhas.length})</summary>
        <ul className="mt-2 grid gap-1" data-testid="local-lines">
          {report.linhas.map((line, i) => (
            <li
              key={i}
              className={`break-words ${line.ok === false ? "text-destructive" : line.ok ? "" : "text-muted-foreground"}`}
            >
              {line.ok === null ? "•" : line.ok ? "✓" : "✗"} {line.text}
            </li>
          ))}
        </ul>
      </details>
    </div>
  );
}
