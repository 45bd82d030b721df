import { ArrowLeft, GitCompare, History, RotateCcw } from "lucide-react";
import type * as React from "react";
import { useState } from "react";
import { Link, useParams } from "react-router";
import { toast } from "sonner";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent } from "@/components/ui/card";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { Skeleton } from "@/components/ui/skeleton";
import { LoadError } from "@/components/list/load-error";
import { useCurrentUser } from "@/features/auth";
import { errorMessage } from "@/lib/api";
import { profileCan } from "@shared/permissions";
import { TEMPLATE_MESSAGES, type TemplateVersion } from "@shared/schemas/template";
import { isTemplateNotFound, useRestoreTemplateVersion, useTemplate, useTemplateVersions } from "../api/templates-api";
import { formatDate, formatDateTime, formatRelative } from "../lib/format";
import { TemplateNotFound } from "./template-page-states";
import { useErrorToast } from "./use-error-toast";
import { VersionCompare } from "./version-compare";

const COMPARE_ID = "comparar-versoes";

/** /templates/:id/versions (spec part 2 §2 Version history). */
export function TemplateVersionsPage() {
  const { id = "" } = useParams();
  const template = useTemplate(id);
  const versions = useTemplateVersions(id);
  const { data: user } = useCurrentUser();
  const canWrite = profileCan(user?.profile, "templates.write");
  const restore = useRestoreTemplateVersion(id);
  const [picked, setPicked] = useState<{ from: string; to: string } | null>(null);
  const [restoring, setRestoring] = useState<TemplateVersion | null>(null);
  useErrorToast(versions.error, TEMPLATE_MESSAGES.versionsLoadError, isTemplateNotFound(versions.error));

  if (isTemplateNotFound(versions.error) || isTemplateNotFound(template.error)) return <TemplateNotFound />;

  let body: React.ReactNode;
  if (versions.isPending) {
    body = <VersionsSkeleton />;
  } else if (versions.isError) {
    body = (
      <LoadError
        title={TEMPLATE_MESSAGES.versionsLoadError}
        message={errorMessage(versions.error)}
        onRetry={() => void versions.refetch()}
        retrying={versions.isFetching}
      />
    );
  } else if (versions.data.items.length === 0) {
    body = (
      <EmptyState
        icon={<History />}
        title="Nenhuma versão encontrada"
        description="Este template ainda não possui versões."
      />
    );
  } else {
    const items = versions.data.items;
    const ids = new Set(items.map((v) => v.id));
    // Default comparison: the version before the current one against the current one.
    const compare =
      picked && ids.has(picked.from) && ids.has(picked.to)
        ? picked
        : items.length >= 2
          ? { from: items[1]!.id, to: items[0]!.id }
          : null;
    body = (
      <>
        {compare ? (
          <VersionCompare
            domId={COMPARE_ID}
            templateId={id}
            versions={items}
            from={compare.from}
            to={compare.to}
            onChange={setPicked}
          />
        ) : null}
        <ol className="grid gap-3" aria-label="Versões">
          {items.map((version) => (
            <VersionCard
              key={version.id}
              version={version}
              onCompare={
                version.atual || !items[0]
                  ? undefined
                  : () => {
                      setPicked({ from: version.id, to: items[0]!.id });
                      requestAnimationFrame(() =>
                        document.getElementById(COMPARE_ID)?.scrollIntoView({ behavior: "smooth", block: "start" }),
                      );
                    }
              }
              onRestore={canWrite && !version.atual ? () => setRestoring(version) : undefined}
            />
          ))}
        </ol>
        <ConfirmDialog
          open={restoring !== null}
          onOpenChange={(open) => {
            if (!open && !restore.isPending) setRestoring(null);
          }}
          title={restoring ? `Restaurar a versão ${restoring.version_number}?` : ""}
          description="Será criada uma nova versão com o conteúdo desta versão. As versões existentes não são alteradas e os documentos já criados continuam com as suas."
          confirmLabel="Restaurar"
          destructive={false}
          pending={restore.isPending}
          onConfirm={() => {
            if (!restoring) return;
            const number = restoring.version_number;
            restore.mutate(restoring.id, {
              onSuccess: () => {
                toast.success(TEMPLATE_MESSAGES.restored(number));
                setRestoring(null);
                setPicked(null);
              },
              onError: (error) => toast.error(TEMPLATE_MESSAGES.restoreError, { description: errorMessage(error) }),
            });
          }}
        />
      </>
    );
  }

  const count = versions.data?.items.length;
  return (
    <div className="mx-auto grid w-full max-w-4xl gap-6">
      <PageHeader
        title="Histórico de Versões"
        description={template.data?.titulo ?? "\u00a0"}
        actions={
          <Button variant="outline" asChild>
            <Link to={`/templates/${id}/preview`}>
              <ArrowLeft /> Voltar ao template
            </Link>
          </Button>
        }
      >
        {count !== undefined ? (
          <p className="text-sm text-muted-foreground" data-testid="versions-count">
            {count === 1 ? "1 versão" : `${count} versões`}
          </p>
        ) : null}
      </PageHeader>
      {body}
    </div>
  );
}

function VersionCard({
  version,
  onCompare,
  onRestore,
}: {
  version: TemplateVersion;
  onCompare?: () => void;
  onRestore?: () => void;
}) {
  return (
    <li>
      <Card className="gap-3 py-4" data-testid="template-version">
        <CardContent className="grid gap-3 px-4 sm:px-6">
          <div className="flex flex-wrap items-center justify-between gap-2">
            <div className="flex flex-wrap items-center gap-2">
              <h2 className="font-semibold">Versão {version.version_number}</h2>
              {version.atual ? <Badge>Atual</Badge> : null}
              {version.published_at ? <Badge variant="success">Publicado</Badge> : null}
            </div>
            <time
              className="text-xs text-muted-foreground"
              dateTime={version.created_at}
              title={formatDateTime(version.created_at)}
            >
              {formatRelative(version.created_at)}
            </time>
          </div>
          <p className="text-sm">
            <span className="font-medium">Alterações:</span> {version.changelog || "—"}
          </p>
          <dl className="grid gap-x-6 gap-y-1 text-xs text-muted-foreground sm:grid-cols-3">
            <div className="flex gap-1">
              <dt>Publicado por:</dt>
              <dd className="text-foreground">{version.publicador_nome ?? "Sistema"}</dd>
            </div>
            <div className="flex gap-1">
              <dt>Criado em:</dt>
              <dd className="text-foreground tabular-nums">{formatDateTime(version.created_at)}</dd>
            </div>
            {version.published_at ? (
              <div className="flex gap-1">
                <dt>Publicado em</dt>
                <dd className="text-foreground tabular-nums">{formatDate(version.published_at)}</dd>
              </div>
            ) : null}
          </dl>
          {onCompare || onRestore ? (
            <div className="flex flex-wrap gap-2">
              {onCompare ? (
                <Button type="button" variant="outline" size="sm" onClick={onCompare}>
                  <GitCompare /> Comparar com a atual
                </Button>
              ) : null}
              {onRestore ? (
                <Button type="button" variant="outline" size="sm" onClick={onRestore}>
                  <RotateCcw /> Restaurar esta versão
                </Button>
              ) : null}
            </div>
          ) : null}
        </CardContent>
      </Card>
    </li>
  );
}

function VersionsSkeleton() {
  return (
    <div className="grid gap-3" aria-busy="true" data-testid="versions-loading">
      <span className="sr-only">Carregando versões</span>
      {[0, 1, 2].map((row) => (
        <Card key={row} className="gap-3 py-4">
          <CardContent className="grid gap-2 px-4 sm:px-6">
            <Skeleton className="h-5 w-32" />
            <Skeleton className="h-4 w-2/3" />
            <Skeleton className="h-3 w-1/2" />
          </CardContent>
        </Card>
      ))}
    </div>
  );
}
