import { FileX2 } from "lucide-react";
import { CHOICE_MESSAGES, recordCopyLine } from "@shared/schemas/choices";
import type { SigningPage } from "@shared/schemas/signing";
import { Panel } from "./components/public-shell";
import { formatDateTime } from "./lib/format";

/** After the patient refused on this visit (decision 056): what was recorded, and what happens next. */
export function ChoiceDone({ page, em, codigo }: { page: SigningPage; em: string; codigo: string }) {
  return (
    <Panel className="justify-items-center gap-3 py-8 text-center" data-testid="refusal-done" role="status">
      <span className="grid size-12 place-items-center rounded-full bg-destructive/10 text-destructive">
        <FileX2 className="size-6" aria-hidden />
      </span>
      <h1 className="text-lg font-semibold text-balance">{CHOICE_MESSAGES.refused}</h1>
      <p className="max-w-sm text-sm font-medium text-balance break-words">{page.documento.titulo}</p>
      <p className="max-w-sm text-sm text-balance text-muted-foreground">
        {CHOICE_MESSAGES.refusedText} <span data-testid="refusal-copy">{recordCopyLine("recusa", page)}</span>
      </p>
      <dl className="grid gap-1 rounded-lg border bg-muted/40 px-4 py-3 text-sm">
        <div>
          <dt className="inline text-muted-foreground">Recusado em </dt>
          <dd className="inline font-medium tabular-nums">{formatDateTime(em)}</dd>
        </div>
        <div>
          <dt className="inline text-muted-foreground">Código de verificação </dt>
          <dd className="inline font-mono font-medium" data-testid="refusal-code">
            {codigo}
          </dd>
        </div>
      </dl>
    </Panel>
  );
}
