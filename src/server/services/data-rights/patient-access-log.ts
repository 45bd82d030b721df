import { and, asc, eq, inArray, or } from "drizzle-orm";
import type { Tx } from "../../../db/client.js";
import { auditEvents, profiles } from "../../../db/schema.js";
import { auditActionLabel } from "../../../shared/audit/labels.js";
import { ROLE_LABEL, type Role } from "../../../shared/permissions.js";
import { formatDateTimeSeconds } from "../../../shared/format/index.js";
import { apiKeyActorLabel } from "../audit/actor-label.js";

/** One line of a patient's access log: who did what with their data, and when (São Paulo time). */
export interface AccessLogEntry {
  data_hora: string;
  /** The same instant in UTC (ISO 8601), for machines. */
  instante_utc: string;
  quem: string;
  papel: string;
  acao: string;
  /** The document concerned (its title), when the event is about one. */
  documento: string | null;
  /** Position in the clinic's audit chain (to find the event in a full export). */
  seq: number;
}

/** Events with no staff member behind them come from the signing link, or from the server itself. */
const SIGNER_ACTIONS = new Set([
  "document.opened",
  "document.viewed",
  "document.otp_sent",
  "document.otp_verified",
  "document.otp_email_outbox",
  "document.party_signed",
  "document.sign_attempt_failed",
  "document.signed_pdf_downloaded_by_signer",
]);

/** "26/11/2026 02:30:15" in São Paulo. */
export function saoPauloDateTime(instant: Date): string {
  return formatDateTimeSeconds(instant);
}

/** An event made through an API key names the key first, then the person who created it (decision 058). */
function roleLabel(role: string | null, isOwner: boolean | null): string {
  if (role === null) return "—";
  const label = ROLE_LABEL[role as Role] ?? role;
  return isOwner ? `${label} (proprietário)` : label;
}

/**
 * Every event about the patient's record and their documents, oldest first (LGPD art. 18 II and
 * the DESIGN §4 duty to log who viewed or downloaded what). Reads only the session's clinic: the
 * caller's transaction runs under its row-level security, and every WHERE names the tenant.
 */
export async function loadPatientAccessLog(
  tx: Tx,
  tenantId: string,
  patientId: string,
  documents: readonly { id: string; titulo: string }[],
): Promise<AccessLogEntry[]> {
  const titles = new Map(documents.map((d) => [d.id, d.titulo]));
  const about = documents.length
    ? or(
        and(eq(auditEvents.entity_type, "paciente"), eq(auditEvents.entity_id, patientId)),
        and(
          eq(auditEvents.entity_type, "contrato"),
          inArray(
            auditEvents.entity_id,
            documents.map((d) => d.id),
          ),
        ),
      )
    : and(eq(auditEvents.entity_type, "paciente"), eq(auditEvents.entity_id, patientId));
  const rows = await tx
    .select({
      seq: auditEvents.seq,
      action: auditEvents.action,
      entity_type: auditEvents.entity_type,
      entity_id: auditEvents.entity_id,
      created_at: auditEvents.created_at,
      actor_id: auditEvents.actor_profile_id,
      data: auditEvents.data,
      actor_nome: profiles.nome,
      actor_role: profiles.role,
      actor_owner: profiles.is_proprietario,
    })
    .from(auditEvents)
    .leftJoin(
      profiles,
      and(eq(profiles.tenant_id, auditEvents.tenant_id), eq(profiles.id, auditEvents.actor_profile_id)),
    )
    .where(and(eq(auditEvents.tenant_id, tenantId), about))
    .orderBy(asc(auditEvents.seq));
  return rows.map((row) => ({
    data_hora: saoPauloDateTime(row.created_at),
    instante_utc: row.created_at.toISOString(),
    quem:
      apiKeyActorLabel(row.data, row.actor_nome) ??
      row.actor_nome ??
      (row.actor_id
        ? "Usuário removido"
        : SIGNER_ACTIONS.has(row.action)
          ? "Signatário (pelo link de assinatura)"
          : "Sistema"),
    papel: row.actor_nome
      ? roleLabel(row.actor_role, row.actor_owner)
      : row.actor_id
        ? "—"
        : SIGNER_ACTIONS.has(row.action)
          ? "Signatário"
          : "Sistema",
    acao: auditActionLabel(row.action),
    documento: row.entity_type === "contrato" && row.entity_id ? (titles.get(row.entity_id) ?? null) : null,
    seq: row.seq,
  }));
}
