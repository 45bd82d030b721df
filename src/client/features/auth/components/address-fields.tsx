import { type FieldErrors, useFormContext } from "react-hook-form";
import { MaskedInput } from "@/components/form/masked-input";
import { useCepLookup } from "@/components/form/use-cep-lookup";
import { NativeSelect } from "@/components/form/native-select";
import { UfSelect } from "@/components/form/uf-select";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { maskCep } from "@shared/br/masks";

export interface AddressValues {
  cep: string;
  estado: string;
  cidade: string;
  bairro: string;
  logradouro: string;
  numero: string;
  complemento?: string;
}

/** CEP with mask and lookup through our server (ViaCEP/BrasilAPI), then the address fields. */
export function AddressFields() {
  // Used inside a larger form (FormProvider): only the address keys are touched here.
  const { register, setValue, formState } = useFormContext<AddressValues>();
  const errors: FieldErrors<AddressValues> = formState.errors;
  const { onCepChange, hint } = useCepLookup((address) => {
    const fill = { shouldValidate: true, shouldDirty: true };
    if (address.logradouro) setValue("logradouro", address.logradouro, fill);
    if (address.bairro) setValue("bairro", address.bairro, fill);
    if (address.cidade) setValue("cidade", address.cidade, fill);
    if (address.uf) setValue("estado", address.uf as AddressValues["estado"], fill);
  });

  const cep = register("cep", { onChange: (event) => onCepChange(event.target.value) });

  return (
    <div className="grid gap-4 sm:grid-cols-6">
      <FormField
        className="sm:col-span-2"
        label="CEP"
        htmlFor="cep"
        required
        error={errors.cep?.message}
        hint={hint}
      >
        <MaskedInput {...cep} mask={maskCep} inputMode="numeric" autoComplete="postal-code" placeholder="00000-000" maxLength={9} />
      </FormField>
      <FormField className="sm:col-span-4" label="Logradouro" htmlFor="logradouro" required error={errors.logradouro?.message}>
        <Input {...register("logradouro")} autoComplete="address-line1" />
      </FormField>
      <FormField className="sm:col-span-2" label="Número" htmlFor="numero" required error={errors.numero?.message}>
        <Input {...register("numero")} />
      </FormField>
      <FormField className="sm:col-span-4" label="Complemento" htmlFor="complemento" error={errors.complemento?.message}>
        <Input {...register("complemento")} placeholder="Sala, andar, bloco (opcional)" autoComplete="address-line2" />
      </FormField>
      <FormField className="sm:col-span-3" label="Bairro" htmlFor="bairro" required error={errors.bairro?.message}>
        <Input {...register("bairro")} />
      </FormField>
      <FormField className="sm:col-span-2" label="Cidade" htmlFor="cidade" required error={errors.cidade?.message}>
        <Input {...register("cidade")} autoComplete="address-level2" />
      </FormField>
      <FormField className="sm:col-span-1" label="UF" htmlFor="estado" required error={errors.estado?.message}>
        <UfSelect {...register("estado")} autoComplete="address-level1" />
      </FormField>
    </div>
  );
}
