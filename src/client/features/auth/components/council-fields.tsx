import { Plus, Trash2 } from "lucide-react";
import { Controller, type FieldErrors, useFieldArray, useFormContext, useWatch } from "react-hook-form";
import { NativeSelect } from "@/components/form/native-select";
import { UfSelect } from "@/components/form/uf-select";
import { Button } from "@/components/ui/button";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { CONSELHOS, type ConselhoTipo } from "@shared/reference/councils";
import { MAX_AREAS_POR_ESPECIALIDADE, MAX_ESPECIALIDADES } from "@shared/reference/limits";
import { areasFor, requiresRqe, requiresSpecialty, specialtiesFor } from "@shared/reference/specialties";

export const EMPTY_ESPECIALIDADE = { especialidade: "", areas_atuacao: [] as string[], rqe: "" };

interface CouncilValues {
  conselho_tipo: string;
  conselho_numero: string;
  conselho_uf: string;
  especialidades: { especialidade: string; areas_atuacao?: string[]; rqe?: string | null }[];
}

interface CouncilFieldsProps {
  /** Resets the specialties to one empty entry (spec: changing the council does that). */
  onCouncilChange: () => void;
}

/** Council type, number and UF, and up to 2 specialties with RQE (CRM) and up to 3 areas each. */
export function CouncilFields({ onCouncilChange }: CouncilFieldsProps) {
  // Used inside a larger form (FormProvider): only the council keys are touched here.
  const { control, register, formState } = useFormContext<CouncilValues>();
  const errors: FieldErrors<CouncilValues> = formState.errors;
  const conselho = useWatch({ control, name: "conselho_tipo" }) as ConselhoTipo | "";
  const especialidades = (useWatch({ control, name: "especialidades" }) ?? []) as CouncilValues["especialidades"];
  const { fields, append, remove } = useFieldArray({ control, name: "especialidades" });
  const specialties = conselho ? specialtiesFor(conselho) : [];
  const rqeRequired = conselho ? requiresRqe(conselho) : false;
  const specialtyRequired = conselho ? requiresSpecialty(conselho) : false;
  const listError = errors.especialidades?.message ?? errors.especialidades?.root?.message;

  return (
    <div className="grid gap-4">
      <div className="grid gap-4 sm:grid-cols-6">
        <FormField
          className="sm:col-span-3"
          label="Conselho"
          htmlFor="conselho_tipo"
          required
          error={errors.conselho_tipo?.message}
        >
          <NativeSelect {...register("conselho_tipo", { onChange: onCouncilChange })}>
            <option value="">Selecione o conselho</option>
            {CONSELHOS.map((c) => (
              <option key={c.tipo} value={c.tipo}>
                {c.tipo} ({c.nome})
              </option>
            ))}
          </NativeSelect>
        </FormField>
        <FormField
          className="sm:col-span-2"
          label="Número do conselho"
          htmlFor="conselho_numero"
          required
          error={errors.conselho_numero?.message}
        >
          <Input {...register("conselho_numero")} inputMode="numeric" />
        </FormField>
        <FormField
          className="sm:col-span-1"
          label="UF do conselho"
          htmlFor="conselho_uf"
          required
          error={errors.conselho_uf?.message}
        >
          <UfSelect {...register("conselho_uf")} />
        </FormField>
      </div>

      {conselho ? (
        <fieldset className="grid gap-3 rounded-lg border p-3">
          <legend className="px-1 text-sm font-medium">
            Especialidades{" "}
            {specialtyRequired ? (
              <span className="text-destructive">*</span>
            ) : (
              <span className="text-muted-foreground">(opcional)</span>
            )}
          </legend>
          <p className="text-xs text-muted-foreground">
            Até {MAX_ESPECIALIDADES} especialidades
            {conselho === "CRM" || conselho === "CRO"
              ? `, com até ${MAX_AREAS_POR_ESPECIALIDADE} áreas de atuação cada`
              : ""}
            {rqeRequired ? ". O RQE é obrigatório para cada especialidade do CRM." : "."}
          </p>
          {fields.map((field, index) => {
            const chosen = especialidades[index]?.especialidade ?? "";
            const areas = chosen ? areasFor(conselho, chosen) : [];
            const entryErrors = errors.especialidades?.[index];
            return (
              <div
                key={field.id}
                className="grid gap-3 rounded-md bg-muted/40 p-3"
                data-testid={`especialidade-${index}`}
              >
                <div className="flex items-end gap-2">
                  <FormField
                    className="flex-1"
                    label={`Especialidade ${index + 1}`}
                    htmlFor={`especialidades.${index}.especialidade`}
                    error={entryErrors?.especialidade?.message}
                  >
                    <NativeSelect {...register(`especialidades.${index}.especialidade`)}>
                      <option value="">Selecione a especialidade</option>
                      {specialties.map((s) => (
                        <option key={s.codigo} value={s.codigo}>
                          {s.nome}
                        </option>
                      ))}
                    </NativeSelect>
                  </FormField>
                  {fields.length > 1 ? (
                    <Button
                      type="button"
                      variant="ghost"
                      size="icon"
                      aria-label={`Remover especialidade ${index + 1}`}
                      onClick={() => remove(index)}
                    >
                      <Trash2 />
                    </Button>
                  ) : null}
                </div>
                {rqeRequired ? (
                  <FormField
                    label="RQE"
                    htmlFor={`especialidades.${index}.rqe`}
                    required
                    error={entryErrors?.rqe?.message}
                  >
                    <Input
                      {...register(`especialidades.${index}.rqe`)}
                      inputMode="numeric"
                      placeholder="Registro de Qualificação de Especialista"
                    />
                  </FormField>
                ) : null}
                {areas.length > 0 ? (
                  <fieldset className="grid gap-2">
                    <legend className="mb-1 text-sm">
                      Áreas de atuação{" "}
                      <span className="text-muted-foreground">(até {MAX_AREAS_POR_ESPECIALIDADE})</span>
                    </legend>
                    <Controller
                      control={control}
                      name={`especialidades.${index}.areas_atuacao`}
                      render={({ field: areasField }) => {
                        const value: string[] = areasField.value ?? [];
                        return (
                          <div className="grid gap-1.5 sm:grid-cols-2">
                            {areas.map((area) => {
                              const checked = value.includes(area.codigo);
                              const full = !checked && value.length >= MAX_AREAS_POR_ESPECIALIDADE;
                              return (
                                <label
                                  key={area.codigo}
                                  className={`flex items-center gap-2 text-sm ${full ? "opacity-50" : ""}`}
                                >
                                  <input
                                    type="checkbox"
                                    className="size-4 accent-[var(--primary)]"
                                    checked={checked}
                                    disabled={full}
                                    onChange={(event) =>
                                      areasField.onChange(
                                        event.target.checked
                                          ? [...value, area.codigo]
                                          : value.filter((code) => code !== area.codigo),
                                      )
                                    }
                                  />
                                  {area.nome}
                                </label>
                              );
                            })}
                          </div>
                        );
                      }}
                    />
                    {entryErrors?.areas_atuacao?.message ? (
                      <p role="alert" className="text-sm text-destructive">
                        {entryErrors.areas_atuacao.message}
                      </p>
                    ) : null}
                  </fieldset>
                ) : null}
              </div>
            );
          })}
          {listError ? (
            <p role="alert" className="text-sm text-destructive">
              {listError}
            </p>
          ) : null}
          {fields.length < MAX_ESPECIALIDADES ? (
            <Button
              type="button"
              variant="outline"
              size="sm"
              className="justify-self-start"
              onClick={() => append({ ...EMPTY_ESPECIALIDADE })}
            >
              <Plus /> Adicionar especialidade
            </Button>
          ) : null}
        </fieldset>
      ) : null}
    </div>
  );
}
