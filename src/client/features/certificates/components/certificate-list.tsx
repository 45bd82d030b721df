import { BadgeCheck, FileKey2, Trash2 } from "lucide-react";
import { useState } from "react";
import { toast } from "sonner";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { Skeleton } from "@/components/ui/skeleton";
import { errorMessage } from "@/lib/api";
import { formatCnpj } from "@shared/br/cnpj";
import { rootCheckLine } from "@shared/certificates/root-check";
import { CERTIFICATE_MESSAGES, type Certificate } from "@shared/schemas/certificates";
import { useCertificates, useRemoveCertificate } from "../api/certificates-api";
import { CertificateBadge } from "./certificate-badge";
import { formatDate, formatDateTime } from "@shared/format";

/** 'Meus Certificados' (spec part 1 §2): the clinic's certificates, newest first. */
export function CertificateList({ onNew }: { onNew: () => void }) {
  const certificates = useCertificates();
  if (certificates.isPending) {
    return (
      <div className="grid gap-4" aria-busy="true" aria-label="Carregando certificados">
        <Skeleton className="h-44 w-full" />
        <Skeleton className="h-44 w-full" />
      </div>
    );
  }
  if (certificates.isError) {
    return (
      <Alert variant="destructive" data-testid="certificates-load-error">
        <AlertTitle>{CERTIFICATE_MESSAGES.loadError}</AlertTitle>
        <AlertDescription>
          <p>{errorMessage(certificates.error)}</p>
          <Button variant="outline" size="sm" className="mt-2" onClick={() => void certificates.refetch()}>
            Tentar de novo
          </Button>
        </AlertDescription>
      </Alert>
    );
  }
  const items = certificates.data.items;
  if (items.length === 0) {
    return (
      <EmptyState
        icon={<FileKey2 />}
        title={CERTIFICATE_MESSAGES.empty}
        description="Envie o certificado A1 (.pfx ou .p12) da clínica ou o seu e-CPF para assinar documentos com certificado digital."
        action={<Button onClick={onNew}>Enviar certificado</Button>}
        data-testid="certificates-empty"
      />
    );
  }
  return (
    <ul className="grid gap-4" aria-label="Certificados" data-testid="certificates-list">
      {items.map((certificate) => (
        <li key={certificate.id}>
          <CertificateCard certificate={certificate} />
        </li>
      ))}
    </ul>
  );
}

function holderLine(certificate: Certificate): string {
  if (certificate.titular === "profissional") return `Profissional: ${certificate.profissional?.nome ?? "—"}`;
  if (certificate.vinculado_clinica) return "Clínica (CNPJ confere com o cadastro)";
  if (certificate.perfil_vinculado) return `Clínica, em nome de ${certificate.perfil_vinculado.nome}`;
  if (certificate.holder_kind === "e-CNPJ") return "Clínica (CNPJ diferente do cadastrado)";
  return "Clínica";
}

function CertificateCard({ certificate }: { certificate: Certificate }) {
  const remove = useRemoveCertificate();
  const [confirming, setConfirming] = useState(false);

  async function confirmRemoval() {
    try {
      await remove.mutateAsync(certificate.id);
      toast.success(CERTIFICATE_MESSAGES.removed, {
        description: `"${certificate.alias}" não será mais usado para assinar.`,
      });
    } catch (error) {
      toast.error(CERTIFICATE_MESSAGES.removeError, { description: errorMessage(error) });
    } finally {
      setConfirming(false);
    }
  }

  return (
    <Card
      data-testid="certificate-card"
      data-active={certificate.is_active}
      className={certificate.is_active ? undefined : "opacity-80"}
    >
      <CardHeader className="gap-2">
        <div className="flex flex-wrap items-start justify-between gap-2">
          <div className="grid min-w-0 gap-1">
            <CardTitle className="text-base break-words">{certificate.alias}</CardTitle>
            <p className="text-sm break-all text-muted-foreground">{certificate.cn}</p>
          </div>
          <div className="flex flex-wrap items-center gap-1.5">
            <CertificateBadge certificate={certificate} />
            {certificate.icp_brasil ? (
              <Badge
                variant="outline"
                title="Apresenta-se como ICP-Brasil: política ICP-Brasil e cadeia do arquivo até uma raiz com esse nome. Se a raiz é uma das oficiais do ITI, diz a linha Cadeia; a revogação não é verificada aqui."
                data-testid="certificate-icp"
              >
                <BadgeCheck aria-hidden /> ICP-Brasil
              </Badge>
            ) : null}
            <Badge variant="outline">
              {certificate.holder_kind === "outro" ? "Outro tipo" : certificate.holder_kind}
            </Badge>
          </div>
        </div>
      </CardHeader>
      <CardContent className="grid gap-4">
        <dl className="grid gap-x-6 gap-y-1.5 text-sm sm:grid-cols-[auto_1fr]">
          <dt className="text-muted-foreground">De quem</dt>
          <dd data-testid="certificate-holder">{holderLine(certificate)}</dd>
          {certificate.cnpj ? (
            <>
              <dt className="text-muted-foreground">CNPJ</dt>
              <dd>{formatCnpj(certificate.cnpj)}</dd>
            </>
          ) : null}
          {certificate.cpf_mascarado ? (
            <>
              <dt className="text-muted-foreground">{certificate.holder_kind === "e-CNPJ" ? "Responsável" : "CPF"}</dt>
              <dd>
                {certificate.holder_kind === "e-CNPJ" && certificate.responsible_name
                  ? `${certificate.responsible_name} · `
                  : null}
                {certificate.cpf_mascarado}
              </dd>
            </>
          ) : null}
          <dt className="text-muted-foreground">Emissor</dt>
          <dd className="break-words">{certificate.issuer_cn || certificate.issuer}</dd>
          <dt className="text-muted-foreground">Cadeia</dt>
          <dd className="break-words" data-testid="certificate-root" data-root={certificate.raiz.conferencia}>
            {certificate.raiz.conferencia === "raiz_oficial" ? (
              <BadgeCheck aria-hidden className="mr-1 inline size-4 align-[-3px] text-emerald-700" />
            ) : null}
            {rootCheckLine(certificate.raiz)}
          </dd>
          <dt className="text-muted-foreground">Validade</dt>
          <dd data-testid="certificate-validity">
            {formatDate(certificate.not_before)} a{" "}
            {certificate.vence_em ? formatDate(certificate.vence_em) : "sem vencimento"}
          </dd>
          {certificate.descricao ? (
            <>
              <dt className="text-muted-foreground">Descrição</dt>
              <dd className="break-words">{certificate.descricao}</dd>
            </>
          ) : null}
          <dt className="text-muted-foreground">Enviado</dt>
          <dd className="break-words">
            {formatDateTime(certificate.created_at)}
            {certificate.enviado_por ? ` por ${certificate.enviado_por}` : null} · {certificate.nome_arquivo}
          </dd>
          {certificate.removed_at ? (
            <>
              <dt className="text-muted-foreground">Removido</dt>
              <dd>{formatDateTime(certificate.removed_at)}</dd>
            </>
          ) : null}
        </dl>
        <div className="flex justify-end">
          <Button
            variant="outline"
            size="sm"
            className="text-destructive"
            disabled={!certificate.is_active || remove.isPending}
            onClick={() => setConfirming(true)}
            aria-label={`Remover o certificado ${certificate.alias}`}
          >
            <Trash2 aria-hidden /> Remover
          </Button>
        </div>
      </CardContent>
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title={`Remover o certificado “${certificate.alias}”?`}
        description="Ele deixa de ser usado para assinar documentos a partir de agora. O registro continua na lista, como inativo; para voltar a usá-lo, envie o arquivo de novo."
        confirmLabel="Remover"
        pending={remove.isPending}
        onConfirm={() => void confirmRemoval()}
      />
    </Card>
  );
}
