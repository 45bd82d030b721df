import { ChevronRight, SlidersHorizontal } from "lucide-react";
import { Link } from "react-router";
import { Badge } from "@/components/ui/badge";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { PageHeader } from "@/components/ui/page-header";
import { useCurrentUser } from "@/features/auth";
import { profileCan, ROLE_LABEL, type Role } from "@shared/permissions";
import { PROFILE_MESSAGES } from "@shared/schemas/profile";
import { PasswordCard } from "./password-card";
import { ProfileFormCard } from "./profile-form-card";

/** /profile (bottom bar "Perfil"): the signed-in user's own data, password and template defaults. */
export function ProfilePage() {
  const { data: user } = useCurrentUser();
  if (!user) return <p className="text-sm text-destructive">{PROFILE_MESSAGES.loadError}</p>;
  const { profile, tenant } = user;
  return (
    <div className="grid min-w-0 gap-6">
      <PageHeader title="Perfil" description="Seus dados de acesso e registro profissional" />
      <div className="grid gap-6 lg:grid-cols-[minmax(0,2fr)_minmax(0,1fr)] lg:items-start">
        <div className="grid min-w-0 gap-6">
          <ProfileFormCard key={profile.id} profile={profile} />
          <PasswordCard />
        </div>
        <div className="grid min-w-0 gap-6">
          <Card>
            <CardHeader>
              <CardTitle className="text-base">{tenant.nome}</CardTitle>
            </CardHeader>
            <CardContent className="flex flex-wrap gap-2" data-testid="profile-role">
              <Badge variant="outline">{ROLE_LABEL[profile.role as Role] ?? profile.role}</Badge>
              {profile.is_proprietario ? <Badge variant="secondary">Proprietário</Badge> : null}
            </CardContent>
          </Card>
          {profileCan(profile, "documents.write") ? (
            <Card className="p-0">
              <Link to="/profile/templates" className="flex items-center gap-3 rounded-xl p-4 hover:bg-muted/50">
                <SlidersHorizontal className="size-5 shrink-0 text-primary" aria-hidden />
                <span className="grid flex-1 gap-0.5">
                  <span className="font-medium">Textos padrão dos documentos</span>
                  <span className="text-sm text-muted-foreground">
                    Riscos, benefícios, cuidados e valor que você usa com frequência.
                  </span>
                </span>
                <ChevronRight className="size-4 text-muted-foreground" aria-hidden />
              </Link>
            </Card>
          ) : null}
        </div>
      </div>
    </div>
  );
}
