import { normalizeName } from "./normalize.js";

export interface FeegowProcedureIn {
  procedimento_id: number;
  nome: string;
  valor: number | null;
}

export interface OurProcedure {
  id: string;
  nome: string;
  feegow_procedimento_id: number | null;
  valor_centavos: number | null;
  is_private: boolean;
}

export interface ProcedureMatch {
  feegow: FeegowProcedureIn;
  /** Our procedure this one is (or becomes) linked to; null: a new procedure is created. */
  ours: OurProcedure | null;
  situacao: "novo" | "importado" | "desatualizado";
}

/**
 * Pairs Feegow's procedures with ours (decision 016): first by the link an earlier import left
 * (feegow_procedimento_id), then by name ignoring case, accents and spaces — among our shared
 * procedures not linked to another Feegow procedure, oldest first as given. Each of ours pairs
 * with at most one of Feegow's, so importing twice never makes a second copy.
 */
export function matchProcedures(feegow: readonly FeegowProcedureIn[], ours: readonly OurProcedure[]): ProcedureMatch[] {
  const byLink = new Map(
    ours.filter((p) => p.feegow_procedimento_id !== null).map((p) => [p.feegow_procedimento_id as number, p]),
  );
  const taken = new Set<string>();
  for (const item of feegow) {
    const linked = byLink.get(item.procedimento_id);
    if (linked) taken.add(linked.id);
  }
  const byName = new Map<string, OurProcedure[]>();
  for (const procedure of ours) {
    if (procedure.feegow_procedimento_id !== null || procedure.is_private) continue;
    const key = normalizeName(procedure.nome);
    byName.set(key, [...(byName.get(key) ?? []), procedure]);
  }
  return feegow.map((item) => {
    let match = byLink.get(item.procedimento_id) ?? null;
    if (!match) {
      match = (byName.get(normalizeName(item.nome)) ?? []).find((p) => !taken.has(p.id)) ?? null;
      if (match) taken.add(match.id);
    }
    if (!match) return { feegow: item, ours: null, situacao: "novo" };
    const same = match.feegow_procedimento_id === item.procedimento_id && match.valor_centavos === item.valor;
    return { feegow: item, ours: match, situacao: same ? "importado" : "desatualizado" };
  });
}
