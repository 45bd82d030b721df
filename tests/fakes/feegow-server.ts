import { createHash } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";

/** A patient the fake Feegow knows, in Feegow's own shape (GET /patient/search content). */
export interface FakeFeegowPatient {
  id: number;
  nome: string;
  nascimento: string;
  sexo: string;
  endereco: string;
  numero: string;
  complemento: string;
  bairro: string;
  cidade: string;
  estado: string;
  cep: string;
  telefones: string[];
  celulares: string[];
  email: string[];
  documentos: { rg: string; cpf: string };
}

/** The token the fake accepts, the one it knows but has deactivated (403); any other is 401. */
export const FAKE_FEEGOW_TOKEN = "fgw_live_9f8e7d6c5b4a39281706f5e4d3c21234";
export const FAKE_FEEGOW_INACTIVE_TOKEN = "fgw_live_inativo_00000000000000000000009999";

export const FAKE_FEEGOW_PATIENTS: FakeFeegowPatient[] = [
  {
    id: 4817,
    nome: "Helena Duarte Vasconcelos",
    nascimento: "23-09-1979",
    sexo: "Feminino",
    endereco: "Avenida Paulista",
    numero: "900",
    complemento: "Apto 71",
    bairro: "Bela Vista",
    cidade: "São Paulo",
    estado: "SP",
    cep: "01310-100",
    telefones: ["(11) 3251-4400"],
    celulares: ["(11) 99876-5432"],
    email: ["helena.vasconcelos@example.com"],
    documentos: { rg: "12.345.678-9", cpf: "529.982.247-25" },
  },
];

/** GET /professional/list?ativo=1 content (Feegow's shape: especialidades as objects, one RQE). */
export const FAKE_FEEGOW_PROFESSIONALS: Record<string, unknown>[] = [
  {
    profissional_id: 12,
    nome: "Dra. Marina Costa Lima",
    tratamento: "Dra.",
    conselho: "CRO",
    documento_conselho: "54321",
    uf_conselho: "RJ",
    email: "marina@example.com",
    cpf: "",
    rqe: "",
    especialidades: [{ especialidade_id: 77, nome_especialidade: "Ortodontia", CBOS: "223268" }],
    ativo: true,
  },
  {
    profissional_id: 15,
    nome: "Dr. Paulo Azevedo",
    tratamento: "Dr.",
    conselho: "CRM",
    documento_conselho: "123456",
    uf_conselho: "SP",
    email: "paulo@example.com",
    cpf: "",
    rqe: "4455",
    especialidades: [{ especialidade_id: 31, nome_especialidade: "Dermatologia", CBOS: "225135" }],
    ativo: true,
  },
];

/** GET /procedures/list content (valor in centavos). */
export const FAKE_FEEGOW_PROCEDURES: Record<string, unknown>[] = [
  { procedimento_id: 301, nome: "Toxina botulínica", tipo_procedimento: 2, valor: 120000 },
  { procedimento_id: 302, nome: "Preenchimento labial", tipo_procedimento: 2, valor: 185050 },
];

/** An upload the fake accepted (stored in the patient's record). */
export interface FakeFeegowUpload {
  paciente_id: unknown;
  arquivo_descricao: unknown;
  bytes: number;
  /** SHA-256 of the decoded file. */
  sha256: string;
  /** paciente_id + ":" + sha256: the same file in the same record twice is a duplicate. */
  key: string;
}

/**
 * How the next answers go wrong: as documented (401 missing/unknown token, 403 inactive token,
 * 409/422 with a content/message body, success:false on HTTP 200), or as networks do (an answer
 * slower than any timeout, a connection dropped before answering, a body that is not JSON, 500).
 */
export type FakeFeegowMode =
  | "normal"
  | "unauthorized"
  | "inactive"
  | "conflict"
  | "unprocessable"
  | "success_false"
  | "slow"
  | "drop"
  | "not_json"
  | "server_error"
  | "wrong_shape";

export interface FakeFeegowRequest {
  method: string;
  /** Path after the base (/v1/api), with the query string. */
  path: string;
  token: string | undefined;
  body: unknown;
}

export interface FakeFeegowServer {
  /** The base to put in FEEGOW_URL (…/v1/api, like the real one). */
  url: string;
  requests: FakeFeegowRequest[];
  mode: FakeFeegowMode;
  /** How long "slow" waits before answering. */
  slowMs: number;
  /** Only requests whose path (after /v1/api) starts with this go wrong (null: all of them). */
  modeOnly: string | null;
  /** Every normal answer waits this long (the bench's 200 ms Feegow). */
  latencyMs: number;
  patients: FakeFeegowPatient[];
  professionals: Record<string, unknown>[];
  procedures: Record<string, unknown>[];
  /** Uploads accepted, in order. */
  uploads: FakeFeegowUpload[];
  /** Upload requests that arrived, accepted or not (held, dropped, refused). */
  uploadArrivals: number;
  /**
   * Hold every upload's answer until releaseHeld() or the client goes away. `holdCommits`: the
   * held upload is stored at once (a Feegow that saved the file but whose answer was lost);
   * otherwise it is stored only if the answer is delivered.
   */
  holdUploads: boolean;
  holdCommits: boolean;
  /** Uploads waiting for their answer now. */
  held(): number;
  releaseHeld(): void;
  /** How many accepted uploads each key (patient + file) has. */
  acceptedByKey(): Map<string, number>;
  reset(): void;
  close(): Promise<void>;
}

const BASE = "/v1/api";

/** A local stand-in for the Feegow API (DESIGN.md §5), speaking its documented shapes. */
export async function startFakeFeegowServer(): Promise<FakeFeegowServer> {
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  /** Answers of held uploads: calling one delivers it. */
  const heldAnswers = new Set<() => void>();
  const state: FakeFeegowServer = {
    url: "",
    requests: [],
    mode: "normal",
    slowMs: 3000,
    modeOnly: null,
    latencyMs: 0,
    patients: FAKE_FEEGOW_PATIENTS.map((p) => structuredClone(p)),
    professionals: FAKE_FEEGOW_PROFESSIONALS.map((p) => structuredClone(p)),
    procedures: FAKE_FEEGOW_PROCEDURES.map((p) => structuredClone(p)),
    uploads: [],
    uploadArrivals: 0,
    holdUploads: false,
    holdCommits: false,
    held: () => heldAnswers.size,
    releaseHeld() {
      for (const answer of [...heldAnswers]) answer();
    },
    acceptedByKey() {
      const counts = new Map<string, number>();
      for (const upload of state.uploads) counts.set(upload.key, (counts.get(upload.key) ?? 0) + 1);
      return counts;
    },
    reset() {
      state.requests.length = 0;
      state.uploads.length = 0;
      state.uploadArrivals = 0;
      state.mode = "normal";
      state.modeOnly = null;
      state.slowMs = 3000;
      state.latencyMs = 0;
      state.holdUploads = false;
      state.holdCommits = false;
      state.patients = FAKE_FEEGOW_PATIENTS.map((p) => structuredClone(p));
      state.professionals = FAKE_FEEGOW_PROFESSIONALS.map((p) => structuredClone(p));
      state.procedures = FAKE_FEEGOW_PROCEDURES.map((p) => structuredClone(p));
    },
    close: async () => {},
  };

  const handle = (req: IncomingMessage, res: ServerResponse, body: unknown) => {
    const send = (status: number, payload: unknown) => {
      res.writeHead(status, { "content-type": "application/json; charset=utf-8" });
      res.end(JSON.stringify(payload));
    };
    const url = new URL(req.url ?? "/", "http://fake");
    const token = req.headers["x-access-token"];
    const tokenText = Array.isArray(token) ? token[0] : token;
    const requestPath = url.pathname.slice(BASE.length);
    state.requests.push({ method: req.method ?? "GET", path: `${requestPath}${url.search}`, token: tokenText, body });
    if (req.method === "POST" && requestPath === "/patient/upload-base64") state.uploadArrivals += 1;
    const mode = state.modeOnly === null || requestPath.startsWith(state.modeOnly) ? state.mode : "normal";

    switch (mode) {
      case "drop":
        req.socket.destroy();
        return;
      case "slow": {
        const timer = setTimeout(() => {
          timers.delete(timer);
          if (!res.writableEnded && !req.socket.destroyed) send(200, { success: true, content: [] });
        }, state.slowMs);
        timers.add(timer);
        return;
      }
      case "not_json":
        res.writeHead(200, { "content-type": "text/html" });
        res.end("<html><body>Manutenção programada</body></html>");
        return;
      case "server_error":
        return send(500, { success: false, message: "Internal Server Error" });
      case "unauthorized":
        return send(401, { success: false, content: "Token não informado" });
      case "inactive":
        return send(403, { success: false, content: "Token inativo" });
      case "conflict":
        return send(409, { success: false, content: "Registro em conflito com outro já existente" });
      case "unprocessable":
        return send(422, { success: false, message: "Parâmetro paciente_cpf inválido" });
      case "success_false":
        return send(200, { success: false, content: "Erro interno ao processar a solicitação" });
      case "wrong_shape":
        return send(200, { success: true, content: { inesperado: true } });
      default:
        break;
    }

    if (!url.pathname.startsWith(BASE)) return send(404, { success: false, content: "Rota não encontrada" });
    if (!tokenText) return send(401, { success: false, content: "Token não informado" });
    if (tokenText === FAKE_FEEGOW_INACTIVE_TOKEN) return send(403, { success: false, content: "Token inativo" });
    if (tokenText !== FAKE_FEEGOW_TOKEN) return send(401, { success: false, content: "Token inválido" });

    const path = url.pathname.slice(BASE.length);
    const digits = (value: string | null) => (value ?? "").replace(/\D/g, "");
    const byCpf = (cpf: string) => state.patients.filter((p) => digits(p.documentos.cpf) === cpf);

    if (req.method === "GET" && path === "/professional/list") {
      return send(200, { success: true, content: state.professionals });
    }
    if (req.method === "GET" && path === "/procedures/list") {
      return send(200, { success: true, content: state.procedures });
    }
    if (req.method === "GET" && path === "/patient/list") {
      const cpf = digits(url.searchParams.get("cpf"));
      return send(200, {
        success: true,
        content: byCpf(cpf).map((p) => ({ patient_id: p.id, nome: p.nome, nascimento: p.nascimento })),
      });
    }
    if (req.method === "GET" && path === "/patient/search") {
      const cpf = digits(url.searchParams.get("paciente_cpf"));
      const patient = byCpf(cpf)[0];
      if (!patient) return send(409, { success: false, content: "Paciente não encontrado" });
      return send(200, { success: true, content: patient });
    }
    if (req.method === "POST" && path === "/patient/upload-base64") {
      const input = (body ?? {}) as Record<string, unknown>;
      const file = typeof input.base64_file === "string" ? input.base64_file : "";
      const match = /^data:application\/pdf;base64,(.+)$/.exec(file);
      if (!input.paciente_id || !match)
        return send(422, { success: false, message: "paciente_id e base64_file são obrigatórios" });
      if (!state.patients.some((p) => p.id === Number(input.paciente_id)))
        return send(409, { success: false, content: "Paciente não encontrado" });
      const bytes = Buffer.from(match[1] ?? "", "base64");
      const sha256 = createHash("sha256").update(bytes).digest("hex");
      const upload: FakeFeegowUpload = {
        paciente_id: input.paciente_id,
        arquivo_descricao: input.arquivo_descricao,
        bytes: bytes.length,
        sha256,
        key: `${String(input.paciente_id)}:${sha256}`,
      };
      const accept = () => {
        state.uploads.push(upload);
        send(200, { success: true, content: { arquivo_id: state.uploads.length } });
      };
      if (!state.holdUploads) return accept();
      if (state.holdCommits) state.uploads.push(upload);
      const answer = () => {
        heldAnswers.delete(answer);
        if (res.writableEnded || req.socket.destroyed) return;
        if (state.holdCommits) send(200, { success: true, content: { arquivo_id: state.uploads.length } });
        else accept();
      };
      heldAnswers.add(answer);
      // The client went away (killed, timed out): nothing is answered, and nothing stored unless committed.
      res.on("close", () => heldAnswers.delete(answer));
      return;
    }
    return send(404, { success: false, content: "Rota não encontrada" });
  };

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      let body: unknown = null;
      const raw = Buffer.concat(chunks).toString("utf8");
      try {
        body = raw ? JSON.parse(raw) : null;
      } catch {
        body = raw;
      }
      if (state.latencyMs > 0) {
        const timer = setTimeout(() => {
          timers.delete(timer);
          if (!req.socket.destroyed) handle(req, res, body);
        }, state.latencyMs);
        timers.add(timer);
      } else {
        handle(req, res, body);
      }
    });
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  state.url = `http://127.0.0.1:${port}${BASE}`;
  state.close = () =>
    new Promise<void>((resolve) => {
      for (const timer of timers) clearTimeout(timer);
      for (const socket of sockets) socket.destroy();
      server.close(() => resolve());
    });
  return state;
}
