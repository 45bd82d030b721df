import { IdCard, Mail, Phone } from "lucide-react";
import type * as React from "react";
import { Link } from "react-router";
import { formatCpf } from "@shared/br/cpf";
import { formatPhone } from "@shared/br/phone";
import type { Patient } from "@shared/schemas/patient";
import { ageFromBirthDate, formatAge } from "../lib/dates";
import { documentsLabel } from "../lib/labels";
import { PatientRowActions } from "./patient-row-actions";

/** The list under 768 px: one stacked card per patient. */
export function PatientCards({ patients, canEdit }: { patients: Patient[]; canEdit: boolean }) {
  return (
    <ul className="grid grid-cols-1 divide-y" aria-label="Pacientes" data-testid="patients-cards">
      {patients.map((patient) => {
        const age = ageFromBirthDate(patient.data_nascimento);
        return (
          <li key={patient.id} className="grid grid-cols-1 gap-2 px-4 py-3" data-testid="patient-card">
            <div className="flex items-start justify-between gap-2">
              <div className="min-w-0 flex-1">
                <Link to={`/patients/${patient.id}`} className="block truncate font-medium hover:underline">
                  {patient.nome}
                </Link>
                <p className="text-xs text-muted-foreground">
                  {age === null ? "Idade não informada" : formatAge(age)} · {documentsLabel(patient.contratos_count)}
                </p>
              </div>
              <div className="-mt-1 -mr-2">
                <PatientRowActions id={patient.id} nome={patient.nome} canEdit={canEdit} />
              </div>
            </div>
            <dl className="grid gap-1 text-sm">
              <Line icon={<IdCard />} label="CPF" value={patient.cpf ? formatCpf(patient.cpf) : null} />
              <Line icon={<Phone />} label="Telefone" value={patient.telefone ? formatPhone(patient.telefone) : null} />
              <Line icon={<Mail />} label="E-mail" value={patient.email} />
            </dl>
          </li>
        );
      })}
    </ul>
  );
}

function Line({ icon, label, value }: { icon: React.ReactNode; label: string; value: string | null }) {
  return (
    <div className="flex min-w-0 items-center gap-2 [&_svg]:size-3.5 [&_svg]:shrink-0 [&_svg]:text-muted-foreground">
      <dt className="flex items-center">
        {icon}
        <span className="sr-only">{label}</span>
      </dt>
      <dd className={value ? "truncate tabular-nums" : "text-muted-foreground"}>{value ?? "—"}</dd>
    </div>
  );
}
