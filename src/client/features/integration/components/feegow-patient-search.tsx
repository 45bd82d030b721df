import { Search } from "lucide-react";
import { type FormEvent, useId, useState } from "react";
import { useFormContext } from "react-hook-form";
import { toast } from "sonner";
import { MaskedInput } from "@/components/form/masked-input";
import { CPF_MASK } from "@/components/form/masks";
import { Alert, AlertDescription } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from "@/components/ui/dialog";
import { FormField } from "@/components/ui/form-field";
import { Spinner } from "@/components/ui/spinner";
import { ApiError, errorMessage } from "@/lib/api";
import { formatCep } from "@shared/br/cep";
import { formatCpf, isValidCpf } from "@shared/br/cpf";
import { formatPhone } from "@shared/br/phone";
import { FEEGOW_MESSAGES, type FeegowPatient } from "@shared/schemas/feegow";
import { type PatientInput, SEXO_LABEL } from "@shared/schemas/patient";
import { useFeegowFeatures, useSearchFeegowPatient } from "../api/feegow-api";

const dateBr = (iso: string) => `${iso.slice(8, 10)}/${iso.slice(5, 7)}/${iso.slice(0, 4)}`;

/**
 * "Buscar no Feegow" next to the CPF of the new-patient form (spec part 2 §2): a dialog that
 * searches the clinic system by CPF, shows who it found, and fills the form (and keeps the Feegow
 * id) on confirmation. Renders nothing unless the clinic turned the patients switch on.
 */
export function FeegowPatientSearch() {
  const features = useFeegowFeatures();
  const form = useFormContext<PatientInput>();
  const search = useSearchFeegowPatient();
  const [open, setOpen] = useState(false);
  const [cpf, setCpf] = useState("");
  const [cpfError, setCpfError] = useState<string | null>(null);
  const [found, setFound] = useState<FeegowPatient | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const cpfId = useId();

  if (!features.data?.patients) return null;

  function openDialog() {
    setCpf(form.getValues("cpf") ?? "");
    setCpfError(null);
    setFound(null);
    setFailure(null);
    search.reset();
    setOpen(true);
  }

  async function run(event: FormEvent) {
    event.preventDefault();
    event.stopPropagation();
    setFound(null);
    setFailure(null);
    if (!cpf.trim()) return setCpfError("Informe o CPF");
    if (!isValidCpf(cpf)) return setCpfError("CPF inválido");
    setCpfError(null);
    try {
      setFound(await search.mutateAsync(cpf));
    } catch (error) {
      const code = error instanceof ApiError ? error.code : null;
      if (code === "FEEGOW_PATIENT_NOT_FOUND") {
        setFailure(FEEGOW_MESSAGES.patientNotFound);
        toast.error(FEEGOW_MESSAGES.patientNotFound, { description: "Nenhum paciente com este CPF no Feegow." });
      } else if (code === "FEEGOW_FEATURE_DISABLED") {
        setFailure(errorMessage(error));
        toast.error(FEEGOW_MESSAGES.disabled, { description: FEEGOW_MESSAGES.disabledDetail.patients });
        void features.refetch();
      } else {
        setFailure(errorMessage(error));
        toast.error("Erro ao buscar no Feegow", { description: errorMessage(error) });
      }
    }
  }

  function fill(patient: FeegowPatient) {
    const options = { shouldDirty: true, shouldValidate: true } as const;
    const set = (name: keyof PatientInput, value: string | null) => {
      if (value) form.setValue(name, value as never, options);
    };
    set("nome", patient.nome);
    set("cpf", formatCpf(patient.cpf));
    set("data_nascimento", patient.data_nascimento);
    set("sexo", patient.sexo);
    set("telefone", patient.telefone ? formatPhone(patient.telefone) : null);
    set("email", patient.email);
    set("cep", patient.endereco.cep ? formatCep(patient.endereco.cep) : null);
    set("logradouro", patient.endereco.logradouro);
    set("numero", patient.endereco.numero);
    set("complemento", patient.endereco.complemento);
    set("bairro", patient.endereco.bairro);
    set("cidade", patient.endereco.cidade);
    set("uf", patient.endereco.uf);
    form.setValue("feegow_patient_id", patient.feegow_patient_id);
    setOpen(false);
    toast.success("Formulário preenchido com os dados do Feegow", {
      description: "Confira os dados antes de cadastrar.",
    });
  }

  const address = found
    ? [
        [found.endereco.logradouro, found.endereco.numero].filter(Boolean).join(", "),
        found.endereco.complemento,
        found.endereco.bairro,
        [found.endereco.cidade, found.endereco.uf].filter(Boolean).join("/"),
      ]
        .filter(Boolean)
        .join(", ")
    : "";

  return (
    <>
      <Button type="button" variant="outline" size="sm" className="w-fit" onClick={openDialog}>
        <Search aria-hidden /> Buscar no Feegow
      </Button>
      <Dialog open={open} onOpenChange={(next) => !search.isPending && setOpen(next)}>
        <DialogContent>
          <DialogHeader>
            <DialogTitle>Buscar paciente no Feegow</DialogTitle>
            <DialogDescription>
              Digite o CPF do paciente cadastrado no Feegow para preencher o formulário com os dados dele.
            </DialogDescription>
          </DialogHeader>
          <form onSubmit={(event) => void run(event)} noValidate className="grid gap-3" aria-label="Busca no Feegow">
            <div className="flex items-end gap-2">
              <FormField className="flex-1" label="CPF do paciente" htmlFor={cpfId} error={cpfError ?? undefined}>
                <MaskedInput
                  value={cpf}
                  onChange={(event) => setCpf(event.target.value)}
                  mask={CPF_MASK}
                  inputMode="numeric"
                  placeholder="000.000.000-00"
                  maxLength={14}
                  autoComplete="off"
                />
              </FormField>
              <Button type="submit" disabled={search.isPending} className={cpfError ? "mb-6" : undefined}>
                {search.isPending ? <Spinner /> : <Search aria-hidden />} Buscar
              </Button>
            </div>
          </form>

          {failure ? (
            <Alert variant="destructive" role="alert">
              <AlertDescription>{failure}</AlertDescription>
            </Alert>
          ) : null}

          {found ? (
            <div className="grid gap-1 rounded-md border p-3 text-sm" data-testid="feegow-patient-result">
              <p className="font-medium text-foreground">{found.nome}</p>
              <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-0.5 text-muted-foreground">
                <dt>CPF</dt>
                <dd className="tabular-nums">{formatCpf(found.cpf)}</dd>
                {found.data_nascimento ? (
                  <>
                    <dt>Nascimento</dt>
                    <dd className="tabular-nums">{dateBr(found.data_nascimento)}</dd>
                  </>
                ) : null}
                {found.sexo ? (
                  <>
                    <dt>Sexo</dt>
                    <dd>{SEXO_LABEL[found.sexo]}</dd>
                  </>
                ) : null}
                {found.telefone ? (
                  <>
                    <dt>Telefone</dt>
                    <dd className="tabular-nums">{formatPhone(found.telefone)}</dd>
                  </>
                ) : null}
                {found.email ? (
                  <>
                    <dt>E-mail</dt>
                    <dd className="break-all">{found.email}</dd>
                  </>
                ) : null}
                {address ? (
                  <>
                    <dt>Endereço</dt>
                    <dd>{address}</dd>
                  </>
                ) : null}
              </dl>
            </div>
          ) : null}

          <DialogFooter>
            <Button type="button" variant="outline" onClick={() => setOpen(false)} disabled={search.isPending}>
              Cancelar
            </Button>
            <Button type="button" onClick={() => found && fill(found)} disabled={!found}>
              Preencher formulário
            </Button>
          </DialogFooter>
        </DialogContent>
      </Dialog>
    </>
  );
}
