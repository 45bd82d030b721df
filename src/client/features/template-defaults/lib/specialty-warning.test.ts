import { describe, expect, it } from "vitest";
import { SPECIALTY_WARNINGS, specialtyWarning } from "./specialty-warning";

const linked = { items: ["Dermatologia"], fallback: false };
const fallback = { items: ["Cardiologia", "Dermatologia"], fallback: true };
const empty = { items: [], fallback: false };

describe("specialtyWarning", () => {
  it("asks a pro_saude without linked specialties to call the clinic superuser", () => {
    const warning = specialtyWarning({ role: "pro_saude", is_proprietario: false }, fallback);
    expect(warning).toBe("noSpecialties");
    expect(SPECIALTY_WARNINGS[warning!]).toBe(
      "Nenhuma especialidade vinculada ao seu perfil. Peça ao superusuário da clínica para vincular suas especialidades.",
    );
    expect(specialtyWarning({ role: "pro_saude", is_proprietario: false }, empty)).toBe("noSpecialties");
  });

  it("warns any non-owner with an empty or fallback list", () => {
    expect(specialtyWarning({ role: "profissional", is_proprietario: false }, fallback)).toBe("noSpecialties");
    expect(specialtyWarning({ role: "admin", is_proprietario: false }, empty)).toBe("noSpecialties");
  });

  it("says nothing when specialties are linked, or to the owner", () => {
    expect(specialtyWarning({ role: "pro_saude", is_proprietario: false }, linked)).toBeNull();
    expect(specialtyWarning({ role: "profissional", is_proprietario: true }, fallback)).toBeNull();
    expect(specialtyWarning({ role: "profissional", is_proprietario: true }, empty)).toBeNull();
  });

  it("tells a saas_admin that a clinic context is needed, whatever the list", () => {
    expect(specialtyWarning({ role: "saas_admin", is_proprietario: false }, undefined)).toBe("needsClinic");
    expect(specialtyWarning({ role: "saas_admin", is_proprietario: true }, linked)).toBe("needsClinic");
  });

  it("says nothing while the user or the list is unknown", () => {
    expect(specialtyWarning(undefined, fallback)).toBeNull();
    expect(specialtyWarning({ role: "pro_saude", is_proprietario: false }, undefined)).toBeNull();
  });
});
