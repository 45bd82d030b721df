import { BarChart3, CheckCircle2, History, Pencil, Send, Undo2 } from "lucide-react";
import { type ReactNode, useEffect, useEffectEvent } from "react";
import { Link, useNavigate, useParams } from "react-router";
import { toast } from "sonner";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent } from "@/components/ui/card";
import { PageHeader } from "@/components/ui/page-header";
import { Spinner } from "@/components/ui/spinner";
import { useCurrentUser } from "@/features/auth";
import { errorMessage } from "@/lib/api";
import { ApiError } from "@/lib/api";
import { profileCan } from "@shared/permissions";
import { TEMPLATE_MESSAGES, TEMPLATE_TRANSITIONS, type TemplateStatus } from "@shared/schemas/template";
import { isTemplateNotFound, useChangeTemplateStatus, useTemplate } from "../api/templates-api";
import { formatDate, usageLabel, versionLabel } from "../lib/format";
import { TemplateNotFound, TemplatePageSkeleton } from "./template-page-states";
import { TemplatePreview } from "./template-preview";
import { TemplateStatusBadge } from "./template-status-badge";

const STATUS_ACTIONS: Record<TemplateStatus, { label: string; icon: ReactNode; variant: "default" | "outline" }> = {
  review: { label: "Enviar para revisão", icon: <Send />, variant: "outline" },
  published: { label: "Publicar", icon: <CheckCircle2 />, variant: "default" },
  draft: { label: "Voltar para rascunho", icon: <Undo2 />, variant: "outline" },
};

/** /templates/:id/preview (spec part 2 §2 Template view) with the review workflow. */
export function TemplateViewPage() {
  const { id = "" } = useParams();
  const navigate = useNavigate();
  const template = useTemplate(id);
  const changeStatus = useChangeTemplateStatus(id);
  const { data: user } = useCurrentUser();
  const canWrite = profileCan(user?.profile, "templates.write");
  const canPublish = profileCan(user?.profile, "templates.publish");
  const failed = template.isError && !isTemplateNotFound(template.error);

  const leaveOnFailure = useEffectEvent(() => {
    toast.error(TEMPLATE_MESSAGES.loadError, { description: errorMessage(template.error) });
    navigate("/templates", { replace: true });
  });
  useEffect(() => {
    if (failed) leaveOnFailure();
  }, [failed]);

  if (template.isPending || failed) return <TemplatePageSkeleton />;
  if (template.isError) return <TemplateNotFound />;
  const data = template.data;
  const current = (TEMPLATE_TRANSITIONS[data.status] ? data.status : "draft") as TemplateStatus;
  // Publishing needs templates.publish; the other moves are an author's.
  const transitions = TEMPLATE_TRANSITIONS[current].filter((to) => (to === "published" ? canPublish : canWrite));

  async function moveTo(status: TemplateStatus) {
    try {
      await changeStatus.mutateAsync(status);
      toast.success(TEMPLATE_MESSAGES.statusChanged);
    } catch (error) {
      const message =
        error instanceof ApiError && error.code === "TEMPLATE_INVALID_TRANSITION"
          ? TEMPLATE_MESSAGES.invalidTransition
          : errorMessage(error);
      toast.error(TEMPLATE_MESSAGES.statusError, { description: message });
    }
  }

  return (
    <div className="mx-auto grid w-full max-w-5xl gap-6">
      <PageHeader
        title={data.titulo}
        actions={
          canWrite ? (
            <Button asChild>
              <Link to={`/templates/${data.id}/edit`}>
                <Pencil /> Editar
              </Link>
            </Button>
          ) : undefined
        }
      >
        <div className="flex flex-wrap items-center gap-1.5 pt-1">
          <TemplateStatusBadge status={data.status} />
          <Badge variant="outline">{data.especialidade}</Badge>
          <Badge variant="outline">{data.categoria}</Badge>
          <Badge variant="secondary" className="tabular-nums">
            {versionLabel(data.versao_atual)}
          </Badge>
        </div>
      </PageHeader>

      <Card className="gap-4 py-4">
        <CardContent className="grid gap-4 px-4 sm:px-6">
          <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
            <p className="text-sm text-muted-foreground">
              Novos documentos usam apenas templates publicados.{" "}
              {data.status === "published"
                ? "Este template já pode ser usado."
                : "Publique este template para usá-lo em novos documentos."}
            </p>
            {transitions.length > 0 ? (
              <div className="flex flex-wrap gap-2">
                {transitions.map((to) => {
                  const action = STATUS_ACTIONS[to];
                  const pending = changeStatus.isPending && changeStatus.variables === to;
                  return (
                    <Button
                      key={to}
                      variant={action.variant}
                      size="sm"
                      onClick={() => void moveTo(to)}
                      disabled={changeStatus.isPending}
                    >
                      {pending ? <Spinner /> : action.icon} {action.label}
                    </Button>
                  );
                })}
              </div>
            ) : null}
          </div>
          <div className="flex flex-wrap gap-x-4 gap-y-1 border-t pt-3 text-xs text-muted-foreground">
            <span>
              Criado por {data.criador_nome ?? "—"} em {formatDate(data.created_at)}
            </span>
            <span>{usageLabel(data.usos)}</span>
            <Link
              to={`/templates/${data.id}/versions`}
              className="inline-flex items-center gap-1 hover:text-foreground hover:underline"
            >
              <History className="size-3.5" aria-hidden /> Histórico de versões
            </Link>
            <Link
              to={`/templates/${data.id}/statistics`}
              className="inline-flex items-center gap-1 hover:text-foreground hover:underline"
            >
              <BarChart3 className="size-3.5" aria-hidden /> Estatísticas de uso
            </Link>
          </div>
        </CardContent>
      </Card>

      <section aria-label="Pré-visualização do documento">
        <TemplatePreview structure={data.estrutura} fallbackTitle={data.titulo} />
      </section>
    </div>
  );
}
