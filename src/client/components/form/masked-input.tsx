import type * as React from "react";
import { Input } from "@/components/ui/input";

type MaskedInputProps = React.ComponentProps<typeof Input> & {
  mask: (raw: string) => string;
};

/**
 * An input that masks what is typed (CPF, CNPJ, CEP, phone). Works with react-hook-form's
 * `register`: the masked value is written back before the form reads it.
 */
export function MaskedInput({ mask, onChange, ...props }: MaskedInputProps) {
  return (
    <Input
      {...props}
      onChange={(event) => {
        const masked = mask(event.target.value);
        if (masked !== event.target.value) event.target.value = masked;
        onChange?.(event);
      }}
    />
  );
}
