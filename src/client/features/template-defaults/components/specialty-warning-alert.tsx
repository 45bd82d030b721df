import { Building2, TriangleAlert } from "lucide-react";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { SPECIALTY_WARNINGS, type SpecialtyWarning } from "../lib/specialty-warning";

/** The specialties warning of /profile/templates (a professional without them, or a saas_admin). */
export function SpecialtyWarningAlert({ warning }: { warning: SpecialtyWarning | null }) {
  if (!warning) return null;
  const Icon = warning === "needsClinic" ? Building2 : TriangleAlert;
  return (
    <Alert className="border-warning/50 bg-warning/10" data-testid="specialty-warning">
      <Icon aria-hidden="true" className="text-[color-mix(in_oklab,var(--color-warning)_70%,black)]" />
      <AlertTitle>
        {warning === "needsClinic" ? "Contexto de clínica necessário" : "Especialidades não vinculadas"}
      </AlertTitle>
      <AlertDescription>{SPECIALTY_WARNINGS[warning]}</AlertDescription>
    </Alert>
  );
}
