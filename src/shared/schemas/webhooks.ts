import { z } from "zod";
import { optionalText } from "./common.js";
import { text } from "./safe-input.js";

/**
 * Webhooks (decision 062): the events a clinic's endpoint may choose. The names are those of the
 * audit trail's actions, and the `type` of each delivered body.
 */
export const WEBHOOK_EVENTS = [
  "document.created",
  "document.sent",
  "document.viewed",
  "document.signed",
  "document.refused",
  "document.revoked",
  "document.expired",
  "document.cancelled",
  "document.sealed",
  "patient.created",
  "patient.updated",
] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

export const WEBHOOK_EVENT_LABEL: Record<WebhookEvent, string> = {
  "document.created": "Documento criado",
  "document.sent": "Documento enviado",
  "document.viewed": "Documento visualizado",
  "document.signed": "Documento assinado",
  "document.refused": "Documento recusado",
  "document.revoked": "Consentimento revogado",
  "document.expired": "Documento expirado",
  "document.cancelled": "Documento cancelado",
  "document.sealed": "PDF final selado",
  "patient.created": "Paciente cadastrado",
  "patient.updated": "Paciente alterado",
};

/**
 * "Enviar evento de teste": a delivery of this type carries no document or patient, only the
 * endpoint's id, so a receiver can check its URL and signature before real events arrive.
 */
export const WEBHOOK_TEST_EVENT = "webhook.test";
export const WEBHOOK_DELIVERY_EVENTS = [...WEBHOOK_EVENTS, WEBHOOK_TEST_EVENT] as const;
export type WebhookDeliveryEvent = (typeof WEBHOOK_DELIVERY_EVENTS)[number];
export const WEBHOOK_DELIVERY_EVENT_LABEL: Record<WebhookDeliveryEvent, string> = {
  ...WEBHOOK_EVENT_LABEL,
  [WEBHOOK_TEST_EVENT]: "Evento de teste",
};

/** After a rotation the previous secret still signs, next to the new one, for this long. */
export const WEBHOOK_SECRET_GRACE_MS = 24 * 60 * 60 * 1000;

export const WEBHOOK_DELIVERY_STATUSES = ["pending", "sending", "delivered", "failed"] as const;
export type WebhookDeliveryStatus = (typeof WEBHOOK_DELIVERY_STATUSES)[number];
export const WEBHOOK_DELIVERY_STATUS_LABEL: Record<WebhookDeliveryStatus, string> = {
  pending: "Aguardando nova tentativa",
  sending: "Enviando",
  delivered: "Entregue",
  failed: "Falhou",
};

/** Standard Webhooks secret: `whsec_` + the base64 of 32 random bytes. */
export const WEBHOOK_SECRET_PATTERN = /^whsec_[A-Za-z0-9+/]{43}=$/;

export const WEBHOOK_MESSAGES = {
  urlRequired: "Informe a URL do endpoint",
  urlInvalid: "URL inválida: use um endereço http:// ou https:// completo",
  urlHttpsRequired: "Use uma URL https:// (obrigatório em produção)",
  urlCredentials: "A URL não pode conter usuário ou senha",
  eventsRequired: "Escolha ao menos um evento",
  eventInvalid: "Evento desconhecido",
};

/** A URL of at most 2,000 characters, http(s), without user or password (HTTPS is checked by the server in production). */
export const webhookUrlField = text({ error: WEBHOOK_MESSAGES.urlRequired })
  .trim()
  .min(1, { error: WEBHOOK_MESSAGES.urlRequired, abort: true })
  .max(2000, "Use no máximo 2000 caracteres")
  .refine((value) => {
    try {
      const url = new URL(value);
      return (url.protocol === "https:" || url.protocol === "http:") && url.hostname !== "";
    } catch {
      return false;
    }
  }, WEBHOOK_MESSAGES.urlInvalid)
  .refine((value) => {
    try {
      const url = new URL(value);
      return url.username === "" && url.password === "";
    } catch {
      return true;
    }
  }, WEBHOOK_MESSAGES.urlCredentials);

const eventsField = z
  .array(z.enum(WEBHOOK_EVENTS, { error: WEBHOOK_MESSAGES.eventInvalid }), { error: WEBHOOK_MESSAGES.eventsRequired })
  .min(1, WEBHOOK_MESSAGES.eventsRequired)
  .max(WEBHOOK_EVENTS.length, WEBHOOK_MESSAGES.eventsRequired)
  .transform((events) => [...new Set(events)]);

export const webhookEndpointInputSchema = z.object({
  url: webhookUrlField,
  descricao: optionalText(200),
  eventos: eventsField,
});
export type WebhookEndpointInput = z.input<typeof webhookEndpointInputSchema>;

export const webhookEndpointUpdateSchema = z
  .object({
    url: webhookUrlField.optional(),
    descricao: optionalText(200).nullable(),
    eventos: eventsField.optional(),
    /** true: reactivates an endpoint disabled after three days of failures. */
    ativo: z.boolean({ error: "ativo deve ser verdadeiro ou falso" }).optional(),
  })
  .refine((body) => Object.values(body).some((v) => v !== undefined), {
    error: "Informe ao menos um campo para alterar",
  });
export type WebhookEndpointUpdate = z.input<typeof webhookEndpointUpdateSchema>;

export const webhookEndpointSchema = z.object({
  id: z.string(),
  url: z.string(),
  descricao: z.string().nullable(),
  eventos: z.array(z.enum(WEBHOOK_EVENTS)),
  ativo: z.boolean(),
  /** Failing since (ISO 8601): the first failed attempt after the last success. */
  falhando_desde: z.string().nullable(),
  desativado_em: z.string().nullable(),
  /** After a rotation: until when (ISO 8601) the previous secret still signs, next to the new one. */
  segredo_anterior_ate: z.string().nullable(),
  criado_em: z.string(),
});
export type WebhookEndpointView = z.infer<typeof webhookEndpointSchema>;

export const createdWebhookEndpointSchema = z.object({
  endpoint: webhookEndpointSchema,
  /** The signing secret (`whsec_…`): shown this once; rotate it to get a new one. */
  segredo: z.string(),
});
export type CreatedWebhookEndpoint = z.infer<typeof createdWebhookEndpointSchema>;

export const rotatedWebhookSecretSchema = z.object({
  /** The new secret (`whsec_…`): shown this once. */
  segredo: z.string(),
  /** Until when (ISO 8601) the previous secret still signs too: 24 hours from the rotation. */
  anterior_valido_ate: z.string(),
});
export type RotatedWebhookSecret = z.infer<typeof rotatedWebhookSecretSchema>;

/** "Enviar evento de teste": no fields; a body, if any, must be an empty JSON object. */
export const webhookTestEventInputSchema = z
  .object({}, { error: "Envie um objeto JSON vazio ou nenhum corpo" })
  .strict()
  .nullish();

export const webhookDeliverySchema = z.object({
  /** Also the `webhook-id` header (with the `msg_` prefix): the same at every attempt. */
  id: z.string(),
  evento: z.enum(WEBHOOK_DELIVERY_EVENTS),
  status: z.enum(WEBHOOK_DELIVERY_STATUSES),
  tentativas: z.number().int(),
  criado_em: z.string(),
  ultima_tentativa_em: z.string().nullable(),
  proxima_tentativa_em: z.string().nullable(),
  ultimo_status_http: z.number().int().nullable(),
  ultima_duracao_ms: z.number().int().nullable(),
  ultimo_erro: z.string().nullable(),
  entregue_em: z.string().nullable(),
  /** The JSON body sent (ids, status and times only). */
  corpo: z.string(),
});
export type WebhookDeliveryView = z.infer<typeof webhookDeliverySchema>;
