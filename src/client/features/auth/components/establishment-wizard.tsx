import { zodResolver } from "@hookform/resolvers/zod";
import { ArrowLeft, ArrowRight } from "lucide-react";
import { useEffect, useState } from "react";
import { type FieldPath, FormProvider, useForm } from "react-hook-form";
import type { z } from "zod";
import { MaskedInput } from "@/components/form/masked-input";
import { CNES_MASK, CNPJ_MASK } from "@/components/form/masks";
import { NativeSelect } from "@/components/form/native-select";
import { FormErrorAlert } from "@/components/form/form-error-alert";
import { SubmitButton } from "@/components/form/submit-button";
import { Button } from "@/components/ui/button";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { Stepper } from "@/components/ui/stepper";
import { applyServerErrors } from "@/lib/form-errors";
import { establishmentSignUpSchema, TIPO_ESTABELECIMENTO_LABEL, TIPOS_ESTABELECIMENTO } from "@shared/schemas/signup";
import { useSignUp } from "../api/auth-api";
import { AddressFields } from "@/components/form/address-fields";
import { CouncilFields, EMPTY_ESPECIALIDADE } from "./council-fields";
import { PersonFields } from "./person-fields";
import { signUpErrorMessage } from "./sign-up-error";

type Values = z.input<typeof establishmentSignUpSchema>;

const STEPS: { label: string; fields: FieldPath<Values>[] }[] = [
  { label: "Estabelecimento", fields: ["tipo_estabelecimento", "razao_social", "nome_fantasia", "cnpj", "cnes"] },
  { label: "Endereço", fields: ["cep", "estado", "cidade", "bairro", "logradouro", "numero", "complemento"] },
  {
    label: "Responsável",
    fields: [
      "nome",
      "cpf",
      "email",
      "telefone",
      "password",
      "confirmPassword",
      "conselho_tipo",
      "conselho_numero",
      "conselho_uf",
      "especialidades",
    ],
  },
];
const ALL_FIELDS = STEPS.flatMap((s) => s.fields as string[]);

/** Establishment sign-up: three numbered steps with back buttons (spec part 1 §2). */
export function EstablishmentWizard({ onBack, onDone }: { onBack: () => void; onDone: (email: string) => void }) {
  const signUp = useSignUp();
  const [step, setStep] = useState(0);
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm<Values, unknown, z.output<typeof establishmentSignUpSchema>>({
    resolver: zodResolver(establishmentSignUpSchema),
    defaultValues: {
      profile_type: "estabelecimento",
      tipo_estabelecimento: undefined,
      razao_social: "",
      nome_fantasia: "",
      cnpj: "",
      cnes: "",
      cep: "",
      estado: undefined,
      cidade: "",
      bairro: "",
      logradouro: "",
      numero: "",
      complemento: "",
      nome: "",
      cpf: "",
      email: "",
      telefone: "",
      password: "",
      confirmPassword: "",
      conselho_tipo: undefined,
      conselho_numero: "",
      conselho_uf: undefined,
      especialidades: [{ ...EMPTY_ESPECIALIDADE }],
    },
  });
  const { register, handleSubmit, formState, setError, setValue, trigger, watch, getFieldState } = form;
  const errors = formState.errors;

  // Errors show when 'Próximo' is pressed and each goes away as soon as its field is corrected
  // (while typing), never on blur: pressing 'Próximo' blurs the field, and a message vanishing
  // at that moment moved the button from under the pointer, so the click was lost.
  useEffect(() => {
    const { unsubscribe } = watch((_values, { name }) => {
      if (name && getFieldState(name).error) void trigger(name);
    });
    return unsubscribe;
  }, [watch, getFieldState, trigger]);

  async function next() {
    const fields = STEPS[step]?.fields ?? [];
    if (await trigger(fields, { shouldFocus: true })) setStep((s) => s + 1);
  }

  const onSubmit = handleSubmit(async (values) => {
    setFormError(null);
    try {
      await signUp.mutateAsync(values);
      onDone(values.email);
    } catch (error) {
      const rest = applyServerErrors(error, setError, ALL_FIELDS);
      const failedStep = STEPS.findIndex((s) => s.fields.some((f) => form.getFieldState(f).error));
      if (failedStep >= 0 && failedStep < step) setStep(failedStep);
      if (rest) setFormError(signUpErrorMessage(error, rest, "Erro ao criar conta do estabelecimento"));
    }
  });

  return (
    <FormProvider {...form}>
      <form
        onSubmit={(event) => {
          if (step < STEPS.length - 1) {
            event.preventDefault();
            void next();
            return;
          }
          void onSubmit(event);
        }}
        noValidate
        className="grid gap-5"
        aria-label="Cadastro de estabelecimento"
      >
        <div className="flex items-center gap-2">
          <Button type="button" variant="ghost" size="sm" onClick={onBack}>
            <ArrowLeft /> Voltar
          </Button>
          <h2 className="text-lg font-semibold">Estabelecimento de saúde</h2>
        </div>
        <Stepper steps={STEPS.map((s) => ({ label: s.label }))} current={step} onStepClick={setStep} />

        <div hidden={step !== 0} className="grid gap-4 sm:grid-cols-2">
          <FormField
            className="sm:col-span-2"
            label="Tipo de estabelecimento"
            htmlFor="tipo_estabelecimento"
            required
            error={errors.tipo_estabelecimento?.message}
          >
            <NativeSelect {...register("tipo_estabelecimento")}>
              <option value="">Selecione o tipo</option>
              {TIPOS_ESTABELECIMENTO.map((tipo) => (
                <option key={tipo} value={tipo}>
                  {TIPO_ESTABELECIMENTO_LABEL[tipo]}
                </option>
              ))}
            </NativeSelect>
          </FormField>
          <FormField
            className="sm:col-span-2"
            label="Razão social"
            htmlFor="razao_social"
            required
            error={errors.razao_social?.message}
          >
            <Input {...register("razao_social")} autoComplete="organization" />
          </FormField>
          <FormField
            className="sm:col-span-2"
            label="Nome fantasia"
            htmlFor="nome_fantasia"
            error={errors.nome_fantasia?.message}
          >
            <Input {...register("nome_fantasia")} placeholder="Opcional" />
          </FormField>
          <FormField label="CNPJ" htmlFor="cnpj" required error={errors.cnpj?.message}>
            <MaskedInput {...register("cnpj")} mask={CNPJ_MASK} placeholder="00.000.000/0000-00" maxLength={18} />
          </FormField>
          <FormField
            label="CNES"
            htmlFor="cnes"
            hint="Cadastro Nacional de Estabelecimentos de Saúde (opcional)"
            error={errors.cnes?.message}
          >
            <MaskedInput
              {...register("cnes")}
              mask={CNES_MASK}
              inputMode="numeric"
              placeholder="0000000"
              maxLength={7}
            />
          </FormField>
        </div>

        <div hidden={step !== 1}>
          <AddressFields stateField="estado" required />
        </div>

        <div hidden={step !== 2} className="grid gap-5">
          <p className="text-sm text-muted-foreground">
            Dados do proprietário ou administrador, que será o responsável pela conta.
          </p>
          <PersonFields />
          <CouncilFields onCouncilChange={() => setValue("especialidades", [{ ...EMPTY_ESPECIALIDADE }])} />
        </div>

        <FormErrorAlert message={formError} />

        <div className="flex justify-between gap-2">
          {step > 0 ? (
            <Button type="button" variant="outline" onClick={() => setStep((s) => s - 1)}>
              <ArrowLeft /> Voltar
            </Button>
          ) : (
            <span />
          )}
          {step < STEPS.length - 1 ? (
            <Button type="submit">
              Próximo <ArrowRight />
            </Button>
          ) : (
            <SubmitButton pending={formState.isSubmitting}>Criar conta</SubmitButton>
          )}
        </div>
      </form>
    </FormProvider>
  );
}
