import { zodResolver } from "@hookform/resolvers/zod";
import { ArrowLeft, FileWarning } from "lucide-react";
import { useEffect, useMemo, useState } from "react";
import { Controller, type Resolver, useForm, useWatch } from "react-hook-form";
import { Link, useNavigate, useSearchParams } from "react-router";
import { toast } from "sonner";
import { FormErrorAlert } from "@/components/form/form-error-alert";
import { NativeSelect } from "@/components/form/native-select";
import { SubmitButton } from "@/components/form/submit-button";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Checkbox } from "@/components/ui/checkbox";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { PageHeader } from "@/components/ui/page-header";
import { Skeleton } from "@/components/ui/skeleton";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import { Textarea } from "@/components/ui/textarea";
import { useIsMobile } from "@/components/ui/use-mobile";
import { useCurrentUser } from "@/features/auth/api/auth-api";
import { useContentItems } from "@/features/content/api/content-api";
import { usePatient } from "@/features/patients/api/patients-api";
import { errorMessage } from "@/lib/api";
import { AssociationChecklist } from "@/features/procedures/components/association-checklist";
import { procedureKeys, useProcedures } from "@/features/procedures/api/procedures-api";
import { ApiError, api } from "@/lib/api";
import { applyServerErrors } from "@/lib/form-errors";
import { useQueryClient } from "@tanstack/react-query";
import type { ProcedureAssociations } from "@shared/schemas/procedure";
import {
  DOCUMENT_MESSAGES,
  type DocumentCreateData,
  type DocumentFormOptions,
  documentCreateInputSchema,
} from "@shared/schemas/document";
import { TEMPLATE_CATEGORIES } from "@shared/schemas/template";
import type { CurrentUser } from "@shared/schemas/me";
import { useCreateDocument, useDocumentFormOptions } from "../api/documents-api";
import { buildPreviewModel, previewPhysician, selectedContent, suggestedTitle } from "../lib/preview-model";
import { DocumentLivePreview, UnresolvedList } from "./document-live-preview";
import { PatientCombobox } from "./patient-combobox";

const KNOWN_FIELDS = [
  "paciente_id",
  "template_version_id",
  "titulo",
  "procedimento_id",
  "data_procedimento",
  "medico_responsavel_id",
  "variaveis",
  "conteudo",
] as const;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The form's own shape: every field a string (blank = not chosen), like the inputs hold them. */
interface FormValues {
  paciente_id: string;
  template_version_id: string;
  titulo: string;
  procedimento_id: string;
  data_procedimento: string;
  medico_responsavel_id: string;
  variaveis: { valor_procedimento: string; riscos_personalizados: string; beneficios_personalizados: string; cuidados_personalizados: string };
  conteudo: { riscos: string[]; beneficios: string[]; cuidados: string[] };
  permitir_pendencias: boolean;
}

/** The shared schema parses the form's values (blanks become "not given"). */
const resolver = zodResolver(documentCreateInputSchema) as unknown as Resolver<FormValues, unknown, DocumentCreateData>;

/**
 * /documents/create and /contracts/create (spec part 1 §2, §5 New document): the form beside a
 * live preview of the document (a tab on phones). ?paciente=<id> preselects the patient.
 */
export function DocumentCreatePage() {
  const { data: user } = useCurrentUser();
  const options = useDocumentFormOptions();
  if (!user) return <p>{DOCUMENT_MESSAGES.noTenant}</p>;
  if (options.isPending) return <CreateSkeleton />;
  if (options.isError) {
    return (
      <Alert variant="destructive">
        <FileWarning />
        <AlertTitle>Não foi possível abrir o formulário</AlertTitle>
        <AlertDescription>{errorMessage(options.error)}</AlertDescription>
      </Alert>
    );
  }
  return <DocumentCreateForm user={user} options={options.data} />;
}

function DocumentCreateForm({ user, options }: { user: CurrentUser; options: DocumentFormOptions }) {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const preselected = params.get("paciente");
  const isMobile = useIsMobile();
  const queryClient = useQueryClient();
  const create = useCreateDocument();
  const [categoria, setCategoria] = useState("");
  const [formError, setFormError] = useState<string | null>(null);
  const [serverUnresolved, setServerUnresolved] = useState<string[]>([]);
  const [allowPending, setAllowPending] = useState(false);
  const [allowError, setAllowError] = useState<string | null>(null);
  const [now] = useState(() => new Date());

  const form = useForm<FormValues, unknown, DocumentCreateData>({
    resolver,
    defaultValues: {
      paciente_id: preselected && UUID.test(preselected) ? preselected : "",
      template_version_id: "",
      titulo: "",
      procedimento_id: "",
      data_procedimento: "",
      medico_responsavel_id: "",
      variaveis: {
        valor_procedimento: options.defaults.valor_procedimento ?? "",
        riscos_personalizados: options.defaults.riscos_personalizados ?? "",
        beneficios_personalizados: options.defaults.beneficios_personalizados ?? "",
        cuidados_personalizados: options.defaults.cuidados_personalizados ?? "",
      },
      conteudo: { riscos: [], beneficios: [], cuidados: [] },
      permitir_pendencias: false,
    },
  });
  const { register, control, setValue, getValues, formState, setError, handleSubmit } = form;
  const errors = formState.errors;
  const values = useWatch({ control }) as FormValues;

  const procedures = useProcedures("");
  const riscos = useContentItems("riscos", "");
  const beneficios = useContentItems("beneficios", "");
  const cuidados = useContentItems("cuidados", "");
  const patient = usePatient(values.paciente_id || undefined);

  const templates = useMemo(
    () => options.templates.filter((t) => !categoria || t.categoria === categoria),
    [options.templates, categoria],
  );
  const template = options.templates.find((t) => t.template_version_id === values.template_version_id) ?? null;
  const procedure = procedures.data?.items.find((p) => p.id === values.procedimento_id) ?? null;
  const chosen = {
    riscos: values.conteudo?.riscos ?? [],
    beneficios: values.conteudo?.beneficios ?? [],
    cuidados: values.conteudo?.cuidados ?? [],
  };

  // A category that no longer matches the chosen template clears it (spec part 1 §5).
  useEffect(() => {
    if (!categoria || !values.template_version_id) return;
    if (template && template.categoria !== categoria) setValue("template_version_id", "", { shouldDirty: true });
  }, [categoria]);

  const me = user.profile;
  const physician = previewPhysician(options, values.medico_responsavel_id || undefined, {
    id: me.id,
    nome: me.nome,
    cpf: me.cpf,
    rqe: me.especialidades[0]?.rqe ?? me.rqe,
    conselho_tipo: me.conselho_tipo,
    conselho_numero: me.conselho_numero,
    conselho_uf: me.conselho_uf,
  });

  const model = useMemo(() => {
    if (!template) return null;
    return buildPreviewModel({
      template: { titulo: template.titulo, estrutura: template.estrutura },
      titulo: values.titulo ?? "",
      procedimento: procedure?.nome ?? null,
      data_procedimento: values.data_procedimento || null,
      patient: patient.data ?? null,
      physician,
      clinic: options.clinic,
      selected: selectedContent(chosen, { riscos: riscos.data?.items, beneficios: beneficios.data?.items, cuidados: cuidados.data?.items }),
      custom: values.variaveis ?? {},
      now,
    });
  }, [template, values, procedure, patient.data, physician?.nome, physician?.conselho_numero, riscos.data, beneficios.data, cuidados.data, options.clinic, now]);

  const unresolved = [...new Set([...(model?.unresolved ?? []), ...serverUnresolved])];

  async function chooseProcedure(id: string) {
    setValue("procedimento_id", id, { shouldDirty: true });
    if (!id) return;
    const chosenProcedure = procedures.data?.items.find((p) => p.id === id);
    if (chosenProcedure && !getValues("titulo")?.trim()) {
      setValue("titulo", suggestedTitle(chosenProcedure.nome), { shouldDirty: true, shouldValidate: formState.isSubmitted });
    }
    try {
      const associations = await queryClient.fetchQuery({
        queryKey: procedureKeys.associations(id),
        queryFn: ({ signal }) => api<ProcedureAssociations>(`/api/procedures/${encodeURIComponent(id)}/associations`, { signal }),
      });
      if (getValues("procedimento_id") !== id) return;
      setValue("conteudo", { riscos: associations.riscos, beneficios: associations.beneficios, cuidados: associations.cuidados }, { shouldDirty: true });
    } catch (error) {
      toast.error("Não foi possível carregar o conteúdo do procedimento", { description: error instanceof ApiError ? error.message : undefined });
    }
  }

  function toggle(kind: "riscos" | "beneficios" | "cuidados", id: string, checked: boolean) {
    const current = getValues(`conteudo.${kind}`) ?? [];
    const next = checked ? [...new Set([...current, id])] : current.filter((item) => item !== id);
    setValue(`conteudo.${kind}`, next, { shouldDirty: true });
  }

  const onSubmit = handleSubmit(async (data) => {
    setFormError(null);
    setAllowError(null);
    if (options.must_choose_physician && !data.medico_responsavel_id) {
      setError("medico_responsavel_id", { type: "required", message: DOCUMENT_MESSAGES.physicianRequired });
      return;
    }
    if (unresolved.length > 0 && !allowPending) {
      setAllowError("Marque “Criar mesmo assim” para criar o documento com variáveis sem valor.");
      return;
    }
    try {
      const created = await create.mutateAsync({ ...data, permitir_pendencias: unresolved.length > 0 && allowPending });
      if (created.pdf_gerado) {
        toast.success(DOCUMENT_MESSAGES.createdLocal);
      } else {
        toast.warning("Documento criado", { description: `${DOCUMENT_MESSAGES.pdfError}. Gere o PDF novamente na página do documento.` });
      }
      void navigate(`/documents/${created.id}`);
    } catch (error) {
      if (error instanceof ApiError && error.code === "DOCUMENT_UNRESOLVED") {
        const names = Array.isArray(error.details.unresolved) ? error.details.unresolved.filter((n): n is string => typeof n === "string") : [];
        setServerUnresolved(names);
        setAllowError("Marque “Criar mesmo assim” para criar o documento com variáveis sem valor.");
        toast.error(DOCUMENT_MESSAGES.createError, { description: error.message });
        return;
      }
      const rest = applyServerErrors(error, setError, KNOWN_FIELDS);
      setFormError(rest);
      toast.error(DOCUMENT_MESSAGES.createError, { description: rest ?? (error instanceof ApiError ? error.message : undefined) });
    }
  }, () => setFormError(DOCUMENT_MESSAGES.requiredFields));

  const counts = { riscos: chosen.riscos.length, beneficios: chosen.beneficios.length, cuidados: chosen.cuidados.length };

  const formBody = (
    <form className="grid min-w-0 gap-6" noValidate onSubmit={(event) => void onSubmit(event)} aria-label="Novo documento">
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
              <FormField label="Paciente" htmlFor="doc-paciente" required error={fieldState.error?.message} className="sm:col-span-2">
                {(p) => (
                  <PatientComboboxField
                    id={p.id}
                    value={field.value ?? ""}
                    invalid={Boolean(p["aria-invalid"])}
                    describedBy={p["aria-describedby"]}
                    onChange={(id) => {
                      field.onChange(id);
                      setServerUnresolved([]);
                    }}
                  />
                )}
              </FormField>
            )}
          />
          <FormField label="Categoria" htmlFor="doc-categoria">
            <NativeSelect value={categoria} onChange={(event) => setCategoria(event.target.value)}>
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
            <NativeSelect {...register("template_version_id", { onChange: () => setServerUnresolved([]) })}>
              <option value="">{templates.length === 0 ? "Nenhum template publicado" : "Selecione um template"}</option>
              {templates.map((t) => (
                <option key={t.template_version_id} value={t.template_version_id}>
                  {t.titulo} (v{t.version_number})
                </option>
              ))}
            </NativeSelect>
          </FormField>
          <FormField label="Procedimento" htmlFor="doc-procedimento" error={errors.procedimento_id?.message} hint="Preenche riscos, benefícios e cuidados associados.">
            <NativeSelect
              value={values.procedimento_id ?? ""}
              onChange={(event) => void chooseProcedure(event.target.value)}
              disabled={procedures.isPending}
            >
              <option value="">{procedures.isPending ? "Carregando procedimentos..." : "Nenhum procedimento"}</option>
              {procedures.data?.items.map((p) => (
                <option key={p.id} value={p.id}>
                  {p.nome}
                </option>
              ))}
            </NativeSelect>
          </FormField>
          <FormField label="Data do procedimento" htmlFor="doc-data" error={errors.data_procedimento?.message}>
            <Input type="date" {...register("data_procedimento")} />
          </FormField>
          <FormField label="Título" htmlFor="doc-titulo" required error={errors.titulo?.message} className="sm:col-span-2">
            <Input maxLength={200} placeholder="Termo de Consentimento - Procedimento" {...register("titulo")} />
          </FormField>
          {options.must_choose_physician ? (
            <FormField label="Médico responsável" htmlFor="doc-medico" required error={errors.medico_responsavel_id?.message} className="sm:col-span-2">
              <NativeSelect {...register("medico_responsavel_id", { onChange: () => setServerUnresolved([]) })}>
                <option value="">{options.physicians.length === 0 ? "Nenhum profissional habilitado" : "Selecione o médico responsável"}</option>
                {options.physicians.map((p) => (
                  <option key={p.id} value={p.id}>
                    {p.nome}
                    {p.conselho_tipo && p.conselho_numero ? ` (${p.conselho_tipo}-${p.conselho_uf ?? ""} ${p.conselho_numero})` : ""}
                  </option>
                ))}
              </NativeSelect>
            </FormField>
          ) : null}
        </CardContent>
      </Card>

      <Card>
        <CardHeader>
          <CardTitle className="text-base">Variáveis personalizadas</CardTitle>
          <CardDescription>Preenchidas com os seus textos padrão; ajuste para este paciente.</CardDescription>
        </CardHeader>
        <CardContent className="grid gap-4">
          <FormField label="Valor do procedimento" htmlFor="doc-valor" error={errors.variaveis?.valor_procedimento?.message}>
            <Input maxLength={200} placeholder="R$ 0,00" {...register("variaveis.valor_procedimento")} />
          </FormField>
          <FormField label="Riscos personalizados" htmlFor="doc-riscos" error={errors.variaveis?.riscos_personalizados?.message} hint="Um item por linha.">
            <Textarea rows={3} {...register("variaveis.riscos_personalizados")} />
          </FormField>
          <FormField label="Benefícios personalizados" htmlFor="doc-beneficios" error={errors.variaveis?.beneficios_personalizados?.message} hint="Um item por linha.">
            <Textarea rows={3} {...register("variaveis.beneficios_personalizados")} />
          </FormField>
          <FormField label="Cuidados personalizados" htmlFor="doc-cuidados" error={errors.variaveis?.cuidados_personalizados?.message} hint="Um item por linha.">
            <Textarea rows={3} {...register("variaveis.cuidados_personalizados")} />
          </FormField>
        </CardContent>
      </Card>

      <section className="grid gap-4" aria-label="Conteúdo associado">
        <div className="flex flex-wrap items-baseline justify-between gap-2">
          <h2 className="text-base font-semibold">Conteúdo associado</h2>
          <p className="text-sm text-muted-foreground" data-testid="selected-counters">
            {counts.riscos} {counts.riscos === 1 ? "risco" : "riscos"} · {counts.beneficios} {counts.beneficios === 1 ? "benefício" : "benefícios"} ·{" "}
            {counts.cuidados} {counts.cuidados === 1 ? "cuidado" : "cuidados"}
          </p>
        </div>
        <div className="grid gap-4">
          {(["riscos", "beneficios", "cuidados"] as const).map((kind) => (
            <AssociationChecklist
              key={kind}
              kind={kind}
              selected={new Set(chosen[kind])}
              onToggle={(id, checked) => toggle(kind, id, checked)}
              disabled={create.isPending}
            />
          ))}
        </div>
        {errors.conteudo ? <p className="text-sm text-destructive">{DOCUMENT_MESSAGES.requiredFields}</p> : null}
      </section>

      <div className="grid gap-3">
        <UnresolvedList names={unresolved} />
        {unresolved.length > 0 ? (
          <div className="grid gap-1">
            <div className="flex items-center gap-2">
              <Checkbox
                id="doc-permitir"
                checked={allowPending}
                onCheckedChange={(checked) => {
                  setAllowPending(checked === true);
                  setAllowError(null);
                }}
                aria-describedby={allowError ? "doc-permitir-error" : undefined}
              />
              <Label htmlFor="doc-permitir">Criar mesmo assim</Label>
            </div>
            {allowError ? (
              <p id="doc-permitir-error" className="text-sm font-medium text-destructive" role="alert">
                {allowError}
              </p>
            ) : null}
          </div>
        ) : null}
        <FormErrorAlert message={formError} />
        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <Button type="button" variant="outline" asChild>
            <Link to="/documents">Cancelar</Link>
          </Button>
          <SubmitButton pending={create.isPending}>Criar Documento</SubmitButton>
        </div>
      </div>
    </form>
  );

  const sideCounters = (
    <Card className="gap-2 py-4" aria-label="Itens selecionados">
      <CardHeader className="px-4">
        <CardTitle className="text-sm">Itens selecionados</CardTitle>
      </CardHeader>
      <CardContent className="grid grid-cols-3 gap-2 px-4 text-center">
        {(
          [
            ["Riscos", counts.riscos],
            ["Benefícios", counts.beneficios],
            ["Cuidados", counts.cuidados],
          ] as const
        ).map(([label, count]) => (
          <div key={label} className="rounded-md bg-muted/60 px-2 py-2">
            <p className="text-lg font-semibold tabular-nums">{count}</p>
            <p className="text-xs text-muted-foreground">{label}</p>
          </div>
        ))}
      </CardContent>
    </Card>
  );

  const header = (
    <PageHeader
      title="Novo Documento"
      description="Escolha o paciente e o template; a pré-visualização mostra o documento como será criado."
      actions={
        <Button variant="ghost" asChild>
          <Link to="/documents">
            <ArrowLeft /> Documentos
          </Link>
        </Button>
      }
    />
  );

  if (isMobile) {
    return (
      <div className="grid min-w-0 gap-4">
        {header}
        <Tabs defaultValue="formulario">
          <TabsList className="w-full">
            <TabsTrigger value="formulario">Formulário</TabsTrigger>
            <TabsTrigger value="previa">
              Pré-visualização{unresolved.length > 0 ? ` (${unresolved.length})` : ""}
            </TabsTrigger>
          </TabsList>
          <TabsContent value="formulario" forceMount className="grid gap-4 data-[state=inactive]:hidden">
            {sideCounters}
            {formBody}
          </TabsContent>
          <TabsContent value="previa" className="grid gap-3">
            <UnresolvedList names={unresolved} />
            <DocumentLivePreview model={model} />
          </TabsContent>
        </Tabs>
      </div>
    );
  }

  return (
    <div className="grid min-w-0 gap-6">
      {header}
      <div className="grid min-w-0 gap-6 lg:grid-cols-[minmax(0,1fr)_minmax(0,1fr)] 2xl:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
        {formBody}
        <aside className="grid min-w-0 content-start gap-4 lg:sticky lg:top-20 lg:max-h-[calc(100dvh-6rem)] lg:overflow-y-auto" aria-label="Pré-visualização">
          {sideCounters}
          <h2 className="text-base font-semibold">Pré-visualização</h2>
          <DocumentLivePreview model={model} />
        </aside>
      </div>
    </div>
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
}) {
  return <PatientCombobox id={id} value={value} invalid={invalid} describedBy={describedBy} onChange={(patient) => onChange(patient?.id ?? "")} />;
}

function CreateSkeleton() {
  return (
    <div className="grid gap-6" aria-busy="true">
      <span className="sr-only">Carregando formulário</span>
      <Skeleton className="h-8 w-56" />
      <div className="grid gap-6 lg:grid-cols-2">
        <div className="grid gap-4">
          <Skeleton className="h-64 w-full" />
          <Skeleton className="h-48 w-full" />
        </div>
        <Skeleton className="h-96 w-full" />
      </div>
    </div>
  );
}

