import { ClipboardList, Save } from "lucide-react";
import type * as React from "react";
import { useState } from "react";
import { Link, useSearchParams } from "react-router";
import { toast } from "sonner";
import { NativeSelect } from "@/components/form/native-select";
import { Button } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { Label } from "@/components/ui/label";
import { PageHeader } from "@/components/ui/page-header";
import { Skeleton } from "@/components/ui/skeleton";
import { Spinner } from "@/components/ui/spinner";
import { useCurrentUser } from "@/features/auth";
import { LoadError } from "@/components/list/load-error";
import { errorMessage } from "@/lib/api";
import { CONTENT_KINDS, type ContentKind } from "@shared/schemas/content";
import { PROCEDURE_MESSAGES, type ProcedureAssociations } from "@shared/schemas/procedure";
import { useProcedureAssociations, useProcedures, useSaveProcedureAssociations } from "../api/procedures-api";
import { AssociationChecklist } from "./association-checklist";
import { profileCan } from "@shared/permissions";
import { procedureSpecialtyName } from "@shared/reference/procedure-specialties";

type Selection = Record<ContentKind, ReadonlySet<string>>;

const toSelection = (associations: ProcedureAssociations): Selection => ({
  riscos: new Set(associations.riscos),
  beneficios: new Set(associations.beneficios),
  cuidados: new Set(associations.cuidados),
});

/** /procedures/associations (spec part 2 §2): which risks, benefits and aftercare items a procedure carries. */
export function ProcedureAssociationsPage() {
  const { data: user } = useCurrentUser();
  const canEdit = profileCan(user?.profile, "procedures.write");
  const [searchParams, setSearchParams] = useSearchParams();
  const procedureId = searchParams.get("procedimento") ?? "";
  const procedures = useProcedures("");
  const known = procedures.data?.items.some((procedure) => procedure.id === procedureId) ?? false;
  const chosen = known ? procedureId : undefined;
  const associations = useProcedureAssociations(chosen);

  // The user's changes for the chosen procedure; until the first change, what the server holds.
  const [draft, setDraft] = useState<{ id: string; selection: Selection } | null>(null);
  const selection =
    draft && draft.id === chosen ? draft.selection : associations.data ? toSelection(associations.data) : null;
  const dirty = Boolean(draft && draft.id === chosen);
  const save = useSaveProcedureAssociations(chosen ?? "");

  function toggle(kind: ContentKind, id: string, checked: boolean) {
    if (!chosen || !selection) return;
    const next = new Set(selection[kind]);
    if (checked) next.add(id);
    else next.delete(id);
    setDraft({ id: chosen, selection: { ...selection, [kind]: next } });
  }

  async function onSave() {
    if (!chosen || !selection) return;
    try {
      await save.mutateAsync({
        riscos: [...selection.riscos],
        beneficios: [...selection.beneficios],
        cuidados: [...selection.cuidados],
      });
      setDraft(null);
      toast.success(PROCEDURE_MESSAGES.associationsSaved);
    } catch (error) {
      toast.error(PROCEDURE_MESSAGES.associationsError, { description: errorMessage(error) });
    }
  }

  function choose(id: string) {
    setDraft(null);
    setSearchParams(id ? { procedimento: id } : {}, { replace: true });
  }

  const saveButton =
    canEdit && chosen ? (
      <Button onClick={() => void onSave()} disabled={!selection || save.isPending}>
        {save.isPending ? <Spinner /> : <Save />} Salvar Associações
      </Button>
    ) : undefined;

  let body: React.ReactNode;
  if (procedures.isPending) {
    body = <Skeleton className="h-9 w-full max-w-md" />;
  } else if (procedures.isError) {
    body = (
      <LoadError
        title={PROCEDURE_MESSAGES.loadError}
        message={errorMessage(procedures.error)}
        onRetry={() => void procedures.refetch()}
        retrying={procedures.isFetching}
      />
    );
  } else if (procedures.data.items.length === 0) {
    body = (
      <EmptyState
        icon={<ClipboardList />}
        title={PROCEDURE_MESSAGES.empty}
        description="Cadastre um procedimento antes de associar conteúdo."
        action={
          <Button asChild>
            <Link to="/procedures">Ir para Procedimentos</Link>
          </Button>
        }
      />
    );
  } else {
    body = (
      <>
        <div className="grid max-w-md gap-2">
          <Label htmlFor="procedimento">Procedimento</Label>
          <NativeSelect id="procedimento" value={chosen ?? ""} onChange={(event) => choose(event.target.value)}>
            <option value="">Selecione um procedimento</option>
            {procedures.data.items.map((procedure) => (
              <option key={procedure.id} value={procedure.id}>
                {procedure.nome}
                {procedure.especialidade ? ` — ${procedureSpecialtyName(procedure.especialidade)}` : ""}
              </option>
            ))}
          </NativeSelect>
          {procedureId && !known ? (
            <p className="text-sm text-destructive">Procedimento não encontrado. Selecione outro.</p>
          ) : null}
        </div>

        {!chosen ? (
          <EmptyState
            icon={<ClipboardList />}
            title="Selecione um procedimento"
            description="Escolha o procedimento para marcar os riscos, benefícios e cuidados pós-operatórios associados."
          />
        ) : associations.isError ? (
          <LoadError
            title={PROCEDURE_MESSAGES.associationsLoadError}
            message={errorMessage(associations.error)}
            onRetry={() => void associations.refetch()}
            retrying={associations.isFetching}
          />
        ) : !selection ? (
          <div className="grid gap-4 lg:grid-cols-3" aria-busy="true">
            {CONTENT_KINDS.map((kind) => (
              <Skeleton key={kind} className="h-64" />
            ))}
          </div>
        ) : (
          <>
            <div className="grid items-start gap-4 lg:grid-cols-3">
              {CONTENT_KINDS.map((kind) => (
                <AssociationChecklist
                  key={kind}
                  kind={kind}
                  selected={selection[kind]}
                  onToggle={(id, checked) => toggle(kind, id, checked)}
                  disabled={!canEdit || save.isPending}
                />
              ))}
            </div>
            {canEdit ? (
              <div className="flex flex-col items-stretch gap-2 sm:flex-row sm:items-center sm:justify-end">
                {dirty ? <p className="text-sm text-muted-foreground">Há alterações não salvas.</p> : null}
                {saveButton}
              </div>
            ) : (
              <p className="text-sm text-muted-foreground">Você pode consultar as associações, mas não alterá-las.</p>
            )}
          </>
        )}
      </>
    );
  }

  return (
    <div className="grid gap-6">
      <PageHeader
        title="Associar Conteúdo"
        description="Escolha os riscos, benefícios e cuidados pós-operatórios de cada procedimento"
        actions={
          <Button variant="outline" asChild>
            <Link to="/procedures">Procedimentos</Link>
          </Button>
        }
      />
      {body}
    </div>
  );
}
