import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  customType,
  date,
  foreignKey,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  unique,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import type { TemplateStructure } from "../shared/document-model/structure.js";
import { DOCUMENT_STATUSES } from "../shared/schemas/document.js";
import {
  FEEGOW_STATUSES,
  FEEGOW_UPLOAD_ORIGINS,
  FEEGOW_UPLOAD_STATUSES,
  type FeegowFeature,
} from "../shared/schemas/feegow.js";
import { SEXOS } from "../shared/schemas/patient.js";
import type { ARogo } from "../shared/schemas/a-rogo.js";

/** One specialty chosen by a professional (spec part 2 §3 profiles.especialidades). */
export interface EspecialidadeEscolhida {
  especialidade: string;
  areas_atuacao: string[];
  rqe?: string | null;
}

export interface TenantSettings {
  /** Signing options of the clinic: ask the patient for an e-mail one-time code before signing. */
  assinatura?: {
    codigo_email?: boolean;
    /** When the responsible professional signs (decision 050); "qualquer_ordem" when absent. */
    ordem_profissional?: string;
    /**
     * The responsible professional must confirm with the code e-mailed to their account (decision
     * 078); when absent, on exactly where e-mail really leaves the server (SMTP configured).
     */
    codigo_profissional?: boolean;
  };
  /** Days a new document stays open for signature (Configurações; spec part 2 §9: 7 by default). */
  documentos?: { validade_dias?: number };
  /** Automatic reminders of unsigned links (decision 059): on with 3 at most when absent. */
  lembretes?: { ativo?: boolean; maximo?: number };
  /** The sites that may show the signing page inside them (decision 071); none when absent. */
  incorporacao?: { origens?: string[] };
  // The clinic-system (Feegow) section lives in its own table, integracoes_feegow (decision 016).
}

const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => "bytea",
  fromDriver: (value) => Buffer.from(value),
});

const createdAt = () => timestamp("created_at", { withTimezone: true }).notNull().defaultNow();
const updatedAt = () => timestamp("updated_at", { withTimezone: true }).notNull().defaultNow();

export const tenants = pgTable("tenants", {
  id: uuid("id").primaryKey().defaultRandom(),
  tipo_perfil: text("tipo_perfil", { enum: ["estabelecimento", "profissional_independente"] }).notNull(),
  tipo_estabelecimento: text("tipo_estabelecimento", {
    enum: ["clinica", "consultorio_cnpj", "policlinica", "unidade_hospitalar"],
  }),
  nome: text("nome").notNull(),
  razao_social: text("razao_social"),
  nome_fantasia: text("nome_fantasia"),
  cnpj: text("cnpj"),
  cnes: text("cnes"),
  cep: text("cep"),
  estado: text("estado"),
  cidade: text("cidade"),
  bairro: text("bairro"),
  logradouro: text("logradouro"),
  numero: text("numero"),
  complemento: text("complemento"),
  telefone: text("telefone"),
  settings: jsonb("settings").$type<TenantSettings>().notNull().default({}),
  created_at: createdAt(),
  updated_at: updatedAt(),
});

export const profiles = pgTable(
  "profiles",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenant_id: uuid("tenant_id")
      .notNull()
      .references(() => tenants.id, { onDelete: "cascade" }),
    is_proprietario: boolean("is_proprietario").notNull().default(false),
    nome: text("nome").notNull(),
    email: text("email").notNull(),
    password_hash: text("password_hash").notNull(),
    cpf: text("cpf").notNull(),
    role: text("role", {
      enum: ["profissional", "admin", "atendente", "juridico", "auditor", "pro_saude", "saas_admin"],
    }).notNull(),
    is_active: boolean("is_active").notNull().default(true),
    telefone: text("telefone"),
    crm: text("crm"),
    rqe: text("rqe"),
    especialidade: text("especialidade"),
    especialidades: jsonb("especialidades").$type<EspecialidadeEscolhida[]>().notNull().default([]),
    conselho_tipo: text("conselho_tipo", { enum: ["CRM", "COREN", "CREFITO", "CRO", "CRBM"] }),
    conselho_numero: text("conselho_numero"),
    conselho_uf: text("conselho_uf"),
    template_riscos: text("template_riscos"),
    template_beneficios: text("template_beneficios"),
    template_cuidados_pos: text("template_cuidados_pos"),
    template_valor_procedimento: text("template_valor_procedimento"),
    created_at: createdAt(),
    updated_at: updatedAt(),
  },
  (t) => [
    uniqueIndex("profiles_email_unique").on(sql`lower(${t.email})`),
    /** One person per CPF in a clinic (the owner adding a user twice). */
    uniqueIndex("profiles_tenant_cpf_unique").on(t.tenant_id, t.cpf),
    index("profiles_tenant_created_idx").on(t.tenant_id, t.created_at.desc().nullsFirst()),
  ],
);

export const sessions = pgTable(
  "sessions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenant_id: uuid("tenant_id")
      .notNull()
      .references(() => tenants.id, { onDelete: "cascade" }),
    profile_id: uuid("profile_id")
      .notNull()
      .references(() => profiles.id, { onDelete: "cascade" }),
    token_hash: text("token_hash").notNull(),
    ip_address: text("ip_address"),
    user_agent: text("user_agent"),
    created_at: createdAt(),
    last_seen_at: timestamp("last_seen_at", { withTimezone: true }).notNull().defaultNow(),
    expires_at: timestamp("expires_at", { withTimezone: true }).notNull(),
    /**
     * Front-desk signing: while set, this device is in the patient's hands — every
     * private route answers 423 until the staff member types their password again.
     */
    locked_at: timestamp("locked_at", { withTimezone: true }),
    /** The document being signed on this device while locked (its signature is recorded as presencial). */
    locked_contrato_id: uuid("locked_contrato_id"),
  },
  (t) => [
    uniqueIndex("sessions_token_hash_unique").on(t.token_hash),
    index("sessions_tenant_profile_idx").on(t.tenant_id, t.profile_id),
  ],
);

export const passwordResetTokens = pgTable(
  "password_reset_tokens",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenant_id: uuid("tenant_id")
      .notNull()
      .references(() => tenants.id, { onDelete: "cascade" }),
    profile_id: uuid("profile_id")
      .notNull()
      .references(() => profiles.id, { onDelete: "cascade" }),
    token_hash: text("token_hash").notNull(),
    created_at: createdAt(),
    expires_at: timestamp("expires_at", { withTimezone: true }).notNull(),
    used_at: timestamp("used_at", { withTimezone: true }),
  },
  (t) => [uniqueIndex("password_reset_tokens_hash_unique").on(t.token_hash)],
);

/**
 * Invitations sent by a clinic's owner (decision 017): the link lets the person choose
 * their own password. Only the token's SHA-256 is kept; a link works once, for 7 days.
 */
export const userInvitations = pgTable(
  "user_invitations",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenant_id: uuid("tenant_id")
      .notNull()
      .references(() => tenants.id, { onDelete: "cascade" }),
    profile_id: uuid("profile_id")
      .notNull()
      .references(() => profiles.id, { onDelete: "cascade" }),
    token_hash: text("token_hash").notNull(),
    created_by: uuid("created_by").references(() => profiles.id, { onDelete: "set null" }),
    created_at: createdAt(),
    expires_at: timestamp("expires_at", { withTimezone: true }).notNull(),
    used_at: timestamp("used_at", { withTimezone: true }),
  },
  (t) => [
    uniqueIndex("user_invitations_token_hash_unique").on(t.token_hash),
    index("user_invitations_tenant_profile_idx").on(t.tenant_id, t.profile_id),
  ],
);

/**
 * Failed sign-ins per e-mail address (decision 011): instance-wide, keyed by the SHA-256 of the
 * lower-cased address so unknown addresses are throttled exactly like real accounts without
 * keeping the addresses typed. Only the server's own role works this table.
 */
export const signInThrottles = pgTable(
  "sign_in_throttles",
  {
    email_hash: text("email_hash").primaryKey(),
    /** Consecutive failures (attempts made while locked are refused and not counted). */
    failures: integer("failures").notNull().default(0),
    last_failure_at: timestamp("last_failure_at", { withTimezone: true }).notNull().defaultNow(),
    /** Attempts are refused until then, even with the right password. */
    locked_until: timestamp("locked_until", { withTimezone: true }),
  },
  (t) => [index("sign_in_throttles_last_failure_idx").on(t.last_failure_at)],
);

/**
 * Request counters of the per-route rate limits: kept here, not in each process's
 * memory, so a limit holds across every web process. `key` is the SHA-256 of route + client key
 * (an IP or a session cookie: never stored as such). Rows past their window are pruned.
 */
export const rateLimitCounters = pgTable(
  "rate_limit_counters",
  {
    key: text("key").primaryKey(),
    hits: integer("hits").notNull(),
    window_ends_at: timestamp("window_ends_at", { withTimezone: true }).notNull(),
  },
  (t) => [index("rate_limit_counters_window_idx").on(t.window_ends_at)],
);

export const emailOutbox = pgTable(
  "email_outbox",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenant_id: uuid("tenant_id")
      .notNull()
      .references(() => tenants.id, { onDelete: "cascade" }),
    to_address: text("to_address").notNull(),
    subject: text("subject").notNull(),
    /** The text and HTML, sealed (services/email/outbox-body.ts): they carry links and codes that still work. */
    body_sealed: bytea("body_sealed"),
    /** Rows from before migration 0038 only, until the worker's sweep seals them; then null. */
    text_body: text("text_body"),
    html_body: text("html_body"),
    status: text("status", { enum: ["pending", "sent", "failed"] })
      .notNull()
      .default("pending"),
    attempts: jsonb("attempts").$type<{ at: string; error: string }[]>().notNull().default([]),
    /** Files (by id in `files`) attached to the message, e.g. the signed PDF. */
    attachments: jsonb("attachments")
      .$type<{ file_id: string; filename: string; content_type: string }[]>()
      .notNull()
      .default([]),
    /** When delivery may be tried (again): retries back off. */
    next_attempt_at: timestamp("next_attempt_at", { withTimezone: true }).notNull().defaultNow(),
    created_at: createdAt(),
    sent_at: timestamp("sent_at", { withTimezone: true }),
  },
  (t) => [
    index("email_outbox_tenant_created_idx").on(t.tenant_id, t.created_at.desc().nullsFirst()),
    index("email_outbox_due_idx")
      .on(t.next_attempt_at)
      .where(sql`${t.status} = 'pending'`),
    /** Avisos: the clinic's undelivered e-mails (decision 028). */
    index("email_outbox_tenant_failed_idx")
      .on(t.tenant_id, t.created_at.desc().nullsFirst())
      .where(sql`${t.status} = 'failed'`),
    /** The rows still kept in clear (from before 0038), for the sweep that seals them. */
    index("email_outbox_plain_idx")
      .on(t.id)
      .where(sql`${t.text_body} is not null`),
  ],
);

export const auditEvents = pgTable(
  "audit_events",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenant_id: uuid("tenant_id")
      .notNull()
      .references(() => tenants.id, { onDelete: "cascade" }),
    actor_profile_id: uuid("actor_profile_id"),
    action: text("action").notNull(),
    entity_type: text("entity_type").notNull(),
    entity_id: text("entity_id"),
    ip_address: text("ip_address"),
    user_agent: text("user_agent"),
    data: jsonb("data").$type<Record<string, unknown>>().notNull().default({}),
    created_at: createdAt(),
    /** Position in the tenant's chain (1, 2, 3…), the previous event's hash and this one's. */
    // Filled by the BEFORE INSERT trigger of migration 0014 (never by the application).
    seq: bigint("seq", { mode: "number" }).notNull().default(0),
    prev_hash: text("prev_hash").notNull().default(""),
    hash: text("hash").notNull().default(""),
  },
  (t) => [
    index("audit_events_tenant_created_idx").on(t.tenant_id, t.created_at.desc().nullsFirst()),
    uniqueIndex("audit_events_tenant_seq_unique").on(t.tenant_id, t.seq),
    index("audit_events_entity_idx").on(t.tenant_id, t.entity_type, t.entity_id),
  ],
);

/** The head of each tenant's audit chain: locked while an event is appended (one writer at a time). */
export const auditChainHeads = pgTable("audit_chain_heads", {
  tenant_id: uuid("tenant_id")
    .primaryKey()
    .references(() => tenants.id, { onDelete: "cascade" }),
  seq: bigint("seq", { mode: "number" }).notNull(),
  hash: text("hash").notNull(),
});

/**
 * Signed anchors of each tenant's audit chain: the server MACs (seq, hash) of the chain
 * head with a key derived from the instance key, which the database never holds. Anchors chain
 * through prev_mac. A database owner who rewrites events and recomputes every hash still cannot
 * match an anchor already written.
 */
export const auditAnchors = pgTable(
  "audit_anchors",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenant_id: uuid("tenant_id")
      .notNull()
      .references(() => tenants.id, { onDelete: "cascade" }),
    seq: bigint("seq", { mode: "number" }).notNull(),
    hash: text("hash").notNull(),
    prev_mac: text("prev_mac").notNull(),
    mac: text("mac").notNull(),
    created_at: createdAt(),
  },
  (t) => [uniqueIndex("audit_anchors_tenant_seq_unique").on(t.tenant_id, t.seq)],
);

/**
 * RFC 3161 time-stamp tokens over the head of a clinic's audit chain (decision 072, migration
 * 0056): the token's imprint is SHA-256 of the 32 bytes of `hash` (the event `seq`'s hash), so an
 * outsider can tell that every event up to `seq` existed at `gen_time`. Never updated.
 */
export const auditTrailTimestamps = pgTable(
  "audit_trail_timestamps",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenant_id: uuid("tenant_id")
      .notNull()
      .references(() => tenants.id, { onDelete: "cascade" }),
    seq: bigint("seq", { mode: "number" }).notNull(),
    event_id: uuid("event_id").notNull(),
    hash: text("hash").notNull(),
    token_der: bytea("token_der").notNull(),
    gen_time: timestamp("gen_time", { withTimezone: true }).notNull(),
    tsa: text("tsa").notNull(),
    tsa_certificate_sha256: text("tsa_certificate_sha256"),
    created_at: createdAt(),
  },
  (t) => [
    uniqueIndex("audit_trail_timestamps_tenant_seq_unique").on(t.tenant_id, t.seq),
    index("audit_trail_timestamps_tenant_created_idx").on(t.tenant_id, t.created_at),
  ],
);

/** Postal-code lookups, shared by every tenant (public data). */
export const cepCache = pgTable("cep_cache", {
  cep: text("cep").primaryKey(),
  found: boolean("found").notNull(),
  payload: jsonb("payload").$type<Record<string, string>>(),
  source: text("source").notNull(),
  fetched_at: timestamp("fetched_at", { withTimezone: true }).notNull().defaultNow(),
});

/** A clinic's patient (spec part 1 §3 pacientes, part 2 §3 guardian fields). */
export const pacientes = pgTable(
  "pacientes",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenant_id: uuid("tenant_id")
      .notNull()
      .references(() => tenants.id, { onDelete: "cascade" }),
    nome: text("nome").notNull(),
    cpf: text("cpf"),
    data_nascimento: date("data_nascimento", { mode: "string" }),
    sexo: text("sexo", { enum: SEXOS }),
    telefone: text("telefone"),
    email: text("email"),
    cep: text("cep"),
    logradouro: text("logradouro"),
    numero: text("numero"),
    complemento: text("complemento"),
    bairro: text("bairro"),
    cidade: text("cidade"),
    uf: text("uf"),
    responsavel_nome: text("responsavel_nome"),
    responsavel_cpf: text("responsavel_cpf"),
    /** The guardian's own contacts: where the guardian's link, code and copy go (decision 068). */
    responsavel_email: text("responsavel_email"),
    responsavel_telefone: text("responsavel_telefone"),
    /** The same person's id in the clinic system (Feegow), when the form was filled from it. */
    feegow_patient_id: integer("feegow_patient_id"),
    created_by: uuid("created_by").references(() => profiles.id, { onDelete: "set null" }),
    created_at: createdAt(),
    updated_at: updatedAt(),
    /** What the list search matches: name (accents folded), CPF and phone digits, e-mail. */
    busca: text("busca")
      .notNull()
      .generatedAlwaysAs(
        sql`app_search_text(coalesce(nome, '') || ' ' || coalesce(cpf, '') || ' ' || coalesce(telefone, '') || ' ' || coalesce(email, ''))`,
      ),
  },
  (t) => [
    unique("pacientes_tenant_id_unique").on(t.tenant_id, t.id),
    index("pacientes_tenant_created_idx").on(t.tenant_id, t.created_at.desc().nullsFirst(), t.id.desc().nullsFirst()),
    uniqueIndex("pacientes_tenant_cpf_unique")
      .on(t.tenant_id, t.cpf)
      .where(sql`${t.cpf} is not null`),
    index("pacientes_busca_trgm_idx").using("gin", sql`${t.busca} gin_trgm_ops`),
  ],
);

/**
 * Per-tenant row counts kept by triggers (migration 0006), so "Total de Pacientes" and the
 * unfiltered list total do not count tens of thousands of rows on every request.
 */
export const tenantCounters = pgTable("tenant_counters", {
  tenant_id: uuid("tenant_id")
    .primaryKey()
    .references(() => tenants.id, { onDelete: "cascade" }),
  pacientes: integer("pacientes").notNull().default(0),
  contratos: integer("contratos").notNull().default(0),
});

/**
 * The documents counters of /documents and the dashboard, kept by statement-level
 * triggers on contratos (migration 0034) so reading them never scans a clinic's documents. One
 * row per clinic and bucket: "status:<status>" (stored status), "criados:<YYYY-MM>" (created in
 * that São Paulo month), "assinados:<YYYY-MM>" (signed documents by the month of signed_at).
 * What depends on the clock (a sent document past its deadline) is read from an index at query time.
 * Each bucket is split in 8 shards summed on read, so signings in one clinic do not queue on one row.
 */
export const documentCounters = pgTable(
  "document_counters",
  {
    tenant_id: uuid("tenant_id")
      .notNull()
      .references(() => tenants.id, { onDelete: "cascade" }),
    bucket: text("bucket").notNull(),
    /** 0–7, by transaction: concurrent changes in one clinic rarely wait on the same row. */
    shard: smallint("shard").notNull(),
    n: integer("n").notNull().default(0),
  },
  (t) => [primaryKey({ name: "document_counters_pk", columns: [t.tenant_id, t.bucket, t.shard] })],
);

/**
 * A clinic's procedure (spec part 2 §3 procedimentos). A private one is seen only by its creator
 * and the owner (services/procedures/procedure-visibility.ts). The (tenant_id, id) unique index
 * lets the link tables point at it with their tenant, so a link can never cross clinics.
 */
export const procedimentos = pgTable(
  "procedimentos",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenant_id: uuid("tenant_id")
      .notNull()
      .references(() => tenants.id, { onDelete: "cascade" }),
    nome: text("nome").notNull(),
    descricao: text("descricao"),
    especialidade: text("especialidade"),
    is_private: boolean("is_private").notNull().default(false),
    /** The same procedure's id in the clinic system, once imported from it (decision 016). */
    feegow_procedimento_id: integer("feegow_procedimento_id"),
    /** Price in centavos, as the clinic system gives it (imported procedures). */
    valor_centavos: integer("valor_centavos"),
    created_by: uuid("created_by").references(() => profiles.id, { onDelete: "set null" }),
    created_at: createdAt(),
    updated_at: updatedAt(),
  },
  (t) => [
    unique("procedimentos_tenant_id_unique").on(t.tenant_id, t.id),
    index("procedimentos_tenant_nome_idx").on(t.tenant_id, t.nome),
    /** An imported procedure exists once per clinic, however often the import runs. */
    uniqueIndex("procedimentos_tenant_feegow_unique")
      .on(t.tenant_id, t.feegow_procedimento_id)
      .where(sql`${t.feegow_procedimento_id} is not null`),
  ],
);

/** Columns shared by the three kinds of content item (risks, benefits, aftercare). */
const contentItemColumns = () => ({
  id: uuid("id").primaryKey().defaultRandom(),
  tenant_id: uuid("tenant_id")
    .notNull()
    .references(() => tenants.id, { onDelete: "cascade" }),
  titulo: text("titulo").notNull(),
  descricao: text("descricao").notNull(),
  created_by: uuid("created_by").references(() => profiles.id, { onDelete: "set null" }),
  created_at: createdAt(),
  updated_at: updatedAt(),
});

/** A risk of the clinic's content library (spec part 2 §3 riscos). */
export const riscos = pgTable("riscos", { ...contentItemColumns(), categoria: text("categoria") }, (t) => [
  unique("riscos_tenant_id_unique").on(t.tenant_id, t.id),
  index("riscos_tenant_titulo_idx").on(t.tenant_id, t.titulo),
]);

/** A benefit of the clinic's content library (spec part 2 §3 beneficios). */
export const beneficios = pgTable("beneficios", { ...contentItemColumns(), categoria: text("categoria") }, (t) => [
  unique("beneficios_tenant_id_unique").on(t.tenant_id, t.id),
  index("beneficios_tenant_titulo_idx").on(t.tenant_id, t.titulo),
]);

/** An aftercare item (spec part 2 §3 cuidados_pos); the spec does not show its tenant: we keep one. */
export const cuidadosPos = pgTable("cuidados_pos", { ...contentItemColumns(), periodo: text("periodo") }, (t) => [
  unique("cuidados_pos_tenant_id_unique").on(t.tenant_id, t.id),
  index("cuidados_pos_tenant_titulo_idx").on(t.tenant_id, t.titulo),
]);

/**
 * Links between a procedure and its content items. The foreign keys carry tenant_id, so both
 * ends belong to the link's clinic; deleting either end deletes the link.
 */
export const procedimentoRiscos = pgTable(
  "procedimento_riscos",
  {
    tenant_id: uuid("tenant_id").notNull(),
    procedimento_id: uuid("procedimento_id").notNull(),
    risco_id: uuid("risco_id").notNull(),
  },
  (t) => [
    primaryKey({ name: "procedimento_riscos_pk", columns: [t.tenant_id, t.procedimento_id, t.risco_id] }),
    index("procedimento_riscos_tenant_item_idx").on(t.tenant_id, t.risco_id),
    foreignKey({
      name: "procedimento_riscos_procedimento_fk",
      columns: [t.tenant_id, t.procedimento_id],
      foreignColumns: [procedimentos.tenant_id, procedimentos.id],
    }).onDelete("cascade"),
    foreignKey({
      name: "procedimento_riscos_risco_fk",
      columns: [t.tenant_id, t.risco_id],
      foreignColumns: [riscos.tenant_id, riscos.id],
    }).onDelete("cascade"),
  ],
);

export const procedimentoBeneficios = pgTable(
  "procedimento_beneficios",
  {
    tenant_id: uuid("tenant_id").notNull(),
    procedimento_id: uuid("procedimento_id").notNull(),
    beneficio_id: uuid("beneficio_id").notNull(),
  },
  (t) => [
    primaryKey({ name: "procedimento_beneficios_pk", columns: [t.tenant_id, t.procedimento_id, t.beneficio_id] }),
    index("procedimento_beneficios_tenant_item_idx").on(t.tenant_id, t.beneficio_id),
    foreignKey({
      name: "procedimento_beneficios_procedimento_fk",
      columns: [t.tenant_id, t.procedimento_id],
      foreignColumns: [procedimentos.tenant_id, procedimentos.id],
    }).onDelete("cascade"),
    foreignKey({
      name: "procedimento_beneficios_beneficio_fk",
      columns: [t.tenant_id, t.beneficio_id],
      foreignColumns: [beneficios.tenant_id, beneficios.id],
    }).onDelete("cascade"),
  ],
);

export const procedimentoCuidados = pgTable(
  "procedimento_cuidados",
  {
    tenant_id: uuid("tenant_id").notNull(),
    procedimento_id: uuid("procedimento_id").notNull(),
    cuidado_id: uuid("cuidado_id").notNull(),
  },
  (t) => [
    primaryKey({ name: "procedimento_cuidados_pk", columns: [t.tenant_id, t.procedimento_id, t.cuidado_id] }),
    index("procedimento_cuidados_tenant_item_idx").on(t.tenant_id, t.cuidado_id),
    foreignKey({
      name: "procedimento_cuidados_procedimento_fk",
      columns: [t.tenant_id, t.procedimento_id],
      foreignColumns: [procedimentos.tenant_id, procedimentos.id],
    }).onDelete("cascade"),
    foreignKey({
      name: "procedimento_cuidados_cuidado_fk",
      columns: [t.tenant_id, t.cuidado_id],
      foreignColumns: [cuidadosPos.tenant_id, cuidadosPos.id],
    }).onDelete("cascade"),
  ],
);

/**
 * A consent template (spec part 2 §3 templates). Its content lives in immutable versions; the
 * newest version is the current one.
 */
export const templates = pgTable(
  "templates",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenant_id: uuid("tenant_id")
      .notNull()
      .references(() => tenants.id, { onDelete: "cascade" }),
    titulo: text("titulo").notNull(),
    especialidade: text("especialidade").notNull(),
    categoria: text("categoria").notNull(),
    status: text("status", { enum: ["draft", "review", "published"] })
      .notNull()
      .default("draft"),
    created_by: uuid("created_by").references(() => profiles.id, { onDelete: "set null" }),
    created_at: createdAt(),
    updated_at: updatedAt(),
    /** What the list search matches: title, specialty and category, accents folded. */
    busca: text("busca")
      .notNull()
      .generatedAlwaysAs(
        sql`app_search_text(coalesce(titulo, '') || ' ' || coalesce(especialidade, '') || ' ' || coalesce(categoria, ''))`,
      ),
  },
  (t) => [
    unique("templates_tenant_id_unique").on(t.tenant_id, t.id),
    index("templates_tenant_created_idx").on(t.tenant_id, t.created_at.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index("templates_busca_trgm_idx").using("gin", sql`${t.busca} gin_trgm_ops`),
  ],
);

/**
 * One immutable version of a template (spec part 2 §3 template_versions). version_number counts
 * 1, 2, 3… per template (the spec used timestamps); hash_modelo is the SHA-256 of the content.
 * variaveis_json holds the validated structure; conteudo_html keeps the same structure serialised,
 * as the spec's column did.
 */
export const templateVersions = pgTable(
  "template_versions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenant_id: uuid("tenant_id").notNull(),
    template_id: uuid("template_id").notNull(),
    version_number: integer("version_number").notNull(),
    conteudo_html: text("conteudo_html").notNull(),
    variaveis_json: jsonb("variaveis_json").$type<TemplateStructure>().notNull(),
    changelog: text("changelog").notNull(),
    hash_modelo: text("hash_modelo").notNull(),
    published_at: timestamp("published_at", { withTimezone: true }),
    published_by: uuid("published_by").references(() => profiles.id, { onDelete: "set null" }),
    created_by: uuid("created_by").references(() => profiles.id, { onDelete: "set null" }),
    created_at: createdAt(),
  },
  (t) => [
    unique("template_versions_tenant_id_unique").on(t.tenant_id, t.id),
    uniqueIndex("template_versions_template_number_unique").on(t.template_id, t.version_number),
    foreignKey({
      name: "template_versions_template_fk",
      columns: [t.tenant_id, t.template_id],
      foreignColumns: [templates.tenant_id, templates.id],
    }).onDelete("cascade"),
  ],
);

/**
 * A stored file (PDFs now; certificates and logos later). The bytes live in the storage driver
 * (src/server/storage), addressed by their SHA-256; the row says whose file it is and its name.
 */
export const files = pgTable(
  "files",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenant_id: uuid("tenant_id")
      .notNull()
      .references(() => tenants.id, { onDelete: "cascade" }),
    sha256: text("sha256").notNull(),
    size: integer("size").notNull(),
    content_type: text("content_type").notNull(),
    nome: text("nome").notNull(),
    created_by: uuid("created_by").references(() => profiles.id, { onDelete: "set null" }),
    created_at: createdAt(),
  },
  (t) => [unique("files_tenant_id_unique").on(t.tenant_id, t.id)],
);

/**
 * A consent document for a patient (spec part 1 §3 contratos). It points at the exact template
 * version it was made from (never the template id) and freezes, at creation, the document model it
 * will be signed on (DESIGN §2). A version or patient used by a document cannot be deleted.
 */
export const contratos = pgTable(
  "contratos",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenant_id: uuid("tenant_id").notNull(),
    paciente_id: uuid("paciente_id").notNull(),
    template_version_id: uuid("template_version_id").notNull(),
    procedimento_id: uuid("procedimento_id").references(() => procedimentos.id, { onDelete: "set null" }),
    titulo: text("titulo").notNull(),
    procedimento: text("procedimento"),
    data_procedimento: date("data_procedimento", { mode: "string" }),
    status: text("status", { enum: DOCUMENT_STATUSES }).notNull().default("draft"),
    medico_responsavel_id: uuid("medico_responsavel_id").references(() => profiles.id, { onDelete: "set null" }),
    variaveis_preenchidas: jsonb("variaveis_preenchidas").$type<Record<string, unknown>>().notNull().default({}),
    conteudo_selecionado: jsonb("conteudo_selecionado")
      .$type<{ tipo: string; titulo: string; descricao: string }[]>()
      .notNull()
      .default([]),
    /** The frozen DocumentModel the patient reads and signs. */
    documento: jsonb("documento").$type<Record<string, unknown>>().notNull(),
    /** SHA-256 (hex) of the canonical JSON of `documento`: what the signer signs. */
    conteudo_sha256: text("conteudo_sha256").notNull(),
    expiracao_at: timestamp("expiracao_at", { withTimezone: true }).notNull(),
    /** The generated PDF (unsigned document), when there is one. */
    pdf_file_id: uuid("pdf_file_id"),
    cancel_reason: text("cancel_reason"),
    cancelled_at: timestamp("cancelled_at", { withTimezone: true }),
    signed_at: timestamp("signed_at", { withTimezone: true }),
    sent_at: timestamp("sent_at", { withTimezone: true }),
    /** Start of the current automatic-reminder chain: null — the send (sent_at); Reenviar sets it (decision 066). */
    lembretes_desde: timestamp("lembretes_desde", { withTimezone: true }),
    viewed_at: timestamp("viewed_at", { withTimezone: true }),
    /** The final, sealed PDF (document + signatures + registry), once the finalize job ran. */
    signed_pdf_file_id: uuid("signed_pdf_file_id"),
    /** Public code of /verificar/:code, set when the document is signed. */
    verification_code: text("verification_code"),
    /** What /verificar/:code tells: the final PDF's SHA-256, and that of the sealed bytes. */
    signed_pdf_sha256: text("signed_pdf_sha256"),
    /**
     * When the archive job looks at the sealed PDF again (decision 064): its latest document
     * time-stamp's authority certificate expiry minus RETIMESTAMP_MARGIN_DAYS. Null: not read yet.
     */
    carimbo_revisar_em: timestamp("carimbo_revisar_em", { withTimezone: true }),
    /**
     * The professional chose to sign with their ICP-Brasil certificate: whether the final PDF got
     * that signature (false: the certificate was no longer active). Null when not chosen or not yet
     * sealed. The screens show the method applied, not the one chosen (decision 041).
     */
    icp_profissional_aplicada: boolean("icp_profissional_aplicada"),
    /** When the patient refused it (status recusado), or staff recorded their refusal (decision 056). */
    recusado_at: timestamp("recusado_at", { withTimezone: true }),
    /** The patient asked to talk to the professional after a wrong comprehension answer (decision 061). */
    compreensao_pausada_at: timestamp("compreensao_pausada_at", { withTimezone: true }),
    /** The clinic asks the patient to record the agreement sentence in audio (decision 069). */
    pedir_audio: boolean("pedir_audio").notNull().default(false),
    /** Signed "a rogo": who signs at the patient's request, and why the patient does not (decision 070). */
    a_rogo: jsonb("a_rogo").$type<ARogo | null>(),
    /** When the signed consent was revoked; the document stays signed, its sealed PDF untouched (decision 056). */
    revogado_at: timestamp("revogado_at", { withTimezone: true }),
    /** What the list search matches: title, procedure, patient name (as frozen) and the id. */
    busca: text("busca")
      .notNull()
      .generatedAlwaysAs(
        sql`app_search_text(coalesce(titulo, '') || ' ' || coalesce(procedimento, '') || ' ' || coalesce(variaveis_preenchidas ->> 'paciente_nome', '') || ' ' || id::text)`,
      ),
    created_by: uuid("created_by").references(() => profiles.id, { onDelete: "set null" }),
    created_at: createdAt(),
    updated_at: updatedAt(),
  },
  (t) => [
    unique("contratos_tenant_id_unique").on(t.tenant_id, t.id),
    index("contratos_tenant_created_idx").on(t.tenant_id, t.created_at.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index("contratos_tenant_version_idx").on(t.tenant_id, t.template_version_id),
    index("contratos_tenant_paciente_idx").on(t.tenant_id, t.paciente_id, t.created_at.desc().nullsFirst()),
    index("contratos_tenant_medico_idx").on(t.tenant_id, t.medico_responsavel_id, t.created_at.desc().nullsFirst()),
    index("contratos_tenant_status_idx").on(t.tenant_id, t.status, t.expiracao_at),
    /** Avisos: "assinado desde a sua última visita" (decision 028). */
    index("contratos_tenant_signed_idx")
      .on(t.tenant_id, t.signed_at.desc().nullsFirst())
      .where(sql`${t.signed_at} is not null`),
    index("contratos_busca_trgm_idx").using("gin", sql`${t.busca} gin_trgm_ops`),
    /** The title and procedure part of busca alone (decision 036): a search that is no patient's name. */
    index("contratos_titulo_busca_trgm_idx").using(
      "gin",
      sql`app_search_text(coalesce(${t.titulo}, '') || ' ' || coalesce(${t.procedimento}, '')) gin_trgm_ops`,
    ),
    foreignKey({
      name: "contratos_pdf_file_fk",
      columns: [t.tenant_id, t.pdf_file_id],
      foreignColumns: [files.tenant_id, files.id],
    }),
    foreignKey({
      name: "contratos_signed_pdf_file_fk",
      columns: [t.tenant_id, t.signed_pdf_file_id],
      foreignColumns: [files.tenant_id, files.id],
    }),
    uniqueIndex("contratos_verification_code_unique")
      .on(t.verification_code)
      .where(sql`${t.verification_code} is not null`),
    foreignKey({
      name: "contratos_paciente_fk",
      columns: [t.tenant_id, t.paciente_id],
      foreignColumns: [pacientes.tenant_id, pacientes.id],
    }).onDelete("restrict"),
    foreignKey({
      name: "contratos_template_version_fk",
      columns: [t.tenant_id, t.template_version_id],
      foreignColumns: [templateVersions.tenant_id, templateVersions.id],
    }).onDelete("restrict"),
  ],
);

/**
 * The patient names the clinic's documents were made out to (variaveis_preenchidas.paciente_nome,
 * frozen at creation, as busca holds it), one row per (patient, name) with how many documents carry
 * it; kept by statement-level triggers on contratos (migration 0035) and removed when its last
 * document goes. A documents search reads names here — a few thousand rows, not a million — and
 * then the patients' documents (decision 036).
 */
export const contratoNomes = pgTable(
  "contrato_nomes",
  {
    tenant_id: uuid("tenant_id")
      .notNull()
      .references(() => tenants.id, { onDelete: "cascade" }),
    paciente_id: uuid("paciente_id").notNull(),
    /** app_search_text of the frozen name: the very text inside contratos.busca. */
    nome: text("nome").notNull(),
    n: integer("n").notNull(),
  },
  (t) => [
    primaryKey({ name: "contrato_nomes_pk", columns: [t.tenant_id, t.paciente_id, t.nome] }),
    index("contrato_nomes_nome_trgm_idx").using("gin", sql`${t.nome} gin_trgm_ops`),
  ],
);

/**
 * A signing link (DESIGN §3): 256-bit random token, only its SHA-256 kept; it expires with the
 * document and a new one revokes the old. One live token per document.
 */
export const signingTokens = pgTable(
  "signing_tokens",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenant_id: uuid("tenant_id").notNull(),
    contrato_id: uuid("contrato_id").notNull(),
    token_hash: text("token_hash").notNull(),
    /** The token itself, AES-256-GCM encrypted with the instance secret, so staff can copy the same link again. */
    token_encrypted: bytea("token_encrypted").notNull(),
    created_by: uuid("created_by").references(() => profiles.id, { onDelete: "set null" }),
    created_at: createdAt(),
    expires_at: timestamp("expires_at", { withTimezone: true }).notNull(),
    revoked_at: timestamp("revoked_at", { withTimezone: true }),
    /** The witness this link is for; null: the patient's (or guardian's) link (decision 021). */
    testemunha_id: uuid("testemunha_id"),
  },
  (t) => [
    uniqueIndex("signing_tokens_hash_unique").on(t.token_hash),
    index("signing_tokens_contrato_idx").on(t.tenant_id, t.contrato_id),
    foreignKey({
      name: "signing_tokens_contrato_fk",
      columns: [t.tenant_id, t.contrato_id],
      foreignColumns: [contratos.tenant_id, contratos.id],
    }).onDelete("cascade"),
    foreignKey({
      name: "signing_tokens_testemunha_fk",
      columns: [t.tenant_id, t.testemunha_id],
      foreignColumns: [contratoTestemunhas.tenant_id, contratoTestemunhas.id],
    }).onDelete("cascade"),
  ],
);

/**
 * Optional witnesses of a document (DESIGN §3; CPC art. 784 III: a private document signed by two
 * witnesses is an executive title). Named by staff on the draft, at most two (`ordem` 1 and 2);
 * each signs through a link of their own, proving their own e-mail or mobile (decision 021).
 */
export const contratoTestemunhas = pgTable(
  "contrato_testemunhas",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenant_id: uuid("tenant_id").notNull(),
    contrato_id: uuid("contrato_id").notNull(),
    ordem: smallint("ordem").notNull(),
    nome: text("nome").notNull(),
    /** 11 digits. */
    cpf: text("cpf").notNull(),
    email: text("email"),
    telefone: text("telefone"),
    created_by: uuid("created_by").references(() => profiles.id, { onDelete: "set null" }),
    created_at: createdAt(),
  },
  (t) => [
    uniqueIndex("contrato_testemunhas_ordem_unique").on(t.tenant_id, t.contrato_id, t.ordem),
    unique("contrato_testemunhas_tenant_id_unique").on(t.tenant_id, t.id),
    foreignKey({
      name: "contrato_testemunhas_contrato_fk",
      columns: [t.tenant_id, t.contrato_id],
      foreignColumns: [contratos.tenant_id, contratos.id],
    }).onDelete("cascade"),
  ],
);

/**
 * A party who signed a document (spec part 1 §3 contrato_partes) with the evidence of an advanced
 * electronic signature (DESIGN §3). One signature per role per document: a second, concurrent
 * submission cannot add another.
 */
export const contratoPartes = pgTable(
  "contrato_partes",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenant_id: uuid("tenant_id").notNull(),
    contrato_id: uuid("contrato_id").notNull(),
    /**
     * paciente, or responsavel (the legal guardian signing in their own name), or profissional (the
     * responsible professional signing the professional declaration in the app) — or
     * testemunha (an optional witness, decision 021).
     */
    papel: text("papel", { enum: ["paciente", "responsavel", "profissional", "testemunha"] })
      .notNull()
      .default("paciente"),
    /** 1, or 2 for the second witness (the only role that may sign twice; decision 021). */
    ordem: smallint("ordem").notNull().default(1),
    /** The capacity printed with the signature, e.g. "responsável legal de Pedro Souza". */
    qualidade: text("qualidade"),
    nome: text("nome").notNull(),
    cpf: text("cpf").notNull(),
    email: text("email").notNull(),
    telefone: text("telefone"),
    assinou_em: timestamp("assinou_em", { withTimezone: true }).notNull(),
    metodo_assinatura: text("metodo_assinatura", { enum: ["eletronica", "ICP-Brasil"] })
      .notNull()
      .default("eletronica"),
    /** The drawn (or typed) signature PNG in the storage driver; null for a professional's in-app signature. */
    assinatura_file_id: uuid("assinatura_file_id"),
    /** The sealed audio of the agreement sentence kept with this signature (decision 069), or null. */
    audio_file_id: uuid("audio_file_id"),
    ip_address: text("ip_address"),
    user_agent: text("user_agent"),
    /** SHA-256 of the content shown to the signer (the document's frozen model). */
    conteudo_sha256: text("conteudo_sha256").notNull(),
    /** True when the e-mail one-time code was typed before signing. */
    otp_verificado: boolean("otp_verificado").notNull().default(false),
    /** What the evidence reaches (Lei 14.063/2020 art. 4): avançada only with a verified code. */
    nivel_assinatura: text("nivel_assinatura", { enum: ["avancada", "simples"] })
      .notNull()
      .default("simples"),
    /** Drawn on the canvas, or typed (accessibility: for people who cannot draw). */
    tipo_assinatura: text("tipo_assinatura", { enum: ["desenhada", "digitada", "senha"] })
      .notNull()
      .default("desenhada"),
    /** TCP source port seen by the server (with IP, identifies a connection behind CGNAT). */
    porta_origem: integer("porta_origem"),
    /** The user agent parsed: browser, system and device, in words. */
    dispositivo: text("dispositivo"),
    created_at: createdAt(),
  },
  (t) => [
    uniqueIndex("contrato_partes_contrato_papel_ordem_unique").on(t.tenant_id, t.contrato_id, t.papel, t.ordem),
    foreignKey({
      name: "contrato_partes_contrato_fk",
      columns: [t.tenant_id, t.contrato_id],
      foreignColumns: [contratos.tenant_id, contratos.id],
    }).onDelete("restrict"),
    foreignKey({
      name: "contrato_partes_assinatura_fk",
      columns: [t.tenant_id, t.assinatura_file_id],
      foreignColumns: [files.tenant_id, files.id],
    }),
    foreignKey({
      name: "contrato_partes_audio_fk",
      columns: [t.tenant_id, t.audio_file_id],
      foreignColumns: [files.tenant_id, files.id],
    }),
  ],
);

/**
 * The signer's answer to each separate optional consent the frozen model offered (decision 057),
 * written with the signature. item_id is the model's stable id (a later revocation names it);
 * titulo the title as offered. Insert and read only for the app (migration 0041).
 */
export const consentimentosOpcionais = pgTable(
  "consentimentos_opcionais",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenant_id: uuid("tenant_id").notNull(),
    contrato_id: uuid("contrato_id").notNull(),
    parte_id: uuid("parte_id")
      .notNull()
      .references(() => contratoPartes.id, { onDelete: "cascade" }),
    item_id: text("item_id").notNull(),
    titulo: text("titulo").notNull(),
    aceito: boolean("aceito").notNull(),
    /** Position in the model (0, 1, …): the order offered. */
    ordem: smallint("ordem").notNull(),
    respondido_em: timestamp("respondido_em", { withTimezone: true }).notNull(),
    created_at: createdAt(),
  },
  (t) => [
    uniqueIndex("consentimentos_opcionais_contrato_item_unique").on(t.tenant_id, t.contrato_id, t.item_id),
    foreignKey({
      name: "consentimentos_opcionais_contrato_fk",
      columns: [t.tenant_id, t.contrato_id],
      foreignColumns: [contratos.tenant_id, contratos.id],
    }).onDelete("cascade"),
  ],
);

/** E-mail one-time codes for signing (optional per clinic): only the code's hash is kept. */
export const signingOtps = pgTable(
  "signing_otps",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenant_id: uuid("tenant_id").notNull(),
    contrato_id: uuid("contrato_id").notNull(),
    code_hash: text("code_hash").notNull(),
    attempts: integer("attempts").notNull().default(0),
    expires_at: timestamp("expires_at", { withTimezone: true }).notNull(),
    consumed_at: timestamp("consumed_at", { withTimezone: true }),
    created_at: createdAt(),
    /** The witness the code went to; null: the patient's (or guardian's) code. */
    testemunha_id: uuid("testemunha_id"),
  },
  (t) => [
    index("signing_otps_contrato_idx").on(t.tenant_id, t.contrato_id, t.created_at.desc().nullsFirst()),
    foreignKey({
      name: "signing_otps_contrato_fk",
      columns: [t.tenant_id, t.contrato_id],
      foreignColumns: [contratos.tenant_id, contratos.id],
    }).onDelete("cascade"),
    foreignKey({
      name: "signing_otps_testemunha_fk",
      columns: [t.tenant_id, t.testemunha_id],
      foreignColumns: [contratoTestemunhas.tenant_id, contratoTestemunhas.id],
    }).onDelete("cascade"),
  ],
);

/**
 * One-time codes the responsible professional confirms when signing the professional declaration
 * (decision 042): sent to the e-mail of their own account, so that the password is not the only
 * factor. Only the code's hash is kept, bound to the document and the professional.
 */
/**
 * A refusal ('recusa') or a revocation ('revogacao') of a document (decision 056): who, how, when
 * and why, written once in the transaction that changes the document; the 'document.choice_record'
 * job fills in its sealed PDF ("Registro de recusa" / "Registro de revogação"), once. One of each
 * kind per document (the unique index is the last wall of idempotency).
 */
export const contratoRegistros = pgTable(
  "contrato_registros",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenant_id: uuid("tenant_id")
      .notNull()
      .references(() => tenants.id, { onDelete: "cascade" }),
    contrato_id: uuid("contrato_id").notNull(),
    tipo: text("tipo", { enum: ["recusa", "revogacao"] }).notNull(),
    /** The patient (or guardian) by the link, or staff recording what the patient said. */
    origem: text("origem", { enum: ["paciente", "equipe"] }).notNull(),
    meio: text("meio", { enum: ["link", "presencial", "telefone"] }).notNull(),
    /** Who refused or revoked: the registered name of the patient or guardian. */
    nome: text("nome").notNull(),
    /** The CPF typed (and checked) on the link; null when staff recorded it. */
    cpf: text("cpf"),
    motivo: text("motivo"),
    otp_verificado: boolean("otp_verificado").notNull().default(false),
    registrado_por: uuid("registrado_por").references(() => profiles.id, { onDelete: "set null" }),
    registrado_por_nome: text("registrado_por_nome"),
    /** When the patient said it (staff may record it later). */
    ocorrido_em: timestamp("ocorrido_em", { withTimezone: true }).notNull(),
    ip_address: text("ip_address"),
    user_agent: text("user_agent"),
    /** Public code of the record's own /verificar page. */
    verification_code: text("verification_code").notNull(),
    /** A revocation: the sealed PDF it revokes (its SHA-256 and code), never changed itself. */
    original_pdf_sha256: text("original_pdf_sha256"),
    original_verification_code: text("original_verification_code"),
    pdf_file_id: uuid("pdf_file_id"),
    pdf_sha256: text("pdf_sha256"),
    /** A revocation of one optional consent only (decision 057): its stable id; null: the whole document. */
    item_id: text("item_id"),
    /** Made on the page shown inside this site, one the clinic allowed (decision 071); null: a direct link. */
    incorporado_origem: text("incorporado_origem"),
    created_at: createdAt(),
  },
  (t) => [
    uniqueIndex("contrato_registros_tipo_unique")
      .on(t.tenant_id, t.contrato_id, t.tipo)
      .where(sql`${t.item_id} is null`),
    uniqueIndex("contrato_registros_item_unique")
      .on(t.tenant_id, t.contrato_id, t.item_id)
      .where(sql`${t.item_id} is not null`),
    unique("contrato_registros_code_unique").on(t.verification_code),
    foreignKey({
      name: "contrato_registros_contrato_fk",
      columns: [t.tenant_id, t.contrato_id],
      foreignColumns: [contratos.tenant_id, contratos.id],
    }).onDelete("cascade"),
  ],
);

/**
 * The archive revisions of a sealed PDF (decision 064): each appended a fresh DSS and a document
 * time-stamp over the whole previous file (`anterior_sha256`, a prefix of the new bytes). The
 * document's signed_pdf_file_id/sha256 name the newest; the earlier files stay stored. Never updated.
 */
export const contratoRevisoesPdf = pgTable(
  "contrato_revisoes_pdf",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenant_id: uuid("tenant_id")
      .notNull()
      .references(() => tenants.id, { onDelete: "cascade" }),
    contrato_id: uuid("contrato_id").notNull(),
    /** 1 = the first revision after the sealed file. */
    revisao: integer("revisao").notNull(),
    file_id: uuid("file_id").notNull(),
    sha256: text("sha256").notNull(),
    anterior_sha256: text("anterior_sha256").notNull(),
    anterior_file_id: uuid("anterior_file_id").notNull(),
    /** Why: the previous authority certificate was near expiry, or its algorithm is weak (SHA-1). */
    motivo: text("motivo", { enum: ["vencimento", "algoritmo"] }).notNull(),
    /** The new document time-stamp's time (the authority's genTime). */
    carimbo_em: timestamp("carimbo_em", { withTimezone: true }).notNull(),
    autoridade: text("autoridade"),
    autoridade_certificado_sha256: text("autoridade_certificado_sha256"),
    autoridade_vence_em: timestamp("autoridade_vence_em", { withTimezone: true }),
    created_at: createdAt(),
  },
  (t) => [
    unique("contrato_revisoes_pdf_revisao_unique").on(t.tenant_id, t.contrato_id, t.revisao),
    unique("contrato_revisoes_pdf_anterior_unique").on(t.tenant_id, t.contrato_id, t.anterior_sha256),
    foreignKey({
      name: "contrato_revisoes_pdf_contrato_fk",
      columns: [t.tenant_id, t.contrato_id],
      foreignColumns: [contratos.tenant_id, contratos.id],
    }).onDelete("cascade"),
  ],
);

export const professionalSigningCodes = pgTable(
  "professional_signing_codes",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenant_id: uuid("tenant_id").notNull(),
    contrato_id: uuid("contrato_id").notNull(),
    profile_id: uuid("profile_id").notNull(),
    code_hash: text("code_hash").notNull(),
    attempts: integer("attempts").notNull().default(0),
    expires_at: timestamp("expires_at", { withTimezone: true }).notNull(),
    consumed_at: timestamp("consumed_at", { withTimezone: true }),
    created_at: createdAt(),
  },
  (t) => [
    index("professional_signing_codes_idx").on(
      t.tenant_id,
      t.contrato_id,
      t.profile_id,
      t.created_at.desc().nullsFirst(),
    ),
    foreignKey({
      name: "professional_signing_codes_contrato_fk",
      columns: [t.tenant_id, t.contrato_id],
      foreignColumns: [contratos.tenant_id, contratos.id],
    }).onDelete("cascade"),
    foreignKey({
      name: "professional_signing_codes_profile_fk",
      columns: [t.profile_id],
      foreignColumns: [profiles.id],
    }).onDelete("cascade"),
  ],
);

/**
 * Background work (final PDF, expiry sweep): a row per job, taken with FOR UPDATE SKIP LOCKED so
 * any number of processes can work the same table; retried with back-off (decision 007).
 */
export const jobs = pgTable(
  "jobs",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    kind: text("kind").notNull(),
    tenant_id: uuid("tenant_id").references(() => tenants.id, { onDelete: "cascade" }),
    payload: jsonb("payload").$type<Record<string, unknown>>().notNull().default({}),
    status: text("status", { enum: ["pending", "running", "done", "failed"] })
      .notNull()
      .default("pending"),
    attempts: integer("attempts").notNull().default(0),
    max_attempts: integer("max_attempts").notNull().default(5),
    run_at: timestamp("run_at", { withTimezone: true }).notNull().defaultNow(),
    locked_until: timestamp("locked_until", { withTimezone: true }),
    last_error: text("last_error"),
    /** One pending job per key (e.g. "finalize:<contrato id>"): enqueuing twice is harmless. */
    dedupe_key: text("dedupe_key"),
    created_at: createdAt(),
    finished_at: timestamp("finished_at", { withTimezone: true }),
  },
  (t) => [
    index("jobs_due_idx")
      .on(t.run_at)
      .where(sql`${t.status} = 'pending'`),
    index("jobs_lease_idx")
      .on(t.locked_until)
      .where(sql`${t.status} = 'running'`),
    uniqueIndex("jobs_dedupe_unique")
      .on(t.dedupe_key)
      .where(sql`${t.dedupe_key} is not null and ${t.status} in ('pending', 'running')`),
  ],
);

/** The instance's own seal certificate (DESIGN §3), generated on first run, kept encrypted. */
export const sealCertificates = pgTable("seal_certificates", {
  id: uuid("id").primaryKey().defaultRandom(),
  /** PKCS#12 (key + certificate), AES-256-GCM encrypted with the instance secret. */
  p12_encrypted: bytea("p12_encrypted").notNull(),
  subject: text("subject").notNull(),
  fingerprint_sha256: text("fingerprint_sha256").notNull(),
  not_after: timestamp("not_after", { withTimezone: true }).notNull(),
  created_at: createdAt(),
});

/**
 * The clinic-system (Feegow) integration of a clinic (spec part 2 §2 /integration, §4; decision
 * 016). The token is kept only sealed with the instance secret box; `token_final` (its last four
 * characters) is what the screen shows.
 */
export const integracoesFeegow = pgTable("integracoes_feegow", {
  tenant_id: uuid("tenant_id")
    .primaryKey()
    .references(() => tenants.id, { onDelete: "cascade" }),
  token_encrypted: bytea("token_encrypted"),
  token_final: text("token_final"),
  status: text("status", { enum: FEEGOW_STATUSES }).notNull().default("disconnected"),
  integrations: jsonb("integrations").$type<Partial<Record<FeegowFeature, boolean>>>().notNull().default({}),
  /** Last successful connection test (spec: "connected after a successful test, which also sets last_sync"). */
  last_sync: timestamp("last_sync", { withTimezone: true }),
  /** Why the last test failed, in words (pt-BR), cleared by a successful one. */
  last_error: text("last_error"),
  updated_by: uuid("updated_by").references(() => profiles.id, { onDelete: "set null" }),
  created_at: createdAt(),
  updated_at: updatedAt(),
});

/**
 * Digital certificates (A1, PKCS#12) of a clinic and of its professionals (spec part 1 §2, §3;
 * decision 019). The file and its password are kept only inside `secret_encrypted` (the instance
 * secret box: AES-256-GCM of JSON {pfx_base64, password}); everything else is what the upload
 * read from the certificate, so lists never open the file. `owner_profile_id` null = the clinic's
 * own certificate (e.g. an e-CNPJ); set = that professional's own e-CPF. At most one active of
 * each (partial unique indexes); removal is a soft deactivation.
 */
export const certificados = pgTable(
  "certificados",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenant_id: uuid("tenant_id")
      .notNull()
      .references(() => tenants.id, { onDelete: "cascade" }),
    owner_profile_id: uuid("owner_profile_id").references(() => profiles.id),
    alias: text("alias").notNull(),
    descricao: text("descricao"),
    tipo: text("tipo", { enum: ["A1"] })
      .notNull()
      .default("A1"),
    provider: text("provider", { enum: ["local"] })
      .notNull()
      .default("local"),
    original_filename: text("original_filename").notNull(),
    secret_encrypted: bytea("secret_encrypted").notNull(),
    /** Holder's common name, RFC 4514-style subject and issuer. */
    cn: text("cn").notNull(),
    subject: text("subject").notNull(),
    issuer: text("issuer").notNull(),
    issuer_cn: text("issuer_cn").notNull(),
    serial_number: text("serial_number").notNull(),
    not_before: timestamp("not_before", { withTimezone: true }).notNull(),
    vence_em: timestamp("vence_em", { withTimezone: true }).notNull(),
    /** SHA-256 (hex) of the holder certificate's DER. */
    fingerprint_sha256: text("fingerprint_sha256").notNull(),
    key_usage: text("key_usage")
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /** Presents itself as ICP-Brasil: policy under 2.16.76.1.2 and a chain to a root with O=ICP-Brasil (decision 019). */
    icp_brasil: boolean("icp_brasil").notNull().default(false),
    policies: text("policies")
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    holder_kind: text("holder_kind", { enum: ["e-CPF", "e-CNPJ", "outro"] }).notNull(),
    /** e-CPF: the holder's CPF; e-CNPJ: the responsible person's CPF (2.16.76.1.3.4). Digits. */
    cpf: text("cpf"),
    cnpj: text("cnpj"),
    responsible_name: text("responsible_name"),
    /** The clinic's profile with the certificate's CPF, when there is one. */
    linked_profile_id: uuid("linked_profile_id").references(() => profiles.id, { onDelete: "set null" }),
    /** e-CNPJ whose CNPJ is the clinic's own. */
    linked_clinic: boolean("linked_clinic").notNull().default(false),
    /** SHA-256 of each certificate of the chain in the file, holder first, then its issuers. */
    chain_fingerprints: text("chain_fingerprints")
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /** Expiry e-mails already sent (days before: 30, 7, 1). */
    expiry_warnings_sent: integer("expiry_warnings_sent")
      .array()
      .notNull()
      .default(sql`'{}'::integer[]`),
    uploaded_by: uuid("uploaded_by").references(() => profiles.id, { onDelete: "set null" }),
    is_active: boolean("is_active").notNull().default(true),
    removed_at: timestamp("removed_at", { withTimezone: true }),
    removed_by: uuid("removed_by").references(() => profiles.id, { onDelete: "set null" }),
    created_at: createdAt(),
  },
  (t) => [
    index("certificados_tenant_created_idx").on(
      t.tenant_id,
      t.created_at.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
    uniqueIndex("certificados_active_clinic_unique")
      .on(t.tenant_id)
      .where(sql`${t.is_active} and ${t.owner_profile_id} is null`),
    uniqueIndex("certificados_active_professional_unique")
      .on(t.tenant_id, t.owner_profile_id)
      .where(sql`${t.is_active} and ${t.owner_profile_id} is not null`),
    index("certificados_active_expiry_idx")
      .on(t.vence_em)
      .where(sql`${t.is_active}`),
  ],
);

/**
 * A PDF sent (or to send) to the patient's record in the clinic system (decision 016, second
 * step): one row per document and file, ever — `idempotency_key` is `<contrato id>:<SHA-256 of the
 * PDF>` under a unique index — worked by the 'feegow.upload' job. The PDF itself stays in our
 * storage whatever happens here.
 */
export const feegowUploads = pgTable(
  "feegow_uploads",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenant_id: uuid("tenant_id")
      .notNull()
      .references(() => tenants.id, { onDelete: "cascade" }),
    contrato_id: uuid("contrato_id").notNull(),
    /** The files row sent (the bytes are read by `file_sha256` from storage). */
    file_id: uuid("file_id").notNull(),
    file_sha256: text("file_sha256").notNull(),
    idempotency_key: text("idempotency_key").notNull(),
    /** 'assinado': the sealed PDF, sent after sealing; 'manual': "Gerar e Enviar PDF". */
    origem: text("origem", { enum: FEEGOW_UPLOAD_ORIGINS }).notNull(),
    status: text("status", { enum: FEEGOW_UPLOAD_STATUSES }).notNull().default("pendente"),
    feegow_patient_id: integer("feegow_patient_id"),
    /** Calls made to Feegow for this upload. */
    tentativas: integer("tentativas").notNull().default(0),
    /** Why the last attempt failed, in pt-BR (Feegow's own words when it gave any). */
    ultimo_erro: text("ultimo_erro"),
    /** The failure's kind (FeegowFailure or one of ours: sem_paciente, desativado…). */
    motivo: text("motivo"),
    /**
     * True when the file was sent again after an attempt whose outcome is unknown (the process
     * died during the call, or the answer timed out or was lost): Feegow may hold two copies.
     */
    possivel_duplicata: boolean("possivel_duplicata").notNull().default(false),
    /** When the current attempt's call began ('enviando'). */
    envio_iniciado_at: timestamp("envio_iniciado_at", { withTimezone: true }),
    enviado_at: timestamp("enviado_at", { withTimezone: true }),
    requested_by: uuid("requested_by").references(() => profiles.id, { onDelete: "set null" }),
    created_at: createdAt(),
    updated_at: updatedAt(),
  },
  (t) => [
    uniqueIndex("feegow_uploads_idempotency_unique").on(t.idempotency_key),
    index("feegow_uploads_tenant_contrato_idx").on(t.tenant_id, t.contrato_id, t.created_at.desc().nullsFirst()),
    index("feegow_uploads_tenant_status_idx").on(t.tenant_id, t.status, t.updated_at.desc().nullsFirst()),
    foreignKey({
      name: "feegow_uploads_contrato_fk",
      columns: [t.tenant_id, t.contrato_id],
      foreignColumns: [contratos.tenant_id, contratos.id],
    }).onDelete("cascade"),
  ],
);

/**
 * Avisos (decision 028): the notices themselves are derived from the rows where each fact lives;
 * only what each user has read is kept here. `notice_key` is kind + row + the instant of the state
 * told, so a new state (a new failure of the same upload) is a new, unread notice.
 */
export const noticeReads = pgTable(
  "notice_reads",
  {
    tenant_id: uuid("tenant_id")
      .notNull()
      .references(() => tenants.id, { onDelete: "cascade" }),
    profile_id: uuid("profile_id")
      .notNull()
      .references(() => profiles.id, { onDelete: "cascade" }),
    notice_key: text("notice_key").notNull(),
    /** The notice's own instant: "Marcar todas como lidas" prunes the keys it covers. */
    notice_at: timestamp("notice_at", { withTimezone: true }).notNull(),
    read_at: timestamp("read_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ name: "notice_reads_pk", columns: [t.tenant_id, t.profile_id, t.notice_key] })],
);

/** Per user: "Marcar todas como lidas" (everything up to read_all_at) and the visits to Avisos. */
export const noticeUserStates = pgTable(
  "notice_user_states",
  {
    tenant_id: uuid("tenant_id")
      .notNull()
      .references(() => tenants.id, { onDelete: "cascade" }),
    profile_id: uuid("profile_id")
      .notNull()
      .references(() => profiles.id, { onDelete: "cascade" }),
    /** Every notice whose instant is at or before this one is read. */
    read_all_at: timestamp("read_all_at", { withTimezone: true }),
    /** The latest fetch of Avisos (the current visit). */
    visit_at: timestamp("visit_at", { withTimezone: true }),
    /** The end of the visit before: "assinado desde a sua última visita" counts from here. */
    previous_visit_at: timestamp("previous_visit_at", { withTimezone: true }),
    updated_at: updatedAt(),
  },
  (t) => [primaryKey({ name: "notice_user_states_pk", columns: [t.tenant_id, t.profile_id] })],
);

/**
 * Notices with no other home (e.g. a failed backup), recorded by the server through
 * recordSystemNotice; the owner and the administration see them for RECENT_NOTICE_DAYS.
 */
export const systemNotices = pgTable(
  "system_notices",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenant_id: uuid("tenant_id")
      .notNull()
      .references(() => tenants.id, { onDelete: "cascade" }),
    /** What happened, dotted: "backup.failed". */
    kind: text("kind").notNull(),
    title: text("title").notNull(),
    body: text("body").notNull(),
    /** A path inside the app, or null. */
    link: text("link"),
    created_at: createdAt(),
  },
  (t) => [index("system_notices_tenant_created_idx").on(t.tenant_id, t.created_at.desc().nullsFirst())],
);

/**
 * One attempt of the worker's daily backup (decision 027): instance-wide, like the jobs
 * table. A failed attempt is a row with its pt-BR error: what the future Avisos screen shows the
 * owner. Manual backups (npm run backup) are not recorded here.
 */
export const backupRuns = pgTable(
  "backup_runs",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /** The São Paulo calendar day the backup is for. */
    dia: date("dia", { mode: "string" }).notNull(),
    status: text("status", { enum: ["ok", "failed"] }).notNull(),
    /** The backup file's name in BACKUP_DIR (when it was written). */
    arquivo: text("arquivo"),
    bytes: bigint("bytes", { mode: "number" }),
    /** What went wrong (failed), or warnings of a backup that was written (e.g. a stored file missing). */
    mensagem: text("mensagem"),
    /** Older backups removed by the 7 daily / 4 weekly / 12 monthly rule after this one. */
    removidos: integer("removidos").notNull().default(0),
    started_at: timestamp("started_at", { withTimezone: true }).notNull(),
    finished_at: timestamp("finished_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("backup_runs_dia_idx").on(t.dia.desc(), t.finished_at.desc())],
);

/**
 * The clinic's logo: drawn on its PDFs' header and on the signing page. Only the
 * server's own re-encoding is kept — a PNG on white, at most LOGO_MAX_WIDTH × LOGO_MAX_HEIGHT
 * pixels — never the uploaded file (an SVG's scripts or a JPEG's metadata do not survive).
 */
export const clinicLogos = pgTable(
  "clinic_logos",
  {
    tenant_id: uuid("tenant_id")
      .primaryKey()
      .references(() => tenants.id, { onDelete: "cascade" }),
    png: bytea("png").notNull(),
    /** SHA-256 (hex) of png: the public address of the image and its cache key. */
    sha256: text("sha256").notNull(),
    width: integer("width").notNull(),
    height: integer("height").notNull(),
    /** What was uploaded: "png", "jpeg" or "svg". */
    formato_original: text("formato_original").notNull(),
    updated_by: uuid("updated_by").references(() => profiles.id, { onDelete: "set null" }),
    updated_at: updatedAt(),
  },
  (t) => [index("clinic_logos_sha256_idx").on(t.sha256)],
);

/**
 * API keys (decision 058): a clinic's other systems act through them as a role of the staff
 * permission table. Only the SHA-256 of the secret is stored; `prefixo` is its visible start.
 */
export const apiKeys = pgTable(
  "api_keys",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenant_id: uuid("tenant_id")
      .notNull()
      .references(() => tenants.id, { onDelete: "cascade" }),
    nome: text("nome").notNull(),
    role: text("role").notNull(),
    prefixo: text("prefixo").notNull(),
    token_hash: text("token_hash").notNull(),
    created_by: uuid("created_by")
      .notNull()
      .references(() => profiles.id, { onDelete: "cascade" }),
    created_at: createdAt(),
    expires_at: timestamp("expires_at", { withTimezone: true }),
    /** Written at most once a minute per key (decision 058), not on every request. */
    last_used_at: timestamp("last_used_at", { withTimezone: true }),
    revoked_at: timestamp("revoked_at", { withTimezone: true }),
    revoked_by: uuid("revoked_by").references(() => profiles.id, { onDelete: "set null" }),
  },
  (t) => [
    uniqueIndex("api_keys_token_hash_unique").on(t.token_hash),
    index("api_keys_tenant_created_idx").on(t.tenant_id, t.created_at.desc().nullsFirst()),
  ],
);

/**
 * Automatic reminders sent (decision 059): one row per document and reminder number, so a reminder
 * is written once however many workers ran its job (the unique key refuses a second).
 */
export const documentReminders = pgTable(
  "document_reminders",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenant_id: uuid("tenant_id").notNull(),
    contrato_id: uuid("contrato_id").notNull(),
    ordem: integer("ordem").notNull(),
    canais: jsonb("canais").$type<string[]>().notNull(),
    enviado_em: timestamp("enviado_em", { withTimezone: true }).notNull(),
  },
  (t) => [
    uniqueIndex("document_reminders_unique").on(t.tenant_id, t.contrato_id, t.ordem),
    foreignKey({
      name: "document_reminders_contrato_fk",
      columns: [t.tenant_id, t.contrato_id],
      foreignColumns: [contratos.tenant_id, contratos.id],
    }).onDelete("cascade"),
  ],
);

/**
 * Messages sent through the WhatsApp Cloud API (decision 059): the provider's id (wamid) and the
 * last delivery status its webhook reported (sent, delivered, read, failed).
 */
export const whatsappMessages = pgTable(
  "whatsapp_messages",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenant_id: uuid("tenant_id").notNull(),
    contrato_id: uuid("contrato_id").notNull(),
    /** link | codigo | lembrete */
    tipo: text("tipo").notNull(),
    /** The recipient, masked (decision 051). */
    destino: text("destino").notNull(),
    wamid: text("wamid"),
    /** queued (job pending) | accepted (API answered) | sent | delivered | read | failed */
    status: text("status").notNull().default("queued"),
    status_at: timestamp("status_at", { withTimezone: true }),
    erro: text("erro"),
    /** After a failure for good: the channel the message went by instead — sms | email | nenhum (decision 066). */
    fallback: text("fallback"),
    created_at: createdAt(),
  },
  (t) => [
    uniqueIndex("whatsapp_messages_wamid_unique").on(t.wamid),
    index("whatsapp_messages_contrato_idx").on(t.tenant_id, t.contrato_id),
    foreignKey({
      name: "whatsapp_messages_contrato_fk",
      columns: [t.tenant_id, t.contrato_id],
      foreignColumns: [contratos.tenant_id, contratos.id],
    }).onDelete("cascade"),
  ],
);

/**
 * Webhook endpoints of a clinic (decision 062): where the chosen events are POSTed, signed with
 * the endpoint's secret (Standard Webhooks), which is kept sealed with the instance key.
 */
export const webhookEndpoints = pgTable(
  "webhook_endpoints",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenant_id: uuid("tenant_id")
      .notNull()
      .references(() => tenants.id, { onDelete: "cascade" }),
    url: text("url").notNull(),
    descricao: text("descricao"),
    eventos: text("eventos").array().notNull(),
    segredo_sealed: bytea("segredo_sealed").notNull(),
    /** The secret before the last rotation: it still signs, next to the new one, until `segredo_anterior_ate`. */
    segredo_anterior_sealed: bytea("segredo_anterior_sealed"),
    segredo_anterior_ate: timestamp("segredo_anterior_ate", { withTimezone: true }),
    ativo: boolean("ativo").notNull().default(true),
    /** The first failed attempt since the last success; three days of it disable the endpoint. */
    falhando_desde: timestamp("falhando_desde", { withTimezone: true }),
    desativado_em: timestamp("desativado_em", { withTimezone: true }),
    created_by: uuid("created_by").references(() => profiles.id, { onDelete: "set null" }),
    created_at: createdAt(),
    updated_at: updatedAt(),
  },
  (t) => [index("webhook_endpoints_tenant_idx").on(t.tenant_id, t.created_at)],
);

/**
 * One event for one endpoint (decision 062), written with the change by the audit trail's trigger
 * (migration 0045); `corpo` is the exact JSON body sent at every attempt.
 */
export const webhookDeliveries = pgTable(
  "webhook_deliveries",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenant_id: uuid("tenant_id")
      .notNull()
      .references(() => tenants.id, { onDelete: "cascade" }),
    endpoint_id: uuid("endpoint_id")
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: "cascade" }),
    evento: text("evento").notNull(),
    corpo: text("corpo").notNull(),
    status: text("status", { enum: ["pending", "sending", "delivered", "failed"] })
      .notNull()
      .default("pending"),
    tentativas: integer("tentativas").notNull().default(0),
    proxima_tentativa_em: timestamp("proxima_tentativa_em", { withTimezone: true }),
    /** Set at the first attempt (or a Reenviar): three days after it, a failure is final. */
    tentar_ate: timestamp("tentar_ate", { withTimezone: true }),
    ultima_tentativa_em: timestamp("ultima_tentativa_em", { withTimezone: true }),
    ultimo_status_http: integer("ultimo_status_http"),
    ultima_duracao_ms: integer("ultima_duracao_ms"),
    ultimo_erro: text("ultimo_erro"),
    entregue_em: timestamp("entregue_em", { withTimezone: true }),
    created_at: createdAt(),
  },
  (t) => [index("webhook_deliveries_endpoint_idx").on(t.endpoint_id, t.created_at.desc().nullsFirst())],
);
