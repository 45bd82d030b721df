import { describe, expect, it } from "vitest";
import {
  isKnownSpecialty,
  PROCEDURE_SPECIALTY_GROUPS,
  procedureSpecialtyName,
  specialtyCodesMatching,
} from "./procedure-specialties.js";

describe("procedure specialties", () => {
  it("offers every council family's specialties, sorted by name", () => {
    expect(PROCEDURE_SPECIALTY_GROUPS.map((g) => g.label)).toEqual([
      "Medicina (CRM)",
      "Odontologia (CRO)",
      "Enfermagem, Fisioterapia e Biomedicina",
    ]);
    const medicina = PROCEDURE_SPECIALTY_GROUPS[0]!.items.map((i) => i.nome);
    expect(medicina).toContain("Cirurgia Plástica");
    expect([...medicina].sort((a, b) => a.localeCompare(b, "pt-BR"))).toEqual(medicina);
    expect(PROCEDURE_SPECIALTY_GROUPS[1]!.items.map((i) => i.codigo)).toContain("implantodontia");
  });

  it("knows the reference slugs only", () => {
    expect(isKnownSpecialty("cirurgia_plastica")).toBe(true);
    expect(isKnownSpecialty("enfermagem_estetica")).toBe(true);
    expect(isKnownSpecialty("Cirurgia Plástica")).toBe(false);
    expect(isKnownSpecialty("")).toBe(false);
  });

  it("shows names, and older free text as it was typed", () => {
    expect(procedureSpecialtyName("cirurgia_plastica")).toBe("Cirurgia Plástica");
    expect(procedureSpecialtyName("harmonizacao_orofacial")).toBe("Harmonização Orofacial");
    expect(procedureSpecialtyName("Estética avançada")).toBe("Estética avançada");
    expect(procedureSpecialtyName(null)).toBeNull();
    expect(procedureSpecialtyName("")).toBeNull();
  });

  it("finds slugs by their name, ignoring case and accents", () => {
    expect(specialtyCodesMatching("CIRURGIA PLAS")).toEqual(["cirurgia_plastica"]);
    expect(specialtyCodesMatching("harmonizacao")).toEqual(["harmonizacao_orofacial"]);
    expect(specialtyCodesMatching("dermato")).toEqual(
      expect.arrayContaining(["dermatologia", "enfermagem_dermatologica", "fisioterapia_dermatofuncional"]),
    );
    expect(specialtyCodesMatching("   ")).toEqual([]);
    expect(specialtyCodesMatching("zzz")).toEqual([]);
  });
});
