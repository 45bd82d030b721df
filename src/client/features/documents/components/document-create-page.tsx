import { formatCentavos, normalizeReaisText } from "@shared/br/money";
import { ArrowLeft, FileWarning } from "lucide-react";
import { useEffect, useEffectEvent, useMemo, useState } from "react";
import { useForm, useWatch } from "react-hook-form";
import { Link, useNavigate, useSearchParams } from "react-router";
import { toast } from "sonner";
import { useFeegowFeatures } from "@/features/integration";
import { useFeegowSend } from "@/features/integration";
import { FEEGOW_IMPORT_MESSAGES } from "@shared/schemas/feegow";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { PageHeader } from "@/components/ui/page-header";
import { Skeleton } from "@/components/ui/skeleton";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import { useIsMobile } from "@/components/ui/use-mobile";
import { useCurrentUser } from "@/features/auth";
import { useContentItems } from "@/features/content";
import { usePatient } from "@/features/patients";
import { errorMessage } from "@/lib/api";
import { procedureKeys, useProcedures } from "@/features/procedures";
import { ApiError, api } from "@/lib/api";
import { applyServerErrors } from "@/lib/form-errors";
import { useQueryClient } from "@tanstack/react-query";
import type { ProcedureAssociations } from "@shared/schemas/procedure";
import { DOCUMENT_MESSAGES, type DocumentCreateData, type DocumentFormOptions } from "@shared/schemas/document";
import type { CurrentUser } from "@shared/schemas/me";
import { useCreateDocument, useDocumentFormOptions } from "../api/documents-api";
import { buildPreviewModel, previewPhysician, selectedContent, suggestedTitle } from "../lib/preview-model";
import { DocumentLivePreview, UnresolvedList } from "./document-live-preview";
import { AssociatedContentSection } from "./create/associated-content-section";
import { CreateDocumentSubmit } from "./create/create-document-submit";
import { CustomVariablesCard } from "./create/custom-variables-card";
import { useUnsavedChanges } from "@/components/form/use-unsaved-changes";
import { type FormValues, KNOWN_FIELDS, resolver, UUID } from "./create/form-values";
import { SelectedCountersCard } from "./create/selected-counters-card";
import { DocumentBasicsCard } from "./create/document-basics-card";

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
  const feegowOn = useFeegowFeatures().data?.file_upload === true;
  const feegow = useFeegowSend();
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
  // The user's default "Valor do procedimento": an amount is shown as the currency field writes it;
  // a free text ("Conforme orçamento") keeps a text field.
  // Whoever must choose the responsible physician (the front desk) starts blank: her own defaults
  // are never a doctor's (spec part 2 §3); the chosen physician's come with the choice.
  const startDefaults = options.must_choose_physician ? NO_DEFAULTS : options.defaults;
  const [valorDefault, setValorDefault] = useState(() => valorField(startDefaults.valor_procedimento));

  // Decision 069: the patient records the agreement sentence in audio on the signing page. The
  // chosen template says whether the box comes ticked (the teleconsultation sample's does); a
  // change made here holds for that template only, so another choice shows its own default.
  const [audioChoice, setAudioChoice] = useState<{ templateVersionId: string; ask: boolean } | null>(null);
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
        valor_procedimento: valorDefault.value,
        riscos_personalizados: startDefaults.riscos_personalizados ?? "",
        beneficios_personalizados: startDefaults.beneficios_personalizados ?? "",
        cuidados_personalizados: startDefaults.cuidados_personalizados ?? "",
      },
      conteudo: { riscos: [], beneficios: [], cuidados: [] },
      permitir_pendencias: false,
    },
  });
  const { register, control, setValue, getValues, formState, setError, handleSubmit } = form;
  const errors = formState.errors;
  const unsaved = useUnsavedChanges(formState.isDirty);
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
  const conteudo = values.conteudo;
  const chosen = useMemo(
    () => ({
      riscos: conteudo?.riscos ?? [],
      beneficios: conteudo?.beneficios ?? [],
      cuidados: conteudo?.cuidados ?? [],
    }),
    [conteudo],
  );

  // A category that no longer matches the chosen template clears it (spec part 1 §5); only a new
  // category does, not a new template choice.
  const clearMismatchedTemplate = useEffectEvent((chosenCategory: string) => {
    if (!chosenCategory || !values.template_version_id) return;
    if (template && template.categoria !== chosenCategory) setValue("template_version_id", "", { shouldDirty: true });
  });
  useEffect(() => clearMismatchedTemplate(categoria), [categoria]);

  const askAudio =
    audioChoice && audioChoice.templateVersionId === (values.template_version_id ?? "")
      ? audioChoice.ask
      : template?.estrutura.pedir_audio === true;

  // The responsible physician's own default texts (spec part 2 §3): a receptionist preparing for a
  // doctor gets the doctor's, not hers. Only the texts nobody has edited here are replaced.
  const takePhysicianDefaults = useEffectEvent((id: string) => {
    const defaults = options.physicians.find((p) => p.id === id)?.defaults ?? startDefaults;
    const edited = formState.dirtyFields.variaveis ?? {};
    if (!edited.valor_procedimento) {
      const valor = valorField(defaults.valor_procedimento);
      setValorDefault(valor);
      setValue("variaveis.valor_procedimento", valor.value);
    }
    for (const field of ["riscos_personalizados", "beneficios_personalizados", "cuidados_personalizados"] as const) {
      if (!edited[field]) setValue(`variaveis.${field}`, defaults[field] ?? "");
    }
  });
  const chosenPhysician = values.medico_responsavel_id ?? "";
  useEffect(() => {
    if (options.must_choose_physician) takePhysicianDefaults(chosenPhysician);
  }, [chosenPhysician, options.must_choose_physician]);

  const me = user.profile;
  const responsibleId = values.medico_responsavel_id || undefined;
  const physician = useMemo(
    () =>
      previewPhysician(options, responsibleId, {
        id: me.id,
        nome: me.nome,
        cpf: me.cpf,
        rqe: me.especialidades[0]?.rqe ?? me.rqe,
        conselho_tipo: me.conselho_tipo,
        conselho_numero: me.conselho_numero,
        conselho_uf: me.conselho_uf,
      }),
    [options, responsibleId, me],
  );

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
      selected: selectedContent(chosen, {
        riscos: riscos.data?.items,
        beneficios: beneficios.data?.items,
        cuidados: cuidados.data?.items,
      }),
      custom: values.variaveis ?? {},
      now,
    });
  }, [
    template,
    values,
    procedure,
    patient.data,
    physician,
    chosen,
    riscos.data,
    beneficios.data,
    cuidados.data,
    options.clinic,
    now,
  ]);

  const unresolved = [...new Set([...(model?.unresolved ?? []), ...serverUnresolved])];

  async function chooseProcedure(id: string) {
    setValue("procedimento_id", id, { shouldDirty: true });
    if (!id) return;
    const chosenProcedure = procedures.data?.items.find((p) => p.id === id);
    if (chosenProcedure && !getValues("titulo")?.trim()) {
      setValue("titulo", suggestedTitle(chosenProcedure.nome), {
        shouldDirty: true,
        shouldValidate: formState.isSubmitted,
      });
    }
    // The procedure's price (typed on /procedures or imported from Feegow) fills an empty value.
    if (chosenProcedure?.valor_centavos != null && !getValues("variaveis.valor_procedimento")?.trim()) {
      setValue("variaveis.valor_procedimento", formatCentavos(chosenProcedure.valor_centavos), { shouldDirty: true });
    }
    try {
      const associations = await queryClient.fetchQuery({
        queryKey: procedureKeys.associations(id),
        queryFn: ({ signal }) =>
          api<ProcedureAssociations>(`/api/procedures/${encodeURIComponent(id)}/associations`, { signal }),
      });
      if (getValues("procedimento_id") !== id) return;
      setValue(
        "conteudo",
        { riscos: associations.riscos, beneficios: associations.beneficios, cuidados: associations.cuidados },
        { shouldDirty: true },
      );
    } catch (error) {
      toast.error("Não foi possível carregar o conteúdo do procedimento", {
        description: error instanceof ApiError ? error.message : undefined,
      });
    }
  }

  function toggle(kind: "riscos" | "beneficios" | "cuidados", id: string, checked: boolean) {
    const current = getValues(`conteudo.${kind}`) ?? [];
    const next = checked ? [...new Set([...current, id])] : current.filter((item) => item !== id);
    setValue(`conteudo.${kind}`, next, { shouldDirty: true });
  }

  const onSubmit = handleSubmit(
    async (data) => {
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
        const created = await create.mutateAsync({
          ...data,
          permitir_pendencias: unresolved.length > 0 && allowPending,
          pedir_audio: askAudio,
        });
        if (feegowOn) {
          // Spec part 2 §4: after creation the PDF goes to the clinic system; its toast comes when Feegow answered.
          toast.success("Documento criado", { description: "Enviando o PDF ao Feegow…" });
          void feegow.send(created.id, {
            successTitle: FEEGOW_IMPORT_MESSAGES.documentCreatedAndSent,
            generated: true,
          });
        } else if (created.pdf_gerado) {
          toast.success(DOCUMENT_MESSAGES.createdLocal);
        } else {
          // Spec part 1 §8 'Erro no PDF' with the message: the document exists, its PDF does not yet.
          toast.error(DOCUMENT_MESSAGES.pdfErrorTitle, {
            description: `${DOCUMENT_MESSAGES.pdfError}. O documento foi criado: gere o PDF novamente na página do documento.`,
          });
        }
        unsaved.release();
        void navigate(`/documents/${created.id}`);
      } catch (error) {
        if (error instanceof ApiError && error.code === "DOCUMENT_UNRESOLVED") {
          const names = Array.isArray(error.details.unresolved)
            ? error.details.unresolved.filter((n): n is string => typeof n === "string")
            : [];
          setServerUnresolved(names);
          setAllowError("Marque “Criar mesmo assim” para criar o documento com variáveis sem valor.");
          toast.error(DOCUMENT_MESSAGES.createError, { description: error.message });
          return;
        }
        const rest = applyServerErrors(error, setError, KNOWN_FIELDS);
        setFormError(rest);
        toast.error(DOCUMENT_MESSAGES.createError, {
          description: rest ?? (error instanceof ApiError ? error.message : undefined),
        });
      }
    },
    () => setFormError(DOCUMENT_MESSAGES.requiredFields),
  );

  const counts = {
    riscos: chosen.riscos.length,
    beneficios: chosen.beneficios.length,
    cuidados: chosen.cuidados.length,
  };

  const formBody = (
    <form
      className="grid min-w-0 gap-6"
      noValidate
      onSubmit={(event) => void onSubmit(event)}
      aria-label="Novo documento"
    >
      <DocumentBasicsCard
        form={form}
        options={options}
        categoria={categoria}
        onCategoria={setCategoria}
        templates={templates}
        procedures={procedures}
        onProcedure={(id) => void chooseProcedure(id)}
        onChoiceChanged={() => setServerUnresolved([])}
      />

      <CustomVariablesCard register={register} errors={errors} valorIsText={valorDefault.isText} />

      <AssociatedContentSection
        chosen={chosen}
        counts={counts}
        onToggle={toggle}
        disabled={create.isPending}
        invalid={Boolean(errors.conteudo)}
      />

      <CreateDocumentSubmit
        unresolved={unresolved}
        allowPending={allowPending}
        onAllowPending={(allowed) => {
          setAllowPending(allowed);
          setAllowError(null);
        }}
        allowError={allowError}
        askAudio={askAudio}
        onAskAudio={(ask) => setAudioChoice({ templateVersionId: values.template_version_id ?? "", ask })}
        formError={formError}
        pending={create.isPending}
      />
      {unsaved.dialog}
    </form>
  );

  const sideCounters = <SelectedCountersCard counts={counts} />;

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
        <aside
          className="grid min-w-0 content-start gap-4 lg:sticky lg:top-20 lg:max-h-[calc(100dvh-6rem)] lg:overflow-y-auto"
          aria-label="Pré-visualização"
        >
          {sideCounters}
          <h2 className="text-base font-semibold">Pré-visualização</h2>
          <DocumentLivePreview model={model} />
        </aside>
      </div>
    </div>
  );
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

/** A default "Valor do procedimento": an amount as the currency field writes it; a free text keeps a text field. */
function valorField(saved: string | null): { value: string; isText: boolean } {
  const text = saved ?? "";
  return { value: normalizeReaisText(text) ?? text, isText: text.trim() !== "" && normalizeReaisText(text) === null };
}

/** No personal defaults: the start of the form for whoever chooses the responsible physician. */
const NO_DEFAULTS: DocumentFormOptions["defaults"] = {
  valor_procedimento: null,
  riscos_personalizados: null,
  beneficios_personalizados: null,
  cuidados_personalizados: null,
};
