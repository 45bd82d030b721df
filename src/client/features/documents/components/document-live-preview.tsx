import { FileText } from "lucide-react";
import { DocumentView } from "@/components/document/document-view";
import type { DocumentModel } from "@shared/document-model/build-document-model";

/** The document as it will be created, redrawn as the form changes. */
export function DocumentLivePreview({ model }: { model: DocumentModel | null }) {
  if (!model) {
    return (
      <div className="grid min-h-64 place-items-center rounded-lg border border-dashed p-6 text-center text-sm text-muted-foreground">
        <div className="grid justify-items-center gap-2">
          <FileText className="size-6" aria-hidden />
          <p>Escolha um template para ver a pré-visualização do documento.</p>
        </div>
      </div>
    );
  }
  return (
    <div
      className="rounded-lg border bg-background p-4 shadow-sm sm:p-6"
      data-testid="document-live-preview"
      aria-label="Pré-visualização do documento"
    >
      <DocumentView model={model} />
    </div>
  );
}

/** The placeholders still without a value, above the Create button. */
export function UnresolvedList({ names }: { names: readonly string[] }) {
  if (names.length === 0) return null;
  return (
    <div
      className="grid gap-2 rounded-md border border-warning/50 bg-warning/10 p-3 text-sm"
      data-testid="unresolved-list"
      role="status"
    >
      <p className="font-medium">
        {names.length === 1 ? "1 variável ainda sem valor:" : `${names.length} variáveis ainda sem valor:`}
      </p>
      <ul className="flex flex-wrap gap-1.5">
        {names.map((name) => (
          <li key={name}>
            <code className="rounded bg-background px-1.5 py-0.5 text-xs">{`{{${name}}}`}</code>
          </li>
        ))}
      </ul>
      <p className="text-xs text-muted-foreground">
        Preencha os dados no formulário ou ajuste o template. Sem valor, elas aparecem como lacunas no documento.
      </p>
    </div>
  );
}
