import path from "node:path";
import { z } from "zod";

const booleanFromString = z.enum(["true", "false", "1", "0"]).transform((value) => value === "true" || value === "1");

/** "https://a, https://b" → both URLs; null when any item is not an http(s) URL or the list is empty. */
export function tsaUrlList(value: string): string[] | null {
  const items = value
    .split(/[\s,]+/)
    .map((item) => item.trim())
    .filter(Boolean);
  if (items.length === 0 || items.length > 5) return null;
  for (const item of items) {
    if (!URL.canParse(item)) return null;
    const { protocol } = new URL(item);
    if (protocol !== "http:" && protocol !== "https:") return null;
  }
  return items;
}

const LOOPBACK_HOST = /^(localhost|127\.\d+\.\d+\.\d+|\[::1\]|0\.0\.0\.0)$/i;

export const envSchema = z
  .object({
    NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
    PORT: z.coerce.number().int().min(0).max(65535).default(3000),
    HOST: z.string().min(1).default("0.0.0.0"),
    DATA_DIR: z.string().min(1).default("./data"),
    DATABASE_URL: z
      .string()
      .regex(/^postgres(ql)?:\/\//, "deve começar com postgres:// ou postgresql://")
      .optional(),
    PUBLIC_URL: z
      .url({ protocol: /^https?$/, error: "deve ser uma URL http(s), por exemplo https://consentir.exemplo.com.br" })
      .optional(),
    LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
    TRUST_PROXY: booleanFromString.default(false),
    /**
     * With TRUST_PROXY: the request header in which the proxy passes the client's TCP source port
     * (e.g. X-Client-Port from nginx's $remote_port). Without it, signatures made through the proxy
     * record no port: the socket's port would be the proxy's (src/server/lib/client-port.ts).
     */
    CLIENT_PORT_HEADER: z
      .string()
      .regex(/^[A-Za-z0-9-]{1,64}$/, "use o nome de um cabeçalho HTTP, por exemplo X-Client-Port")
      .optional(),
    VIACEP_URL: z.url().default("https://viacep.com.br"),
    BRASILAPI_URL: z.url().default("https://brasilapi.com.br"),
    CEP_TIMEOUT_MS: z.coerce.number().int().positive().default(4000),
    /** The clinic system's API (decision 016); tests point it at tests/fakes/feegow-server.ts. */
    FEEGOW_URL: z
      .url({ protocol: /^https?$/, error: "deve ser uma URL http(s)" })
      .default("https://api.feegow.com/v1/api"),
    FEEGOW_TIMEOUT_MS: z.coerce.number().int().positive().max(60_000).default(10_000),
    /** Absolute lifetime of a session, in days. */
    SESSION_DAYS: z.coerce.number().int().positive().max(90).default(30),
    /** A session unused for this long (hours) ends (decision 011). */
    SESSION_IDLE_HOURS: z.coerce
      .number()
      .positive()
      .max(24 * 90)
      .default(12),
    RATE_LIMIT_AUTH_PER_MINUTE: z.coerce.number().int().positive().default(10),
    /** Requests per minute per IP (and per token) on the public signing routes. */
    RATE_LIMIT_PUBLIC_PER_MINUTE: z.coerce.number().int().positive().default(60),
    /** Requests per minute per API key, over every /api route (decision 058). */
    RATE_LIMIT_API_KEY_PER_MINUTE: z.coerce.number().int().positive().default(300),
    /** Key material for secrets at rest (tokens, certificates); default: DATA_DIR/secret.key, made once. */
    APP_SECRET: z.string().min(32, "use pelo menos 32 caracteres").optional(),
    /** smtp(s)://user:pass@host:port — without it e-mail stays in the outbox (visible at /dev/emails). */
    SMTP_URL: z
      .string()
      .regex(/^smtps?:\/\//, "deve começar com smtp:// ou smtps://")
      .optional(),
    SMTP_FROM: z.string().min(3).default("Consentir <nao-responda@consentir.local>"),
    /** Serve the OpenAPI docs (/api/docs, /api/docs/json); default: on except with NODE_ENV=production. */
    API_DOCS: booleanFromString.optional(),
    /** SMS for signing codes (Zenvia API v2, decision 018): base URL, API token and sender id. */
    SMS_PROVIDER_URL: z.url().default("https://api.zenvia.com"),
    SMS_API_TOKEN: z.string().min(8, "use o token da API do provedor de SMS").optional(),
    SMS_FROM: z.string().min(1).default("consentir"),
    SMS_TIMEOUT_MS: z.coerce.number().int().positive().default(10_000),
    /**
     * WhatsApp Business Cloud API (Meta Graph API, decision 059): the link, the code and the
     * reminders go as approved template messages from WHATSAPP_PHONE_NUMBER_ID with a Bearer
     * token; without both, WhatsApp stays the wa.me link staff open by hand. The webhook checks
     * X-Hub-Signature-256 with WHATSAPP_APP_SECRET and answers Meta's verification with
     * WHATSAPP_VERIFY_TOKEN.
     */
    WHATSAPP_API_URL: z
      .url({ protocol: /^https?$/, error: "deve ser uma URL http(s)" })
      .default("https://graph.facebook.com"),
    WHATSAPP_API_VERSION: z
      .string()
      .regex(/^v\d+\.\d+$/, "use a versão da Graph API, por exemplo v21.0")
      .default("v21.0"),
    WHATSAPP_PHONE_NUMBER_ID: z
      .string()
      .regex(/^\d{5,20}$/, "use o id numérico do número (phone number id)")
      .optional(),
    WHATSAPP_ACCESS_TOKEN: z.string().min(16, "use o token de acesso do WhatsApp Business").optional(),
    WHATSAPP_APP_SECRET: z.string().min(8, "use a chave secreta do app (App Secret)").optional(),
    WHATSAPP_VERIFY_TOKEN: z.string().min(8, "use um token de verificação com ao menos 8 caracteres").optional(),
    WHATSAPP_TEMPLATE_LINK: z.string().min(1).default("consentir_link_assinatura"),
    WHATSAPP_TEMPLATE_CODE: z.string().min(1).default("consentir_codigo"),
    WHATSAPP_TEMPLATE_REMINDER: z.string().min(1).default("consentir_lembrete"),
    WHATSAPP_TEMPLATE_SIGNED_COPY: z.string().min(1).default("consentir_via_assinada"),
    WHATSAPP_TEMPLATE_CHOICE_RECORD: z.string().min(1).default("consentir_registro"),
    WHATSAPP_TEMPLATE_LANGUAGE: z.string().min(2).default("pt_BR"),
    WHATSAPP_TIMEOUT_MS: z.coerce.number().int().positive().max(60_000).default(10_000),
    /**
     * Webhooks (decision 062): deliveries to this machine or a private network (loopback,
     * link-local, private, CGNAT; every address the host resolves to) are refused unless this is
     * true. Each delivery waits at most WEBHOOK_TIMEOUT_MS for the whole answer.
     */
    WEBHOOKS_ALLOW_PRIVATE: booleanFromString.default(false),
    WEBHOOK_TIMEOUT_MS: z.coerce.number().int().positive().max(60_000).default(10_000),
    /**
     * RFC 3161 time-stamp authorities for the signatures' trusted time (decisions 020, 060): one
     * URL or several separated by commas, tried in order when one fails; `none` seals without a
     * time-stamp, which the PDF then says. Required with NODE_ENV=production. Optional HTTP
     * basic-auth credentials, and whether the authority is an ICP-Brasil accredited ACT (then an
     * AD-RB signature becomes AD-RT).
     */
    TSA_URL: z
      .string()
      .trim()
      .refine((value) => value === "none" || tsaUrlList(value) !== null, {
        error: "use a URL http(s) da autoridade de carimbo do tempo (várias separadas por vírgula) ou none",
      })
      .optional(),
    TSA_USERNAME: z.string().min(1).optional(),
    TSA_PASSWORD: z.string().min(1).optional(),
    TSA_TIMEOUT_MS: z.coerce.number().int().positive().max(60_000).default(10_000),
    TSA_ICP_BRASIL: booleanFromString.default(false),
    /**
     * Archive re-time-stamping (decision 064): a sealed PDF gets a new DSS and document time-stamp
     * when its latest time-stamp's authority certificate expires within this many days.
     */
    RETIMESTAMP_MARGIN_DAYS: z.coerce.number().int().min(1).max(3650).default(365),
    /**
     * The clinic's audit trail anchored by a time-stamp (decision 072): a clinic's chain head gets a
     * new token when it moved and its last token is at least this many minutes old.
     */
    AUDIT_TIMESTAMP_EVERY_MINUTES: z.coerce.number().int().min(1).max(1440).default(60),
    /**
     * PEM file with the official ICP-Brasil root certificates (ITI's AC Raiz v5, v10, v11…), downloaded
     * by the operator: with it, the registry and the certificates page say when a chain ends at an
     * official root; without it they say the root was not checked (decision 041).
     */
    ICP_BRASIL_ROOTS_FILE: z.string().min(1).optional(),
    /**
     * Look certificates up in their authorities' revocation lists (LCR), and first at the OCSP
     * responder a certificate names (decision 082), at upload and before each sealing (decision 048) — only chains that end at one of the official roots above, so nothing is
     * fetched without ICP_BRASIL_ROOTS_FILE. Each request waits at most CRL_TIMEOUT_MS.
     */
    CRL_CHECK: booleanFromString.default(true),
    CRL_TIMEOUT_MS: z.coerce.number().int().positive().max(60_000).default(5_000),
    /**
     * Revocation lists, OCSP and time-stamp authorities on this machine or a private network
     * (loopback, link-local, private, CGNAT), redirects included, are refused unless this is true
     * (decision 053): an operator whose authority is internal, and the tests' local fakes.
     */
    OUTBOUND_ALLOW_PRIVATE_NETWORK: booleanFromString.default(false),
    /**
     * Admission control for the public routes (decision 040): requests this process does at once,
     * how many more may wait for a place and for how long (ms); past that, 503 PUBLIC_BUSY with
     * Retry-After, and the signing page tries again by itself. PUBLIC_MAX_IN_FLIGHT=0 turns it off.
     */
    PUBLIC_MAX_IN_FLIGHT: z.coerce.number().int().min(0).max(10_000).default(8),
    PUBLIC_MAX_WAITING: z.coerce.number().int().min(0).max(100_000).default(32),
    PUBLIC_MAX_WAIT_MS: z.coerce.number().int().min(0).max(60_000).default(500),
    /** Run the background worker (jobs, e-mail) in this process. */
    WORKER: booleanFromString.default(true),
    /**
     * How long a taken job stays reserved (ms) before another worker may take it again; the worker
     * running it renews it every quarter of that (decision 013). A job whose process died is taken
     * again after about this long. Default 20 s; tests of crash recovery shorten it.
     */
    JOB_LEASE_MS: z.coerce.number().int().min(1000).max(600_000).default(20_000),
    /** Background jobs one worker runs at once (each takes its own with SKIP LOCKED). */
    JOB_CONCURRENCY: z.coerce.number().int().min(1).max(32).default(4),
    /**
     * Backups (decision 027): the worker writes one a day into BACKUP_DIR (none without
     * it) at BACKUP_TIME (HH:MM, São Paulo), keeping 7 daily, 4 weekly and 12 monthly. BACKUP_KEY
     * encrypts backups instead of the instance key (APP_SECRET / DATA_DIR/secret.key).
     */
    BACKUP_DIR: z.string().min(1).optional(),
    BACKUP_TIME: z
      .string()
      .regex(/^([01]\d|2[0-3]):[0-5]\d$/, "use HH:MM (24 h, horário de São Paulo), por exemplo 03:00")
      .default("03:00"),
    BACKUP_KEY: z.string().min(32, "use pelo menos 32 caracteres").optional(),
    /** With S3_BUCKET, the daily backup (and `npm run backup -- s3`) go to the bucket, under backups/ (decision 030). */
    BACKUP_S3: booleanFromString.default(false),
    /**
     * Object storage (decision 030): with S3_BUCKET, stored files go to that S3-compatible
     * bucket instead of DATA_DIR/files. S3_ENDPOINT for a service other than AWS; credentials both or
     * neither (then the SDK's usual chain: instance role, AWS_* variables); path-style for MinIO and
     * the like. Every write asks for server-side encryption (AES256) unless S3_SERVER_SIDE_ENCRYPTION=false.
     */
    S3_BUCKET: z
      .string()
      .regex(
        /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/,
        "nome de bucket inválido: de 3 a 63 letras minúsculas, números, pontos ou hífens",
      )
      .optional(),
    S3_ENDPOINT: z
      .url({
        protocol: /^https?$/,
        error: "deve ser uma URL http(s), por exemplo https://s3.sa-east-1.amazonaws.com ou http://127.0.0.1:9000",
      })
      .optional(),
    S3_REGION: z
      .string()
      .regex(/^[a-z0-9-]{2,32}$/, "use o código da região, por exemplo sa-east-1 (ou auto, se o serviço pedir)")
      .default("us-east-1"),
    S3_ACCESS_KEY_ID: z.string().min(1).optional(),
    S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
    S3_FORCE_PATH_STYLE: booleanFromString.default(false),
    S3_SERVER_SIDE_ENCRYPTION: booleanFromString.default(true),
  })
  .superRefine((env, ctx) => {
    // Object storage and where backups go (decision 030).
    const needsBucket = (["S3_ENDPOINT", "S3_ACCESS_KEY_ID", "S3_SECRET_ACCESS_KEY"] as const).filter(
      (name) => env[name] !== undefined,
    );
    if (!env.S3_BUCKET) {
      for (const name of needsBucket)
        ctx.addIssue({
          code: "custom",
          path: [name],
          message: "não tem efeito sem S3_BUCKET (o nome do bucket onde os arquivos ficam)",
        });
      if (env.BACKUP_S3)
        ctx.addIssue({
          code: "custom",
          path: ["BACKUP_S3"],
          message: "precisa de S3_BUCKET (e das demais variáveis S3_*) para gravar os backups no bucket",
        });
    }
    if ((env.S3_ACCESS_KEY_ID === undefined) !== (env.S3_SECRET_ACCESS_KEY === undefined)) {
      const missing = env.S3_ACCESS_KEY_ID === undefined ? "S3_ACCESS_KEY_ID" : "S3_SECRET_ACCESS_KEY";
      ctx.addIssue({
        code: "custom",
        path: [missing],
        message: "defina S3_ACCESS_KEY_ID e S3_SECRET_ACCESS_KEY juntas (ou nenhuma, para usar o papel da máquina)",
      });
    }
    if (env.BACKUP_S3 && env.BACKUP_DIR) {
      ctx.addIssue({
        code: "custom",
        path: ["BACKUP_DIR"],
        message:
          "escolha um destino para o backup diário: BACKUP_DIR (uma pasta) ou BACKUP_S3=true (o bucket), não os dois",
      });
    }
  })
  .superRefine((env, ctx) => {
    // Links in e-mails, signing pages and sealed PDFs come only from here, never from a request's
    // Host header: a published server must say its own address.
    if (env.NODE_ENV !== "production") return;
    if (!env.TSA_URL) {
      ctx.addIssue({
        code: "custom",
        path: ["TSA_URL"],
        message:
          "obrigatória com NODE_ENV=production: a URL da autoridade de carimbo do tempo (RFC 3161; várias separadas por vírgula, tentadas em ordem), ou none para selar sem carimbo do tempo (o PDF dirá isso)",
      });
    }
    if (!env.PUBLIC_URL) {
      ctx.addIssue({
        code: "custom",
        path: ["PUBLIC_URL"],
        message:
          "obrigatória com NODE_ENV=production (é a origem dos links de e-mail, de assinatura e do QR dos PDFs selados), por exemplo https://consentir.exemplo.com.br",
      });
    } else if (LOOPBACK_HOST.test(new URL(env.PUBLIC_URL).hostname)) {
      ctx.addIssue({
        code: "custom",
        path: ["PUBLIC_URL"],
        message:
          "não pode apontar para esta máquina (localhost) com NODE_ENV=production: os links enviados aos pacientes não abririam",
      });
    }
  });

export type Env = z.infer<typeof envSchema>;

export class EnvError extends Error {
  constructor(public readonly problems: string[]) {
    super(`Configuração inválida:\n${problems.map((p) => `  - ${p}`).join("\n")}`);
    this.name = "EnvError";
  }
}

/** Validates the environment once at start-up; names every bad variable. */
export function loadEnv(source: NodeJS.ProcessEnv = process.env): Env {
  const input = Object.fromEntries(Object.entries(source).filter(([, value]) => value !== undefined && value !== ""));
  const result = envSchema.safeParse(input);
  if (!result.success) {
    throw new EnvError(result.error.issues.map((issue) => `${issue.path.join(".") || "(raiz)"}: ${issue.message}`));
  }
  return result.data;
}

export function resolveDataDir(env: Pick<Env, "DATA_DIR">): string {
  return path.resolve(env.DATA_DIR);
}
