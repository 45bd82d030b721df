import { createHash } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { feegowClient, FeegowError, type FeegowFailure } from "../../src/server/services/feegow/feegow-client.js";
import { patientFromFeegow } from "../../src/server/services/feegow/patient-from-feegow.js";
import {
  FAKE_FEEGOW_INACTIVE_TOKEN,
  FAKE_FEEGOW_TOKEN,
  type FakeFeegowMode,
  type FakeFeegowServer,
  startFakeFeegowServer,
} from "../fakes/feegow-server.js";

/** The Feegow client against the local fake (DESIGN.md §5): shapes, the token header, every failure in words. */
let fake: FakeFeegowServer;
beforeAll(async () => {
  fake = await startFakeFeegowServer();
});
afterAll(async () => {
  await fake.close();
});
beforeEach(() => {
  fake.reset();
  fake.slowMs = 1500;
});

const client = (token = FAKE_FEEGOW_TOKEN) => feegowClient({ baseUrl: fake.url, token, timeoutMs: 400 });

async function failureOf(work: Promise<unknown>): Promise<FeegowError> {
  try {
    await work;
  } catch (error) {
    expect(error).toBeInstanceOf(FeegowError);
    return error as FeegowError;
  }
  throw new Error("expected a FeegowError");
}

describe("Feegow client", () => {
  it("sends the token in x-access-token and reads the documented lists", async () => {
    const professionals = await client().listProfessionals();
    expect(professionals.map((p) => [p.profissional_id, p.nome])).toEqual([
      [12, "Dra. Marina Costa Lima"],
      [15, "Dr. Paulo Azevedo"],
    ]);
    expect(fake.requests[0]).toMatchObject({
      method: "GET",
      path: "/professional/list?ativo=1",
      token: FAKE_FEEGOW_TOKEN,
    });
    // Specialties come as objects: their names; one RQE per professional.
    expect(professionals.map((p) => [p.especialidades, p.rqe])).toEqual([
      [["Ortodontia"], null],
      [["Dermatologia"], "4455"],
    ]);

    const procedures = await client().listProcedures();
    expect(procedures.map((p) => [p.nome, p.valor])).toEqual([
      ["Toxina botulínica", 120000],
      ["Preenchimento labial", 185050],
    ]);
  });

  it("finds a patient by CPF (list gives patient_id, search gives the record) and shapes it for the form", async () => {
    expect(await client().findPatientIds("52998224725")).toEqual([4817]);
    expect(await client().findPatientIds("11144477735")).toEqual([]);
    const detail = await client().getPatientByCpf("52998224725");
    expect(fake.requests.map((r) => r.path)).toEqual([
      "/patient/list?cpf=52998224725",
      "/patient/list?cpf=11144477735",
      "/patient/search?paciente_cpf=52998224725",
    ]);
    expect(patientFromFeegow(detail, 4817, "52998224725")).toEqual({
      feegow_patient_id: 4817,
      nome: "Helena Duarte Vasconcelos",
      cpf: "52998224725",
      telefone: "11998765432",
      email: "helena.vasconcelos@example.com",
      data_nascimento: "1979-09-23",
      sexo: "feminino",
      endereco: {
        cep: "01310100",
        logradouro: "Avenida Paulista",
        numero: "900",
        complemento: "Apto 71",
        bairro: "Bela Vista",
        cidade: "São Paulo",
        uf: "SP",
      },
    });
  });

  it("keeps odd records safe: bad dates, unknown sex, control characters, lone surrogates, no phone", async () => {
    fake.patients[0] = {
      ...fake.patients[0]!,
      nome: "  Ana\u0000 Clara \ud800Souza ",
      nascimento: "31-02-1990",
      sexo: "Não informado",
      estado: "XX",
      cep: "123",
      celulares: ["abc"],
      telefones: [],
      email: ["sem-arroba"],
    };
    const shaped = patientFromFeegow(await client().getPatientByCpf("52998224725"), 4817, "52998224725");
    expect(shaped).toMatchObject({
      nome: "Ana Clara Souza",
      data_nascimento: null,
      sexo: null,
      telefone: null,
      email: null,
    });
    expect(shaped.endereco).toMatchObject({ cep: null, uf: null });
  });

  it("uploads a PDF as a data: URL with paciente_id and arquivo_descricao", async () => {
    await client().uploadPdf({ pacienteId: 4817, pdf: Buffer.from("%PDF-1.7 teste"), descricao: "TCLE assinado" });
    expect(fake.uploads).toEqual([
      {
        paciente_id: 4817,
        arquivo_descricao: "TCLE assinado",
        bytes: 14,
        sha256: createHash("sha256").update("%PDF-1.7 teste").digest("hex"),
        key: `4817:${createHash("sha256").update("%PDF-1.7 teste").digest("hex")}`,
      },
    ]);
  });

  const cases: [FakeFeegowMode, FeegowFailure, RegExp][] = [
    ["unauthorized", "token_invalido", /^Token do Feegow ausente ou inválido/],
    ["inactive", "token_inativo", /^Token do Feegow inativo/],
    ["conflict", "recusado", /^O Feegow recusou a solicitação: Registro em conflito com outro já existente$/],
    ["unprocessable", "recusado", /^O Feegow recusou a solicitação: Parâmetro paciente_cpf inválido$/],
    ["success_false", "sem_sucesso", /^O Feegow respondeu com erro: Erro interno ao processar a solicitação$/],
    ["server_error", "http", /^O Feegow respondeu com erro \(HTTP 500\): Internal Server Error$/],
    ["not_json", "resposta_invalida", /^O Feegow enviou uma resposta inesperada\.$/],
    ["wrong_shape", "resposta_invalida", /^O Feegow enviou uma resposta inesperada\.$/],
    ["slow", "tempo_esgotado", /^O Feegow não respondeu a tempo/],
    ["drop", "sem_conexao", /^Não foi possível conectar ao Feegow/],
  ];
  it.each(cases)("maps %s to %s with a pt-BR message", async (mode, failure, message) => {
    fake.mode = mode;
    const error = await failureOf(client().listProfessionals());
    expect(error.failure).toBe(failure);
    expect(error.message).toMatch(message);
    expect(error.message).not.toContain(FAKE_FEEGOW_TOKEN);
  });

  it("tells an unknown token (401) from a deactivated one (403), and a closed port from a timeout", async () => {
    expect((await failureOf(client("outro-token-qualquer").listProfessionals())).failure).toBe("token_invalido");
    expect((await failureOf(client("").listProfessionals())).failure).toBe("token_invalido");
    expect((await failureOf(client(FAKE_FEEGOW_INACTIVE_TOKEN).listProfessionals())).failure).toBe("token_inativo");
    const closed = feegowClient({ baseUrl: "http://127.0.0.1:9/v1/api", token: FAKE_FEEGOW_TOKEN, timeoutMs: 400 });
    expect((await failureOf(closed.listProfessionals())).failure).toBe("sem_conexao");
  });
});
