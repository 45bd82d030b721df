import {
  AlertTriangle,
  CheckCircle2,
  Clock,
  FilePen,
  FilePlus2,
  FileSignature,
  FileText,
  Percent,
  TrendingDown,
  TrendingUp,
  UserPlus,
} from "lucide-react";
import type * as React from "react";
import { Link } from "react-router";
import { Button } from "@/components/ui/button";
import { Card, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { PageHeader } from "@/components/ui/page-header";
import { Skeleton } from "@/components/ui/skeleton";
import { StatCard } from "@/components/ui/stat-card";
import { useCurrentUser } from "@/features/auth";
import { CertificateExpiryNotice } from "@/features/certificates";
import { useDocumentCounters } from "@/features/documents";
import { cn } from "@/lib/utils";
import { DOCUMENT_MESSAGES, signatureRate } from "@shared/schemas/document";
import { monthOverMonth } from "../lib/trend";
import { RecentDocuments } from "./recent-documents";
import { AWAITING_PROFESSIONAL_PATH, awaitingProfessionalTitle } from "@shared/notices/notice-text";
import { formatNumber, formatPercent, formatTime } from "@shared/format";

function greeting(now = new Date()): string {
  // The clinic's hour (São Paulo), as every other time on the screens.
  const hour = Number(formatTime(now).slice(0, 2));
  if (hour < 12) return "Bom dia";
  if (hour < 18) return "Boa tarde";
  return "Boa noite";
}

function Trend({ current, previous }: { current: number; previous: number }) {
  const trend = monthOverMonth(current, previous);
  if (!trend) return null;
  const Icon = trend.direction === "down" ? TrendingDown : TrendingUp;
  return (
    <span
      className={cn(
        "inline-flex items-center gap-1",
        trend.direction === "up" && "text-[color-mix(in_oklab,var(--color-success)_70%,black)]",
        trend.direction === "down" && "text-destructive",
      )}
    >
      {trend.direction === "flat" ? null : <Icon className="size-3.5" aria-hidden />}
      {trend.text}
    </span>
  );
}

/** The dashboard (spec part 1 §2, §9): figures of the clinic, the latest documents and shortcuts. */
export function DashboardPage() {
  const { data: user } = useCurrentUser();
  const counters = useDocumentCounters();
  if (!user) return <p>{DOCUMENT_MESSAGES.noTenant}</p>;
  const firstName = user.profile.nome.split(/\s+/).find((part) => !/^dra?\.?$/i.test(part)) ?? user.profile.nome;
  const c = counters.data;
  const loading = counters.isPending;
  const pending = c ? c.pendentes + c.visualizados : undefined;

  return (
    <div className="grid min-w-0 gap-6">
      <PageHeader
        title="Dashboard"
        description="Visão geral dos seus termos de consentimento"
        actions={
          <Button asChild>
            <Link to="/contracts/create">
              <FilePlus2 /> Novo Contrato
            </Link>
          </Button>
        }
      />
      <p className="text-lg" data-testid="dashboard-greeting">
        {greeting()}, {firstName}! Você está em <strong>{user.tenant.nome}</strong>.
      </p>
      <CertificateExpiryNotice />
      {c && c.aguardando_profissional > 0 ? (
        <Card data-testid="awaiting-professional-card">
          <CardHeader className="flex flex-row flex-wrap items-center justify-between gap-3">
            <div className="grid gap-1">
              <CardTitle className="flex items-center gap-2 text-base">
                <FilePen className="size-4 text-primary" aria-hidden />
                {c.aguardando_minha_assinatura > 0
                  ? awaitingProfessionalTitle(c.aguardando_minha_assinatura)
                  : `Aguardando profissional: ${formatNumber(c.aguardando_profissional)}`}
              </CardTitle>
              <CardDescription data-testid="stat-aguardando-profissional">
                {c.aguardando_profissional === 1
                  ? "1 documento enviado espera a assinatura do profissional responsável."
                  : `${formatNumber(c.aguardando_profissional)} documentos enviados esperam a assinatura do profissional responsável.`}
              </CardDescription>
            </div>
            <div className="flex flex-wrap gap-2">
              {c.aguardando_minha_assinatura > 0 ? (
                <Button asChild>
                  <Link to={AWAITING_PROFESSIONAL_PATH}>Assinar agora</Link>
                </Button>
              ) : null}
              <Button asChild variant="outline">
                <Link to="/documents?aguardando_profissional=1">Ver documentos</Link>
              </Button>
            </div>
          </CardHeader>
        </Card>
      ) : null}

      <section
        aria-label="Resumo dos documentos"
        className="grid grid-cols-2 gap-3 sm:gap-4 lg:grid-cols-4"
        data-testid="dashboard-stats"
      >
        <StatCard
          title="Total de Contratos"
          value={c ? formatNumber(c.total) : "—"}
          icon={<FileText />}
          loading={loading}
          description={c ? <Trend current={c.criados_este_mes} previous={c.criados_mes_passado} /> : undefined}
          data-testid="stat-total"
        />
        <StatCard
          title="Assinados"
          value={c ? formatNumber(c.assinados) : "—"}
          icon={<CheckCircle2 />}
          loading={loading}
          description={c ? <Trend current={c.assinados_este_mes} previous={c.assinados_mes_passado} /> : undefined}
          data-testid="stat-assinados"
        />
        <StatCard
          title="Pendentes"
          value={pending === undefined ? "—" : formatNumber(pending)}
          icon={<Clock />}
          loading={loading}
          description={c ? "Enviados ou visualizados, aguardando assinatura" : undefined}
          data-testid="stat-pendentes"
        />
        <StatCard
          title="Taxa de Assinatura"
          value={c ? formatPercent(Number(signatureRate(c.assinados, c.total))) : "—"}
          icon={<Percent />}
          loading={loading}
          description={c ? "Assinados sobre o total de documentos" : undefined}
          data-testid="stat-taxa"
        />
      </section>
      {c && c.recusados + c.revogados > 0 ? (
        // Decision 056: the patients' refusals and revocations, each a link to its filtered list.
        <p className="flex flex-wrap gap-x-4 gap-y-1 text-sm text-muted-foreground" data-testid="dashboard-choices">
          <Link to="/documents?status=recusado" className="underline-offset-4 hover:text-foreground hover:underline">
            Recusados: <span className="font-medium text-foreground tabular-nums">{formatNumber(c.recusados)}</span>
          </Link>
          <Link to="/documents?revogado=1" className="underline-offset-4 hover:text-foreground hover:underline">
            Revogados: <span className="font-medium text-foreground tabular-nums">{formatNumber(c.revogados)}</span>
          </Link>
        </p>
      ) : null}
      {counters.isError ? (
        <p className="text-sm text-destructive">Não foi possível carregar os números dos contratos.</p>
      ) : null}

      <RecentDocuments />

      <section aria-label="Atalhos" className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
        <Shortcut
          to="/templates/create"
          icon={<FileSignature />}
          title="Criar Template"
          description="Monte um modelo de documento com variáveis."
        />
        <Shortcut
          to="/patients/create"
          icon={<UserPlus />}
          title="Cadastrar Paciente"
          description="Registre um paciente para gerar documentos."
        />
        <Shortcut
          to="/documents?status=expired"
          icon={<AlertTriangle />}
          title="Contratos Expirando"
          testId="shortcut-expired"
          description={
            loading ? (
              <Skeleton className="h-4 w-40" />
            ) : c ? (
              c.expirados === 0 ? (
                "Nenhum documento expirado."
              ) : (
                <span className="font-medium text-destructive">
                  {c.expirados === 1 ? "1 documento expirado" : `${formatNumber(c.expirados)} documentos expirados`}
                </span>
              )
            ) : (
              "Veja os documentos que passaram do prazo."
            )
          }
        />
      </section>
    </div>
  );
}

function Shortcut({
  to,
  icon,
  title,
  description,
  testId,
}: {
  to: string;
  icon: React.ReactNode;
  title: string;
  description: React.ReactNode;
  testId?: string;
}) {
  return (
    <Link
      to={to}
      className="rounded-xl focus-visible:ring-[3px] focus-visible:ring-ring/50 focus-visible:outline-none"
      data-testid={testId}
    >
      <Card className="h-full transition hover:border-primary">
        <CardHeader>
          <span className="text-primary [&_svg]:size-6" aria-hidden>
            {icon}
          </span>
          <CardTitle>{title}</CardTitle>
          <CardDescription>{description}</CardDescription>
        </CardHeader>
      </Card>
    </Link>
  );
}
