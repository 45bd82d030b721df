import { FilePlus2, FileSignature, UserPlus } from "lucide-react";
import { Link } from "react-router";
import { Button } from "@/components/ui/button";
import { Card, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { PageHeader } from "@/components/ui/page-header";
import { useCurrentUser } from "@/features/auth/api/auth-api";

function greeting(now = new Date()): string {
  const hour = now.getHours();
  if (hour < 12) return "Bom dia";
  if (hour < 18) return "Boa tarde";
  return "Boa noite";
}

/** The dashboard: its statistics and recent documents arrive with the documents issue. */
export function DashboardPage() {
  const { data: user } = useCurrentUser();
  if (!user) return <p>Erro ao carregar dados do usuário.</p>;
  const firstName = user.profile.nome.split(/\s+/).find((part) => !/^dra?\.?$/i.test(part)) ?? user.profile.nome;
  return (
    <div className="grid gap-6">
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
      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
        <Link to="/templates/create" className="rounded-xl focus-visible:ring-[3px] focus-visible:ring-ring/50 focus-visible:outline-none">
          <Card className="h-full transition hover:border-primary">
            <CardHeader>
              <FileSignature className="size-6 text-primary" aria-hidden />
              <CardTitle>Criar Template</CardTitle>
              <CardDescription>Monte um modelo de termo com variáveis.</CardDescription>
            </CardHeader>
          </Card>
        </Link>
        <Link to="/patients/create" className="rounded-xl focus-visible:ring-[3px] focus-visible:ring-ring/50 focus-visible:outline-none">
          <Card className="h-full transition hover:border-primary">
            <CardHeader>
              <UserPlus className="size-6 text-primary" aria-hidden />
              <CardTitle>Cadastrar Paciente</CardTitle>
              <CardDescription>Registre um paciente para gerar documentos.</CardDescription>
            </CardHeader>
          </Card>
        </Link>
      </div>
    </div>
  );
}
