import * as React from "react";
import { Slot as SlotPrimitive } from "radix-ui";

import { cn } from "@/lib/utils";
import { Label } from "@/components/ui/label";

/** Atributos de acessibilidade que o controle do campo deve receber. */
type FormFieldControlProps = {
  id: string;
  "aria-describedby": string | undefined;
  "aria-invalid": true | undefined;
  "aria-required": true | undefined;
};

type FormFieldProps = Omit<React.ComponentProps<"div">, "children"> & {
  label: React.ReactNode;
  /** `id` do controle; o `<label>` aponta para ele. */
  htmlFor: string;
  /** Mostra um asterisco após o rótulo e marca o controle com `aria-required`. */
  required?: boolean;
  /** Texto de ajuda exibido abaixo do controle. */
  hint?: React.ReactNode;
  /** Mensagem de erro (ex.: `errors.nome?.message` do react-hook-form). */
  error?: string | undefined;
  /**
   * O controle. Se for um único elemento (ex.: `<Input {...register("nome")} />`),
   * recebe automaticamente `id`, `aria-describedby`, `aria-invalid` e
   * `aria-required`. Para controles compostos (ex.: `Select`), passe uma função
   * que recebe esses atributos e os aplica no elemento focável
   * (ex.: `{(p) => <Select ...><SelectTrigger {...p}>...`).
   */
  children: React.ReactNode | ((controlProps: FormFieldControlProps) => React.ReactNode);
};

function FormField({ label, htmlFor, required = false, hint, error, className, children, ...props }: FormFieldProps) {
  const hintId = `${htmlFor}-hint`;
  const errorId = `${htmlFor}-error`;
  const hasError = typeof error === "string" && error.length > 0;
  const describedBy = [hint ? hintId : null, hasError ? errorId : null].filter(Boolean).join(" ") || undefined;

  const controlProps: FormFieldControlProps = {
    id: htmlFor,
    "aria-describedby": describedBy,
    "aria-invalid": hasError ? true : undefined,
    "aria-required": required ? true : undefined,
  };

  let control: React.ReactNode;
  if (typeof children === "function") {
    control = children(controlProps);
  } else if (React.isValidElement(children)) {
    control = <SlotPrimitive.Slot {...controlProps}>{children}</SlotPrimitive.Slot>;
  } else {
    control = children;
  }

  return (
    <div
      data-slot="form-field"
      data-invalid={hasError ? "true" : undefined}
      className={cn("grid content-start gap-2", className)}
      {...props}
    >
      <Label htmlFor={htmlFor} className={cn(hasError && "text-destructive")}>
        <span>
          {label}
          {required ? (
            <span aria-hidden="true" className="ml-0.5 text-destructive">
              *
            </span>
          ) : null}
        </span>
      </Label>
      {control}
      {hint ? (
        <p id={hintId} data-slot="form-field-hint" className="text-sm text-muted-foreground">
          {hint}
        </p>
      ) : null}
      {hasError ? (
        <p id={errorId} data-slot="form-field-error" role="alert" className="text-sm font-medium text-destructive">
          {error}
        </p>
      ) : null}
    </div>
  );
}

export { FormField, type FormFieldProps, type FormFieldControlProps };
