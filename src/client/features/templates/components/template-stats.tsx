import { FilePen, FileCheck2, FileSearch, Files } from "lucide-react";
import { StatCard } from "@/components/ui/stat-card";
import { useTemplateStats } from "../api/templates-api";
import { formatNumber } from "@shared/format";

/** The four counters of /templates (whole clinic, not the search). */
export function TemplateStats() {
  const stats = useTemplateStats();
  const loading = stats.isPending;
  const value = (n: number | undefined) => (n === undefined ? "—" : formatNumber(n));
  return (
    <section aria-label="Resumo dos templates" className="grid grid-cols-2 gap-3 sm:gap-4 lg:grid-cols-4">
      <StatCard title="Total de Templates" value={value(stats.data?.total)} icon={<Files />} loading={loading} />
      <StatCard
        title="Templates Publicados"
        value={value(stats.data?.publicados)}
        icon={<FileCheck2 />}
        loading={loading}
      />
      <StatCard title="Em Revisão" value={value(stats.data?.em_revisao)} icon={<FileSearch />} loading={loading} />
      <StatCard title="Rascunhos" value={value(stats.data?.rascunhos)} icon={<FilePen />} loading={loading} />
    </section>
  );
}
