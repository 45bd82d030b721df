import { CheckCircle2, Info, XCircle } from "lucide-react";
import type { PdfVerdict } from "@shared/schemas/signing";

type Evidence = NonNullable<PdfVerdict["evidencias"]>;

/** ✓ / ✗ / ℹ as `npm run verify` prints them, with words for screen readers (never colour alone). */
const MARKS = {
  true: { symbol: "✓", words: "Confere:", className: "text-[color-mix(in_oklab,var(--color-success)_55%,black)]" },
  false: { symbol: "✗", words: "Não confere:", className: "text-destructive" },
  null: { symbol: "ℹ", words: "Informação:", className: "text-muted-foreground" },
} as const;

/** "assinatura eletrônica avançada (…)" → "Assinatura eletrônica avançada (…)" */
const sentence = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/**
 * What the uploaded file's own evidence says, checked by the server without the database
 * (decision 014): the verdict, each line of the report, the parties with their level, and the seal
 * certificate (subject and SHA-256 fingerprint) for the reader to compare with the clinic's.
 */
export function EvidenceReport({ evidence }: { evidence: Evidence }) {
  const lines = evidence.linhas ?? [];
  const ok = evidence.ok ?? (lines.length > 0 && lines.every((line) => line.ok !== false));
  const failures = lines.filter((line) => line.ok === false).length;
  return (
    <section className="grid gap-3" aria-labelledby="evidence-title" data-testid="evidence-report">
      <h3 id="evidence-title" className="text-sm font-semibold">
        Evidências dentro do arquivo
      </h3>
      <p
        data-testid="evidence-verdict"
        data-ok={ok}
        className={`flex items-start gap-2 rounded-lg border px-3 py-2 text-sm font-semibold ${
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
        <span>
          {ok
            ? "Resultado: tudo confere. O selo cobre todo o arquivo até ele (depois, só dados de validação e carimbos do tempo do documento, quando houver) e é de um certificado conhecido, as evidências são deste documento, o conteúdo recalculado é o declarado e a cadeia de eventos é coerente até o hash final declarado."
            : `Resultado: FALHOU (${failures} ${failures === 1 ? "verificação" : "verificações"} com ✗). Não confie neste arquivo como evidência sem apurar as linhas marcadas.`}
        </span>
      </p>

      <ul className="grid gap-1.5 text-sm" data-testid="evidence-lines">
        {lines.map((line, index) => {
          const mark = MARKS[String(line.ok) as keyof typeof MARKS];
          return (
            <li key={index} data-testid="evidence-line" data-ok={String(line.ok)} className="flex items-start gap-2">
              <span aria-hidden className={`w-4 shrink-0 text-center font-bold ${mark.className}`}>
                {mark.symbol}
              </span>
              <span className="min-w-0 [overflow-wrap:anywhere]">
                <span className="sr-only">{mark.words} </span>
                {line.text}
              </span>
            </li>
          );
        })}
      </ul>

      {evidence.partes && evidence.partes.length > 0 ? (
        <div className="grid gap-1">
          <h4 className="text-xs font-medium text-muted-foreground">Signatários e nível alcançado</h4>
          <ul className="grid gap-1 text-sm" data-testid="evidence-parties">
            {evidence.partes.map((party, index) => (
              <li key={index} className="flex flex-wrap items-baseline gap-x-2">
                <span className="font-medium break-words">{party.nome}</span>
                <span className="text-muted-foreground">— {sentence(party.descricao)}</span>
              </li>
            ))}
          </ul>
        </div>
      ) : null}

      {evidence.certificado_sha256 ? (
        <div className="grid gap-1 text-sm" data-testid="evidence-certificate">
          <h4 className="flex items-center gap-1.5 text-xs font-medium text-muted-foreground">
            <Info className="size-3.5" aria-hidden /> Certificado do selo
          </h4>
          {evidence.certificado_assunto ? (
            <p className="[overflow-wrap:anywhere]">{evidence.certificado_assunto}</p>
          ) : null}
          <p className="text-xs text-muted-foreground">
            Impressão digital SHA-256 (compare com a que a clínica ou este servidor informa):
          </p>
          <code
            className="block rounded bg-muted px-2 py-1 font-mono text-xs break-all"
            data-testid="evidence-fingerprint"
          >
            {evidence.certificado_sha256}
          </code>
        </div>
      ) : null}
    </section>
  );
}
