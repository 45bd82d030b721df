import { useParams } from "react-router";
import { Card, CardContent } from "@/components/ui/card";
import { PageHeader } from "@/components/ui/page-header";
import { Skeleton } from "@/components/ui/skeleton";
import { useCurrentUser } from "@/features/auth";
import { usePatient, useUpdatePatient } from "../api/patients-api";
import { errorMessage } from "@/lib/api";
import { isPatientNotFound } from "../lib/errors";
import { patientToFormValues } from "../lib/form-values";
import { PatientForm } from "./patient-form";
import { LoadError } from "@/components/list/load-error";
import { PatientNotFound } from "./patient-not-found";
import { profileCan } from "@shared/permissions";

/** /patients/:id/edit */
export function PatientEditPage() {
  const { id = "" } = useParams();
  const patient = usePatient(id);
  const update = useUpdatePatient(id);
  const { data: user } = useCurrentUser();

  if (patient.isPending) return <PatientFormSkeleton />;
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
  return (
    <div className="mx-auto grid w-full max-w-3xl gap-6">
      <PageHeader title="Editar Paciente" description={patient.data.nome} />
      {profileCan(user?.profile, "patients.write") ? (
        <PatientForm
          key={patient.data.id}
          mode="edit"
          defaultValues={patientToFormValues(patient.data)}
          save={update.mutateAsync}
          cancelTo={`/patients/${patient.data.id}`}
        />
      ) : (
        <p className="rounded-lg border border-dashed p-6 text-center text-sm text-muted-foreground">
          Você não tem permissão para editar pacientes.
        </p>
      )}
    </div>
  );
}

function PatientFormSkeleton() {
  return (
    <div className="mx-auto grid w-full max-w-3xl gap-6" aria-busy="true">
      <span className="sr-only">Carregando</span>
      <div className="grid gap-2">
        <Skeleton className="h-8 w-56" />
        <Skeleton className="h-4 w-40" />
      </div>
      {[0, 1].map((card) => (
        <Card key={card}>
          <CardContent className="grid gap-4 sm:grid-cols-2">
            {[0, 1, 2, 3].map((field) => (
              <div key={field} className="grid gap-2">
                <Skeleton className="h-4 w-24" />
                <Skeleton className="h-9 w-full" />
              </div>
            ))}
          </CardContent>
        </Card>
      ))}
    </div>
  );
}
