import { Badge } from "@/components/ui/badge";
import { certificateBadge } from "@shared/certificates/certificate-status";

const VARIANT = {
  inactive: "secondary",
  expired: "destructive",
  expiring: "warning",
  valid: "success",
  active: "success",
} as const;

/** Spec part 1 §4: Inativo, Expirado, 'Expira em N dias', Válido, Ativo. */
export function CertificateBadge({ certificate }: { certificate: { is_active: boolean; vence_em: string | null } }) {
  const badge = certificateBadge(certificate);
  return (
    <Badge variant={VARIANT[badge.tone]} data-testid="certificate-badge" data-tone={badge.tone}>
      {badge.label}
    </Badge>
  );
}
