import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/** Addresses the fake postal services know, by CEP digits. */
export const FAKE_ADDRESSES: Record<string, { logradouro: string; bairro: string; cidade: string; uf: string }> = {
  "01310100": { logradouro: "Avenida Paulista", bairro: "Bela Vista", cidade: "São Paulo", uf: "SP" },
  "20040002": { logradouro: "Rua da Assembleia", bairro: "Centro", cidade: "Rio de Janeiro", uf: "RJ" },
  "30130010": { logradouro: "Praça Sete de Setembro", bairro: "Centro", cidade: "Belo Horizonte", uf: "MG" },
};

export interface FakeCepServer {
  url: string;
  /** Requests received, as paths. */
  requests: string[];
  /** When true, every request answers HTTP 500. */
  failing: boolean;
  close(): Promise<void>;
}

/**
 * A local stand-in for ViaCEP (GET /ws/{cep}/json/, not found = 200 {"erro": "true"}) and
 * BrasilAPI v2 (GET /api/cep/v2/{cep}, not found = 404), speaking their documented shapes.
 */
export async function startFakeCepServer(): Promise<FakeCepServer> {
  const state: FakeCepServer = {
    url: "",
    requests: [],
    failing: false,
    close: async () => {},
  };
  const server: Server = createServer((req, res) => {
    const url = req.url ?? "/";
    state.requests.push(url);
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { "content-type": "application/json; charset=utf-8" });
      res.end(JSON.stringify(body));
    };
    if (state.failing) return send(500, { message: "internal error" });

    const viacep = /^\/ws\/([^/]+)\/json\/?$/.exec(url);
    if (viacep) {
      const cep = viacep[1] ?? "";
      if (!/^\d{8}$/.test(cep)) return send(400, { erro: true });
      const found = FAKE_ADDRESSES[cep];
      if (!found) return send(200, { erro: "true" });
      return send(200, {
        cep: `${cep.slice(0, 5)}-${cep.slice(5)}`,
        logradouro: found.logradouro,
        complemento: "",
        unidade: "",
        bairro: found.bairro,
        localidade: found.cidade,
        uf: found.uf,
        estado: "",
        regiao: "",
        ibge: "3550308",
        gia: "",
        ddd: "11",
        siafi: "7107",
      });
    }
    const brasil = /^\/api\/cep\/v2\/([^/]+)$/.exec(url);
    if (brasil) {
      const cep = brasil[1] ?? "";
      const found = FAKE_ADDRESSES[cep];
      if (!found) {
        return send(404, {
          name: "CepPromiseError",
          message: "Todos os serviços de CEP retornaram erro.",
          type: "service_error",
          errors: [],
        });
      }
      return send(200, {
        cep,
        state: found.uf,
        city: found.cidade,
        neighborhood: found.bairro,
        street: found.logradouro,
        service: "correios",
        location: { type: "Point", coordinates: {} },
      });
    }
    return send(404, { message: "not found" });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  state.url = `http://127.0.0.1:${port}`;
  state.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return state;
}
