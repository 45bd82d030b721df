import { type FieldErrors, useFormContext } from "react-hook-form";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { MaskedInput } from "./masked-input";
import { CEP_MASK } from "./masks";
import { UfSelect } from "./uf-select";
import { useCepLookup } from "./use-cep-lookup";

interface AddressValues {
  cep?: string;
  logradouro?: string;
  numero?: string;
  complemento?: string;
  bairro?: string;
  cidade?: string;
  estado?: string;
  uf?: string;
}

/**
 * CEP with mask and lookup through our server (ViaCEP/BrasilAPI) filling street, district, city
 * and state, then the address fields. Used inside a larger form (FormProvider); only these keys
 * are touched. The state's key differs: `estado` for a clinic, `uf` for a patient.
 */
export function AddressFields({ stateField, required = false }: { stateField: "estado" | "uf"; required?: boolean }) {
  const { register, setValue, formState } = useFormContext<AddressValues>();
  const errors: FieldErrors<AddressValues> = formState.errors;
  const { onCepChange, hint } = useCepLookup((address) => {
    const fill = { shouldValidate: true, shouldDirty: true };
    if (address.logradouro) setValue("logradouro", address.logradouro, fill);
    if (address.bairro) setValue("bairro", address.bairro, fill);
    if (address.cidade) setValue("cidade", address.cidade, fill);
    if (address.uf) setValue(stateField, address.uf, fill);
  });
  const cep = register("cep", { onChange: (event) => onCepChange(event.target.value) });

  return (
    <div className="grid gap-4 sm:grid-cols-6">
      <FormField
        className="sm:col-span-2"
        label="CEP"
        htmlFor="cep"
        required={required}
        error={errors.cep?.message}
        hint={hint}
      >
        <MaskedInput
          {...cep}
          mask={CEP_MASK}
          inputMode="numeric"
          autoComplete="postal-code"
          placeholder="00000-000"
          maxLength={9}
        />
      </FormField>
      <FormField
        className="sm:col-span-4"
        label="Logradouro"
        htmlFor="logradouro"
        required={required}
        error={errors.logradouro?.message}
      >
        <Input {...register("logradouro")} autoComplete="address-line1" placeholder="Rua, avenida…" />
      </FormField>
      <FormField
        className="sm:col-span-2"
        label="Número"
        htmlFor="numero"
        required={required}
        error={errors.numero?.message}
      >
        <Input {...register("numero")} />
      </FormField>
      <FormField
        className="sm:col-span-4"
        label="Complemento"
        htmlFor="complemento"
        error={errors.complemento?.message}
      >
        <Input
          {...register("complemento")}
          placeholder="Sala, apartamento, bloco (opcional)"
          autoComplete="address-line2"
        />
      </FormField>
      <FormField
        className="sm:col-span-3"
        label="Bairro"
        htmlFor="bairro"
        required={required}
        error={errors.bairro?.message}
      >
        <Input {...register("bairro")} />
      </FormField>
      <FormField
        className="sm:col-span-2"
        label="Cidade"
        htmlFor="cidade"
        required={required}
        error={errors.cidade?.message}
      >
        <Input {...register("cidade")} autoComplete="address-level2" />
      </FormField>
      <FormField
        className="sm:col-span-1"
        label="UF"
        htmlFor={stateField}
        required={required}
        error={errors[stateField]?.message}
      >
        <UfSelect {...register(stateField)} autoComplete="address-level1" />
      </FormField>
    </div>
  );
}
