import { type FieldErrors, useFormContext } from "react-hook-form";
import { MaskedInput } from "@/components/form/masked-input";
import { CPF_MASK, PHONE_MASK } from "@/components/form/masks";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { PASSWORD_MIN_LENGTH } from "@shared/schemas/common";

interface PersonValues {
  nome: string;
  cpf: string;
  email: string;
  telefone?: string;
  password: string;
  confirmPassword: string;
}

/** Name, CPF, e-mail, phone, password and its confirmation: the account holder. */
export function PersonFields() {
  // Used inside a larger form (FormProvider): only these keys are touched here.
  const { register, formState } = useFormContext<PersonValues>();
  const errors: FieldErrors<PersonValues> = formState.errors;
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <FormField className="sm:col-span-2" label="Nome completo" htmlFor="nome" required error={errors.nome?.message}>
        <Input {...register("nome")} autoComplete="name" />
      </FormField>
      <FormField label="CPF" htmlFor="cpf" required error={errors.cpf?.message}>
        <MaskedInput
          {...register("cpf")}
          mask={CPF_MASK}
          inputMode="numeric"
          placeholder="000.000.000-00"
          maxLength={14}
        />
      </FormField>
      <FormField label="Telefone" htmlFor="telefone" error={errors.telefone?.message}>
        <MaskedInput
          {...register("telefone")}
          mask={PHONE_MASK}
          inputMode="tel"
          autoComplete="tel"
          placeholder="(00) 00000-0000"
        />
      </FormField>
      <FormField className="sm:col-span-2" label="E-mail" htmlFor="email" required error={errors.email?.message}>
        <Input {...register("email")} type="email" autoComplete="email" />
      </FormField>
      <FormField
        label="Senha"
        htmlFor="password"
        required
        hint={`Mínimo de ${PASSWORD_MIN_LENGTH} caracteres`}
        error={errors.password?.message}
      >
        <Input {...register("password")} type="password" autoComplete="new-password" />
      </FormField>
      <FormField label="Confirmar senha" htmlFor="confirmPassword" required error={errors.confirmPassword?.message}>
        <Input {...register("confirmPassword")} type="password" autoComplete="new-password" />
      </FormField>
    </div>
  );
}
