import { zodResolver } from "@hookform/resolvers/zod";
import { useState } from "react";
import { FormProvider, useForm, useWatch } from "react-hook-form";
import { Link, useNavigate, useSearchParams } from "react-router";
import { toast } from "sonner";
import type { z } from "zod";
import { FormErrorAlert } from "@/components/form/form-error-alert";
import { MaskedInput } from "@/components/form/masked-input";
import { useUnsavedChanges } from "@/components/form/use-unsaved-changes";
import { CPF_MASK, PHONE_MASK } from "@/components/form/masks";
import { NativeSelect } from "@/components/form/native-select";
import { SubmitButton } from "@/components/form/submit-button";
import { Button } from "@/components/ui/button";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { ApiError, errorMessage } from "@/lib/api";
import { applyServerErrors } from "@/lib/form-errors";
import {
  type Patient,
  type PatientInput,
  PATIENT_MESSAGES,
  patientInputSchema,
  SEXO_LABEL,
  SEXOS,
} from "@shared/schemas/patient";
import { cpfTakenBy } from "../api/patients-api";
import { ageFromBirthDate, formatAge, isMinor, todayInSaoPaulo } from "../lib/dates";
import { PATIENT_FORM_FIELDS, type PatientFormValues, hasGuardian } from "../lib/form-values";
import { useGoBack } from "../lib/use-go-back";
import { AddressFields } from "@/components/form/address-fields";
import { PatientFormSection } from "./patient-form-section";
import { PatientGuardianSection } from "./patient-guardian-section";
import { FeegowPatientSearch } from "@/features/integration";
import { safeReturnPath } from "@/features/documents";
import { SigningHint } from "./signing-hint";

type Output = z.output<typeof patientInputSchema>;

interface PatientFormProps {
  mode: "create" | "edit";
  defaultValues: PatientFormValues;
  /** Sends the form (POST or PUT) and answers the stored patient. */
  save: (input: PatientInput) => Promise<Patient>;
  /** Where Cancelar goes when there is no page to go back to. */
  cancelTo: string;
}

/** New patient and edit patient (spec part 1 §5 "New patient", part 2 §3 guardian fields). */
export function PatientForm({ mode, defaultValues, save, cancelTo }: PatientFormProps) {
  const navigate = useNavigate();
  const goBack = useGoBack(cancelTo);
  // "Completar cadastro" (Novo documento, the send dialog) comes back where it started after saving.
  const [params] = useSearchParams();
  const returnTo = safeReturnPath(params.get("voltar"));
  const [formError, setFormError] = useState<string | null>(null);
  const [takenBy, setTakenBy] = useState<{ patient_id: string; nome: string } | null>(null);
  const form = useForm<PatientFormValues, unknown, Output>({
    resolver: zodResolver(patientInputSchema),
    defaultValues,
    mode: "onTouched",
  });
  const { register, handleSubmit, formState, setError, setFocus, control } = form;
  const { errors } = formState;
  const unsaved = useUnsavedChanges(formState.isDirty);
  const birthDate = useWatch({ control, name: "data_nascimento" });
  const age = ageFromBirthDate(birthDate);
  const minor = isMinor(birthDate);
  const [cpfValue, phoneValue, emailValue] = useWatch({ control, name: ["cpf", "telefone", "email"] });
  const noContact = !phoneValue?.trim() && !emailValue?.trim();
  const messages =
    mode === "create"
      ? { success: PATIENT_MESSAGES.created, error: PATIENT_MESSAGES.createError, submit: "Cadastrar paciente" }
      : { success: PATIENT_MESSAGES.updated, error: PATIENT_MESSAGES.updateError, submit: "Salvar alterações" };

  const onSubmit = handleSubmit(async (values) => {
    setFormError(null);
    setTakenBy(null);
    try {
      const patient = await save(values);
      toast.success(messages.success);
      unsaved.release();
      navigate(returnTo ?? `/patients/${patient.id}`);
    } catch (error) {
      if (error instanceof ApiError && error.code === "PATIENT_CPF_TAKEN") {
        setError("cpf", { type: "server", message: error.message }, { shouldFocus: true });
        setTakenBy(cpfTakenBy(error));
        toast.error(messages.error, { description: error.message });
        return;
      }
      const rest = applyServerErrors(error, setError, PATIENT_FORM_FIELDS);
      setFormError(rest);
      const reason = rest ?? errorMessage(error);
      toast.error(messages.error, { description: reason });
      const first =
        error instanceof ApiError
          ? error.issues.find((issue) => PATIENT_FORM_FIELDS.includes(issue.path as never))
          : undefined;
      if (first) setFocus(first.path as keyof PatientFormValues);
    }
  });

  const cpf = register("cpf", {
    onChange: () => {
      if (takenBy) setTakenBy(null);
      // A CPF typed by hand is no longer the person found in Feegow.
      if (form.getValues("feegow_patient_id") !== undefined) form.setValue("feegow_patient_id", undefined);
    },
  });

  return (
    <FormProvider {...form}>
      <form
        onSubmit={onSubmit}
        noValidate
        className="grid gap-4 sm:gap-6"
        aria-label={mode === "create" ? "Cadastro de paciente" : "Edição de paciente"}
      >
        <PatientFormSection id="dados-pessoais" title="Dados pessoais">
          <div className="grid gap-4 sm:grid-cols-2">
            <FormField className="sm:col-span-2" label="Nome" htmlFor="nome" required error={errors.nome?.message}>
              <Input {...register("nome")} autoComplete="off" placeholder="Nome completo do paciente" />
            </FormField>
            <div className="grid content-start gap-2">
              <FormField
                label="CPF"
                htmlFor="cpf"
                error={errors.cpf?.message}
                hint={
                  <SigningHint missing={!cpfValue?.trim()}>
                    Necessário para assinar: o CPF é conferido na assinatura.
                  </SigningHint>
                }
              >
                <MaskedInput {...cpf} mask={CPF_MASK} inputMode="numeric" placeholder="000.000.000-00" maxLength={14} />
              </FormField>
              {mode === "create" ? <FeegowPatientSearch /> : null}
              {takenBy ? (
                <Link
                  to={`/patients/${takenBy.patient_id}`}
                  // The person is already registered: going to their record abandons this form on purpose.
                  onClick={unsaved.release}
                  className="text-sm font-medium text-primary underline-offset-4 hover:underline"
                >
                  {takenBy.nome ? `Ver paciente ${takenBy.nome}` : "Ver paciente"}
                </Link>
              ) : null}
            </div>
            <FormField
              label="Data de nascimento"
              htmlFor="data_nascimento"
              error={errors.data_nascimento?.message}
              hint={age !== null ? formatAge(age) : undefined}
            >
              <Input {...register("data_nascimento")} type="date" min="1900-01-01" max={todayInSaoPaulo()} />
            </FormField>
            <FormField label="Sexo" htmlFor="sexo" error={errors.sexo?.message}>
              <NativeSelect {...register("sexo")}>
                <option value="">Selecione</option>
                {SEXOS.map((sexo) => (
                  <option key={sexo} value={sexo}>
                    {SEXO_LABEL[sexo]}
                  </option>
                ))}
              </NativeSelect>
            </FormField>
            <FormField
              label="Telefone"
              htmlFor="telefone"
              error={errors.telefone?.message}
              hint={
                <SigningHint missing={noContact}>
                  Telefone ou e-mail: necessário para enviar o link de assinatura.
                </SigningHint>
              }
            >
              <MaskedInput
                {...register("telefone")}
                mask={PHONE_MASK}
                inputMode="tel"
                autoComplete="off"
                placeholder="(00) 00000-0000"
              />
            </FormField>
            <FormField
              className="sm:col-span-2"
              label="E-mail"
              htmlFor="email"
              error={errors.email?.message}
              hint={
                <SigningHint missing={noContact}>
                  Com e-mail, o link de assinatura e o código de confirmação chegam por e-mail.
                </SigningHint>
              }
            >
              <Input {...register("email")} type="email" autoComplete="off" placeholder="paciente@exemplo.com" />
            </FormField>
          </div>
        </PatientFormSection>

        <PatientFormSection
          id="endereco"
          title="Endereço"
          description="Digite o CEP para preencher o endereço automaticamente."
        >
          <AddressFields stateField="uf" />
        </PatientFormSection>

        <PatientGuardianSection minor={minor} initiallyOpen={hasGuardian(defaultValues)} />

        <FormErrorAlert message={formError} />

        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <Button type="button" variant="outline" onClick={goBack}>
            Cancelar
          </Button>
          <SubmitButton pending={formState.isSubmitting}>{messages.submit}</SubmitButton>
        </div>
      </form>
      {unsaved.dialog}
    </FormProvider>
  );
}
