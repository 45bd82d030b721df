import { ClipboardList, Plus, SearchX } from "lucide-react";
import type * as React from "react";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { Spinner } from "@/components/ui/spinner";
import { useIsMobile } from "@/components/ui/use-mobile";
import { useCurrentUser } from "@/features/auth";
import { ListSkeleton } from "@/components/list/list-skeleton";
import { LoadError } from "@/components/list/load-error";
import { errorMessage } from "@/lib/api";
import { useDebouncedValue } from "@/lib/use-debounced-value";
import { type Procedure, PROCEDURE_MESSAGES } from "@shared/schemas/procedure";
import { useProcedures } from "../api/procedures-api";
import { ProcedureCards, ProcedureTable } from "./procedure-list";
import { ProcedureFormDialog } from "./procedure-form-dialog";
import { SearchBox } from "./search-box";
import { profileCan } from "@shared/permissions";

/** /procedures (spec part 2 §2): search, list, create and edit in a dialog, delete. */
export function ProceduresPage() {
  const { data: user } = useCurrentUser();
  const canEdit = profileCan(user?.profile, "procedures.write");
  const canMakePrivate = profileCan(user?.profile, "procedures.makePrivate");
  const isMobile = useIsMobile();
  const [term, setTerm] = useState("");
  const q = useDebouncedValue(term.trim(), 300);
  const list = useProcedures(q);
  const data = list.data;

  const [dialog, setDialog] = useState<{ open: boolean; procedure: Procedure | null }>({
    open: false,
    procedure: null,
  });
  const openCreate = () => setDialog({ open: true, procedure: null });
  const openEdit = (procedure: Procedure) => setDialog({ open: true, procedure });

  const newButton = canEdit ? (
    <Button onClick={openCreate}>
      <Plus /> Novo Procedimento
    </Button>
  ) : undefined;

  let body: React.ReactNode;
  if (list.isPending) {
    body = <ListSkeleton mobile={isMobile} rows={4} label="Carregando procedimentos" />;
  } else if (list.isError) {
    body = (
      <div className="p-4">
        <LoadError
          title={PROCEDURE_MESSAGES.loadError}
          message={errorMessage(list.error)}
          onRetry={() => void list.refetch()}
          retrying={list.isFetching}
        />
      </div>
    );
  } else if (data && data.items.length === 0) {
    body = (
      <div className="p-4">
        {q ? (
          <EmptyState
            icon={<SearchX />}
            title={PROCEDURE_MESSAGES.emptySearch(q)}
            description="Confira a grafia ou busque por outro termo."
          />
        ) : (
          <EmptyState
            icon={<ClipboardList />}
            title={PROCEDURE_MESSAGES.empty}
            description="Cadastre os procedimentos da clínica para associar riscos, benefícios e cuidados pós-operatórios."
            action={newButton}
          />
        )}
      </div>
    );
  } else if (data) {
    const props = { procedures: data.items, canEdit, onEdit: openEdit, myId: user?.profile.id };
    body = isMobile ? <ProcedureCards {...props} /> : <ProcedureTable {...props} />;
  }

  return (
    <div className="grid gap-6">
      <PageHeader
        title="Procedimentos"
        description="Gerencie os procedimentos usados nos termos de consentimento"
        actions={newButton}
      />

      <SearchBox
        value={term}
        onChange={setTerm}
        placeholder={PROCEDURE_MESSAGES.searchPlaceholder}
        label="Buscar procedimentos"
      />

      <Card className="gap-0 overflow-hidden py-0">
        <div className="flex min-h-12 items-center justify-between gap-2 border-b px-4 py-2">
          <p className="text-sm text-muted-foreground" aria-live="polite">
            {data
              ? `${data.items.length} ${data.items.length === 1 ? "procedimento" : "procedimentos"}${data.truncated ? " (refine a busca para ver mais)" : ""}`
              : "\u00a0"}
          </p>
          {list.isFetching && !list.isPending ? (
            <Spinner className="text-muted-foreground" label="Atualizando" />
          ) : null}
        </div>
        <div className={list.isPlaceholderData ? "opacity-60 transition-opacity" : undefined}>{body}</div>
      </Card>

      <ProcedureFormDialog
        open={dialog.open}
        onOpenChange={(open) => setDialog((current) => ({ ...current, open }))}
        procedure={dialog.procedure}
        canMakePrivate={canMakePrivate}
      />
    </div>
  );
}
