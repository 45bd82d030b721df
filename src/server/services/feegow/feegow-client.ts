import { z } from "zod";

/**
 * The clinic system's API (DESIGN.md §5, decision 016): base FEEGOW_URL (https://api.feegow.com/v1/api),
 * the clinic's token in the `x-access-token` header, JSON answers `{ success, content }`. Only the
 * server calls it, through this client; tests run it against tests/fakes/feegow-server.ts.
 *
 * Every failure becomes a FeegowError whose message says what happened in pt-BR, never the token.
 */

export type FeegowFailure =
  /** 401: no token, or one Feegow does not know. */
  | "token_invalido"
  /** 403: a token Feegow has deactivated. */
  | "token_inativo"
  /** 409/422: Feegow refused the request, with its reason in `content`/`message`. */
  | "recusado"
  /** HTTP 200 (or any status) with `success` other than true. */
  | "sem_sucesso"
  /** Any other HTTP status (404, 5xx…). */
  | "http"
  /** No answer within the time limit. */
  | "tempo_esgotado"
  /** Connection refused, dropped or reset; DNS failure. */
  | "sem_conexao"
  /** An answer that is not JSON or not the documented shape. */
  | "resposta_invalida";

export class FeegowError extends Error {
  constructor(
    readonly failure: FeegowFailure,
    message: string,
    /** HTTP status Feegow answered, when it answered. */
    readonly httpStatus?: number,
  ) {
    super(message);
    this.name = "FeegowError";
  }
}

const MAX_REASON = 200;

/** Feegow's own words for a failure (content or message), as plain one-line text of bounded length. */
function reasonOf(body: unknown): string | null {
  if (!body || typeof body !== "object") return null;
  const record = body as Record<string, unknown>;
  for (const key of ["content", "message", "error", "mensagem"]) {
    const value = record[key];
    if (typeof value === "string" && value.trim()) {
      const clean = Array.from(
        value
          .replace(/\p{Cc}+/gu, " ")
          .replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, "")
          .replace(/\s+/g, " ")
          .trim(),
      );
      return clean.length > MAX_REASON ? `${clean.slice(0, MAX_REASON - 1).join("")}…` : clean.join("");
    }
  }
  return null;
}

function withReason(base: string, reason: string | null): string {
  return reason ? `${base}: ${reason}` : `${base}.`;
}

// --- documented shapes (only the fields we use are required; the rest passes through) ---------

const optionalText = z
  .union([z.string(), z.number()])
  .nullish()
  .transform((value) => (value === null || value === undefined ? null : String(value).trim() || null))
  .catch(null);
const textList = z
  .array(z.unknown())
  .nullish()
  .transform((values) =>
    (values ?? [])
      .filter((v): v is string | number => typeof v === "string" || typeof v === "number")
      .map((v) => String(v).trim())
      .filter(Boolean),
  )
  .catch([]);
const positiveId = z.coerce.number().int().positive();

/** GET /patient/list?cpf= → content: [{ patient_id, nome, … }]. */
const patientListItem = z.looseObject({ patient_id: positiveId, nome: optionalText });

/** GET /patient/search?paciente_cpf= → content: one patient. */
const patientDetail = z.looseObject({
  id: positiveId.nullish().catch(null),
  nome: z.string().trim().min(1),
  nascimento: optionalText,
  sexo: optionalText,
  endereco: optionalText,
  numero: optionalText,
  complemento: optionalText,
  bairro: optionalText,
  cidade: optionalText,
  estado: optionalText,
  cep: optionalText,
  telefones: textList,
  celulares: textList,
  email: z.preprocess((value) => (typeof value === "string" ? [value] : value), textList),
  documentos: z.looseObject({ cpf: optionalText }).nullish().catch(null),
});
export type FeegowPatientDetail = z.infer<typeof patientDetail>;

/** GET /professional/list?ativo=1 → content: [{ profissional_id, nome, … }]. */
const professionalItem = z.looseObject({
  profissional_id: positiveId,
  nome: z.string().trim().min(1),
  conselho: optionalText,
  documento_conselho: optionalText,
  uf_conselho: optionalText,
  email: optionalText,
  cpf: optionalText,
  rqe: optionalText,
  /** [{ nome_especialidade }] (older answers: especialidade or nome): the names, as text. */
  especialidades: z
    .array(z.unknown())
    .nullish()
    .transform((items) =>
      (items ?? [])
        .map((item) => {
          if (typeof item === "string") return item.trim();
          if (!item || typeof item !== "object") return "";
          const record = item as Record<string, unknown>;
          const name = record.nome_especialidade ?? record.especialidade ?? record.nome;
          return typeof name === "string" ? name.trim() : "";
        })
        .filter(Boolean),
    )
    .catch([]),
});
export type FeegowProfessional = z.infer<typeof professionalItem>;

/** GET /procedures/list → content: [{ procedimento_id, nome, valor (centavos), … }]. */
const procedureItem = z.looseObject({
  procedimento_id: positiveId,
  nome: z.string().trim().min(1),
  valor: z.coerce
    .number()
    .int()
    .nonnegative()
    .nullish()
    .transform((value) => value ?? null)
    .catch(null),
});
export type FeegowProcedure = z.infer<typeof procedureItem>;

export interface FeegowClientOptions {
  baseUrl: string;
  token: string;
  timeoutMs: number;
  /** For tests: another fetch. */
  fetch?: typeof fetch;
}

export interface FeegowClient {
  /** The cheap call "Testar conexão" makes: GET /professional/list?ativo=1. */
  listProfessionals(): Promise<FeegowProfessional[]>;
  /** GET /patient/list?cpf= → the Feegow ids of the patients with this CPF (usually zero or one). */
  findPatientIds(cpf: string): Promise<number[]>;
  /** GET /patient/search?paciente_cpf= → the patient's record. */
  getPatientByCpf(cpf: string): Promise<FeegowPatientDetail>;
  /** GET /procedures/list (valor in centavos). */
  listProcedures(): Promise<FeegowProcedure[]>;
  /** POST /patient/upload-base64: a PDF into the patient's record. */
  uploadPdf(input: { pacienteId: number; pdf: Uint8Array; descricao: string }): Promise<void>;
}

export function feegowClient(options: FeegowClientOptions): FeegowClient {
  const base = options.baseUrl.replace(/\/+$/, "");
  const doFetch = options.fetch ?? fetch;

  async function call(
    method: "GET" | "POST",
    path: string,
    query: Record<string, string> = {},
    body?: unknown,
  ): Promise<unknown> {
    const url = new URL(`${base}${path}`);
    for (const [key, value] of Object.entries(query)) url.searchParams.set(key, value);
    let status: number;
    let raw: string;
    try {
      const response = await doFetch(url, {
        method,
        headers: {
          accept: "application/json",
          "x-access-token": options.token,
          ...(body === undefined ? {} : { "content-type": "application/json" }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(options.timeoutMs),
        redirect: "error",
      });
      status = response.status;
      raw = await response.text();
    } catch (error) {
      const name = (error as { name?: string }).name;
      if (name === "TimeoutError" || name === "AbortError") {
        throw new FeegowError("tempo_esgotado", "O Feegow não respondeu a tempo. Tente novamente em instantes.");
      }
      throw new FeegowError(
        "sem_conexao",
        "Não foi possível conectar ao Feegow. Verifique a conexão e tente novamente em instantes.",
      );
    }

    let parsed: unknown;
    try {
      parsed = raw ? JSON.parse(raw) : undefined;
    } catch {
      parsed = undefined;
    }
    const reason = reasonOf(parsed);
    if (status === 401)
      throw new FeegowError("token_invalido", "Token do Feegow ausente ou inválido. Confira o token salvo.", status);
    if (status === 403)
      throw new FeegowError(
        "token_inativo",
        "Token do Feegow inativo. Gere um novo token no Feegow e salve-o aqui.",
        status,
      );
    if (status === 409 || status === 422)
      throw new FeegowError("recusado", withReason("O Feegow recusou a solicitação", reason), status);
    if (status < 200 || status >= 300)
      throw new FeegowError("http", withReason(`O Feegow respondeu com erro (HTTP ${status})`, reason), status);
    if (!parsed || typeof parsed !== "object")
      throw new FeegowError("resposta_invalida", "O Feegow enviou uma resposta inesperada.", status);
    if ((parsed as { success?: unknown }).success !== true) {
      throw new FeegowError("sem_sucesso", withReason("O Feegow respondeu com erro", reason), status);
    }
    return (parsed as { content?: unknown }).content;
  }

  function shape<T extends z.ZodType>(schema: T, content: unknown): z.output<T> {
    const result = schema.safeParse(content);
    if (!result.success) throw new FeegowError("resposta_invalida", "O Feegow enviou uma resposta inesperada.");
    return result.data;
  }

  return {
    async listProfessionals() {
      return shape(z.array(professionalItem), await call("GET", "/professional/list", { ativo: "1" }));
    },
    async findPatientIds(cpf) {
      const content = await call("GET", "/patient/list", { cpf });
      // An empty answer is "nobody with this CPF".
      if (content === null || content === undefined || content === "") return [];
      return shape(z.array(patientListItem), content).map((item) => item.patient_id);
    },
    async getPatientByCpf(cpf) {
      return shape(patientDetail, await call("GET", "/patient/search", { paciente_cpf: cpf }));
    },
    async listProcedures() {
      return shape(z.array(procedureItem), await call("GET", "/procedures/list"));
    },
    async uploadPdf({ pacienteId, pdf, descricao }) {
      await call(
        "POST",
        "/patient/upload-base64",
        {},
        {
          paciente_id: pacienteId,
          base64_file: `data:application/pdf;base64,${Buffer.from(pdf).toString("base64")}`,
          arquivo_descricao: descricao,
        },
      );
    },
  };
}
