import { zodResolver } from "@hookform/resolvers/zod";
import { useState } from "react";
import { type Control, useForm, useWatch } from "react-hook-form";
import { toast } from "sonner";
import type { z } from "zod";
import { CurrencyInput } from "@/components/form/currency-input";
import { FormErrorAlert } from "@/components/form/form-error-alert";
import { SubmitButton } from "@/components/form/submit-button";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardFooter } from "@/components/ui/card";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { Textarea } from "@/components/ui/textarea";
import { applyServerErrors } from "@/lib/form-errors";
import { normalizeReaisText } from "@shared/br/money";
import {
  TEMPLATE_MESSAGES,
  type TemplateDefaults,
  type TemplateDefaultsInput,
  templateDefaultsInputSchema,
} from "@shared/schemas/template";
import { useSaveTemplateDefaults } from "../api/template-defaults-api";
import { countItems, DEFAULT_FIELDS, type DefaultFieldInfo, tagText } from "../lib/default-fields";

type FormValues = TemplateDefaultsInput;
type FormOutput = z.output<typeof templateDefaultsInputSchema>;
type FormControl = Control<FormValues, unknown, FormOutput>;
const FIELD_NAMES = DEFAULT_FIELDS.map((f) => f.name);

/**
 * The saved "Valor do procedimento padrão": an amount is shown as the currency field writes it
 * ("R$ 1.500,00"); a free text saved before the field was a currency field ("Conforme orçamento")
 * stays a text field, shown and editable as it is — as the new document's "Valor do procedimento".
 */
function savedValor(saved: TemplateDefaults): { value: string; isText: boolean } {
  const text = saved.template_valor_procedimento ?? "";
  const amount = normalizeReaisText(text);
  return { value: amount ?? text, isText: text.trim() !== "" && amount === null };
}

const toValues = (saved: TemplateDefaults): FormValues => ({
  template_riscos: saved.template_riscos ?? "",
  template_beneficios: saved.template_beneficios ?? "",
  template_cuidados_pos: saved.template_cuidados_pos ?? "",
  template_valor_procedimento: savedValor(saved).value,
});

function ItemCount({ control, field }: { control: FormControl; field: DefaultFieldInfo }) {
  const value = useWatch({ control, name: field.name });
  const count = countItems(value);
  return (
    <span className="tabular-nums">{count === 0 ? "nenhum item" : count === 1 ? "1 item" : `${count} itens`}</span>
  );
}

function hint(field: DefaultFieldInfo, control: FormControl) {
  return (
    <span className="flex flex-wrap items-baseline justify-between gap-x-3 gap-y-1">
      <span>
        Preenche a tag <code className="rounded bg-muted px-1 font-mono text-xs">{tagText(field.tag)}</code>
        {field.multiline ? ". Um item por linha." : "."}
      </span>
      {field.multiline ? <ItemCount control={control} field={field} /> : null}
    </span>
  );
}

/** The four default texts; the form keeps what was typed when saving fails. */
export function TemplateDefaultsForm({ saved }: { saved: TemplateDefaults }) {
  const save = useSaveTemplateDefaults();
  const [formError, setFormError] = useState<string | null>(null);
  const [valorIsText, setValorIsText] = useState(() => savedValor(saved).isText);
  const form = useForm<FormValues, unknown, FormOutput>({
    resolver: zodResolver(templateDefaultsInputSchema),
    defaultValues: toValues(saved),
  });
  const { register, handleSubmit, formState, setError, reset, control } = form;
  const { errors } = formState;

  const onSubmit = handleSubmit(async (values) => {
    setFormError(null);
    try {
      // The currency field keeps its "R$ " once touched: with no amount after it, nothing was given.
      const valor = values.template_valor_procedimento;
      const result = await save.mutateAsync({
        ...values,
        template_valor_procedimento: valor && /^R\$\s*$/.test(valor.trim()) ? null : valor,
      });
      reset(toValues(result));
      setValorIsText(savedValor(result).isText);
      toast.success(TEMPLATE_MESSAGES.defaultsSaved);
    } catch (error) {
      setFormError(applyServerErrors(error, setError, FIELD_NAMES));
      toast.error(TEMPLATE_MESSAGES.defaultsError);
    }
  });

  return (
    <form onSubmit={onSubmit} noValidate aria-label="Templates padrão">
      <Card>
        <CardContent className="grid gap-6">
          {DEFAULT_FIELDS.map((field) => {
            const id = `template-defaults-${field.tag}`;
            const error = errors[field.name]?.message;
            return (
              <FormField key={field.name} label={field.label} htmlFor={id} hint={hint(field, control)} error={error}>
                {field.multiline ? (
                  <Textarea
                    {...register(field.name)}
                    rows={5}
                    className="max-h-96 min-h-28"
                    placeholder={field.placeholder}
                    maxLength={field.maxLength}
                    spellCheck
                  />
                ) : valorIsText ? (
                  (control) => (
                    <div className="flex flex-col gap-2 sm:flex-row sm:items-center">
                      <Input
                        {...control}
                        {...register(field.name)}
                        className="sm:max-w-64"
                        autoComplete="off"
                        placeholder={field.placeholder}
                        maxLength={field.maxLength}
                      />
                      <Button
                        type="button"
                        variant="outline"
                        size="sm"
                        className="w-fit"
                        onClick={() => {
                          form.setValue(field.name, "", { shouldDirty: true });
                          setValorIsText(false);
                        }}
                      >
                        Informar valor em R$
                      </Button>
                    </div>
                  )
                ) : (
                  <CurrencyInput {...register(field.name)} className="sm:max-w-64" />
                )}
              </FormField>
            );
          })}
          <FormErrorAlert message={formError} />
        </CardContent>
        <CardFooter className="flex-col-reverse items-stretch gap-3 sm:flex-row sm:items-center sm:justify-end">
          {formState.isDirty ? (
            <p className="text-sm text-muted-foreground" aria-live="polite">
              Alterações não salvas
            </p>
          ) : null}
          <SubmitButton pending={formState.isSubmitting} className="w-full sm:w-auto">
            {formState.isSubmitting ? "Salvando..." : "Salvar Templates"}
          </SubmitButton>
        </CardFooter>
      </Card>
    </form>
  );
}
