import { onlyDigits } from "@shared/br/digits";

/** Formats whatever was typed or pasted into the field's shape (e.g. maskCpf, maskPhone). */
export type DigitsFormat = (raw: string) => string;

/**
 * Re-formats an edited value and says where the caret goes: after as many digits as stood before
 * it in the edited text. Typing, deleting or pasting in the middle of "123.456.789-09" keeps the
 * caret by the digit the user touched, not at the end. The count is taken from the formatted
 * prefix, so what the format drops there (a "+55", a trunk zero, digits past the maximum) does not
 * shift the caret.
 */
export function reformatDigits(text: string, caret: number, format: DigitsFormat): { value: string; caret: number } {
  const value = format(text);
  const total = onlyDigits(value).length;
  const before = Math.min(onlyDigits(format(text.slice(0, Math.max(0, caret)))).length, total);
  return { value, caret: caretAfterDigits(value, before) };
}

/** The position right after the n-th digit of `value` (0 when n is 0). */
export function caretAfterDigits(value: string, n: number): number {
  if (n <= 0) return 0;
  let seen = 0;
  for (let i = 0; i < value.length; i++) {
    if (value[i]! >= "0" && value[i]! <= "9" && ++seen === n) return i + 1;
  }
  return value.length;
}
