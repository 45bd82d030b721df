import { type FieldErrors, useFormContext } from "react-hook-form";
import { MaskedInput } from "@/components/form/masked-input";
import { useCepLookup } from "@/components/form/use-cep-lookup";
import { UfSelect } from "@/components/form/uf-select";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { maskCep } from "@shared/br/masks";
import type { PatientFormValues } from "../lib/form-values";

/**
 * The patient's address: CEP with mask and lookup through our server (ViaCEP/BrasilAPI),
 * filling logradouro, bairro, cidade and uf. Nothing here is required; a failed lookup leaves
 * every field editable and says so.
 */
export function PatientAddressFields() {
  const { register, setValue, formState } = useFormContext<PatientFormValues>();
  const errors: FieldErrors<PatientFormValues> = formState.errors;
  const { onCepChange, hint } = useCepLookup((address) => {
    const fill = { shouldValidate: true, shouldDirty: true };
    if (address.logradouro) setValue("logradouro", address.logradouro, fill);
    if (address.bairro) setValue("bairro", address.bairro, fill);
    if (address.cidade) setValue("cidade", address.cidade, fill);
    if (address.uf) setValue("uf", address.uf as PatientFormValues["uf"], fill);
  });

  const cep = register("cep", { onChange: (event) => onCepChange(event.target.value) });

  return (
    <div className="grid gap-4 sm:grid-cols-6">
      <FormField
        className="sm:col-span-2"
        label="CEP"
        htmlFor="cep"
        error={errors.cep?.message}
        hint={hint}
      >
        <MaskedInput {...cep} mask={maskCep} inputMode="numeric" autoComplete="postal-code" placeholder="00000-000" maxLength={9} />
      </FormField>
      <FormField className="sm:col-span-4" label="Logradouro" htmlFor="logradouro" error={errors.logradouro?.message}>
        <Input {...register("logradouro")} autoComplete="address-line1" placeholder="Rua, avenida…" />
      </FormField>
      <FormField className="sm:col-span-2" label="Número" htmlFor="numero" error={errors.numero?.message}>
        <Input {...register("numero")} />
      </FormField>
      <FormField className="sm:col-span-4" label="Complemento" htmlFor="complemento" error={errors.complemento?.message}>
        <Input {...register("complemento")} placeholder="Apartamento, bloco (opcional)" autoComplete="address-line2" />
      </FormField>
      <FormField className="sm:col-span-3" label="Bairro" htmlFor="bairro" error={errors.bairro?.message}>
        <Input {...register("bairro")} />
      </FormField>
      <FormField className="sm:col-span-2" label="Cidade" htmlFor="cidade" error={errors.cidade?.message}>
        <Input {...register("cidade")} autoComplete="address-level2" />
      </FormField>
      <FormField className="sm:col-span-1" label="UF" htmlFor="uf" error={errors.uf?.message}>
        <UfSelect {...register("uf")} autoComplete="address-level1" />
      </FormField>
    </div>
  );
}
