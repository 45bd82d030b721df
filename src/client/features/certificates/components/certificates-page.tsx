import { ShieldX } from "lucide-react";
import { useState } from "react";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { Skeleton } from "@/components/ui/skeleton";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import { useCurrentUser } from "@/features/auth";
import { profileCan } from "@shared/permissions";
import { CERTIFICATE_MESSAGES, type CertificateTitular } from "@shared/schemas/certificates";
import { CertificateList } from "./certificate-list";
import { CertificateUploadForm } from "./certificate-upload-form";

/**
 * /certificates (spec part 1 §2; decision 019): 'Meus Certificados' and 'Novo Certificado'. The
 * owner and administrators manage the clinic's certificates; health professionals their own.
 */
export function CertificatesPage() {
  const { data: user, isPending } = useCurrentUser();
  const [tab, setTab] = useState("list");
  const manageClinic = profileCan(user?.profile, "certificates.manageClinic");
  const manageOwn = profileCan(user?.profile, "certificates.manageOwn");
  const titulares: CertificateTitular[] = [];
  if (manageClinic) titulares.push("clinica");
  if (manageOwn) titulares.push("profissional");
  // An independent professional's "clinic" is themself: their own e-CPF first.
  if (user?.tenant.tipo_perfil === "profissional_independente") titulares.reverse();

  return (
    <div className="grid min-w-0 gap-6">
      <PageHeader
        title="Certificado Digital"
        description="Certificados A1 usados para assinar os documentos com certificado digital."
      />
      {isPending ? (
        <Skeleton className="h-40 w-full max-w-3xl" />
      ) : titulares.length === 0 ? (
        <EmptyState
          className="max-w-3xl"
          icon={<ShieldX />}
          title={CERTIFICATE_MESSAGES.accessDenied}
          description={CERTIFICATE_MESSAGES.accessDeniedDetail}
        />
      ) : (
        <Tabs value={tab} onValueChange={setTab} className="max-w-3xl gap-4">
          <TabsList className="w-full sm:w-fit">
            <TabsTrigger value="list">Meus Certificados</TabsTrigger>
            <TabsTrigger value="new">Novo Certificado</TabsTrigger>
          </TabsList>
          <TabsContent value="list">
            <CertificateList onNew={() => setTab("new")} />
          </TabsContent>
          <TabsContent value="new">
            <CertificateUploadForm titulares={titulares} onShowList={() => setTab("list")} />
          </TabsContent>
        </Tabs>
      )}
    </div>
  );
}
