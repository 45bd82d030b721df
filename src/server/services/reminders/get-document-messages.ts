import { and, asc, eq } from "drizzle-orm";
import type { Db } from "../../../db/client.js";
import { whatsappMessages } from "../../../db/schema.js";
import { withTenant } from "../../../db/tenant-scope.js";
import type { DocumentMessages } from "../../../shared/schemas/reminders.js";
import type { Actor } from "../../policies/roles.js";
import { findDocumentOrThrow } from "../documents/find-document.js";
import { listReminders } from "./send-reminder.js";

/** GET /api/documents/:id/messages: the reminders sent and the WhatsApp messages with their status (decision 059). */
export async function getDocumentMessages(db: Db, actor: Actor, id: string): Promise<DocumentMessages> {
  return withTenant(db, actor.tenantId, async (tx) => {
    await findDocumentOrThrow(tx, actor.tenantId, id);
    const lembretes = await listReminders(tx, actor.tenantId, id);
    const whatsapp = await tx
      .select()
      .from(whatsappMessages)
      .where(and(eq(whatsappMessages.tenant_id, actor.tenantId), eq(whatsappMessages.contrato_id, id)))
      .orderBy(asc(whatsappMessages.created_at));
    return {
      lembretes: lembretes.map((r) => ({ ordem: r.ordem, canais: r.canais, enviado_em: r.enviado_em.toISOString() })),
      whatsapp: whatsapp.map((m) => ({
        id: m.id,
        tipo: m.tipo,
        destino: m.destino,
        status: m.status,
        status_em: m.status_at?.toISOString() ?? null,
        erro: m.erro,
        fallback: m.fallback === "sms" || m.fallback === "email" || m.fallback === "nenhum" ? m.fallback : null,
        criado_em: m.created_at.toISOString(),
      })),
    };
  });
}
