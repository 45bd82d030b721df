import { and, eq, inArray } from "drizzle-orm";
import type { Tx } from "../../../db/client.js";
import { contratos } from "../../../db/schema.js";
import { maskCpf, maskEmail } from "../../../shared/signing-rules.js";
import { type AuditContext, recordAuditEvent } from "../audit/record-audit-event.js";

export const CONTACT_FIELDS = [
  "email",
  "telefone",
  "cpf",
  "responsavel_cpf",
  "responsavel_email",
  "responsavel_telefone",
] as const;
export type ContactField = (typeof CONTACT_FIELDS)[number];

const shown = (key: ContactField, value: string | null) =>
  !value
    ? null
    : key.endsWith("email")
      ? maskEmail(value)
      : key.endsWith("cpf")
        ? maskCpf(value)
        : `(**) *****-${value.replace(/\D/g, "").slice(-4)}`;

/**
 * The code goes to the registered e-mail or mobile: changing a contact of a patient whose document
 * waits for signature is evidence for that document ('patient.contact_changed', printed in the
 * registry), masked as it is printed. `fixedOn`: the document whose page fixed the contact (it gets
 * the event whatever its stored status, marked `corrigido_no_documento`).
 */
export async function recordWaitingContactChanges(
  tx: Tx,
  context: AuditContext,
  input: {
    patientId: string;
    before: Partial<Record<ContactField, string | null>>;
    after: Partial<Record<ContactField, string | null>>;
    changed: readonly string[];
    fixedOn?: string;
  },
): Promise<void> {
  const contact = CONTACT_FIELDS.filter((key) => input.changed.includes(key));
  if (contact.length === 0) return;
  const waiting = await tx
    .select({ id: contratos.id })
    .from(contratos)
    .where(
      and(
        eq(contratos.tenant_id, context.tenantId),
        eq(contratos.paciente_id, input.patientId),
        inArray(contratos.status, ["sent", "viewed"]),
      ),
    );
  const ids = [...new Set([...waiting.map((row) => row.id), ...(input.fixedOn ? [input.fixedOn] : [])])];
  const data = Object.fromEntries(
    contact.map((key) => [
      key,
      { antes: shown(key, input.before[key] ?? null), depois: shown(key, input.after[key] ?? null) },
    ]),
  );
  for (const id of ids) {
    await recordAuditEvent(tx, context, {
      action: "patient.contact_changed",
      entityType: "contrato",
      entityId: id,
      data: {
        paciente_id: input.patientId,
        ...data,
        ...(id === input.fixedOn ? { corrigido_no_documento: true } : {}),
      },
    });
  }
}
