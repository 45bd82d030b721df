import { ArrowLeft, CalendarClock, CalendarDays, CalendarRange, FileStack } from "lucide-react";
import { Link, useParams } from "react-router";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { PageHeader } from "@/components/ui/page-header";
import { Skeleton } from "@/components/ui/skeleton";
import { StatCard } from "@/components/ui/stat-card";
import { LoadError } from "@/components/list/load-error";
import { errorMessage } from "@/lib/api";
import { DOCUMENT_STATUS_LABEL } from "@shared/schemas/document";
import { TEMPLATE_MESSAGES, type TemplateUsage } from "@shared/schemas/template";
import { isTemplateNotFound, useTemplate, useTemplateStatistics } from "../api/templates-api";
import { formatNumber, formatPercent } from "@shared/format";
import { formatDate, formatDateTime } from "../lib/format";
import { TemplateNotFound } from "./template-page-states";
import { UsageChart } from "./usage-chart";
import { useErrorToast } from "./use-error-toast";

/** /templates/:id/statistics (spec part 2 §2 Usage statistics). */
export function TemplateStatisticsPage() {
  const { id = "" } = useParams();
  const template = useTemplate(id);
  const stats = useTemplateStatistics(id);
  useErrorToast(stats.error, TEMPLATE_MESSAGES.statisticsLoadError, isTemplateNotFound(stats.error));

  if (isTemplateNotFound(stats.error) || isTemplateNotFound(template.error)) return <TemplateNotFound />;

  return (
    <div className="mx-auto grid w-full max-w-5xl gap-6">
      <PageHeader
        title="Estatísticas de Uso"
        description={template.data?.titulo ?? "\u00a0"}
        actions={
          <Button variant="outline" asChild>
            <Link to={`/templates/${id}/preview`}>
              <ArrowLeft /> Voltar ao template
            </Link>
          </Button>
        }
      />
      {stats.isError ? (
        <LoadError
          title={TEMPLATE_MESSAGES.statisticsLoadError}
          message={errorMessage(stats.error)}
          onRetry={() => void stats.refetch()}
          retrying={stats.isFetching}
        />
      ) : (
        <StatisticsBody data={stats.data} />
      )}
    </div>
  );
}

function StatisticsBody({ data }: { data: TemplateUsage | undefined }) {
  const loading = data === undefined;
  const n = (value: number | undefined) => (value === undefined ? "—" : formatNumber(value));
  const monthsTotal = data?.por_mes.reduce((sum, m) => sum + m.total, 0) ?? 0;
  const statusTotal = data?.por_status.reduce((sum, s) => sum + s.total, 0) ?? 0;

  return (
    <>
      <section aria-label="Resumo de uso" className="grid grid-cols-2 gap-3 sm:gap-4 lg:grid-cols-4">
        <StatCard title="Total de Contratos" value={n(data?.total)} icon={<FileStack />} loading={loading} />
        <StatCard title="Este Mês" value={n(data?.este_mes)} icon={<CalendarDays />} loading={loading} />
        <StatCard title="Últimos 30 Dias" value={n(data?.ultimos_30_dias)} icon={<CalendarRange />} loading={loading} />
        <StatCard
          title="Último Uso"
          value={<span className="text-lg">{data?.ultimo_uso ? formatDate(data.ultimo_uso) : "Nunca usado"}</span>}
          icon={<CalendarClock />}
          loading={loading}
        />
      </section>

      <div className="grid gap-6 lg:grid-cols-2">
        <Card className="gap-4">
          <CardHeader>
            <CardTitle>Uso por Mês (Últimos 6 meses)</CardTitle>
          </CardHeader>
          <CardContent>
            {loading ? (
              <Skeleton className="h-52 w-full" />
            ) : monthsTotal === 0 ? (
              <p className="py-10 text-center text-sm text-muted-foreground">Nenhum uso nos últimos 6 meses</p>
            ) : (
              <UsageChart months={data.por_mes} />
            )}
          </CardContent>
        </Card>

        <Card className="gap-4">
          <CardHeader>
            <CardTitle>Distribuição por Status</CardTitle>
          </CardHeader>
          <CardContent>
            {loading ? (
              <div className="grid gap-3">
                {[0, 1, 2].map((row) => (
                  <Skeleton key={row} className="h-6 w-full" />
                ))}
              </div>
            ) : data.por_status.length === 0 || statusTotal === 0 ? (
              <p className="py-10 text-center text-sm text-muted-foreground">Nenhum contrato encontrado</p>
            ) : (
              <ul className="grid gap-3" aria-label="Documentos por status">
                {data.por_status.map((row) => {
                  const share = (row.total / statusTotal) * 100;
                  return (
                    <li key={row.status} className="grid gap-1">
                      <div className="flex items-center justify-between text-sm">
                        <span>{(DOCUMENT_STATUS_LABEL as Record<string, string>)[row.status] ?? row.status}</span>
                        <span className="tabular-nums text-muted-foreground">
                          {formatNumber(row.total)} ({formatPercent(share)})
                        </span>
                      </div>
                      <div className="h-2 overflow-hidden rounded-full bg-muted" aria-hidden="true">
                        <div className="h-full rounded-full bg-primary" style={{ width: `${share}%` }} />
                      </div>
                    </li>
                  );
                })}
              </ul>
            )}
          </CardContent>
        </Card>
      </div>

      <Card className="gap-4">
        <CardHeader>
          <CardTitle>Informações de Uso</CardTitle>
        </CardHeader>
        <CardContent>
          {loading ? (
            <Skeleton className="h-10 w-full" />
          ) : (
            <dl className="grid gap-3 text-sm sm:grid-cols-2">
              <div className="grid gap-0.5">
                <dt className="text-muted-foreground">Primeiro uso</dt>
                <dd className="tabular-nums">
                  {data.primeiro_uso ? formatDateTime(data.primeiro_uso) : "Nunca usado"}
                </dd>
              </div>
              <div className="grid gap-0.5">
                <dt className="text-muted-foreground">Último uso</dt>
                <dd className="tabular-nums">{data.ultimo_uso ? formatDateTime(data.ultimo_uso) : "Nunca usado"}</dd>
              </div>
            </dl>
          )}
        </CardContent>
      </Card>
    </>
  );
}
