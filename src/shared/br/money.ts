/**
 * Money in reais, kept as integer centavos (Feegow's unit too, decision 016). Amounts are typed
 * the Brazilian way: "1.234,56", "R$ 1.234,56", "1234,5", "800".
 */
const reais = new Intl.NumberFormat("pt-BR", { style: "currency", currency: "BRL" });

/** The largest amount we keep: R$ 20.000.000,00 (fits an int4 column with room to spare). */
export const MAX_CENTAVOS = 2_000_000_000;

export const MONEY_MESSAGES = {
  invalid: "Informe um valor em reais, como 1.234,56",
  tooLarge: "O valor máximo é R$ 20.000.000,00",
} as const;

/** 120000 → "R$ 1.200,00" (plain spaces, for text and tests alike). */
export function formatCentavos(centavos: number): string {
  return reais.format(centavos / 100).replace(/\s/g, " ");
}

/** 120000 → "1.200,00": the amount as typed in a field that already says "R$". */
export function centavosForInput(centavos: number): string {
  return formatCentavos(centavos).replace(/^R\$\s*/, "");
}

export type ParsedReais = { ok: true; centavos: number } | { ok: false; message: string };

/**
 * "R$ 1.234,56" → 123456. Thousands are grouped with dots (all groups of three) or not grouped at
 * all; at most two decimals after a comma. Anything else — "12.5", "1,234.56", "-3", "1e3" — is
 * refused rather than guessed.
 */
export function parseReais(input: string): ParsedReais {
  const value = input.replace(/\s/g, "").replace(/^R\$/i, "");
  const match = /^(\d{1,3}(?:\.\d{3})+|\d+)(?:,(\d{1,2}))?$/.exec(value);
  if (!match) return { ok: false, message: MONEY_MESSAGES.invalid };
  const whole = match[1]!.replace(/\./g, "");
  if (whole.length > 9) return { ok: false, message: MONEY_MESSAGES.tooLarge };
  const centavos = Number(whole) * 100 + Number((match[2] ?? "").padEnd(2, "0"));
  return centavos > MAX_CENTAVOS ? { ok: false, message: MONEY_MESSAGES.tooLarge } : { ok: true, centavos };
}

/**
 * Text that holds an amount in reais, written the one way the app shows it ("1250" → "R$ 1.250,00");
 * `null` when it is not an amount (a free text such as "Conforme orçamento").
 */
export function normalizeReaisText(input: string): string | null {
  const parsed = parseReais(input);
  return parsed.ok ? formatCentavos(parsed.centavos) : null;
}
