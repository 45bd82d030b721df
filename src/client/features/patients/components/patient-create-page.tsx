import { PageHeader } from "@/components/ui/page-header";
import { useCreatePatient } from "../api/patients-api";
import { EMPTY_PATIENT_FORM } from "../lib/form-values";
import { PatientForm } from "./patient-form";

/** /patients/create */
export function PatientCreatePage() {
  const create = useCreatePatient();
  return (
    <div className="mx-auto grid w-full max-w-3xl gap-6">
      <PageHeader title="Novo Paciente" description="Cadastre um paciente para gerar documentos para ele assinar." />
      <PatientForm mode="create" defaultValues={EMPTY_PATIENT_FORM} save={create.mutateAsync} cancelTo="/patients" />
    </div>
  );
}
