import { type SQL, sql } from "drizzle-orm";
import type { NoticeAudience } from "../../../shared/notices/notice-audience.js";
import {
  CERTIFICATE_NOTICE_DAYS,
  DOCUMENT_EXPIRY_NOTICE_HOURS,
  RECENT_NOTICE_DAYS,
} from "../../../shared/notices/notice-kinds.js";

/** Whose notices, at what moment, and since when signatures count (decision 028). */
export interface NoticeScope {
  tenantId: string;
  profileId: string;
  audience: NoticeAudience;
  now: Date;
  /** "Assinado desde a sua última visita" counts from here. */
  signedSince: Date;
  /** Only notices about these rows (checking the keys a user marks read). */
  only?: readonly string[];
}

const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;
const instant = (date: Date) => sql`${date.toISOString()}::timestamptz`;

/**
 * One SELECT per kind, each walking an index of its own table with the tenant first:
 * contratos_tenant_status_idx (viewed, expiring), contratos_tenant_signed_idx (signed),
 * email_outbox_tenant_failed_idx, feegow_uploads_tenant_status_idx, certificados (few rows),
 * system_notices_tenant_created_idx. Each row is (kind, id, at): `at` is when it became a notice.
 */
function branches(scope: NoticeScope): SQL[] {
  const { tenantId, profileId, audience, now } = scope;
  const tenant = sql`${tenantId}::uuid`;
  const only = (column: SQL) =>
    scope.only
      ? sql` and ${column} in (${sql.join(
          scope.only.map((id) => sql`${id}::uuid`),
          sql`, `,
        )})`
      : sql``;
  const soon = instant(new Date(now.getTime() + DOCUMENT_EXPIRY_NOTICE_HOURS * HOUR_MS));
  const out: SQL[] = [];

  if (audience.documents !== "none") {
    const own = audience.documents === "own" ? sql` and c.medico_responsavel_id = ${profileId}::uuid` : sql``;
    // Viewed and not signed, while it has more than 48 h left (then it is "about to expire").
    out.push(sql`select 'document.viewed'::text as kind, c.id, coalesce(c.viewed_at, c.updated_at) as at
      from contratos c
      where c.tenant_id = ${tenant} and c.status = 'viewed' and c.expiracao_at > ${soon}${own}${only(sql`c.id`)}`);
    // Sent or viewed, expiring within 48 h; a notice from the moment it entered that window.
    out.push(sql`select 'document.expiring'::text as kind, c.id,
        greatest(c.expiracao_at - interval '${sql.raw(String(DOCUMENT_EXPIRY_NOTICE_HOURS))} hours', coalesce(c.sent_at, c.created_at)) as at
      from contratos c
      where c.tenant_id = ${tenant} and c.status in ('sent', 'viewed') and c.expiracao_at > ${instant(now)} and c.expiracao_at <= ${soon}${own}${only(sql`c.id`)}`);
    out.push(sql`select 'document.signed'::text as kind, c.id, c.signed_at as at
      from contratos c
      where c.tenant_id = ${tenant} and c.signed_at is not null and c.signed_at > ${instant(scope.signedSince)} and c.status = 'signed'${own}${only(sql`c.id`)}`);
  }
  // Decision 056: a refusal or revocation, for the documents audience and always for the
  // document's responsible professional.
  const mineOrAll = audience.documents === "all" ? sql`` : sql` and c.medico_responsavel_id = ${profileId}::uuid`;
  out.push(sql`select 'document.refused'::text as kind, c.id, c.recusado_at as at
    from contratos c
    where c.tenant_id = ${tenant} and c.status = 'recusado' and c.recusado_at > ${instant(new Date(now.getTime() - RECENT_NOTICE_DAYS * DAY_MS))}${mineOrAll}${only(sql`c.id`)}`);
  out.push(sql`select 'document.revoked'::text as kind, c.id, c.revogado_at as at
    from contratos c
    where c.tenant_id = ${tenant} and c.revogado_at is not null and c.revogado_at > ${instant(new Date(now.getTime() - RECENT_NOTICE_DAYS * DAY_MS))}${mineOrAll}${only(sql`c.id`)}`);
  // Decision 061: the patient asked to talk to the professional; while the document still waits.
  out.push(sql`select 'document.paused'::text as kind, c.id, c.compreensao_pausada_at as at
    from contratos c
    where c.tenant_id = ${tenant} and c.compreensao_pausada_at is not null and c.status in ('sent', 'viewed')${mineOrAll}${only(sql`c.id`)}`);
  // Whoever is responsible for documents not yet signed by them, whatever their audience: one
  // notice, its instant the newest such document's sending, so a new one makes it unread again.
  out.push(sql`select 'professional.awaiting'::text as kind, ${profileId}::uuid as id, max(coalesce(c.sent_at, c.created_at)) as at
    from contratos c
    where c.tenant_id = ${tenant} and c.medico_responsavel_id = ${profileId}::uuid and c.status in ('sent', 'viewed') and c.expiracao_at > ${instant(now)}
      and not exists (select 1 from contrato_partes pp where pp.tenant_id = c.tenant_id and pp.contrato_id = c.id and pp.papel = 'profissional')${only(sql`${profileId}::uuid`)}
    having count(*) > 0`);
  if (audience.feegowFailures) {
    out.push(sql`select 'feegow.failed'::text as kind, f.id, f.updated_at as at
      from feegow_uploads f
      where f.tenant_id = ${tenant} and f.status = 'falhou'${only(sql`f.id`)}`);
  }
  if (audience.certificates !== "none") {
    const own = audience.certificates === "own" ? sql` and k.owner_profile_id = ${profileId}::uuid` : sql``;
    const horizon = instant(new Date(now.getTime() + CERTIFICATE_NOTICE_DAYS * DAY_MS));
    out.push(sql`select case when k.vence_em <= ${instant(now)} then 'certificate.expired' else 'certificate.expiring' end::text as kind, k.id,
        case when k.vence_em <= ${instant(now)} then k.vence_em
             else greatest(k.vence_em - interval '${sql.raw(String(CERTIFICATE_NOTICE_DAYS))} days', k.created_at) end as at
      from certificados k
      where k.tenant_id = ${tenant} and k.is_active and k.vence_em <= ${horizon}${own}${only(sql`k.id`)}`);
  }
  if (audience.operations) {
    const recent = instant(new Date(now.getTime() - RECENT_NOTICE_DAYS * DAY_MS));
    // The last attempt's time (the outbox keeps each attempt in `attempts`).
    out.push(sql`select 'email.failed'::text as kind, e.id, coalesce((e.attempts -> -1 ->> 'at')::timestamptz, e.created_at) as at
      from email_outbox e
      where e.tenant_id = ${tenant} and e.status = 'failed' and e.created_at > ${recent}${only(sql`e.id`)}`);
    out.push(sql`select 'system'::text as kind, s.id, s.created_at as at
      from system_notices s
      where s.tenant_id = ${tenant} and s.created_at > ${recent}${only(sql`s.id`)}`);
  }
  return out;
}

/**
 * The user's notices as rows (kind, id, at, key): the key is kind + row + `at` in epoch
 * microseconds — what a client sends back to mark it read.
 */
export function noticeRows(scope: NoticeScope): SQL {
  const parts = branches(scope);
  const union =
    parts.length > 0
      ? sql.join(parts, sql` union all `)
      : sql`select null::text as kind, null::uuid as id, null::timestamptz as at where false`;
  return sql`select n.kind, n.id, n.at, n.kind || ':' || n.id::text || ':' || floor(extract(epoch from n.at) * 1000000)::bigint::text as key
    from (${union}) n`;
}

/** Whether row `k` of noticeRows is read: covered by "Marcar todas como lidas", or its key was marked. */
export function isRead(scope: Pick<NoticeScope, "tenantId" | "profileId">, readAllAt: Date | null): SQL {
  const all = readAllAt ? sql`k.at <= ${instant(readAllAt)} or ` : sql``;
  return sql`(${all}exists (select 1 from notice_reads r
    where r.tenant_id = ${scope.tenantId}::uuid and r.profile_id = ${scope.profileId}::uuid and r.notice_key = k.key))`;
}
