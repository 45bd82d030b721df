import { Search } from "lucide-react";
import { useDeferredValue, useState } from "react";
import { Checkbox } from "@/components/ui/checkbox";
import { Input } from "@/components/ui/input";
import { Skeleton } from "@/components/ui/skeleton";
import { usePatients } from "@/features/patients";
import { errorMessage } from "@/lib/api";
import { formatCpf } from "@shared/br/cpf";

export interface PickedPatient {
  id: string;
  nome: string;
  /** Digits, to skip a pasted CPF of a patient already ticked. */
  cpf: string | null;
}

/** Search the clinic's patients and tick those who get a document; the ticks survive new searches. */
export function BulkPatientPicker({
  picked,
  onChange,
}: {
  picked: PickedPatient[];
  onChange: (next: PickedPatient[]) => void;
}) {
  const [term, setTerm] = useState("");
  const q = useDeferredValue(term.trim());
  const list = usePatients({ ...(q ? { q } : {}), limit: 20 });
  const chosen = new Set(picked.map((patient) => patient.id));
  const items = list.data?.items ?? [];

  const toggle = (patient: PickedPatient, on: boolean) =>
    onChange(on ? [...picked, patient] : picked.filter((item) => item.id !== patient.id));
  const allShown = items.length > 0 && items.every((item) => chosen.has(item.id));

  return (
    <div className="grid gap-3" data-testid="bulk-patient-picker">
      <div className="relative">
        <Search
          className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground"
          aria-hidden
        />
        <Input
          type="search"
          value={term}
          onChange={(event) => setTerm(event.target.value)}
          placeholder="Buscar por nome, CPF, telefone ou e-mail"
          aria-label="Buscar pacientes"
          maxLength={100}
          className="pl-9"
        />
      </div>
      <div className="flex flex-wrap items-center justify-between gap-2 text-sm">
        <span data-testid="bulk-picked-count">
          {picked.length === 1 ? "1 paciente selecionado" : `${picked.length} pacientes selecionados`}
        </span>
        {items.length > 0 ? (
          <label className="flex items-center gap-2">
            <Checkbox
              checked={allShown}
              onCheckedChange={(value) =>
                onChange(
                  value === true
                    ? [
                        ...picked,
                        ...items.filter((item) => !chosen.has(item.id)).map(({ id, nome, cpf }) => ({ id, nome, cpf })),
                      ]
                    : picked.filter((item) => !items.some((shown) => shown.id === item.id)),
                )
              }
            />
            Selecionar todos da lista
          </label>
        ) : null}
      </div>
      {list.isPending ? (
        <div className="grid gap-2">
          <Skeleton className="h-12 w-full" />
          <Skeleton className="h-12 w-full" />
        </div>
      ) : list.isError ? (
        <p className="text-sm text-destructive" role="alert">
          Não foi possível carregar os pacientes: {errorMessage(list.error)}
        </p>
      ) : items.length === 0 ? (
        <p className="text-sm text-muted-foreground">
          {q ? `Nenhum paciente encontrado para “${q}”.` : "Nenhum paciente cadastrado ainda."}
        </p>
      ) : (
        <ul className="grid max-h-80 divide-y overflow-y-auto rounded-md border">
          {items.map((patient) => {
            const id = `bulk-patient-${patient.id}`;
            const contact = [patient.email, patient.telefone].filter(Boolean).join(" · ");
            return (
              <li key={patient.id}>
                <label htmlFor={id} className="flex cursor-pointer items-start gap-3 p-3 hover:bg-muted/50">
                  <Checkbox
                    id={id}
                    className="mt-0.5"
                    checked={chosen.has(patient.id)}
                    onCheckedChange={(value) =>
                      toggle({ id: patient.id, nome: patient.nome, cpf: patient.cpf }, value === true)
                    }
                  />
                  <span className="grid min-w-0 gap-0.5">
                    <span className="font-medium">{patient.nome}</span>
                    <span className="truncate text-xs text-muted-foreground">
                      {patient.cpf ? `CPF ${formatCpf(patient.cpf)}` : "Sem CPF"}
                      {" · "}
                      {contact || "sem e-mail nem telefone"}
                    </span>
                  </span>
                </label>
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );
}
