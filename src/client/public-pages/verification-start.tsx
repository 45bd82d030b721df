import { FileSearch, ShieldCheck } from "lucide-react";
import type * as React from "react";
import { useId, useState } from "react";
import { LocalPdfCheck } from "./components/local-pdf-check";
import { Panel, PlainButton, PublicShell } from "./components/public-shell";

/**
 * /verificar without a code: for whoever holds a paper copy (types the code printed on it) or a
 * PDF (checked in this browser, never sent: decision 077; the code is read from the evidence inside).
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
          Digite o código de verificação impresso no registro de assinaturas do documento, ou verifique o arquivo PDF
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
      <LocalPdfCheck />
    </PublicShell>
  );
}
