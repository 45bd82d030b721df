import { describe, expect, it } from "vitest";
import { userCreateSchema } from "../schemas/users.js";
import { type FeegowProfessionalFields, professionalToUser } from "./professional-to-user.js";

const base: FeegowProfessionalFields = {
  profissional_id: 15,
  nome: "Dr. Paulo Azevedo",
  conselho: "CRM",
  documento_conselho: "123456",
  uf_conselho: "sp",
  email: "paulo@example.com",
  cpf: "529.982.247-25",
  rqe: "4455",
  especialidades: ["Dermatologia"],
};

describe("professionalToUser", () => {
  it("builds an invitation body that passes the add-user rules", () => {
    const mapped = professionalToUser(base);
    expect(mapped).toEqual({
      ok: true,
      input: {
        nome: "Dr. Paulo Azevedo",
        email: "paulo@example.com",
        cpf: "52998224725",
        role: "profissional",
        acesso: "convite",
        conselho_tipo: "CRM",
        conselho_numero: "123456",
        conselho_uf: "SP",
        especialidades: [{ especialidade: "dermatologia", areas_atuacao: [], rqe: "4455" }],
      },
    });
    if (!mapped.ok) throw new Error("unreachable");
    expect(userCreateSchema.safeParse(mapped.input).success).toBe(true);
  });

  it("matches specialty names ignoring case and accents, and keeps at most two", () => {
    const mapped = professionalToUser({
      ...base,
      conselho: "CRO",
      rqe: null,
      especialidades: ["ORTODONTIA", "Implantodontia", "endodontia", "Inexistente"],
    });
    if (!mapped.ok) throw new Error(mapped.motivo);
    expect(mapped.input.especialidades?.map((e) => e.especialidade)).toEqual(["ortodontia", "implantodontia"]);
    expect(mapped.input.especialidades?.every((e) => e.rqe === null)).toBe(true);
  });

  it("says why a professional cannot be imported", () => {
    expect(professionalToUser({ ...base, cpf: "" })).toMatchObject({
      ok: false,
      motivo: expect.stringContaining("CPF"),
    });
    expect(professionalToUser({ ...base, cpf: "111.111.111-11" })).toMatchObject({
      ok: false,
      motivo: expect.stringContaining("CPF"),
    });
    expect(professionalToUser({ ...base, email: null })).toMatchObject({
      ok: false,
      motivo: expect.stringContaining("e-mail"),
    });
    expect(professionalToUser({ ...base, conselho: null })).toMatchObject({
      ok: false,
      motivo: expect.stringContaining("conselho"),
    });
    expect(professionalToUser({ ...base, conselho: "CRP" })).toMatchObject({
      ok: false,
      motivo: expect.stringContaining("CRP"),
    });
  });

  it("leaves the sign-up rules to refuse what Feegow lacks (a CRM specialty without RQE)", () => {
    const mapped = professionalToUser({ ...base, rqe: null });
    if (!mapped.ok) throw new Error(mapped.motivo);
    const parsed = userCreateSchema.safeParse(mapped.input);
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.message).toMatch(/RQE/);
  });
});
