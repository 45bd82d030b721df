/** Sex options and labels, without zod (the first load imports them; decision 033). */
export const SEXOS = ["feminino", "masculino", "outro", "nao_informado"] as const;
export type Sexo = (typeof SEXOS)[number];
export const SEXO_LABEL: Record<Sexo, string> = {
  feminino: "Feminino",
  masculino: "Masculino",
  outro: "Outro",
  nao_informado: "Prefere não informar",
};
