/**
 * Returns only the ASCII digits (0–9) of `input`, in order.
 * Everything else (punctuation, spaces, letters, non-ASCII digits) is dropped.
 */
export function onlyDigits(input: string): string {
  return input.replace(/[^0-9]/g, "");
}

/** True when every character of `value` is the same (and `value` is non-empty). */
export function isRepeatedChar(value: string): boolean {
  return value.length > 0 && value.split("").every((c) => c === value[0]);
}
