import { ShieldAlert } from "lucide-react";
import { Link } from "react-router";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { useCurrentUser } from "@/features/auth";
import { certificateBadge } from "@shared/certificates/certificate-status";
import { profileCan } from "@shared/permissions";
import { useCertificates } from "../api/certificates-api";

/**
 * The dashboard's expiry notice (decision 019): for the owner and administrators, the active
 * certificates that expire in 30 days or fewer, and the ones already expired. Nothing otherwise.
 */
export function CertificateExpiryNotice() {
  const { data: user } = useCurrentUser();
  const allowed = profileCan(user?.profile, "certificates.manageClinic");
  const certificates = useCertificates(allowed);
  if (!allowed || !certificates.data) return null;
  const now = new Date();
  const attention = certificates.data.items
    .filter((c) => c.is_active)
    .map((c) => ({ certificate: c, badge: certificateBadge(c, now) }))
    .filter(({ badge }) => badge.tone === "expiring" || badge.tone === "expired");
  if (attention.length === 0) return null;
  const expired = attention.some(({ badge }) => badge.tone === "expired");
  return (
    <Alert variant={expired ? "destructive" : "default"} data-testid="certificate-expiry-notice">
      <ShieldAlert aria-hidden />
      <AlertTitle>{expired ? "Certificado digital vencido" : "Certificado digital perto do vencimento"}</AlertTitle>
      <AlertDescription>
        <ul className="grid gap-0.5">
          {attention.map(({ certificate, badge }) => (
            <li key={certificate.id}>
              <strong>{certificate.alias}</strong> — {badge.tone === "expired" ? "expirado" : badge.label.toLowerCase()}
            </li>
          ))}
        </ul>
        <Link to="/certificates" className="font-medium underline underline-offset-4">
          Renovar em Certificado Digital
        </Link>
      </AlertDescription>
    </Alert>
  );
}
