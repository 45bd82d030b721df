/**
 * As 27 unidades federativas do Brasil (26 estados + Distrito Federal),
 * ordenadas pela sigla.
 */
export const UFS = [
  { sigla: "AC", nome: "Acre" },
  { sigla: "AL", nome: "Alagoas" },
  { sigla: "AM", nome: "Amazonas" },
  { sigla: "AP", nome: "Amapá" },
  { sigla: "BA", nome: "Bahia" },
  { sigla: "CE", nome: "Ceará" },
  { sigla: "DF", nome: "Distrito Federal" },
  { sigla: "ES", nome: "Espírito Santo" },
  { sigla: "GO", nome: "Goiás" },
  { sigla: "MA", nome: "Maranhão" },
  { sigla: "MG", nome: "Minas Gerais" },
  { sigla: "MS", nome: "Mato Grosso do Sul" },
  { sigla: "MT", nome: "Mato Grosso" },
  { sigla: "PA", nome: "Pará" },
  { sigla: "PB", nome: "Paraíba" },
  { sigla: "PE", nome: "Pernambuco" },
  { sigla: "PI", nome: "Piauí" },
  { sigla: "PR", nome: "Paraná" },
  { sigla: "RJ", nome: "Rio de Janeiro" },
  { sigla: "RN", nome: "Rio Grande do Norte" },
  { sigla: "RO", nome: "Rondônia" },
  { sigla: "RR", nome: "Roraima" },
  { sigla: "RS", nome: "Rio Grande do Sul" },
  { sigla: "SC", nome: "Santa Catarina" },
  { sigla: "SE", nome: "Sergipe" },
  { sigla: "SP", nome: "São Paulo" },
  { sigla: "TO", nome: "Tocantins" },
] as const;

export type Uf = (typeof UFS)[number]["sigla"];

/** Siglas das UFs, na mesma ordem de UFS (tupla não vazia, serve para z.enum). */
export const UF_SIGLAS = UFS.map((uf) => uf.sigla) as unknown as readonly [Uf, ...Uf[]];

export function isUf(value: unknown): value is Uf {
  return typeof value === "string" && (UF_SIGLAS as readonly string[]).includes(value);
}

/** Nome da UF pela sigla; undefined se a sigla não existir. */
export function ufNome(sigla: string): string | undefined {
  return UFS.find((uf) => uf.sigla === sigla)?.nome;
}
