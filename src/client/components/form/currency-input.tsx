import { MaskedInput, type MaskedInputProps } from "./masked-input";
import { REAIS_MASK } from "./masks";

/**
 * An amount in reais shown as "R$ 1.250,00" while typing. The form holds that text, which
 * `parseReais` (src/shared/br/money.ts) reads and a document prints as it is.
 */
export function CurrencyInput(props: Omit<MaskedInputProps, "mask">) {
  return <MaskedInput inputMode="decimal" autoComplete="off" placeholder="R$ 0,00" {...props} mask={REAIS_MASK} />;
}
