import { Check, Search, X } from "lucide-react";
import { useEffect, useId, useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Spinner } from "@/components/ui/spinner";
import { cn } from "@/lib/utils";
import { usePatient, usePatients } from "@/features/patients";
import { useDebouncedValue } from "@/lib/use-debounced-value";
import { formatCpf } from "@shared/br/cpf";
import type { Patient } from "@shared/schemas/patient";

const RESULTS = 8;

/**
 * A patient picker that searches on the server (name, CPF, phone, e-mail) as the user types.
 * `value` is the patient id; the chosen patient is shown by name with a button to clear it.
 */
export function PatientCombobox({
  id,
  value,
  onChange,
  invalid,
  describedBy,
  disabled,
}: {
  id: string;
  value: string;
  onChange: (patient: Patient | null) => void;
  invalid?: boolean;
  describedBy?: string;
  disabled?: boolean;
}) {
  const chosen = usePatient(value || undefined);
  const [term, setTerm] = useState("");
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const debounced = useDebouncedValue(term.trim(), 250);
  const results = usePatients({ q: debounced || undefined, limit: RESULTS });
  const listId = useId();
  const wrapper = useRef<HTMLDivElement>(null);
  const input = useRef<HTMLInputElement>(null);
  const items = open ? (results.data?.items ?? []) : [];

  useEffect(() => setActive(0), [debounced]);

  useEffect(() => {
    if (!open) return;
    const onDown = (event: PointerEvent) => {
      if (wrapper.current && !wrapper.current.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener("pointerdown", onDown);
    return () => document.removeEventListener("pointerdown", onDown);
  }, [open]);

  function choose(patient: Patient) {
    onChange(patient);
    setTerm("");
    setOpen(false);
  }

  if (value) {
    const patient = chosen.data;
    return (
      <div
        className={cn(
          "flex min-h-9 items-center gap-2 rounded-md border px-3 py-1.5 text-sm shadow-xs",
          invalid ? "border-destructive" : "border-input",
        )}
        data-testid="patient-chosen"
      >
        <input type="hidden" id={id} value={value} />
        {patient ? (
          <span className="grid min-w-0 flex-1">
            <span className="truncate font-medium">{patient.nome}</span>
            <span className="truncate text-xs text-muted-foreground">
              {[patient.cpf ? formatCpf(patient.cpf) : null, patient.email].filter(Boolean).join(" · ") ||
                "Sem CPF e e-mail"}
            </span>
          </span>
        ) : chosen.isError ? (
          <span className="flex-1 text-destructive">Paciente não encontrado</span>
        ) : (
          <span className="flex flex-1 items-center gap-2 text-muted-foreground">
            <Spinner /> Carregando paciente
          </span>
        )}
        <Button
          type="button"
          variant="ghost"
          size="icon"
          className="size-7"
          aria-label="Trocar paciente"
          disabled={disabled}
          onClick={() => {
            onChange(null);
            requestAnimationFrame(() => document.getElementById(id)?.focus());
          }}
        >
          <X />
        </Button>
      </div>
    );
  }

  return (
    <div ref={wrapper} className="relative">
      <Search
        className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground"
        aria-hidden
      />
      <Input
        ref={input}
        id={id}
        role="combobox"
        aria-expanded={open}
        aria-controls={listId}
        aria-autocomplete="list"
        aria-invalid={invalid || undefined}
        aria-describedby={describedBy}
        aria-activedescendant={open && items[active] ? `${listId}-${items[active].id}` : undefined}
        autoComplete="off"
        placeholder="Buscar paciente por nome, CPF ou e-mail..."
        className="pl-9"
        value={term}
        disabled={disabled}
        maxLength={100}
        onFocus={() => setOpen(true)}
        onChange={(event) => {
          setTerm(event.target.value);
          setOpen(true);
        }}
        onKeyDown={(event) => {
          if (event.key === "ArrowDown") {
            event.preventDefault();
            setOpen(true);
            setActive((index) => Math.min(index + 1, Math.max(items.length - 1, 0)));
          } else if (event.key === "ArrowUp") {
            event.preventDefault();
            setActive((index) => Math.max(index - 1, 0));
          } else if (event.key === "Enter" && open && items[active]) {
            event.preventDefault();
            choose(items[active]);
          } else if (event.key === "Escape") {
            setOpen(false);
          }
        }}
      />
      {open ? (
        <ul
          id={listId}
          role="listbox"
          aria-label="Pacientes encontrados"
          className="absolute top-full right-0 left-0 z-50 mt-1 max-h-72 overflow-y-auto rounded-md border bg-popover p-1 text-popover-foreground shadow-md"
        >
          {results.isPending || (results.isFetching && items.length === 0) ? (
            <li className="flex items-center gap-2 px-2 py-2 text-sm text-muted-foreground">
              <Spinner /> Buscando pacientes
            </li>
          ) : results.isError ? (
            <li className="px-2 py-2 text-sm text-destructive">Não foi possível buscar os pacientes.</li>
          ) : items.length === 0 ? (
            <li className="px-2 py-2 text-sm text-muted-foreground">
              {debounced ? `Nenhum paciente encontrado para "${debounced}"` : "Nenhum paciente cadastrado"}
            </li>
          ) : (
            items.map((patient, index) => (
              <li
                key={patient.id}
                id={`${listId}-${patient.id}`}
                role="option"
                aria-selected={index === active}
                className={cn(
                  "flex cursor-pointer items-center gap-2 rounded-sm px-2 py-1.5 text-sm",
                  index === active && "bg-accent text-accent-foreground",
                )}
                onPointerDown={(event) => event.preventDefault()}
                onMouseEnter={() => setActive(index)}
                onClick={() => choose(patient)}
              >
                <span className="grid min-w-0 flex-1">
                  <span className="truncate font-medium">{patient.nome}</span>
                  <span className="truncate text-xs text-muted-foreground">
                    {[patient.cpf ? formatCpf(patient.cpf) : null, patient.email].filter(Boolean).join(" · ") ||
                      "Sem CPF e e-mail"}
                  </span>
                </span>
                {index === active ? <Check className="size-4 text-muted-foreground" aria-hidden /> : null}
              </li>
            ))
          )}
          {results.data && results.data.total > items.length && items.length > 0 ? (
            <li className="px-2 py-1.5 text-xs text-muted-foreground">Digite mais para refinar a busca.</li>
          ) : null}
        </ul>
      ) : null}
    </div>
  );
}
