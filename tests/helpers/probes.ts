import type { FastifyInstance } from "fastify";

/** One request of a probe sweep (tests/integration/bad-input-sweep.test.ts). */
export interface Probe {
  method: string;
  /** The OpenAPI path it exercises, for the report. */
  route: string;
  url: string;
  label: string;
  payload?: unknown;
  /** Sent as it is (e.g. malformed JSON) instead of `payload`. */
  rawPayload?: string;
  contentType?: string;
}

export interface ProbeResult {
  probe: Probe;
  status: number;
  message: string;
}

export async function runProbe(app: FastifyInstance, cookie: string, probe: Probe): Promise<ProbeResult> {
  const hasBody = probe.rawPayload !== undefined || probe.payload !== undefined;
  const response = await app.inject({
    method: probe.method as "GET",
    url: probe.url,
    headers: {
      cookie,
      ...(hasBody ? { "content-type": probe.contentType ?? "application/json" } : {}),
    },
    ...(probe.rawPayload !== undefined
      ? { payload: probe.rawPayload }
      : probe.payload !== undefined
        ? { payload: JSON.stringify(probe.payload) }
        : {}),
  });
  let message = "";
  if (response.statusCode >= 400) {
    try {
      const body = response.json() as {
        message?: string;
        issues?: { message: string }[];
        /** FHIR routes answer an OperationOutcome (decision 063). */
        issue?: { diagnostics?: string }[];
      };
      message = [
        body.message,
        ...(body.issues ?? []).map((issue) => issue.message),
        ...(body.issue ?? []).map((issue) => issue.diagnostics),
      ]
        .filter(Boolean)
        .join(" | ");
    } catch {
      message = response.body;
    }
  }
  return { probe, status: response.statusCode, message };
}

/** A keyset cursor as the server encodes it, with whatever inside (to forge bad ones). */
export function encodeCursorForTest(createdAt: string, id: string): string {
  return Buffer.from(`${createdAt}|${id}`).toString("base64url");
}

/**
 * A body POST /api/certificates accepts (the test e-CPF as the clinic's certificate), so the
 * sweep reaches the intake behind validation with one bad field at a time.
 */
export async function validCertificateUpload(): Promise<Record<string, string>> {
  const { testPki } = await import("../fixtures/icp-brasil.js");
  const { ecpf } = testPki();
  return {
    arquivo_base64: ecpf.pfx.toString("base64"),
    nome_arquivo: "certificado.pfx",
    alias: "Sonda",
    senha: ecpf.password,
    descricao: "Certificado de teste",
    titular: "clinica",
  };
}

/**
 * Bodies the team routes accept (/profile, Configurações, editing a user), so the
 * bad-input sweep reaches the code behind validation one bad field at a time.
 */
export function teamValidBodies(): Record<string, unknown> {
  return {
    "PATCH /api/profile": {
      nome: "Dra. Helena Martins Prado",
      telefone: "(11) 98765-4321",
      email: "helena.sonda@exemplo.com.br",
      cpf: "529.982.247-25",
      senha_atual: "senha-qualquer",
      conselho_tipo: "CRM",
      conselho_numero: "123456",
      conselho_uf: "SP",
      especialidades: [{ especialidade: "dermatologia", areas_atuacao: ["hansenologia"], rqe: "45678" }],
    },
    "POST /api/profile/password": {
      senha_atual: "senha-errada-1",
      nova_senha: "jardim-azul-42",
      confirmar_senha: "jardim-azul-42",
    },
    "PUT /api/settings/clinic": {
      tipo_perfil: "profissional_independente",
      cep: "01310-100",
      estado: "SP",
      cidade: "São Paulo",
      bairro: "Bela Vista",
      logradouro: "Avenida Paulista",
      numero: "1000",
      complemento: "Sala 12",
      telefone: "(11) 3333-4444",
      validade_documento_dias: 10,
    },
    "PATCH /api/users/{id}": {
      nome: "Paulo Mendes",
      role: "profissional",
      conselho_tipo: "CRM",
      conselho_numero: "112233",
      conselho_uf: "SP",
      especialidades: [{ especialidade: "dermatologia", areas_atuacao: [], rqe: "7788" }],
    },
  };
}

/**
 * A body POST /api/notices/read accepts (a well-formed key of no notice: 404 once valid), so the
 * sweep reaches the key check one bad field at a time (decision 028).
 */
export function noticeValidBodies(): Record<string, unknown> {
  return {
    "POST /api/notices/read": { chaves: ["document.viewed:00000000-0000-4000-8000-000000000000:1767225600000000"] },
  };
}
