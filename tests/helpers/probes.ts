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
      const body = response.json() as { message?: string; issues?: { message: string }[] };
      message = [body.message, ...(body.issues ?? []).map((issue) => issue.message)].filter(Boolean).join(" | ");
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
  return { arquivo_base64: ecpf.pfx.toString("base64"), nome_arquivo: "certificado.pfx", alias: "Sonda", senha: ecpf.password, descricao: "Certificado de teste", titular: "clinica" };
}
