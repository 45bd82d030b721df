import { SlidersHorizontal } from "lucide-react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { Popover, PopoverContent, PopoverTrigger } from "@/components/ui/popover";
import { NativeSelect } from "@/components/form/native-select";
import { SEXO_LABEL, SEXOS, type Sexo } from "@shared/schemas/patient";
import {
  countActiveFilters,
  DOCUMENTOS_OPTIONS,
  isDateRangeInverted,
  MENORES_OPTIONS,
  type PatientFilters as Filters,
} from "../lib/list-params";

/** "Filtros": sexo, registration period, minors and with/without documents, applied as they change. */
export function PatientFilters({ value, onChange }: { value: Filters; onChange: (next: Filters) => void }) {
  const active = countActiveFilters(value);
  const set = <K extends keyof Filters>(key: K, next: Filters[K] | "") =>
    onChange({ ...value, [key]: next === "" ? undefined : next });

  return (
    <Popover>
      <PopoverTrigger asChild>
        <Button
          variant="outline"
          className="shrink-0 self-start sm:self-auto"
          aria-label={active ? `Filtros (${active} ativos)` : "Filtros"}
        >
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
        className="grid w-[min(20rem,calc(100vw-2rem))] gap-4"
        aria-label="Filtros de pacientes"
      >
        <p className="text-sm font-semibold">Filtrar pacientes</p>
        <FormField label="Sexo" htmlFor="filtro-sexo">
          <NativeSelect value={value.sexo ?? ""} onChange={(event) => set("sexo", event.target.value as Sexo | "")}>
            <option value="">Todos</option>
            {SEXOS.map((sexo) => (
              <option key={sexo} value={sexo}>
                {SEXO_LABEL[sexo]}
              </option>
            ))}
          </NativeSelect>
        </FormField>
        <div className="grid gap-3">
          <FormField label="Cadastrado de" htmlFor="filtro-criado-de">
            <Input
              type="date"
              value={value.criado_de ?? ""}
              max={value.criado_ate}
              onChange={(event) => set("criado_de", event.target.value)}
            />
          </FormField>
          <FormField label="Cadastrado até" htmlFor="filtro-criado-ate">
            <Input
              type="date"
              value={value.criado_ate ?? ""}
              min={value.criado_de}
              onChange={(event) => set("criado_ate", event.target.value)}
            />
          </FormField>
          {isDateRangeInverted(value) ? (
            <p className="text-sm font-medium text-destructive" role="alert">
              A data inicial é posterior à data final.
            </p>
          ) : null}
        </div>
        <FormField label="Menores de idade" htmlFor="filtro-menores">
          <NativeSelect
            value={value.menores ?? ""}
            onChange={(event) => set("menores", event.target.value as Filters["menores"] | "")}
          >
            {MENORES_OPTIONS.map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </NativeSelect>
        </FormField>
        <FormField label="Documentos" htmlFor="filtro-documentos">
          <NativeSelect
            value={value.documentos ?? ""}
            onChange={(event) => set("documentos", event.target.value as Filters["documentos"] | "")}
          >
            {DOCUMENTOS_OPTIONS.map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </NativeSelect>
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
