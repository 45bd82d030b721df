import type * as React from "react";
import { type DigitsFormat, reformatDigits } from "../lib/digits-mask";

type DigitsInputProps = Omit<React.ComponentProps<"input">, "value" | "onChange"> & {
  /** The field's shape: maskCpf, maskPhone (src/shared/br/masks.ts). */
  format: DigitsFormat;
  value: string;
  onValueChange: (value: string) => void;
};

/**
 * The public pages' masked input (CPF, phone): a controlled field that formats on every edit and
 * puts the caret back after the digits that preceded it (lib/digits-mask.ts). A few lines instead
 * of imask, which the staff app keeps (components/form/masked-input.tsx): the signing page must
 * stay small on a phone (decision 033).
 */
export function DigitsInput({ format, value, onValueChange, ...props }: DigitsInputProps) {
  const onChange = (event: React.ChangeEvent<HTMLInputElement>) => {
    const element = event.currentTarget;
    const next = reformatDigits(element.value, element.selectionStart ?? element.value.length, format);
    // Written here and now, so the caret lands before the browser paints; the state follows.
    if (element.value !== next.value) element.value = next.value;
    if (document.activeElement === element) element.setSelectionRange(next.caret, next.caret);
    onValueChange(next.value);
  };
  return <input {...props} value={value} onChange={onChange} />;
}
