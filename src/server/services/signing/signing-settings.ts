import { eq } from "drizzle-orm";
import type { Tx } from "../../../db/client.js";
import { tenants } from "../../../db/schema.js";
import { type ProfessionalOrder, professionalOrderOf, type SignatureLevel } from "../../../shared/signing-rules.js";
import { isMobilePhone } from "../../../shared/br/phone.js";
import type { Env } from "../../env.js";

/**
 * Does the clinic ask for the one-time code before signing? (tenants.settings.assinatura). On by
 * default: only a clinic that turned it off in Configurações signs without it.
 */
export async function requiresEmailCode(tx: Tx, tenantId: string): Promise<boolean> {
  const [row] = await tx.select({ settings: tenants.settings }).from(tenants).where(eq(tenants.id, tenantId)).limit(1);
  return row?.settings.assinatura?.codigo_email !== false;
}

/**
 * The clinic's stored choice for the professional's code (decision 078): what it set in
 * Configurações, or — never set — on exactly when e-mail really leaves this server (SMTP).
 */
export async function professionalCodeSetting(tx: Tx, tenantId: string, channel: EmailChannel): Promise<boolean> {
  const [row] = await tx.select({ settings: tenants.settings }).from(tenants).where(eq(tenants.id, tenantId)).limit(1);
  return row?.settings.assinatura?.codigo_profissional ?? channel.smtp;
}

/**
 * Must this professional signature carry the code? The clinic's setting, when a code can reach the
 * professional's e-mail at all (never a code that cannot arrive: without e-mail, password alone,
 * recorded as simple).
 */
export async function requiresProfessionalCode(tx: Tx, tenantId: string, channel: EmailChannel): Promise<boolean> {
  return channel.usable && (await professionalCodeSetting(tx, tenantId, channel));
}

/** When the clinic's responsible professional signs (tenants.settings.assinatura, decision 050). */
export async function professionalOrder(tx: Tx, tenantId: string): Promise<ProfessionalOrder> {
  const [row] = await tx.select({ settings: tenants.settings }).from(tenants).where(eq(tenants.id, tenantId)).limit(1);
  return professionalOrderOf(row?.settings.assinatura?.ordem_profissional);
}

/**
 * The ways a code can travel from this server: e-mail (with SMTP; in development the outbox viewer
 * stands in) and SMS (with an SMS provider configured, decision 018).
 */
export interface EmailChannel {
  /** SMTP_URL is set: e-mail really leaves the server. */
  smtp: boolean;
  /** A code sent by e-mail now can reach the patient (SMTP, or the development outbox). */
  usable: boolean;
  /** SMS_API_TOKEN is set: codes can go by SMS to a mobile on the patient's record. */
  sms: boolean;
  /** The WhatsApp Cloud API is configured: codes can go by WhatsApp to that mobile (decision 059). */
  whatsapp?: boolean;
}

export function emailChannelOf(
  env: Pick<Env, "SMTP_URL" | "NODE_ENV"> &
    Partial<Pick<Env, "SMS_API_TOKEN" | "WHATSAPP_PHONE_NUMBER_ID" | "WHATSAPP_ACCESS_TOKEN">>,
): EmailChannel {
  const smtp = Boolean(env.SMTP_URL);
  const channel: EmailChannel = {
    smtp,
    usable: smtp || env.NODE_ENV !== "production",
    sms: Boolean(env.SMS_API_TOKEN),
  };
  if (env.WHATSAPP_PHONE_NUMBER_ID && env.WHATSAPP_ACCESS_TOKEN) channel.whatsapp = true;
  return channel;
}

export type CodeChannel = "email" | "sms" | "whatsapp";

export interface SigningRequirement {
  codeRequired: boolean;
  /** Where the code can go for this patient, preferred first (e-mail, then SMS). */
  channels: CodeChannel[];
  level: SignatureLevel;
  /** Why the signature will be simple, in pt-BR (null when advanced). */
  reason: string | null;
}

/**
 * What signing this document asks for: the code when the clinic wants it AND a channel can deliver
 * it to an address on the patient's record — never a code that cannot arrive.
 */
export function signingRequirement(
  settingOn: boolean,
  channel: EmailChannel,
  contact: { email: string | null; telefone: string | null },
): SigningRequirement {
  const simple = (reason: string): SigningRequirement => ({
    codeRequired: false,
    channels: [],
    level: "simples",
    reason,
  });
  if (!settingOn) return simple("A clínica desativou o código de verificação.");
  const channels: CodeChannel[] = [];
  if (channel.usable && contact.email) channels.push("email");
  if (channel.whatsapp && isMobilePhone(contact.telefone)) channels.push("whatsapp");
  if (channel.sms && isMobilePhone(contact.telefone)) channels.push("sms");
  if (channels.length > 0) return { codeRequired: true, channels, level: "avancada", reason: null };
  if (!channel.usable && !channel.sms && !channel.whatsapp)
    return simple("O envio de e-mail não está configurado neste servidor.");
  if (channel.sms || channel.whatsapp)
    return simple("O paciente não tem e-mail nem celular cadastrado para receber o código.");
  return simple("O paciente não tem e-mail cadastrado para receber o código.");
}
