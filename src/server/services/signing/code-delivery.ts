import { and, desc, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "../../../db/client.js";
import { auditEvents } from "../../../db/schema.js";
import { withTenant } from "../../../db/tenant-scope.js";
import { loadLinkState } from "./open-signing-page.js";
import { findSigningTokenOrThrow } from "./signing-tokens.js";

export interface CodeDelivery {
  canal: "email" | "sms" | "whatsapp";
  destino: string;
  /** True when this code replaced one WhatsApp could not deliver (decision 066). */
  reenvio_whatsapp: boolean;
}

/**
 * GET /api/public/sign/:token/code: where this link's signer's latest code really went, from the
 * trail ('document.otp_sent', or 'document.otp_email_outbox' without SMTP). The page asks while a
 * WhatsApp code is awaited, so it can say when the code went by SMS or e-mail instead (decision 066).
 * Null when no code was sent yet.
 */
export async function codeDelivery(db: Db, token: string, now = new Date()): Promise<CodeDelivery | null> {
  const link = await findSigningTokenOrThrow(db, token);
  return withTenant(db, link.tenantId, async (tx) => {
    const { document, signer } = await loadLinkState(tx, link, now);
    const [event] = await tx
      .select({ data: auditEvents.data })
      .from(auditEvents)
      .where(
        and(
          eq(auditEvents.tenant_id, link.tenantId),
          eq(auditEvents.entity_type, "contrato"),
          eq(auditEvents.entity_id, document.id),
          inArray(auditEvents.action, ["document.otp_sent", "document.otp_email_outbox"]),
          // This signer's codes only: a witness's carry their id, the patient's none.
          signer.testemunhaId
            ? sql`${auditEvents.data} ->> 'testemunha_id' = ${signer.testemunhaId}`
            : sql`${auditEvents.data} ->> 'testemunha_id' is null`,
        ),
      )
      .orderBy(desc(auditEvents.seq))
      .limit(1);
    if (!event) return null;
    const data = (event.data ?? {}) as {
      canal?: string;
      telefone?: string;
      email?: string;
      reenvio_whatsapp?: boolean;
    };
    const canal = data.canal === "sms" || data.canal === "whatsapp" ? data.canal : "email";
    const destino = (canal === "email" ? data.email : data.telefone) ?? "";
    return { canal, destino, reenvio_whatsapp: data.reenvio_whatsapp === true };
  });
}
