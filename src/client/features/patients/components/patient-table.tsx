import { Link } from "react-router";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { formatCpf } from "@shared/br/cpf";
import { formatPhone } from "@shared/br/phone";
import type { Patient } from "@shared/schemas/patient";
import { ageFromBirthDate, formatAge } from "../lib/dates";
import { documentsLabel } from "../lib/labels";
import { PatientRowActions } from "./patient-row-actions";

const DASH = <span className="text-muted-foreground">—</span>;

/** The list at 768 px and wider. E-mail sits under the name; phone and documents need room (lg). */
export function PatientTable({ patients, canEdit }: { patients: Patient[]; canEdit: boolean }) {
  return (
    <Table aria-label="Pacientes" data-testid="patients-table">
      <TableHeader>
        <TableRow className="hover:bg-transparent">
          <TableHead className="pl-4">Paciente</TableHead>
          <TableHead>CPF</TableHead>
          <TableHead className="hidden lg:table-cell">Telefone</TableHead>
          <TableHead>Idade</TableHead>
          <TableHead className="hidden lg:table-cell">Documentos</TableHead>
          <TableHead className="w-12 pr-4">
            <span className="sr-only">Ações</span>
          </TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {patients.map((patient) => (
          <TableRow key={patient.id} data-testid="patient-row">
            <TableCell className="max-w-72 py-3 pl-4">
              <Link to={`/patients/${patient.id}`} className="block truncate font-medium hover:underline">
                {patient.nome}
              </Link>
              <span className="block truncate text-xs text-muted-foreground">{patient.email ?? "Sem e-mail"}</span>
            </TableCell>
            <TableCell className="tabular-nums">{patient.cpf ? formatCpf(patient.cpf) : DASH}</TableCell>
            <TableCell className="hidden tabular-nums lg:table-cell">
              {patient.telefone ? formatPhone(patient.telefone) : DASH}
            </TableCell>
            <TableCell>{formatAge(ageFromBirthDate(patient.data_nascimento))}</TableCell>
            <TableCell className="hidden text-muted-foreground lg:table-cell">
              {documentsLabel(patient.contratos_count)}
            </TableCell>
            <TableCell className="pr-4 text-right">
              <PatientRowActions id={patient.id} nome={patient.nome} canEdit={canEdit} />
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
