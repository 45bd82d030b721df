import type * as React from "react";
import { Controller, type UseFormReturn, useWatch } from "react-hook-form";
import { Link } from "react-router";
import { NativeSelect } from "@/components/form/native-select";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import type { useProcedures } from "@/features/procedures";
import { procedureSpecialtyName } from "@shared/reference/procedure-specialties";
import type { DocumentCreateData, DocumentFormOptions } from "@shared/schemas/document";
import { TEMPLATE_CATEGORIES } from "@shared/schemas/template";
import { PatientCombobox } from "../patient-combobox";
import type { FormValues } from "./form-values";
import { PatientSendWarning } from "./patient-send-warning";

/** Paciente, categoria, template, procedimento, data, título and (when the user must choose) the responsible physician. */
export function DocumentBasicsCard({
  form,
  options,
  categoria,
  onCategoria,
  templates,
  procedures,
  onProcedure,
  onChoiceChanged,
}: {
  form: UseFormReturn<FormValues, unknown, DocumentCreateData>;
  options: DocumentFormOptions;
  categoria: string;
  onCategoria: (categoria: string) => void;
  templates: DocumentFormOptions["templates"];
  procedures: ReturnType<typeof useProcedures>;
  onProcedure: (id: string) => void;
  /** A choice that changes the variables clears the server's list of unresolved ones. */
  onChoiceChanged: () => void;
}) {
  const { control, register } = form;
  const errors = form.formState.errors;
  const procedureId = useWatch({ control, name: "procedimento_id" }) ?? "";
  const patientId = useWatch({ control, name: "paciente_id" }) ?? "";
  return (
    <Card>
      <CardHeader>
        <CardTitle className="text-base">Documento</CardTitle>
        <CardDescription>Paciente, template e procedimento.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4 sm:grid-cols-2">
        <Controller
          control={control}
          name="paciente_id"
          render={({ field, fieldState }) => (
            <FormField
              label="Paciente"
              htmlFor="doc-paciente"
              required
              error={fieldState.error?.message}
              className="sm:col-span-2"
            >
              {(p) => (
                <PatientComboboxField
                  id={p.id}
                  value={field.value ?? ""}
                  invalid={Boolean(p["aria-invalid"])}
                  describedBy={p["aria-describedby"]}
                  onChange={(id) => {
                    field.onChange(id);
                    onChoiceChanged();
                  }}
                />
              )}
            </FormField>
          )}
        />
        <PatientSendWarning patientId={patientId} />
        <FormField label="Categoria" htmlFor="doc-categoria">
          <NativeSelect value={categoria} onChange={(event) => onCategoria(event.target.value)}>
            <option value="">Todas as categorias</option>
            {TEMPLATE_CATEGORIES.map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </NativeSelect>
        </FormField>
        <FormField
          label="Template"
          htmlFor="doc-template"
          required
          error={errors.template_version_id?.message}
          hint={
            templates.length === 0 ? (
              <>
                Somente templates publicados aparecem aqui.{" "}
                <Link to="/templates" className="font-medium text-primary underline-offset-4 hover:underline">
                  Ver templates
                </Link>
              </>
            ) : undefined
          }
        >
          <NativeSelect {...register("template_version_id", { onChange: () => onChoiceChanged() })}>
            <option value="">{templates.length === 0 ? "Nenhum template publicado" : "Selecione um template"}</option>
            {templates.map((t) => (
              <option key={t.template_version_id} value={t.template_version_id}>
                {t.titulo} (v{t.version_number})
              </option>
            ))}
          </NativeSelect>
        </FormField>
        <FormField
          label="Procedimento"
          htmlFor="doc-procedimento"
          error={errors.procedimento_id?.message}
          hint="Preenche riscos, benefícios e cuidados associados."
        >
          <NativeSelect
            value={procedureId}
            onChange={(event) => onProcedure(event.target.value)}
            disabled={procedures.isPending}
          >
            <option value="">{procedures.isPending ? "Carregando procedimentos..." : "Nenhum procedimento"}</option>
            {procedures.data?.items.map((p) => (
              <option key={p.id} value={p.id}>
                {p.nome}
                {p.especialidade ? ` — ${procedureSpecialtyName(p.especialidade)}` : ""}
              </option>
            ))}
          </NativeSelect>
        </FormField>
        <FormField label="Data do procedimento" htmlFor="doc-data" error={errors.data_procedimento?.message}>
          <Input type="date" {...register("data_procedimento")} />
        </FormField>
        <FormField
          label="Título"
          htmlFor="doc-titulo"
          required
          error={errors.titulo?.message}
          className="sm:col-span-2"
        >
          <Input maxLength={200} placeholder="Termo de Consentimento - Procedimento" {...register("titulo")} />
        </FormField>
        {options.must_choose_physician ? (
          <FormField
            label="Médico responsável"
            htmlFor="doc-medico"
            required
            error={errors.medico_responsavel_id?.message}
            className="sm:col-span-2"
          >
            <NativeSelect {...register("medico_responsavel_id", { onChange: () => onChoiceChanged() })}>
              <option value="">
                {options.physicians.length === 0 ? "Nenhum profissional habilitado" : "Selecione o médico responsável"}
              </option>
              {options.physicians.map((p) => (
                <option key={p.id} value={p.id}>
                  {p.nome}
                  {p.conselho_tipo && p.conselho_numero
                    ? ` (${p.conselho_tipo}-${p.conselho_uf ?? ""} ${p.conselho_numero})`
                    : ""}
                </option>
              ))}
            </NativeSelect>
          </FormField>
        ) : null}
      </CardContent>
    </Card>
  );
}

/** The combobox, wired to a react-hook-form field. */
function PatientComboboxField({
  id,
  value,
  invalid,
  describedBy,
  onChange,
}: {
  id: string;
  value: string;
  invalid: boolean;
  describedBy: string | undefined;
  onChange: (id: string) => void;
}): React.ReactNode {
  return (
    <PatientCombobox
      id={id}
      value={value}
      invalid={invalid}
      describedBy={describedBy}
      onChange={(patient) => onChange(patient?.id ?? "")}
    />
  );
}
