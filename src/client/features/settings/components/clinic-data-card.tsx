import { zodResolver } from "@hookform/resolvers/zod";
import { Building2 } from "lucide-react";
import { useState } from "react";
import { type FieldErrors, FormProvider, useForm } from "react-hook-form";
import { toast } from "sonner";
import { AddressFields } from "@/components/form/address-fields";
import { FormErrorAlert } from "@/components/form/form-error-alert";
import { MaskedInput } from "@/components/form/masked-input";
import { CNES_MASK, CNPJ_MASK, PHONE_MASK } from "@/components/form/masks";
import { NativeSelect } from "@/components/form/native-select";
import { SubmitButton } from "@/components/form/submit-button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { Skeleton } from "@/components/ui/skeleton";
import { ApiError } from "@/lib/api";
import { applyServerErrors } from "@/lib/form-errors";
import { formatCnpj } from "@shared/br/cnpj";
import { maskCep, maskPhone } from "@shared/br/masks";
import {
  type ClinicSettings,
  type ClinicSettingsInput,
  establishmentSettingsSchema,
  MAX_VALIDITY_DAYS,
  MIN_VALIDITY_DAYS,
  professionalSettingsSchema,
  SETTINGS_MESSAGES,
} from "@shared/schemas/clinic-settings";
import { TIPO_ESTABELECIMENTO_LABEL, TIPOS_ESTABELECIMENTO } from "@shared/schemas/signup";
import { useClinicSettings, useSaveClinicSettings } from "../api/settings-api";

type Values = Record<string, string | number | undefined>;
const FIELDS = [
  "tipo_estabelecimento",
  "razao_social",
  "nome_fantasia",
  "cnpj",
  "cnes",
  "cep",
  "estado",
  "cidade",
  "bairro",
  "logradouro",
  "numero",
  "complemento",
  "telefone",
  "validade_documento_dias",
];

function valuesOf(settings: ClinicSettings): Values {
  const text = (value: string | null) => value ?? "";
  return {
    tipo_perfil: settings.tipo_perfil,
    tipo_estabelecimento: settings.tipo_estabelecimento ?? "",
    razao_social: text(settings.razao_social),
    nome_fantasia: text(settings.nome_fantasia),
    cnpj: settings.cnpj ? formatCnpj(settings.cnpj) : "",
    cnes: text(settings.cnes),
    cep: settings.cep ? maskCep(settings.cep) : "",
    estado: text(settings.estado),
    cidade: text(settings.cidade),
    bairro: text(settings.bairro),
    logradouro: text(settings.logradouro),
    numero: text(settings.numero),
    complemento: text(settings.complemento),
    telefone: settings.telefone ? maskPhone(settings.telefone) : "",
    validade_documento_dias: settings.validade_documento_dias,
  };
}

/** Configurações → Dados da clínica (the establishment's company data and address, or a professional's office) and document validity. */
export function ClinicDataCard() {
  const settings = useClinicSettings(true);
  return (
    <Card className="max-w-3xl" data-testid="clinic-settings">
      <CardHeader>
        <CardTitle className="flex items-center gap-2 text-base">
          <Building2 className="size-4 text-primary" aria-hidden />{" "}
          {settings.data?.tipo_perfil === "profissional_independente" ? "Dados do consultório" : "Dados da clínica"}
        </CardTitle>
        <CardDescription>
          Aparecem nos documentos (unidade, endereço e telefone) e definem o prazo de assinatura.
        </CardDescription>
      </CardHeader>
      <CardContent>
        {settings.isPending ? (
          <div className="grid gap-3" aria-label="Carregando configurações">
            <Skeleton className="h-10 w-full" />
            <Skeleton className="h-10 w-full" />
            <Skeleton className="h-10 w-2/3" />
          </div>
        ) : settings.isError ? (
          <p className="text-sm text-destructive">
            {settings.error instanceof ApiError ? settings.error.message : SETTINGS_MESSAGES.loadError}
          </p>
        ) : (
          <ClinicDataForm settings={settings.data} />
        )}
      </CardContent>
    </Card>
  );
}

function ClinicDataForm({ settings }: { settings: ClinicSettings }) {
  const save = useSaveClinicSettings();
  const [formError, setFormError] = useState<string | null>(null);
  const establishment = settings.tipo_perfil === "estabelecimento";
  const form = useForm<Values>({
    resolver: zodResolver(establishment ? establishmentSettingsSchema : professionalSettingsSchema) as never,
    defaultValues: valuesOf(settings),
  });
  const { register, handleSubmit, formState, setError, reset } = form;
  const errors: FieldErrors<Values> = formState.errors;
  const message = (name: string) => errors[name]?.message as string | undefined;

  const onSubmit = handleSubmit(async (values) => {
    setFormError(null);
    try {
      const saved = await save.mutateAsync(values as unknown as ClinicSettingsInput);
      reset(valuesOf(saved));
      toast.success(SETTINGS_MESSAGES.saved);
    } catch (error) {
      const rest = applyServerErrors(error, setError, FIELDS);
      setFormError(rest);
      toast.error(SETTINGS_MESSAGES.saveError(error instanceof ApiError ? error.message : "erro inesperado"));
    }
  });

  return (
    <FormProvider {...form}>
      <form
        onSubmit={onSubmit}
        noValidate
        className="grid gap-5"
        aria-label={establishment ? "Dados da clínica" : "Dados do consultório"}
      >
        {establishment ? (
          <div className="grid gap-4 sm:grid-cols-2">
            <FormField
              className="sm:col-span-2"
              label="Tipo de estabelecimento"
              htmlFor="tipo_estabelecimento"
              required
              error={message("tipo_estabelecimento")}
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
              error={message("razao_social")}
            >
              <Input {...register("razao_social")} autoComplete="organization" />
            </FormField>
            <FormField
              className="sm:col-span-2"
              label="Nome fantasia"
              htmlFor="nome_fantasia"
              error={message("nome_fantasia")}
              hint="É o nome mostrado no Consentir e nos documentos."
            >
              <Input {...register("nome_fantasia")} placeholder="Opcional" />
            </FormField>
            <FormField label="CNPJ" htmlFor="cnpj" required error={message("cnpj")}>
              <MaskedInput {...register("cnpj")} mask={CNPJ_MASK} placeholder="00.000.000/0000-00" maxLength={18} />
            </FormField>
            <FormField
              label="CNES"
              htmlFor="cnes"
              hint="Cadastro Nacional de Estabelecimentos de Saúde (opcional)"
              error={message("cnes")}
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
        ) : null}

        <fieldset className="grid gap-3">
          <legend className="mb-2 text-sm font-medium">
            {establishment ? "Endereço" : "Endereço do consultório (opcional)"}
          </legend>
          <AddressFields stateField="estado" required={establishment} />
        </fieldset>

        <div className="grid gap-4 sm:grid-cols-2">
          <FormField label="Telefone" htmlFor="telefone" error={message("telefone")}>
            <MaskedInput
              {...register("telefone")}
              mask={PHONE_MASK}
              inputMode="tel"
              autoComplete="tel"
              placeholder="(00) 0000-0000"
            />
          </FormField>
          <FormField
            label="Prazo para assinatura (dias)"
            htmlFor="validade_documento_dias"
            required
            error={message("validade_documento_dias")}
            hint={`Vale para os documentos criados a partir de agora (de ${MIN_VALIDITY_DAYS} a ${MAX_VALIDITY_DAYS} dias).`}
          >
            <Input
              {...register("validade_documento_dias", { valueAsNumber: true })}
              type="number"
              inputMode="numeric"
              min={MIN_VALIDITY_DAYS}
              max={MAX_VALIDITY_DAYS}
              step={1}
            />
          </FormField>
        </div>

        <FormErrorAlert message={formError} />
        <SubmitButton pending={formState.isSubmitting} className="justify-self-start">
          Salvar dados
        </SubmitButton>
      </form>
    </FormProvider>
  );
}
