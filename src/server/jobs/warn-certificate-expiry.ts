import { and, eq, gt, inArray, lte, sql } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { auditEvents, certificados, profiles } from "../../db/schema.js";
import { dueExpiryWarning } from "../../shared/certificates/certificate-status.js";
import { dateInSaoPaulo } from "../../shared/dates/sao-paulo.js";
import { CERTIFICATE_EXPIRY_WARNING_DAYS } from "../../shared/reference/limits.js";
import { enqueueEmail } from "../services/email/enqueue-email.js";
import type { SecretBox } from "../lib/secret-box.js";

const BATCH = 200;
const DAY_MS = 24 * 60 * 60 * 1000;

function brDate(instant: Date): string {
  const [year, month, day] = dateInSaoPaulo(instant).split("-");
  return `${day}/${month}/${year}`;
}

function warningText(
  nome: string,
  certificate: { alias: string; cn: string; vence_em: Date },
  daysLeft: number,
  origin: string,
): string {
  const when = daysLeft === 1 ? "amanhã (em 1 dia)" : `em ${daysLeft} dias`;
  return (
    `Olá, ${nome}.\n\n` +
    `O certificado digital "${certificate.alias}" (${certificate.cn}) vence ${when}, em ${brDate(certificate.vence_em)}.\n` +
    "Depois do vencimento ele deixa de ser usado para assinar os documentos da clínica.\n\n" +
    `Renove o certificado com a sua autoridade certificadora e envie o novo arquivo em ${origin}/certificates (aba "Novo Certificado"); ` +
    "o novo substitui o atual.\n\n— Consentir"
  );
}

/**
 * Expiry warnings (decision 019): 30, 7 and 1 days before an active certificate expires, one
 * e-mail per threshold to the clinic's owner (and, for a professional's own certificate, to that
 * professional). The thresholds sent are kept on the row in the same transaction as the e-mail,
 * so a warning is never sent twice nor lost. Runs with the worker's sweep, across clinics.
 */
export async function warnCertificateExpiry(
  db: Db,
  box: SecretBox,
  origin: string,
  now: Date = new Date(),
): Promise<number> {
  let sent = 0;
  const horizon = new Date(now.getTime() + CERTIFICATE_EXPIRY_WARNING_DAYS[0] * DAY_MS);
  for (;;) {
    const done = await db.transaction(async (tx) => {
      const rows = await tx
        .select()
        .from(certificados)
        .where(
          and(
            eq(certificados.is_active, true),
            gt(certificados.vence_em, now),
            lte(certificados.vence_em, horizon),
            sql`not (${certificados.expiry_warnings_sent} @> ${sql.raw(`array[${CERTIFICATE_EXPIRY_WARNING_DAYS.join(",")}]::integer[]`)})`,
          ),
        )
        .orderBy(certificados.vence_em)
        .limit(BATCH)
        .for("update", { skipLocked: true });
      let warned = 0;
      for (const row of rows) {
        const due = dueExpiryWarning(row.vence_em, row.expiry_warnings_sent, now);
        if (!due) continue;
        const recipientIds = [row.owner_profile_id].filter((id): id is string => !!id);
        const recipients = await tx
          .select({ id: profiles.id, nome: profiles.nome, email: profiles.email })
          .from(profiles)
          .where(
            and(
              eq(profiles.tenant_id, row.tenant_id),
              eq(profiles.is_active, true),
              recipientIds.length
                ? sql`(${profiles.is_proprietario} or ${inArray(profiles.id, recipientIds)})`
                : eq(profiles.is_proprietario, true),
            ),
          );
        for (const person of recipients) {
          await enqueueEmail(tx, box, {
            tenantId: row.tenant_id,
            to: person.email,
            subject: `Certificado digital vence em ${due.daysLeft} ${due.daysLeft === 1 ? "dia" : "dias"}: ${row.alias}`,
            text: warningText(person.nome, row, due.daysLeft, origin),
          });
        }
        await tx
          .update(certificados)
          .set({
            expiry_warnings_sent: [...new Set([...row.expiry_warnings_sent, ...due.covers])].sort((a, b) => b - a),
          })
          .where(eq(certificados.id, row.id));
        await tx.insert(auditEvents).values({
          tenant_id: row.tenant_id,
          actor_profile_id: null,
          action: "certificate.expiry_warning_sent",
          entity_type: "certificado",
          entity_id: row.id,
          data: { dias: due.threshold, dias_restantes: due.daysLeft, destinatarios: recipients.length },
        });
        warned += 1;
      }
      return { warned, scanned: rows.length };
    });
    sent += done.warned;
    if (done.scanned < BATCH || done.warned === 0) return sent;
  }
}
