import type { Db } from "../../../db/client.js";
import { withTenant } from "../../../db/tenant-scope.js";
import type { ProfessionalOrder } from "../../../shared/signing-rules.js";
import type { Actor } from "../../policies/roles.js";
import {
  type EmailChannel,
  professionalCodeSetting,
  professionalOrder,
  requiresEmailCode,
} from "./signing-settings.js";

export interface SigningSettings {
  codigo_email: boolean;
  /** When the responsible professional signs (decision 050). */
  ordem_profissional: ProfessionalOrder;
  /**
   * The professional signs with password AND the code sent to their account's e-mail (decision
   * 078); when never set, on exactly where SMTP is configured.
   */
  codigo_profissional: boolean;
}

/** The clinic's setting, and whether this server can deliver codes and e-mails at all. */
export interface SigningSettingsView extends SigningSettings {
  /** SMTP is configured: e-mails really leave the server. */
  email_configurado: boolean;
  /** An e-mail to the patient can be read: SMTP, or the development outbox viewer (never in production without SMTP). */
  email_entregavel: boolean;
  /** A code can reach a patient now (SMTP, the development outbox, SMS or WhatsApp). */
  codigo_disponivel: boolean;
  /** Codes can also go by SMS (SMS_API_TOKEN). */
  sms_configurado: boolean;
}

export async function getSigningSettings(db: Db, actor: Actor, channel: EmailChannel): Promise<SigningSettingsView> {
  return withTenant(db, actor.tenantId, async (tx) => ({
    codigo_email: await requiresEmailCode(tx, actor.tenantId),
    ordem_profissional: await professionalOrder(tx, actor.tenantId),
    codigo_profissional: await professionalCodeSetting(tx, actor.tenantId, channel),
    email_configurado: channel.smtp,
    email_entregavel: channel.usable,
    codigo_disponivel: channel.usable || channel.sms || channel.whatsapp === true,
    sms_configurado: channel.sms,
  }));
}
