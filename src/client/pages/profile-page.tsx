import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { PageHeader } from "@/components/ui/page-header";
import { useCurrentUser } from "@/features/auth/api/auth-api";
import { formatCpf } from "@shared/br/cpf";
import { formatPhone } from "@shared/br/phone";
import { specialtyName } from "@shared/reference/specialties";
import type { ConselhoTipo } from "@shared/reference/councils";

function Row({ label, value }: { label: string; value: string | null | undefined }) {
  return (
    <div className="grid gap-0.5 sm:grid-cols-3">
      <dt className="text-sm text-muted-foreground">{label}</dt>
      <dd className="sm:col-span-2">{value || "—"}</dd>
    </div>
  );
}

/** /profile (bottom bar "Perfil"): who is signed in, and in which clinic. */
export function ProfilePage() {
  const { data: user } = useCurrentUser();
  if (!user) return <p>Erro ao carregar perfil do usuário</p>;
  const { profile, tenant } = user;
  const conselho = profile.conselho_tipo as ConselhoTipo | null;
  return (
    <div className="grid gap-6">
      <PageHeader title="Perfil" description="Seus dados de acesso e registro profissional" />
      <Card>
        <CardHeader>
          <CardTitle>{profile.nome}</CardTitle>
        </CardHeader>
        <CardContent>
          <dl className="grid gap-3">
            <Row label="E-mail" value={profile.email} />
            <Row label="CPF" value={formatCpf(profile.cpf)} />
            <Row label="Telefone" value={profile.telefone ? formatPhone(profile.telefone) : null} />
            <Row
              label="Conselho"
              value={conselho ? `${conselho} ${profile.conselho_numero ?? ""}/${profile.conselho_uf ?? ""}` : null}
            />
            <Row
              label="Especialidades"
              value={profile.especialidades
                .map((e) => `${specialtyName(e.especialidade, conselho ?? undefined)}${e.rqe ? ` (RQE ${e.rqe})` : ""}`)
                .join(", ")}
            />
            <Row label="Clínica" value={tenant.nome} />
            <Row label="Perfil" value={profile.is_proprietario ? "Proprietário" : profile.role} />
          </dl>
        </CardContent>
      </Card>
    </div>
  );
}
