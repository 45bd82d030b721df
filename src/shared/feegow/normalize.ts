/**
 * How names from the clinic system are compared with ours (decision 016): case, accents and
 * runs of spaces do not matter ("  Toxina  Botulínica" is "toxina botulinica").
 */
export function normalizeName(value: string): string {
  return value
    .normalize("NFD")
    .replace(/\p{M}+/gu, "")
    .toLocaleLowerCase("pt-BR")
    .replace(/\s+/g, " ")
    .trim();
}

const reais = new Intl.NumberFormat("pt-BR", { style: "currency", currency: "BRL" });

/** Feegow gives prices in centavos: 120000 → "R$ 1.200,00" (plain spaces, for text and tests alike). */
export function formatCentavos(centavos: number): string {
  return reais.format(centavos / 100).replace(/\s/g, " ");
}
