import { eq } from "drizzle-orm";
import type { Tx } from "../../../db/client.js";
import { tenants } from "../../../db/schema.js";
import type { SignatureLevel } from "../../../shared/signing-rules.js";
import type { Env } from "../../env.js";

/**
 * Does the clinic ask for the one-time code before signing? (tenants.settings.assinatura). On by
 * default (issue 11): only a clinic that turned it off in Configurações signs without it.
 */
export async function requiresEmailCode(tx: Tx, tenantId: string): Promise<boolean> {
  const [row] = await tx.select({ settings: tenants.settings }).from(tenants).where(eq(tenants.id, tenantId)).limit(1);
  return row?.settings.assinatura?.codigo_email !== false;
}

/** Can a code sent by e-mail arrive? With SMTP, yes; in development the outbox viewer stands in. */
export interface EmailChannel {
  /** SMTP_URL is set: e-mail really leaves the server. */
  smtp: boolean;
  /** A code sent now can reach the patient (SMTP, or the development outbox). */
  usable: boolean;
}

export function emailChannelOf(env: Pick<Env, "SMTP_URL" | "NODE_ENV">): EmailChannel {
  const smtp = Boolean(env.SMTP_URL);
  return { smtp, usable: smtp || env.NODE_ENV !== "production" };
}

export interface SigningRequirement {
  codeRequired: boolean;
  level: SignatureLevel;
  /** Why the signature will be simple, in pt-BR (null when advanced). */
  reason: string | null;
}

/**
 * What signing this document asks for: the code when the clinic wants it AND a channel can deliver
 * it to an address on the patient's record — never a code that cannot arrive (issue 11).
 */
export function signingRequirement(settingOn: boolean, channel: EmailChannel, patientEmail: string | null): SigningRequirement {
  if (!settingOn) return { codeRequired: false, level: "simples", reason: "A clínica desativou o código de verificação." };
  if (!channel.usable) return { codeRequired: false, level: "simples", reason: "O envio de e-mail não está configurado neste servidor." };
  if (!patientEmail) return { codeRequired: false, level: "simples", reason: "O paciente não tem e-mail cadastrado para receber o código." };
  return { codeRequired: true, level: "avancada", reason: null };
}
