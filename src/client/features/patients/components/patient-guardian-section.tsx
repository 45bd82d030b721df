import { ChevronDown, Info } from "lucide-react";
import { useEffect, useState } from "react";
import { type FieldErrors, useFormContext } from "react-hook-form";
import { MaskedInput } from "@/components/form/masked-input";
import { CPF_MASK, PHONE_MASK } from "@/components/form/masks";
import { Alert, AlertDescription } from "@/components/ui/alert";
import { Card, CardContent, CardHeader } from "@/components/ui/card";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { cn } from "@/lib/utils";
import type { PatientFormValues } from "../lib/form-values";

/**
 * "Responsável": the legal guardian (spec part 2 §3: responsavel_nome, responsavel_cpf) and the
 * guardian's own e-mail and mobile, where the guardian's link and code go (never the minor's).
 * Folded away for adults; opens by itself, with a hint, when the birth date makes the patient
 * a minor, and whenever one of its fields has an error.
 */
export function PatientGuardianSection({ minor, initiallyOpen }: { minor: boolean; initiallyOpen: boolean }) {
  const { register, formState } = useFormContext<PatientFormValues>();
  const errors: FieldErrors<PatientFormValues> = formState.errors;
  const [open, setOpen] = useState(initiallyOpen || minor);
  const hasError = Boolean(
    errors.responsavel_nome || errors.responsavel_cpf || errors.responsavel_email || errors.responsavel_telefone,
  );

  useEffect(() => {
    if (minor || hasError) setOpen(true);
  }, [minor, hasError]);

  return (
    <Card className="gap-5 py-5" role="group" aria-labelledby="responsavel-title">
      <CardHeader className="px-4 sm:px-6">
        <h2 id="responsavel-title" className="leading-none font-semibold">
          <button
            type="button"
            className="-m-1 flex w-[calc(100%+0.5rem)] items-center justify-between gap-2 rounded-md p-1 text-left text-base outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50"
            aria-expanded={open}
            aria-controls="responsavel-fields"
            onClick={() => setOpen((value) => !value)}
          >
            Responsável
            <ChevronDown
              className={cn("size-4 text-muted-foreground transition-transform", open && "rotate-180")}
              aria-hidden
            />
          </button>
        </h2>
        <p className="text-sm text-muted-foreground">
          Preencha quando o paciente for menor de idade ou tiver um responsável legal.
        </p>
      </CardHeader>
      {open ? (
        <CardContent id="responsavel-fields" className="grid gap-4 px-4 sm:px-6">
          {minor ? (
            <Alert>
              <Info />
              <AlertDescription>Paciente menor de idade: informe o nome e o CPF do responsável legal.</AlertDescription>
            </Alert>
          ) : null}
          <div className="grid gap-4 sm:grid-cols-2">
            <FormField label="Nome do responsável" htmlFor="responsavel_nome" error={errors.responsavel_nome?.message}>
              <Input {...register("responsavel_nome")} autoComplete="off" />
            </FormField>
            <FormField label="CPF do responsável" htmlFor="responsavel_cpf" error={errors.responsavel_cpf?.message}>
              <MaskedInput
                {...register("responsavel_cpf")}
                mask={CPF_MASK}
                inputMode="numeric"
                placeholder="000.000.000-00"
                maxLength={14}
              />
            </FormField>
            <FormField
              label="Celular do responsável"
              htmlFor="responsavel_telefone"
              error={errors.responsavel_telefone?.message}
              hint="O link e o código de assinatura do responsável vão para o celular e o e-mail dele, não para os do paciente."
            >
              <MaskedInput
                {...register("responsavel_telefone")}
                mask={PHONE_MASK}
                inputMode="tel"
                autoComplete="off"
                placeholder="(00) 00000-0000"
              />
            </FormField>
            <FormField
              label="E-mail do responsável"
              htmlFor="responsavel_email"
              error={errors.responsavel_email?.message}
            >
              <Input
                {...register("responsavel_email")}
                type="email"
                autoComplete="off"
                placeholder="responsavel@exemplo.com"
              />
            </FormField>
          </div>
        </CardContent>
      ) : null}
    </Card>
  );
}
