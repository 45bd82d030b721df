import { Navigate } from "react-router";
import { PageHeader } from "@/components/ui/page-header";
import { useCurrentUser } from "@/features/auth";
import { profileCan } from "@shared/permissions";
import { useCreateTemplate } from "../api/templates-api";
import { TemplateForm } from "./template-form";

/** /templates/create (spec part 2 §2 New template). */
export function TemplateCreatePage() {
  const { data: user } = useCurrentUser();
  const create = useCreateTemplate();
  if (user && !profileCan(user.profile, "templates.write")) return <Navigate to="/templates" replace />;
  return (
    <div className="mx-auto grid w-full max-w-6xl gap-6">
      <PageHeader
        title="Novo Template"
        description="Monte um modelo reutilizável com seções e variáveis preenchidas a cada documento"
      />
      <TemplateForm
        mode="create"
        defaultValues={{
          titulo: "",
          especialidade: "",
          categoria: "",
          estrutura: { title: "", introduction: "", sections: [] },
        }}
        save={create.mutateAsync}
        cancelTo="/templates"
      />
    </div>
  );
}
