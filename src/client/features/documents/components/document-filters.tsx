import { SlidersHorizontal, X } from "lucide-react";
import { useId } from "react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Checkbox } from "@/components/ui/checkbox";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { Popover, PopoverContent, PopoverTrigger } from "@/components/ui/popover";
import { NativeSelect } from "@/components/form/native-select";
import { usePatient } from "@/features/patients";
import { DOCUMENT_STATUS_LABEL, DOCUMENT_STATUSES, REVOKED_LABEL } from "@shared/schemas/document";
import { formatCalendarDate } from "../lib/format";
import { countActiveFilters, type DocumentFilters as Filters } from "../lib/list-params";
import { PatientCombobox } from "./patient-combobox";

/** The status select's value for revoked consents. */
const REVOKED = "revogado";

export interface Physician {
  id: string;
  nome: string;
}

/** "Filtros": status, creation period, responsible professional and patient, applied as they change. */
export function DocumentFiltersButton({
  value,
  onChange,
  physicians,
}: {
  value: Filters;
  onChange: (next: Filters) => void;
  /** Null when the user cannot list them (the professional filter is then left out). */
  physicians: Physician[] | null;
}) {
  const active = countActiveFilters(value);
  const base = useId();
  const set = <K extends keyof Filters>(key: K, next: Filters[K] | "") =>
    onChange({ ...value, [key]: next === "" ? undefined : next });
  const inverted = Boolean(value.de && value.ate && value.de > value.ate);

  return (
    <Popover>
      <PopoverTrigger asChild>
        <Button variant="outline" className="shrink-0" aria-label={active ? `Filtros (${active} ativos)` : "Filtros"}>
          <SlidersHorizontal /> Filtros
          {active ? (
            <Badge className="ml-0.5 h-5 min-w-5 rounded-full px-1.5 tabular-nums" aria-hidden>
              {active}
            </Badge>
          ) : null}
        </Button>
      </PopoverTrigger>
      <PopoverContent
        align="end"
        className="grid max-h-[min(36rem,calc(100dvh-8rem))] w-[min(22rem,calc(100vw-2rem))] gap-4 overflow-y-auto"
        aria-label="Filtros de documentos"
      >
        <p className="text-sm font-semibold">Filtrar documentos</p>
        <FormField label="Status" htmlFor={`${base}-status`}>
          <NativeSelect
            value={value.revogado ? REVOKED : (value.status ?? "")}
            onChange={(event) => {
              // "Revogado" is no stored status (a revoked consent stays signed, decision 056).
              const chosen = event.target.value;
              onChange({
                ...value,
                status: chosen && chosen !== REVOKED ? (chosen as Filters["status"]) : undefined,
                revogado: chosen === REVOKED ? "1" : undefined,
              });
            }}
          >
            <option value="">Todos</option>
            {DOCUMENT_STATUSES.map((status) => (
              <option key={status} value={status}>
                {DOCUMENT_STATUS_LABEL[status]}
              </option>
            ))}
            <option value={REVOKED}>{REVOKED_LABEL}</option>
          </NativeSelect>
        </FormField>
        <label className="flex items-center gap-2 text-sm">
          <Checkbox
            checked={value.aguardando_profissional === "1"}
            onCheckedChange={(checked) => set("aguardando_profissional", checked === true ? "1" : "")}
            data-testid="filter-awaiting-professional"
          />
          Aguardando profissional
        </label>
        <div className="grid grid-cols-2 gap-3">
          <FormField label="Criado de" htmlFor={`${base}-de`}>
            <Input
              type="date"
              value={value.de ?? ""}
              max={value.ate}
              onChange={(event) => set("de", event.target.value)}
            />
          </FormField>
          <FormField label="Criado até" htmlFor={`${base}-ate`}>
            <Input
              type="date"
              value={value.ate ?? ""}
              min={value.de}
              onChange={(event) => set("ate", event.target.value)}
            />
          </FormField>
          {inverted ? (
            <p className="col-span-2 text-sm font-medium text-destructive" role="alert">
              A data inicial é posterior à data final.
            </p>
          ) : null}
        </div>
        {physicians ? (
          <FormField label="Profissional" htmlFor={`${base}-profissional`}>
            <NativeSelect
              value={value.profissional ?? ""}
              onChange={(event) => set("profissional", event.target.value)}
            >
              <option value="">Todos</option>
              {physicians.map((physician) => (
                <option key={physician.id} value={physician.id}>
                  {physician.nome}
                </option>
              ))}
            </NativeSelect>
          </FormField>
        ) : null}
        <FormField label="Paciente" htmlFor={`${base}-paciente`}>
          <PatientCombobox
            id={`${base}-paciente`}
            value={value.paciente ?? ""}
            onChange={(patient) => set("paciente", patient?.id ?? "")}
          />
        </FormField>
        <Button
          variant="ghost"
          size="sm"
          className="justify-self-start"
          disabled={active === 0}
          onClick={() => onChange({})}
        >
          Limpar filtros
        </Button>
      </PopoverContent>
    </Popover>
  );
}

/** The active filters as chips, each with an × that removes it. */
export function DocumentFilterChips({
  value,
  onChange,
  physicians,
}: {
  value: Filters;
  onChange: (next: Filters) => void;
  physicians: Physician[] | null;
}) {
  const patient = usePatient(value.paciente);
  const chips: { key: keyof Filters | "periodo"; label: string }[] = [];
  if (value.status) chips.push({ key: "status", label: `Status: ${DOCUMENT_STATUS_LABEL[value.status]}` });
  if (value.revogado) chips.push({ key: "revogado", label: `Status: ${REVOKED_LABEL}` });
  if (value.aguardando_profissional) chips.push({ key: "aguardando_profissional", label: "Aguardando profissional" });
  if (value.de || value.ate) {
    const label =
      value.de && value.ate
        ? `Criado de ${formatCalendarDate(value.de)} a ${formatCalendarDate(value.ate)}`
        : value.de
          ? `Criado a partir de ${formatCalendarDate(value.de)}`
          : `Criado até ${formatCalendarDate(value.ate)}`;
    chips.push({ key: "periodo", label });
  }
  if (value.profissional) {
    const nome = physicians?.find((p) => p.id === value.profissional)?.nome;
    chips.push({ key: "profissional", label: `Profissional: ${nome ?? "selecionado"}` });
  }
  if (value.paciente) {
    const nome = patient.data?.nome ?? (patient.isError ? "não encontrado" : "…");
    chips.push({ key: "paciente", label: `Paciente: ${nome}` });
  }
  if (chips.length === 0) return null;

  const remove = (key: keyof Filters | "periodo") => {
    const next = { ...value };
    if (key === "periodo") {
      delete next.de;
      delete next.ate;
    } else {
      delete next[key];
    }
    onChange(next);
  };

  return (
    <ul className="flex flex-wrap items-center gap-2" aria-label="Filtros ativos" data-testid="document-filter-chips">
      {chips.map((chip) => (
        <li key={chip.key}>
          <span className="inline-flex max-w-full items-center gap-1 rounded-full border bg-secondary py-0.5 pr-1 pl-3 text-xs font-medium text-secondary-foreground">
            <span className="truncate">{chip.label}</span>
            <button
              type="button"
              className="flex size-5 items-center justify-center rounded-full hover:bg-background focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
              aria-label={`Remover filtro ${chip.label}`}
              onClick={() => remove(chip.key)}
            >
              <X className="size-3" aria-hidden />
            </button>
          </span>
        </li>
      ))}
      {chips.length > 1 ? (
        <li>
          <Button variant="link" size="sm" className="h-auto px-1" onClick={() => onChange({})}>
            Limpar filtros
          </Button>
        </li>
      ) : null}
    </ul>
  );
}
