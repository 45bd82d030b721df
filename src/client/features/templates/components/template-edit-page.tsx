import { useEffect, useEffectEvent } from "react";
import { Navigate, useNavigate, useParams } from "react-router";
import { toast } from "sonner";
import { PageHeader } from "@/components/ui/page-header";
import { useCurrentUser } from "@/features/auth";
import { errorMessage } from "@/lib/api";
import { profileCan } from "@shared/permissions";
import { TEMPLATE_CATEGORIES, TEMPLATE_MESSAGES, type TemplateCategory } from "@shared/schemas/template";
import { isTemplateNotFound, useTemplate, useUpdateTemplate } from "../api/templates-api";
import { TemplateForm } from "./template-form";
import { TemplateNotFound, TemplatePageSkeleton } from "./template-page-states";

/** /templates/:id/edit (spec part 2 §2 Edit template): each save makes a new version. */
export function TemplateEditPage() {
  const { id = "" } = useParams();
  const navigate = useNavigate();
  const template = useTemplate(id);
  const update = useUpdateTemplate(id);
  const { data: user } = useCurrentUser();
  const failed = template.isError && !isTemplateNotFound(template.error);

  // Spec part 2 §8: 'Erro ao carregar template.' then back to /templates.
  const leaveOnFailure = useEffectEvent(() => {
    toast.error(TEMPLATE_MESSAGES.loadError, { description: errorMessage(template.error) });
    navigate("/templates", { replace: true });
  });
  useEffect(() => {
    if (failed) leaveOnFailure();
  }, [failed]);

  if (user && !profileCan(user.profile, "templates.write")) return <Navigate to={`/templates/${id}/preview`} replace />;
  if (template.isPending || failed) return <TemplatePageSkeleton />;
  if (template.isError) return <TemplateNotFound />;
  const data = template.data;
  const categoria = (TEMPLATE_CATEGORIES as readonly string[]).includes(data.categoria)
    ? (data.categoria as TemplateCategory)
    : "";

  return (
    <div className="mx-auto grid w-full max-w-6xl gap-6">
      <PageHeader title="Editar Template" description={data.titulo} />
      <TemplateForm
        key={data.id}
        mode="edit"
        defaultValues={{ titulo: data.titulo, especialidade: data.especialidade, categoria, estrutura: data.estrutura }}
        save={update.mutateAsync}
        cancelTo={`/templates/${data.id}/preview`}
      />
    </div>
  );
}
