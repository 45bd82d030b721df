import { createHmac, randomBytes } from "node:crypto";
import type { SecretBox } from "../../lib/secret-box.js";

/** The sealed secret is bound to its endpoint: a row's secret copied onto another does not open. */
const sealContext = (endpointId: string) => `webhook-endpoint:${endpointId}`;

/** A new Standard Webhooks secret: `whsec_` + base64 of 32 random bytes (decision 062). */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString("base64")}`;
}

export function sealWebhookSecret(secretBox: SecretBox, endpointId: string, secret: string): Buffer {
  return secretBox.seal(secret, sealContext(endpointId));
}

export function openWebhookSecret(secretBox: SecretBox, endpointId: string, sealed: Uint8Array): string {
  return secretBox.open(sealed, sealContext(endpointId)).toString("utf8");
}

/**
 * The `webhook-signature` header of Standard Webhooks: `v1,` + base64 of HMAC-SHA256, keyed with the
 * base64-decoded part of the secret after `whsec_`, over `${id}.${timestamp}.${body}`.
 */
export function signWebhook(secret: string, id: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.slice("whsec_".length), "base64");
  return `v1,${createHmac("sha256", key).update(`${id}.${timestamp}.${body}`).digest("base64")}`;
}

/** The `webhook-id` of a delivery: the same at every attempt, so receivers can drop repeats. */
export const webhookMessageId = (deliveryId: string) => `msg_${deliveryId}`;
