import { FileSearch, ShieldCheck } from "lucide-react";
import type * as React from "react";
import { useId, useState } from "react";
import type { PdfVerdict } from "@shared/schemas/signing";
import { PdfCheck } from "./components/pdf-check";
import { Panel, PlainButton, PublicShell } from "./components/public-shell";

/** What the code-less check answers: the verdict and the code read from the file. */
type CodedVerdict = PdfVerdict & { codigo: string };

/**
 * /verificar without a code: for whoever holds a paper copy (types the code printed on it) or a
 * PDF (sends it; the code is read from the evidence inside).
 */
export function VerificationStart() {
  const [code, setCode] = useState("");
  const [error, setError] = useState<string | null>(null);
  const inputId = useId();
  const errorId = useId();

  function open(event: React.FormEvent) {
    event.preventDefault();
    const typed = code.trim().toUpperCase().replace(/[\s-]/g, "");
    if (!/^[A-Z0-9]{6,32}$/.test(typed)) {
      setError("Digite o código de verificação como está impresso no documento (letras e números).");
      return;
    }
    window.location.assign(`/verificar/${encodeURIComponent(typed)}`);
  }

  return (
    <PublicShell>
      <Panel className="gap-3">
        <p className="flex items-center gap-1.5 text-xs font-medium tracking-wide text-muted-foreground uppercase">
          <ShieldCheck className="size-4 text-primary" aria-hidden /> Verificação de documento
        </p>
        <h1 className="text-xl font-semibold tracking-tight sm:text-2xl">Verificar um documento</h1>
        <p className="text-sm text-muted-foreground">
          Digite o código de verificação impresso no registro de assinaturas do documento, ou envie o arquivo PDF
          abaixo.
        </p>
        <form className="grid gap-2" onSubmit={open} noValidate>
          <label htmlFor={inputId} className="text-sm font-medium">
            Código de verificação
          </label>
          <div className="flex flex-wrap gap-2">
            <input
              id={inputId}
              value={code}
              onChange={(event) => (setCode(event.target.value), setError(null))}
              autoCapitalize="characters"
              autoComplete="off"
              spellCheck={false}
              maxLength={40}
              aria-invalid={error !== null}
              aria-describedby={error ? errorId : undefined}
              className="h-11 min-w-0 flex-1 rounded-md border border-input bg-background px-3 font-mono text-base uppercase tracking-wider shadow-xs outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50"
              data-testid="verification-code-input"
            />
            <PlainButton type="submit" className="h-11">
              <FileSearch className="size-4" aria-hidden /> Verificar
            </PlainButton>
          </div>
          {error ? (
            <p id={errorId} className="text-sm text-destructive" role="alert">
              {error}
            </p>
          ) : null}
        </form>
      </Panel>
      <PdfCheck<CodedVerdict>
        path="/api/public/verify-pdf"
        sealedKnown
        intro="Envie o PDF que você recebeu: lemos nele o código de verificação e conferimos se ele é exatamente o PDF selado do documento, se a assinatura digital dele é válida e as evidências que ele traz. O arquivo não fica guardado."
        after={(verdict) => (
          <a
            href={`/verificar/${encodeURIComponent(verdict.codigo)}`}
            className="text-sm font-medium text-primary underline underline-offset-4"
            data-testid="verification-open-document"
          >
            Ver quem assinou e quando (código {verdict.codigo})
          </a>
        )}
      />
    </PublicShell>
  );
}
