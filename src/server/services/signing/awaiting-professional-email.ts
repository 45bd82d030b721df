import { and, eq, sql } from "drizzle-orm";
import type { Tx } from "../../../db/client.js";
import { contratos, profiles, tenants } from "../../../db/schema.js";
import { AWAITING_PROFESSIONAL_PATH, awaitingProfessionalTitle } from "../../../shared/notices/notice-text.js";
import type { SecretBox } from "../../lib/secret-box.js";
import { awaitingProfessional } from "../documents/document-filters.js";
import { enqueueEmail } from "../email/enqueue-email.js";

/**
 * A document just sent before its responsible professional signed (decision 050): the
 * professional gets an e-mail "N documentos aguardam sua assinatura" with the screen where they
 * sign them together — unless they sent it themselves. In the sending transaction, through the
 * outbox like every e-mail; N counts this document too.
 */
export async function emailAwaitingProfessional(
  tx: Tx,
  box: SecretBox,
  input: { tenantId: string; professionalId: string; senderId: string; origin: string; now: Date },
): Promise<void> {
  if (input.professionalId === input.senderId) return;
  const [professional] = await tx
    .select({ nome: profiles.nome, email: profiles.email })
    .from(profiles)
    .where(and(eq(profiles.tenant_id, input.tenantId), eq(profiles.id, input.professionalId)))
    .limit(1);
  if (!professional?.email) return;
  const [waiting] = await tx
    .select({ n: sql<number>`count(*)::int` })
    .from(contratos)
    .where(
      and(
        eq(contratos.tenant_id, input.tenantId),
        eq(contratos.medico_responsavel_id, input.professionalId),
        awaitingProfessional(input.now),
      ),
    );
  const n = Number(waiting?.n ?? 0);
  if (n === 0) return;
  const [clinic] = await tx
    .select({ nome: tenants.nome, nome_fantasia: tenants.nome_fantasia })
    .from(tenants)
    .where(eq(tenants.id, input.tenantId))
    .limit(1);
  const clinica = clinic ? (clinic.nome_fantasia ?? clinic.nome) : "Consentir";
  const first = professional.nome.trim().split(/\s+/)[0] ?? professional.nome;
  const title = awaitingProfessionalTitle(n);
  await enqueueEmail(tx, box, {
    tenantId: input.tenantId,
    to: professional.email,
    subject: `${clinica}: ${title}`,
    text:
      `Olá, ${first}!\n\n` +
      `${n === 1 ? "Um documento foi enviado ao paciente e espera" : `${n} documentos enviados aos pacientes esperam`} ` +
      `a declaração do profissional, que só você pode assinar. ` +
      `O documento só fica concluído quando todas as partes assinam.\n\n` +
      `Assine pelo Consentir, um a um ou todos de uma vez: ${input.origin}${AWAITING_PROFESSIONAL_PATH}\n`,
  });
}
