import { UserCheck, UserPlus, Users, UserX } from "lucide-react";
import { StatCard } from "@/components/ui/stat-card";
import { usePatientStats } from "../api/patients-api";
import { formatNumber } from "@shared/format";

/** The four counters of the patients list (spec part 1 §2, §9). */
export function PatientStats() {
  const stats = usePatientStats();
  const loading = stats.isPending;
  const value = (n: number | undefined) => (n === undefined ? "—" : formatNumber(n));
  return (
    <section aria-label="Resumo dos pacientes" className="grid grid-cols-2 gap-3 sm:gap-4 lg:grid-cols-4">
      <StatCard title="Total de Pacientes" value={value(stats.data?.total)} icon={<Users />} loading={loading} />
      <StatCard title="Pacientes Ativos" value={value(stats.data?.ativos)} icon={<UserCheck />} loading={loading} />
      <StatCard title="Pacientes Inativos" value={value(stats.data?.inativos)} icon={<UserX />} loading={loading} />
      <StatCard title="Novos este Mês" value={value(stats.data?.novos_mes)} icon={<UserPlus />} loading={loading} />
    </section>
  );
}
