import { describe, expect, it } from "vitest";
import { matchProcedures, type OurProcedure } from "./match-procedures.js";

const ours = (over: Partial<OurProcedure> & { id: string; nome: string }): OurProcedure => ({
  feegow_procedimento_id: null,
  valor_centavos: null,
  is_private: false,
  ...over,
});

describe("matchProcedures", () => {
  it("creates what has no match", () => {
    const [match] = matchProcedures([{ procedimento_id: 1, nome: "Botox", valor: 100 }], []);
    expect(match).toMatchObject({ ours: null, situacao: "novo" });
  });

  it("matches names ignoring case, accents and spaces, and reports a price to update", () => {
    const mine = ours({ id: "a", nome: "  toxina  BOTULINICA" });
    const [match] = matchProcedures([{ procedimento_id: 301, nome: "Toxina botulínica", valor: 120000 }], [mine]);
    expect(match).toMatchObject({ ours: mine, situacao: "desatualizado" });
  });

  it("prefers the link of an earlier import, even after a rename on either side", () => {
    const linked = ours({ id: "a", nome: "Botox (antigo)", feegow_procedimento_id: 301, valor_centavos: 120000 });
    const sameName = ours({ id: "b", nome: "Toxina botulínica" });
    const [match] = matchProcedures(
      [{ procedimento_id: 301, nome: "Toxina botulínica", valor: 120000 }],
      [linked, sameName],
    );
    expect(match).toMatchObject({ ours: linked, situacao: "importado" });
  });

  it("never pairs one of ours with two of Feegow's, nor with a private procedure", () => {
    const mine = ours({ id: "a", nome: "Peeling" });
    const secret = ours({ id: "p", nome: "Laser", is_private: true });
    const result = matchProcedures(
      [
        { procedimento_id: 1, nome: "Peeling", valor: 1 },
        { procedimento_id: 2, nome: "peeling", valor: 2 },
        { procedimento_id: 3, nome: "Laser", valor: 3 },
      ],
      [mine, secret],
    );
    expect(result.map((m) => [m.ours?.id ?? null, m.situacao])).toEqual([
      ["a", "desatualizado"],
      [null, "novo"],
      [null, "novo"],
    ]);
  });

  it("a name already linked to another Feegow procedure is not taken by name", () => {
    const linked = ours({ id: "a", nome: "Peeling", feegow_procedimento_id: 9, valor_centavos: 5 });
    const [match] = matchProcedures([{ procedimento_id: 10, nome: "Peeling", valor: 5 }], [linked]);
    expect(match?.situacao).toBe("novo");
  });
});
