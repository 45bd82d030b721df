import type * as React from "react";
import { PageHeader } from "@/components/ui/page-header";
import { useCurrentUser } from "@/features/auth";
import { LoadError } from "@/components/list/load-error";
import { errorMessage } from "@/lib/api";
import { useAllowedSpecialties, useTemplateDefaults } from "../api/template-defaults-api";
import { specialtyWarning } from "../lib/specialty-warning";
import { ClinicSpecialtiesCard } from "./clinic-specialties-card";
import { SpecialtyWarningAlert } from "./specialty-warning-alert";
import { TemplateDefaultsForm } from "./template-defaults-form";
import { TemplateDefaultsSkeleton } from "./template-defaults-skeleton";
import { TemplateTagsCard } from "./template-tags-card";

/** /profile/templates (spec part 2 §2 Personal template defaults, §6, §8, §9). */
export function TemplateDefaultsPage() {
  const { data: user } = useCurrentUser();
  const profile = user?.profile;
  const isSaasAdmin = profile?.role === "saas_admin";
  const specialties = useAllowedSpecialties(Boolean(profile) && !isSaasAdmin);
  const defaults = useTemplateDefaults();
  const warning = specialtyWarning(profile, specialties.data);

  let body: React.ReactNode;
  if (defaults.isPending) {
    body = <TemplateDefaultsSkeleton />;
  } else if (defaults.isError) {
    body = (
      <LoadError
        title="Erro ao carregar templates"
        message={errorMessage(defaults.error)}
        onRetry={() => void defaults.refetch()}
        retrying={defaults.isFetching}
      />
    );
  } else {
    body = <TemplateDefaultsForm saved={defaults.data} />;
  }

  return (
    <div className="grid gap-6">
      <PageHeader
        title="Config. Templates"
        description="Textos padrão de riscos, benefícios, cuidados e valor que preenchem as tags dos seus templates."
      />
      <SpecialtyWarningAlert warning={warning} />
      {isSaasAdmin && <ClinicSpecialtiesCard />}
      <div className="grid items-start gap-6 lg:grid-cols-[minmax(0,1fr)_20rem]">
        <div className="min-w-0">{body}</div>
        <TemplateTagsCard />
      </div>
    </div>
  );
}
