import { FilePlus2, Pencil } from "lucide-react";
import type * as React from "react";
import { useEffect } from "react";
import { Link, useLocation, useParams } from "react-router";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { PageHeader } from "@/components/ui/page-header";
import { Skeleton } from "@/components/ui/skeleton";
import { useCurrentUser } from "@/features/auth";
import { formatCpf } from "@shared/br/cpf";
import { formatPhone } from "@shared/br/phone";
import { SEXO_LABEL } from "@shared/schemas/patient";
import { usePatient } from "../api/patients-api";
import { ageFromBirthDate, formatAge, formatDateBR, formatInstantDateBR, isMinor } from "../lib/dates";
import { errorMessage } from "@/lib/api";
import { isPatientNotFound } from "../lib/errors";
import { addressLines } from "../lib/labels";
import { PatientDeleteButton } from "./patient-delete-button";
import { PatientDocumentsSection } from "./patient-documents-section";
import { PatientDataRights } from "./patient-data-rights";
import { LoadError } from "@/components/list/load-error";
import { PatientNotFound } from "./patient-not-found";
import { profileCan } from "@shared/permissions";

/** /patients/:id — the patient's data, guardian, address and documents (#documentos). */
export function PatientDetailPage() {
  const { id = "" } = useParams();
  const { hash } = useLocation();
  const patient = usePatient(id);
  const { data: user } = useCurrentUser();

  // "Ver Contratos" lands on /patients/:id#documentos: scroll there once the page has content.
  useEffect(() => {
    if (patient.data && hash === "#documentos") {
      document.getElementById("documentos")?.scrollIntoView({ block: "start" });
    }
  }, [patient.data, hash]);

  if (patient.isPending) return <PatientDetailSkeleton />;
  if (patient.isError) {
    if (isPatientNotFound(patient.error)) return <PatientNotFound />;
    return (
      <LoadError
        title="Não foi possível carregar o paciente"
        message={errorMessage(patient.error)}
        onRetry={() => void patient.refetch()}
        retrying={patient.isFetching}
      />
    );
  }

  const p = patient.data;
  const age = ageFromBirthDate(p.data_nascimento);
  const minor = isMinor(p.data_nascimento);
  const address = addressLines(p);

  return (
    <div className="grid gap-6">
      <PageHeader
        title={p.nome}
        description={`Paciente desde ${formatInstantDateBR(p.created_at)}`}
        actions={
          <>
            {profileCan(user?.profile, "patients.write") ? (
              <Button asChild variant="outline">
                <Link to={`/patients/${p.id}/edit`}>
                  <Pencil /> Editar Paciente
                </Link>
              </Button>
            ) : null}
            <Button asChild>
              <Link to={`/documents/create?paciente=${encodeURIComponent(p.id)}`}>
                <FilePlus2 /> Novo Contrato
              </Link>
            </Button>
            {profileCan(user?.profile, "patients.delete") ? (
              <PatientDeleteButton id={p.id} nome={p.nome} className="sm:order-first" />
            ) : null}
          </>
        }
      >
        {minor ? (
          <div className="pt-1">
            <Badge variant="warning">Menor de idade</Badge>
          </div>
        ) : null}
      </PageHeader>

      <div className="grid gap-4 lg:grid-cols-3 lg:gap-6">
        <Card className="gap-4 lg:col-span-2">
          <CardHeader>
            <CardTitle>
              <h2>Dados pessoais</h2>
            </CardTitle>
          </CardHeader>
          <CardContent>
            <dl className="grid gap-x-6 gap-y-4 sm:grid-cols-2">
              <Item label="CPF">{p.cpf ? formatCpf(p.cpf) : null}</Item>
              <Item label="Data de nascimento">
                {p.data_nascimento ? `${formatDateBR(p.data_nascimento)} (${formatAge(age)})` : null}
              </Item>
              <Item label="Sexo">{p.sexo ? SEXO_LABEL[p.sexo] : null}</Item>
              <Item label="Telefone">
                {p.telefone ? (
                  <a className="text-primary underline-offset-4 hover:underline" href={`tel:+55${p.telefone}`}>
                    {formatPhone(p.telefone)}
                  </a>
                ) : null}
              </Item>
              <Item label="E-mail" className="sm:col-span-2">
                {p.email ? (
                  <a className="break-all text-primary underline-offset-4 hover:underline" href={`mailto:${p.email}`}>
                    {p.email}
                  </a>
                ) : null}
              </Item>
            </dl>
          </CardContent>
        </Card>

        <Card className="gap-4">
          <CardHeader>
            <CardTitle>
              <h2>Responsável</h2>
            </CardTitle>
            {minor && !p.responsavel_nome ? (
              <CardDescription>Paciente menor de idade sem responsável informado.</CardDescription>
            ) : null}
          </CardHeader>
          <CardContent>
            {p.responsavel_nome || p.responsavel_cpf || p.responsavel_email || p.responsavel_telefone ? (
              <dl className="grid gap-4">
                <Item label="Nome do responsável">{p.responsavel_nome}</Item>
                <Item label="CPF do responsável">{p.responsavel_cpf ? formatCpf(p.responsavel_cpf) : null}</Item>
                <Item label="Celular do responsável">
                  {p.responsavel_telefone ? formatPhone(p.responsavel_telefone) : null}
                </Item>
                <Item label="E-mail do responsável">
                  {p.responsavel_email ? <span className="break-all">{p.responsavel_email}</span> : null}
                </Item>
              </dl>
            ) : (
              <p className="text-sm text-muted-foreground">Nenhum responsável informado.</p>
            )}
          </CardContent>
        </Card>

        <Card className="gap-4 lg:col-span-3">
          <CardHeader>
            <CardTitle>
              <h2>Endereço</h2>
            </CardTitle>
          </CardHeader>
          <CardContent>
            {address.length > 0 ? (
              <address className="grid gap-0.5 text-sm not-italic" data-testid="patient-address">
                {address.map((line) => (
                  <span key={line}>{line}</span>
                ))}
              </address>
            ) : (
              <p className="text-sm text-muted-foreground">Endereço não informado.</p>
            )}
          </CardContent>
        </Card>
      </div>

      <PatientDocumentsSection patientId={p.id} total={p.contratos_count} />
      <PatientDataRights id={p.id} nome={p.nome} />
    </div>
  );
}

function Item({ label, children, className }: { label: string; children: React.ReactNode; className?: string }) {
  return (
    <div className={className}>
      <dt className="text-xs font-medium text-muted-foreground uppercase">{label}</dt>
      <dd className="mt-1 text-sm">{children ?? <span className="text-muted-foreground">—</span>}</dd>
    </div>
  );
}

function PatientDetailSkeleton() {
  return (
    <div className="grid gap-6" aria-busy="true">
      <span className="sr-only">Carregando</span>
      <div className="grid gap-2">
        <Skeleton className="h-8 w-64 max-w-full" />
        <Skeleton className="h-4 w-40" />
      </div>
      <div className="grid gap-4 lg:grid-cols-3 lg:gap-6">
        <Skeleton className="h-48 lg:col-span-2" />
        <Skeleton className="h-48" />
      </div>
      <Skeleton className="h-32" />
    </div>
  );
}
