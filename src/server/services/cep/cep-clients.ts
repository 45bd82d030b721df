import type { Endereco } from "../../../shared/schemas/cep.js";

/** What one postal-code source answered: an address, "no such CEP", or it failed (throws). */
export type CepAnswer = { found: true; address: Endereco } | { found: false };

export interface CepSource {
  name: string;
  lookup(cep: string): Promise<CepAnswer>;
}

async function getJson(url: string, timeoutMs: number): Promise<{ status: number; body: unknown }> {
  const response = await fetch(url, {
    headers: { accept: "application/json" },
    signal: AbortSignal.timeout(timeoutMs),
  });
  const text = await response.text();
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    throw new Error(`resposta não-JSON (HTTP ${response.status})`);
  }
  return { status: response.status, body };
}

const str = (value: unknown): string => (typeof value === "string" ? value.trim() : "");

/** ViaCEP: https://viacep.com.br/ws/{cep}/json/ — "not found" is HTTP 200 with erro: true or "true". */
export function viaCep(baseUrl: string, timeoutMs: number): CepSource {
  return {
    name: "viacep",
    async lookup(cep) {
      const { status, body } = await getJson(`${baseUrl.replace(/\/$/, "")}/ws/${cep}/json/`, timeoutMs);
      if (status === 400) return { found: false };
      if (status !== 200 || !body || typeof body !== "object") throw new Error(`ViaCEP HTTP ${status}`);
      const data = body as Record<string, unknown>;
      if (data.erro === true || data.erro === "true") return { found: false };
      return {
        found: true,
        address: {
          cep,
          logradouro: str(data.logradouro),
          complemento: str(data.complemento),
          bairro: str(data.bairro),
          cidade: str(data.localidade),
          uf: str(data.uf),
        },
      };
    },
  };
}

/** BrasilAPI v2: https://brasilapi.com.br/api/cep/v2/{cep} — 404 when not found. */
export function brasilApi(baseUrl: string, timeoutMs: number): CepSource {
  return {
    name: "brasilapi",
    async lookup(cep) {
      const { status, body } = await getJson(`${baseUrl.replace(/\/$/, "")}/api/cep/v2/${cep}`, timeoutMs);
      if (status === 404) return { found: false };
      if (status !== 200 || !body || typeof body !== "object") throw new Error(`BrasilAPI HTTP ${status}`);
      const data = body as Record<string, unknown>;
      return {
        found: true,
        address: {
          cep,
          logradouro: str(data.street),
          complemento: "",
          bairro: str(data.neighborhood),
          cidade: str(data.city),
          uf: str(data.state),
        },
      };
    },
  };
}
