import type { FieldErrors, UseFormRegister } from "react-hook-form";
import { CurrencyInput } from "@/components/form/currency-input";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { Textarea } from "@/components/ui/textarea";
import type { FormValues } from "./form-values";

/** Valor and the personalised risks, benefits and aftercare (the user's defaults, adjustable). */
export function CustomVariablesCard({
  register,
  errors,
  valorIsText,
}: {
  register: UseFormRegister<FormValues>;
  errors: FieldErrors<FormValues>;
  /** The user's default value is a free text (not an amount): the field stays a text field. */
  valorIsText: boolean;
}) {
  return (
    <Card>
      <CardHeader>
        <CardTitle className="text-base">Variáveis personalizadas</CardTitle>
        <CardDescription>
          Preenchidas com os textos padrão do profissional responsável; ajuste para este paciente.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        <FormField
          label="Valor do procedimento"
          htmlFor="doc-valor"
          error={errors.variaveis?.valor_procedimento?.message}
        >
          {valorIsText ? (
            <Input maxLength={200} placeholder="R$ 0,00" {...register("variaveis.valor_procedimento")} />
          ) : (
            <CurrencyInput {...register("variaveis.valor_procedimento")} />
          )}
        </FormField>
        <FormField
          label="Riscos personalizados"
          htmlFor="doc-riscos"
          error={errors.variaveis?.riscos_personalizados?.message}
          hint="Um item por linha."
        >
          <Textarea rows={3} {...register("variaveis.riscos_personalizados")} />
        </FormField>
        <FormField
          label="Benefícios personalizados"
          htmlFor="doc-beneficios"
          error={errors.variaveis?.beneficios_personalizados?.message}
          hint="Um item por linha."
        >
          <Textarea rows={3} {...register("variaveis.beneficios_personalizados")} />
        </FormField>
        <FormField
          label="Cuidados personalizados"
          htmlFor="doc-cuidados"
          error={errors.variaveis?.cuidados_personalizados?.message}
          hint="Um item por linha."
        >
          <Textarea rows={3} {...register("variaveis.cuidados_personalizados")} />
        </FormField>
      </CardContent>
    </Card>
  );
}
