import { formatCep } from "@shared/br/cep";
import { formatCpf } from "@shared/br/cpf";
import { formatPhone } from "@shared/br/phone";
import type { Patient, PatientInput } from "@shared/schemas/patient";

/** Every field of the patient form, as the inputs hold it (masked text, "" when blank). */
export const PATIENT_FORM_FIELDS = [
  "nome",
  "cpf",
  "data_nascimento",
  "sexo",
  "telefone",
  "email",
  "cep",
  "logradouro",
  "numero",
  "complemento",
  "bairro",
  "cidade",
  "uf",
  "responsavel_nome",
  "responsavel_cpf",
  "responsavel_email",
  "responsavel_telefone",
] as const satisfies readonly (keyof PatientInput)[];

export type PatientFormValues = PatientInput;

export const EMPTY_PATIENT_FORM: PatientFormValues = {
  nome: "",
  cpf: "",
  data_nascimento: "",
  sexo: "",
  telefone: "",
  email: "",
  cep: "",
  logradouro: "",
  numero: "",
  complemento: "",
  bairro: "",
  cidade: "",
  uf: "",
  responsavel_nome: "",
  responsavel_cpf: "",
  responsavel_email: "",
  responsavel_telefone: "",
};

/** A stored patient → what the edit form shows (masks applied, nulls as ""). */
export function patientToFormValues(patient: Patient): PatientFormValues {
  return {
    nome: patient.nome,
    cpf: patient.cpf ? formatCpf(patient.cpf) : "",
    data_nascimento: patient.data_nascimento?.slice(0, 10) ?? "",
    sexo: patient.sexo ?? "",
    telefone: patient.telefone ? formatPhone(patient.telefone) : "",
    email: patient.email ?? "",
    cep: patient.cep ? formatCep(patient.cep) : "",
    logradouro: patient.logradouro ?? "",
    numero: patient.numero ?? "",
    complemento: patient.complemento ?? "",
    bairro: patient.bairro ?? "",
    cidade: patient.cidade ?? "",
    uf: (patient.uf ?? "") as PatientFormValues["uf"],
    responsavel_nome: patient.responsavel_nome ?? "",
    responsavel_cpf: patient.responsavel_cpf ? formatCpf(patient.responsavel_cpf) : "",
    responsavel_email: patient.responsavel_email ?? "",
    responsavel_telefone: patient.responsavel_telefone ? formatPhone(patient.responsavel_telefone) : "",
  };
}

/** True when any guardian field has something in it. */
export function hasGuardian(
  values: Pick<PatientFormValues, "responsavel_nome" | "responsavel_cpf"> &
    Partial<Pick<PatientFormValues, "responsavel_email" | "responsavel_telefone">>,
): boolean {
  return Boolean(
    values.responsavel_nome?.trim() ||
    values.responsavel_cpf?.trim() ||
    values.responsavel_email?.trim() ||
    values.responsavel_telefone?.trim(),
  );
}
