import { describe, expect, it } from "vitest";
import { ERRORS } from "./errors.js";
import {
  blockingSendProblem,
  canEmailPatient,
  CONTACT_MISSING_MESSAGE,
  patientSendProblems,
  type SendPatient,
} from "./send-readiness.js";

const TODAY = "2026-11-26";
const adult: SendPatient = {
  nome: "Ana Souza",
  cpf: "52998224725",
  data_nascimento: "1990-05-10",
  responsavel_nome: null,
  responsavel_cpf: null,
  email: "ana@exemplo.com.br",
  telefone: null,
};

describe("patientSendProblems", () => {
  it("has nothing to say about an adult with CPF and a contact", () => {
    expect(patientSendProblems(adult, TODAY)).toEqual([]);
    expect(patientSendProblems({ ...adult, email: null, telefone: "(11) 98765-4321" }, TODAY)).toEqual([]);
  });

  it("blocks an adult without CPF with the server's message", () => {
    const problems = patientSendProblems({ ...adult, cpf: null }, TODAY);
    expect(problems).toEqual([
      { code: "PATIENT_CPF_MISSING", message: ERRORS.PATIENT_CPF_MISSING.message, blocking: true },
    ]);
    expect(blockingSendProblem({ ...adult, cpf: null }, TODAY)?.code).toBe("PATIENT_CPF_MISSING");
  });

  it("warns, without blocking, when neither e-mail nor phone is registered", () => {
    const problems = patientSendProblems({ ...adult, email: null, telefone: "  " }, TODAY);
    expect(problems).toEqual([{ code: "PATIENT_CONTACT_MISSING", message: CONTACT_MISSING_MESSAGE, blocking: false }]);
    expect(blockingSendProblem({ ...adult, email: null }, TODAY)).toBeNull();
  });

  it("lists both problems, the blocking one first", () => {
    const codes = patientSendProblems({ ...adult, cpf: null, email: null }, TODAY).map((p) => p.code);
    expect(codes).toEqual(["PATIENT_CPF_MISSING", "PATIENT_CONTACT_MISSING"]);
  });

  it("asks a minor's guardian for name and CPF, whatever the minor's own CPF", () => {
    const minor = { ...adult, data_nascimento: "2015-01-01" };
    expect(blockingSendProblem(minor, TODAY)?.code).toBe("GUARDIAN_MISSING");
    expect(blockingSendProblem({ ...minor, responsavel_nome: "Carla Souza" }, TODAY)?.code).toBe("GUARDIAN_MISSING");
    expect(
      blockingSendProblem(
        { ...minor, cpf: null, responsavel_nome: "Carla Souza", responsavel_cpf: "11144477735" },
        TODAY,
      ),
    ).toBeNull();
  });

  it("counts the 18th birthday as adult (São Paulo date)", () => {
    expect(blockingSendProblem({ ...adult, data_nascimento: "2008-11-26" }, TODAY)).toBeNull();
    expect(blockingSendProblem({ ...adult, data_nascimento: "2008-11-27" }, TODAY)?.code).toBe("GUARDIAN_MISSING");
  });

  it("a named guardian signs even for an adult", () => {
    expect(blockingSendProblem({ ...adult, responsavel_nome: "Carla Souza" }, TODAY)?.code).toBe("GUARDIAN_MISSING");
  });
});

describe("canEmailPatient", () => {
  it("needs an e-mail on the record", () => {
    expect(canEmailPatient(adult)).toBe(true);
    expect(canEmailPatient({ email: null })).toBe(false);
    expect(canEmailPatient({ email: " " })).toBe(false);
  });
});
