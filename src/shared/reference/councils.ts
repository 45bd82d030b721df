/**
 * Conselhos profissionais aceitos no cadastro, na ordem em que são exibidos.
 */
export const CONSELHOS = [
  { tipo: "CRM", nome: "Medicina", label: "CRM - Conselho Regional de Medicina" },
  { tipo: "COREN", nome: "Enfermagem", label: "COREN - Conselho Regional de Enfermagem" },
  {
    tipo: "CREFITO",
    nome: "Fisioterapia",
    label: "CREFITO - Conselho Regional de Fisioterapia e Terapia Ocupacional",
  },
  { tipo: "CRO", nome: "Odontologia", label: "CRO - Conselho Regional de Odontologia" },
  { tipo: "CRBM", nome: "Biomedicina", label: "CRBM - Conselho Regional de Biomedicina" },
] as const;

export type Conselho = (typeof CONSELHOS)[number];
export type ConselhoTipo = Conselho["tipo"];

/** Tipos de conselho, na mesma ordem de CONSELHOS (tupla não vazia, serve para z.enum). */
export const CONSELHO_TIPOS = CONSELHOS.map((c) => c.tipo) as unknown as readonly [ConselhoTipo, ...ConselhoTipo[]];

export function isConselhoTipo(value: unknown): value is ConselhoTipo {
  return typeof value === "string" && (CONSELHO_TIPOS as readonly string[]).includes(value);
}

export function findConselho(tipo: string): Conselho | undefined {
  return CONSELHOS.find((c) => c.tipo === tipo);
}
