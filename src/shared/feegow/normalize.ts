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

/** Prices are shown with the shared money helpers (src/shared/br/money.ts). */
export { formatCentavos } from "../br/money.js";
