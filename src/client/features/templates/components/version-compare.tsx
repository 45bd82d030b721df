import { GitCompare } from "lucide-react";
import { useId, useMemo } from "react";
import { NativeSelect } from "@/components/form/native-select";
import { Alert, AlertDescription } from "@/components/ui/alert";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { Skeleton } from "@/components/ui/skeleton";
import { errorMessage } from "@/lib/api";
import { diffStructures } from "@shared/document-model/version-diff";
import { TEMPLATE_MESSAGES, type TemplateVersion } from "@shared/schemas/template";
import { useTemplateVersion } from "../api/templates-api";
import { VersionDiffView } from "./version-diff-view";

/**
 * "Comparar versões" (decision 034): two versions picked in selects, their content fetched and
 * compared section by section with a word diff.
 */
export function VersionCompare({
  domId,
  templateId,
  versions,
  from,
  to,
  onChange,
}: {
  domId?: string;
  templateId: string;
  versions: readonly TemplateVersion[];
  from: string;
  to: string;
  onChange: (next: { from: string; to: string }) => void;
}) {
  const id = useId();
  const before = useTemplateVersion(templateId, from);
  const after = useTemplateVersion(templateId, to);
  const diff = useMemo(
    () => (before.data && after.data ? diffStructures(before.data.estrutura, after.data.estrutura) : null),
    [before.data, after.data],
  );
  const error = before.error ?? after.error;
  const options = versions.map((v) => (
    <option key={v.id} value={v.id}>
      Versão {v.version_number}
      {v.atual ? " (atual)" : ""}
    </option>
  ));

  return (
    <Card id={domId} className="scroll-mt-20 gap-4 py-4" data-testid="version-compare">
      <CardHeader className="px-4 sm:px-6">
        <CardTitle className="flex items-center gap-2 text-base">
          <GitCompare className="size-4" aria-hidden /> Comparar versões
        </CardTitle>
      </CardHeader>
      <CardContent className="grid gap-4 px-4 sm:px-6">
        <div className="grid gap-3 sm:grid-cols-2">
          <div className="grid gap-1.5">
            <label htmlFor={`${id}-from`} className="text-sm font-medium">
              Versão anterior
            </label>
            <NativeSelect
              id={`${id}-from`}
              value={from}
              onChange={(event) => onChange({ from: event.target.value, to })}
            >
              {options}
            </NativeSelect>
          </div>
          <div className="grid gap-1.5">
            <label htmlFor={`${id}-to`} className="text-sm font-medium">
              Versão posterior
            </label>
            <NativeSelect id={`${id}-to`} value={to} onChange={(event) => onChange({ from, to: event.target.value })}>
              {options}
            </NativeSelect>
          </div>
        </div>
        {error ? (
          <Alert variant="destructive">
            <AlertDescription>
              {TEMPLATE_MESSAGES.versionLoadError} {errorMessage(error)}
            </AlertDescription>
          </Alert>
        ) : diff ? (
          <VersionDiffView diff={diff} />
        ) : (
          <div className="grid gap-2" aria-busy="true">
            <span className="sr-only">Carregando versões</span>
            <Skeleton className="h-4 w-1/2" />
            <Skeleton className="h-20 w-full" />
          </div>
        )}
      </CardContent>
    </Card>
  );
}
