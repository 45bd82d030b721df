import { AlertTriangle } from "lucide-react";
import { useMemo } from "react";
import { DocumentView } from "@/components/document/document-view";
import { Alert, AlertDescription } from "@/components/ui/alert";
import { buildDocumentModel } from "@shared/document-model/build-document-model";
import type { TemplateStructure } from "@shared/document-model/structure";
import { PREVIEW_SAMPLE_VALUES } from "@shared/document-model/variables";

/** The structure drawn with the sample data; placeholders nobody knows are listed. */
export function TemplatePreview({
  structure,
  fallbackTitle,
}: {
  structure: TemplateStructure;
  fallbackTitle?: string;
}) {
  const model = useMemo(() => {
    const withTitle = structure.title.trim() || !fallbackTitle ? structure : { ...structure, title: fallbackTitle };
    return buildDocumentModel(withTitle, PREVIEW_SAMPLE_VALUES);
  }, [structure, fallbackTitle]);
  const empty = model.introduction.length === 0 && model.sections.length === 0;

  return (
    <div className="grid gap-4" data-testid="template-preview">
      <p className="text-xs text-muted-foreground">
        Pré-visualização com dados de exemplo (paciente, procedimento e profissional fictícios).
      </p>
      {model.unresolved.length > 0 ? (
        <Alert
          className="border-amber-300 bg-amber-50 text-amber-900 *:data-[slot=alert-description]:text-amber-900"
          role="status"
        >
          <AlertTriangle />
          <AlertDescription>
            Variáveis não reconhecidas: {model.unresolved.map((name) => `{{${name}}}`).join(", ")}
          </AlertDescription>
        </Alert>
      ) : null}
      <div className="rounded-lg border bg-background p-4 shadow-xs sm:p-8">
        {empty && !model.title.trim() ? (
          <p className="text-center text-sm text-muted-foreground">O documento ainda está vazio.</p>
        ) : (
          <DocumentView model={model} />
        )}
        {empty && model.title.trim() ? (
          <p className="mt-4 text-center text-sm text-muted-foreground">
            Adicione uma introdução ou seções para ver o conteúdo.
          </p>
        ) : null}
      </div>
    </div>
  );
}
