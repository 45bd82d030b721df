import { describe, expect, it } from "vitest";
import { CONSELHO_TIPOS, CONSELHOS, findConselho, isConselhoTipo } from "./councils.js";
import { MAX_AREAS_POR_ESPECIALIDADE, MAX_ESPECIALIDADES } from "./limits.js";
import {
  AREAS_CRM,
  AREAS_CRO,
  ESPECIALIDADES_CRM,
  ESPECIALIDADES_CRO,
  ESPECIALIDADES_OUTROS,
  areasFor,
  findSpecialty,
  isAreaFor,
  requiresRqe,
  requiresSpecialty,
  specialtiesFor,
  specialtyName,
  type AreaAtuacao,
  type Especialidade,
} from "./specialties.js";
import { UF_SIGLAS, UFS, isUf, ufNome } from "./ufs.js";

const SLUG = /^[a-z0-9]+(?:_[a-z0-9]+)*$/;

function codes(items: readonly { codigo: string }[]): string[] {
  return items.map((i) => i.codigo);
}

function expectUnique(values: readonly string[]): void {
  const dupes = values.filter((v, i) => values.indexOf(v) !== i);
  expect(dupes).toEqual([]);
}

function expectWellFormed(items: readonly (Especialidade | AreaAtuacao)[]): void {
  expectUnique(codes(items));
  expectUnique(items.map((i) => i.nome));
  for (const item of items) {
    expect(item.codigo, item.nome).toMatch(SLUG);
    expect(item.nome.trim()).toBe(item.nome);
    expect(item.nome.length).toBeGreaterThan(2);
  }
}

describe("UFs", () => {
  it("has the 27 UFs, unique and sorted by sigla", () => {
    expect(UFS).toHaveLength(27);
    const siglas = UFS.map((u) => u.sigla);
    expectUnique(siglas);
    expectUnique(UFS.map((u) => u.nome));
    expect([...siglas].sort()).toEqual(siglas);
    for (const sigla of siglas) expect(sigla).toMatch(/^[A-Z]{2}$/);
  });

  it("exposes UF_SIGLAS in the same order and the lookups", () => {
    expect([...UF_SIGLAS]).toEqual(UFS.map((u) => u.sigla));
    expect(isUf("SP")).toBe(true);
    expect(isUf("DF")).toBe(true);
    expect(isUf("sp")).toBe(false);
    expect(isUf("XX")).toBe(false);
    expect(isUf(undefined)).toBe(false);
    expect(ufNome("PI")).toBe("Piauí");
    expect(ufNome("ZZ")).toBeUndefined();
  });
});

describe("councils", () => {
  it("has exactly the 5 councils, in spec order", () => {
    expect(CONSELHOS.map((c) => [c.tipo, c.nome])).toEqual([
      ["CRM", "Medicina"],
      ["COREN", "Enfermagem"],
      ["CREFITO", "Fisioterapia"],
      ["CRO", "Odontologia"],
      ["CRBM", "Biomedicina"],
    ]);
    expect([...CONSELHO_TIPOS]).toEqual(["CRM", "COREN", "CREFITO", "CRO", "CRBM"]);
    for (const c of CONSELHOS) expect(c.label.startsWith(`${c.tipo} - Conselho Regional de`)).toBe(true);
    expect(findConselho("CRM")?.label).toBe("CRM - Conselho Regional de Medicina");
    expect(findConselho("CRF")).toBeUndefined();
    expect(isConselhoTipo("CRO")).toBe(true);
    expect(isConselhoTipo("crm")).toBe(false);
  });
});

describe("limits", () => {
  it("matches the sign-up rules", () => {
    expect(MAX_ESPECIALIDADES).toBe(2);
    expect(MAX_AREAS_POR_ESPECIALIDADE).toBe(3);
  });
});

describe("CRM specialties (CFM)", () => {
  it("lists the 55 CFM specialties with unique slug codes and names", () => {
    expect(ESPECIALIDADES_CRM).toHaveLength(55);
    expectWellFormed(ESPECIALIDADES_CRM);
    for (const e of ESPECIALIDADES_CRM) expectWellFormed(e.areas);
  });

  it("uses one name per area code and every area belongs to some specialty", () => {
    expectWellFormed(AREAS_CRM);
    const byCode = new Map(AREAS_CRM.map((a) => [a.codigo, a.nome]));
    const used = new Set<string>();
    for (const e of ESPECIALIDADES_CRM) {
      for (const a of e.areas) {
        expect(byCode.get(a.codigo), a.codigo).toBe(a.nome);
        used.add(a.codigo);
      }
    }
    expect([...byCode.keys()].filter((c) => !used.has(c))).toEqual([]);
  });

  it("links areas to specialties as the CFM resolution does", () => {
    const pediatria = codes(areasFor("CRM", "pediatria"));
    expect(pediatria).toEqual(
      expect.arrayContaining(["neonatologia", "alergia_imunologia_pediatrica", "medicina_do_adolescente"]),
    );
    expect(codes(areasFor("CRM", "cardiologia"))).toEqual(
      expect.arrayContaining(["ergometria", "ecocardiografia", "hemodinamica_cardiologia_intervencionista"]),
    );
    expect(codes(areasFor("CRM", "patologia"))).toEqual(["citopatologia"]);
    expect(areasFor("CRM", "oftalmologia")).toEqual([]);
    expect(areasFor("CRM", "dermatologia").map((a) => a.nome)).toEqual(["Hansenologia"]);
    expect(areasFor("CRM", "nao_existe")).toEqual([]);
  });

  it("contains well-known specialties by name", () => {
    const nomes = ESPECIALIDADES_CRM.map((e) => e.nome);
    for (const nome of [
      "Cirurgia Plástica",
      "Dermatologia",
      "Medicina de Emergência",
      "Oncologia Clínica",
      "Cirurgia Oncológica",
      "Patologia Clínica/Medicina Laboratorial",
      "Radiologia e Diagnóstico por Imagem",
    ]) {
      expect(nomes).toContain(nome);
    }
  });
});

describe("CRO specialties (CFO)", () => {
  it("lists the 23 CFO specialties, none with linked areas", () => {
    expect(ESPECIALIDADES_CRO).toHaveLength(23);
    expectWellFormed(ESPECIALIDADES_CRO);
    for (const e of ESPECIALIDADES_CRO) expect(e.areas).toEqual([]);
    expect(findSpecialty("CRO", "harmonizacao_orofacial")?.nome).toBe("Harmonização Orofacial");
  });

  it("has 8 areas, offered for any CRO specialty", () => {
    expect(AREAS_CRO).toHaveLength(8);
    expectWellFormed(AREAS_CRO);
    expect(areasFor("CRO", "ortodontia")).toEqual(AREAS_CRO);
    expect(areasFor("CRO", "endodontia")).toEqual(AREAS_CRO);
    // Areas are not specialties too.
    const esp = new Set(codes(ESPECIALIDADES_CRO));
    expect(codes(AREAS_CRO).filter((c) => esp.has(c))).toEqual([]);
  });
});

describe("COREN / CREFITO / CRBM specialties", () => {
  it("share one list of 11 specialties without areas", () => {
    expect(ESPECIALIDADES_OUTROS).toHaveLength(11);
    expectWellFormed(ESPECIALIDADES_OUTROS);
    for (const tipo of ["COREN", "CREFITO", "CRBM"] as const) {
      expect(specialtiesFor(tipo)).toBe(ESPECIALIDADES_OUTROS);
      expect(areasFor(tipo, "enfermagem_estetica")).toEqual([]);
    }
    expect(areasFor("COREN", "acupuntura")).toEqual([]);
  });
});

describe("helpers", () => {
  it("specialtiesFor returns the council list", () => {
    expect(specialtiesFor("CRM")).toBe(ESPECIALIDADES_CRM);
    expect(specialtiesFor("CRO")).toBe(ESPECIALIDADES_CRO);
  });

  it("requiresSpecialty / requiresRqe follow the sign-up rules", () => {
    expect(CONSELHO_TIPOS.filter(requiresSpecialty)).toEqual(["CRM", "CRO"]);
    expect(CONSELHO_TIPOS.filter(requiresRqe)).toEqual(["CRM"]);
  });

  it("findSpecialty is scoped to the council", () => {
    expect(findSpecialty("CRM", "cirurgia_plastica")?.nome).toBe("Cirurgia Plástica");
    expect(findSpecialty("CRO", "cirurgia_plastica")).toBeUndefined();
    expect(findSpecialty("CRM", "ortodontia")).toBeUndefined();
    expect(findSpecialty("CREFITO", "fisioterapia_dermatofuncional")?.nome).toBe("Fisioterapia Dermatofuncional");
  });

  it("specialtyName resolves codes across councils and falls back to the code", () => {
    expect(specialtyName("ginecologia_obstetricia")).toBe("Ginecologia e Obstetrícia");
    expect(specialtyName("implantodontia")).toBe("Implantodontia");
    expect(specialtyName("biomedicina_estetica")).toBe("Biomedicina Estética");
    expect(specialtyName("ortodontia", "CRO")).toBe("Ortodontia");
    expect(specialtyName("ortodontia", "CRM")).toBe("ortodontia");
    expect(specialtyName("texto livre antigo")).toBe("texto livre antigo");
  });

  it("a code shared between councils always has the same name", () => {
    const names = new Map<string, string>();
    for (const e of [...ESPECIALIDADES_CRM, ...ESPECIALIDADES_CRO, ...ESPECIALIDADES_OUTROS]) {
      const seen = names.get(e.codigo);
      if (seen !== undefined) expect(e.nome, e.codigo).toBe(seen);
      names.set(e.codigo, e.nome);
    }
  });

  it("isAreaFor checks the area against the specialty", () => {
    expect(isAreaFor("CRM", "pediatria", "neonatologia")).toBe(true);
    expect(isAreaFor("CRM", "cardiologia", "neonatologia")).toBe(false);
    expect(isAreaFor("CRO", "periodontia", "laserterapia")).toBe(true);
    expect(isAreaFor("COREN", "enfermagem_estetica", "laserterapia")).toBe(false);
  });
});
