import { zodResolver } from "@hookform/resolvers/zod";
import { FileDown, Info } from "lucide-react";
import { useState } from "react";
import { Controller, type FieldErrors, type Resolver, useForm, useWatch } from "react-hook-form";
import { useNavigate } from "react-router";
import { toast } from "sonner";
import { FormErrorAlert } from "@/components/form/form-error-alert";
import { NativeSelect } from "@/components/form/native-select";
import { useUnsavedChanges } from "@/components/form/use-unsaved-changes";
import { SubmitButton } from "@/components/form/submit-button";
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from "@/components/ui/alert-dialog";
import { Alert, AlertDescription } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { Checkbox } from "@/components/ui/checkbox";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import { useGoBack } from "@/features/patients";
import { errorMessage } from "@/lib/api";
import { applyServerErrors } from "@/lib/form-errors";
import { SAMPLE_TEMPLATE } from "@shared/document-model/sample-template";
import { SAMPLE_TELECONSULT_TEMPLATE } from "@shared/document-model/sample-teleconsult-template";
import type { TemplateStructure } from "@shared/document-model/structure";
import {
  TEMPLATE_CATEGORIES,
  TEMPLATE_MESSAGES,
  type TemplateCategory,
  type TemplateData,
  type TemplateDetail,
  type TemplateInput,
  templateInputSchema,
} from "@shared/schemas/template";
import { useTemplateSpecialties } from "../api/templates-api";
import { hasContent } from "../lib/sections";
import { TemplateEditor } from "./template-editor";
import { OptionalConsentsEditor } from "./optional-consents-editor";
import { TemplatePreview } from "./template-preview";
import { UsageTips } from "./usage-tips";

/** The samples offered on "Novo template": a procedure's TCLE and a teleconsultation's (CFM Res. 2.314/2022). */
const SAMPLES = { tcle: SAMPLE_TEMPLATE, teleconsulta: SAMPLE_TELECONSULT_TEMPLATE } as const;
type SampleId = keyof typeof SAMPLES;
const SAMPLE_LABEL: Readonly<Record<SampleId, string>> = {
  tcle: "Carregar modelo de exemplo",
  teleconsulta: "Modelo para teleconsulta",
};

export interface TemplateFormValues {
  titulo: string;
  especialidade: string;
  categoria: TemplateCategory | "";
  estrutura: TemplateStructure;
}

/** Every message under an error subtree (the structure's fields have no input of their own). */
/** The documents' default for the audio of the agreement (decision 069); the create form may untick it. */
function AudioDefaultField({
  checked,
  onChange,
  disabled,
}: {
  checked: boolean;
  onChange: (ask: boolean) => void;
  disabled: boolean;
}) {
  return (
    <Card>
      <CardContent className="grid gap-1 px-4 sm:px-6">
        <div className="flex items-center gap-2">
          <Checkbox
            id="template-pedir-audio"
            checked={checked}
            onCheckedChange={(value) => onChange(value === true)}
            disabled={disabled}
            aria-describedby="template-pedir-audio-hint"
            data-testid="template-ask-audio"
          />
          <Label htmlFor="template-pedir-audio">Pedir o aceite em áudio nos documentos deste template</Label>
        </div>
        <p id="template-pedir-audio-hint" className="text-xs text-muted-foreground">
          Ao criar o documento, “Pedir que o paciente grave o aceite em áudio” já vem marcado e pode ser desmarcado.
          Útil em teleconsulta (Resolução CFM nº 2.314/2022).
        </p>
      </CardContent>
    </Card>
  );
}

function collectMessages(errors: unknown, out: string[] = []): string[] {
  if (!errors || typeof errors !== "object") return out;
  const { message } = errors as { message?: unknown };
  if (typeof message === "string" && message && !out.includes(message)) out.push(message);
  for (const [key, value] of Object.entries(errors)) {
    if (key !== "ref" && key !== "message" && key !== "type") collectMessages(value, out);
  }
  return out;
}

/** The new template and edit template screens' form (spec part 2 §2). */
export function TemplateForm({
  mode,
  defaultValues,
  save,
  cancelTo,
}: {
  mode: "create" | "edit";
  defaultValues: TemplateFormValues;
  save: (input: TemplateInput) => Promise<TemplateDetail>;
  cancelTo: string;
}) {
  const navigate = useNavigate();
  const goBack = useGoBack(cancelTo);
  const specialties = useTemplateSpecialties();
  const [formError, setFormError] = useState<string | null>(null);
  // The sample asked for, waiting for "Substituir o conteúdo atual?" when the editor has content.
  const [confirmSample, setConfirmSample] = useState<SampleId | null>(null);
  const [tab, setTab] = useState("editor");
  const form = useForm<TemplateFormValues, unknown, TemplateData>({
    resolver: zodResolver(templateInputSchema) as unknown as Resolver<TemplateFormValues, unknown, TemplateData>,
    defaultValues,
    mode: "onTouched",
  });
  const { register, handleSubmit, formState, setError, setValue, getValues, control } = form;
  const { errors, isSubmitting } = formState;
  const unsaved = useUnsavedChanges(formState.isDirty);
  const titulo = useWatch({ control, name: "titulo" });
  const estrutura = useWatch({ control, name: "estrutura" });
  const especialidade = useWatch({ control, name: "especialidade" });
  const messages =
    mode === "create"
      ? { success: TEMPLATE_MESSAGES.created, error: TEMPLATE_MESSAGES.createError }
      : { success: TEMPLATE_MESSAGES.saved, error: TEMPLATE_MESSAGES.saveError };

  const options = specialties.data?.items ?? [];
  const specialtyOptions = especialidade && !options.includes(especialidade) ? [especialidade, ...options] : options;

  const onSubmit = handleSubmit(
    async (values) => {
      setFormError(null);
      const input: TemplateInput = {
        ...values,
        // A document without its own title uses the template's (spec part 2 §2 Edit template).
        estrutura: { ...values.estrutura, title: values.estrutura.title.trim() || values.titulo },
      };
      try {
        const saved = await save(input);
        toast.success(messages.success);
        unsaved.release();
        navigate(`/templates/${saved.id}/preview`);
      } catch (error) {
        const rest = applyServerErrors(error, setError, ["titulo", "especialidade", "categoria"]);
        setFormError(rest);
        const reason = rest ?? errorMessage(error);
        toast.error(messages.error, { description: reason });
      }
    },
    (invalid: FieldErrors<TemplateFormValues>) => {
      if (invalid.especialidade?.message) toast.error(invalid.especialidade.message);
      if (invalid.estrutura) setFormError(collectMessages(invalid.estrutura).join(" "));
    },
  );

  function loadSample(which: SampleId) {
    const sample = SAMPLES[which];
    setValue("titulo", sample.titulo, { shouldDirty: true, shouldValidate: formState.isSubmitted });
    setValue("categoria", sample.categoria, { shouldDirty: true, shouldValidate: formState.isSubmitted });
    setValue("estrutura", structuredClone(sample.estrutura), { shouldDirty: true });
    setConfirmSample(null);
    setTab("editor");
    toast.success("Modelo de exemplo carregado");
  }

  const titleBlank = titulo.trim() === "";
  const noSections = estrutura.sections.length === 0;

  return (
    <form
      onSubmit={(event) => void onSubmit(event)}
      noValidate
      className="grid gap-6"
      aria-label={mode === "create" ? "Novo template" : "Editar template"}
    >
      <Card>
        <CardHeader className="flex flex-wrap items-start justify-between gap-3">
          <CardTitle>Informações básicas</CardTitle>
          {mode === "create" ? (
            <div className="flex flex-wrap gap-2">
              {(Object.keys(SAMPLES) as SampleId[]).map((which) => (
                <Button
                  key={which}
                  type="button"
                  variant="outline"
                  size="sm"
                  onClick={() => (hasContent(getValues("estrutura")) ? setConfirmSample(which) : loadSample(which))}
                >
                  <FileDown /> {SAMPLE_LABEL[which]}
                </Button>
              ))}
            </div>
          ) : null}
        </CardHeader>
        <CardContent className="grid gap-4 sm:grid-cols-2">
          <FormField
            label="Título do Template"
            htmlFor="titulo"
            required
            error={errors.titulo?.message}
            className="sm:col-span-2"
          >
            <Input
              {...register("titulo")}
              maxLength={200}
              autoComplete="off"
              placeholder="Ex.: Termo de Consentimento - Blefaroplastia"
            />
          </FormField>
          <FormField
            label="Especialidade"
            htmlFor="especialidade"
            required
            error={errors.especialidade?.message}
            hint={
              specialties.data?.fallback
                ? "Nenhuma especialidade está vinculada aos profissionais da clínica: a lista mostra todas as especialidades."
                : specialties.isError
                  ? "Não foi possível carregar as especialidades. Recarregue a página."
                  : undefined
            }
          >
            <NativeSelect {...register("especialidade")} disabled={specialties.isPending}>
              <option value="">{specialties.isPending ? "Carregando..." : "Selecione uma especialidade"}</option>
              {specialtyOptions.map((name) => (
                <option key={name} value={name}>
                  {name}
                </option>
              ))}
            </NativeSelect>
          </FormField>
          <FormField label="Categoria" htmlFor="categoria" required error={errors.categoria?.message}>
            <NativeSelect {...register("categoria")}>
              <option value="">Selecione uma categoria</option>
              {TEMPLATE_CATEGORIES.map((categoria) => (
                <option key={categoria} value={categoria}>
                  {categoria}
                </option>
              ))}
            </NativeSelect>
          </FormField>
        </CardContent>
      </Card>

      {mode === "edit" && noSections ? (
        <Alert role="status">
          <Info />
          <AlertDescription>
            {TEMPLATE_MESSAGES.noStructure} O título do template será usado automaticamente como título do documento.
            Adicione seções para montar o conteúdo.
          </AlertDescription>
        </Alert>
      ) : null}

      <Tabs value={tab} onValueChange={setTab} className="gap-4">
        <TabsList className="w-full sm:w-fit">
          <TabsTrigger value="editor" className="sm:px-4">
            Editor
          </TabsTrigger>
          <TabsTrigger value="preview" className="sm:px-4">
            Pré-visualização
          </TabsTrigger>
        </TabsList>
        <TabsContent value="editor">
          <Controller
            control={control}
            name="estrutura"
            render={({ field }) => (
              <div className="grid gap-4">
                <TemplateEditor value={field.value} onChange={field.onChange} disabled={isSubmitting} />
                <OptionalConsentsEditor
                  value={field.value.optional_consents ?? []}
                  onChange={(optional_consents) => field.onChange({ ...field.value, optional_consents })}
                  disabled={isSubmitting}
                />
                <AudioDefaultField
                  checked={field.value.pedir_audio === true}
                  onChange={(ask) => {
                    // Off is absent: a template that never asked keeps the content (and hash) it had.
                    const { pedir_audio: _previous, ...rest } = field.value;
                    field.onChange(ask ? { ...rest, pedir_audio: true } : rest);
                  }}
                  disabled={isSubmitting}
                />
              </div>
            )}
          />
        </TabsContent>
        <TabsContent value="preview">
          <TemplatePreview structure={estrutura} fallbackTitle={titulo.trim() || undefined} />
        </TabsContent>
      </Tabs>

      {mode === "create" ? <UsageTips /> : null}

      <FormErrorAlert message={formError} />

      <div className="grid gap-2">
        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <Button type="button" variant="outline" onClick={goBack} disabled={isSubmitting}>
            Cancelar
          </Button>
          {mode === "create" ? (
            <SubmitButton pending={isSubmitting}>Criar Template</SubmitButton>
          ) : (
            <Button type="submit" disabled={isSubmitting || titleBlank}>
              {isSubmitting ? "Salvando..." : "Salvar Alterações"}
            </Button>
          )}
        </div>
        {mode === "edit" ? (
          <p className="text-xs text-muted-foreground sm:text-right">
            Ao salvar, uma nova versão do template é criada; as versões anteriores são mantidas.
          </p>
        ) : null}
      </div>

      <AlertDialog open={confirmSample !== null} onOpenChange={(open) => !open && setConfirmSample(null)}>
        <AlertDialogContent>
          <AlertDialogHeader>
            <AlertDialogTitle>Substituir o conteúdo atual?</AlertDialogTitle>
            <AlertDialogDescription>
              O modelo de exemplo substitui o título, a categoria e todo o conteúdo do editor. O que você escreveu será
              perdido.
            </AlertDialogDescription>
          </AlertDialogHeader>
          <AlertDialogFooter>
            <AlertDialogCancel>Cancelar</AlertDialogCancel>
            <AlertDialogAction onClick={() => confirmSample && loadSample(confirmSample)}>
              Carregar modelo
            </AlertDialogAction>
          </AlertDialogFooter>
        </AlertDialogContent>
      </AlertDialog>
      {unsaved.dialog}
    </form>
  );
}
