import type * as React from "react";
import { councilRegistration } from "@shared/document-model/document-variables";
import { formatPhone } from "@shared/br/phone";
import { formatCpf } from "@shared/br/cpf";
import { DOCUMENT_MESSAGES, type DocumentDetail } from "@shared/schemas/document";
import { formatCalendarDate, formatDateTime } from "../lib/format";

/** Patient, doctor and document facts (preview dialog and the document page's Dados). */
export function DocumentInfoPanel({ document }: { document: DocumentDetail }) {
  const { paciente, medico } = document;
  const council = medico ? councilRegistration(medico.conselho_tipo, medico.conselho_uf, medico.conselho_numero) : "";
  return (
    <dl className="grid gap-3 text-sm" data-testid="document-info">
      <Item label="Paciente" value={paciente?.nome ?? document.paciente_nome ?? DOCUMENT_MESSAGES.noPatient} />
      <Item label="CPF do paciente" value={paciente?.cpf ? formatCpf(paciente.cpf) : null} />
      <Item label="E-mail do paciente" value={paciente?.email} />
      <Item label="Telefone do paciente" value={paciente?.telefone ? formatPhone(paciente.telefone) : null} />
      <Item
        label="Médico responsável"
        value={medico?.nome ?? document.profissional_nome ?? DOCUMENT_MESSAGES.noProfessional}
      />
      <Item label="Conselho" value={council || null} />
      <Item label="Especialidade" value={medico?.especialidade} />
      {medico?.rqe ? <Item label="RQE" value={medico.rqe} /> : null}
      <Item label="Procedimento" value={document.procedimento ?? document.titulo} />
      {document.data_procedimento ? (
        <Item label="Data do procedimento" value={formatCalendarDate(document.data_procedimento)} />
      ) : null}
      <Item label="Criado em" value={formatDateTime(document.created_at)} />
    </dl>
  );
}

function Item({ label, value }: { label: string; value: React.ReactNode | null | undefined }) {
  return (
    <div className="grid gap-0.5">
      <dt className="text-xs font-medium text-muted-foreground">{label}</dt>
      <dd className={value ? "break-words" : "text-muted-foreground"}>{value ?? "Não informado"}</dd>
    </div>
  );
}
