import { and, eq, inArray, sql } from "drizzle-orm";
import type { Tx } from "../../../db/client.js";
import { certificados, contratos, emailOutbox, feegowUploads, pacientes, systemNotices } from "../../../db/schema.js";
import type { NoticeKind } from "../../../shared/notices/notice-kinds.js";
import { awaitingProfessional } from "../documents/document-filters.js";

/** A row of noticeRows as a page holds it. */
export interface NoticeRow {
  kind: NoticeKind;
  id: string;
  key: string;
  /** ISO 8601 UTC with microseconds (also the page cursor's time). */
  at: string;
  lido: boolean;
}

/** What the page's notices need to be told in words, read by id (at most a page of each). */
export interface NoticeDetails {
  documents: Map<
    string,
    {
      titulo: string;
      status: string;
      viewed_at: Date | null;
      expiracao_at: Date;
      signed_at: Date | null;
      recusado_at: Date | null;
      revogado_at: Date | null;
      compreensao_pausada_at: Date | null;
      motivo: string | null;
      paciente: string | null;
    }
  >;
  emails: Map<string, { to_address: string; subject: string; attempts: { at: string; error: string }[] }>;
  uploads: Map<
    string,
    {
      contrato_id: string;
      ultimo_erro: string | null;
      motivo: string | null;
      titulo: string | null;
      paciente: string | null;
    }
  >;
  certificates: Map<string, { alias: string; cn: string; vence_em: Date }>;
  system: Map<string, { title: string; body: string; link: string | null }>;
  /** Documents waiting for each professional's signature, by profile id (decision 050). */
  awaiting: Map<string, number>;
}

const idsOf = (rows: NoticeRow[], kinds: NoticeKind[]) => [
  ...new Set(rows.filter((row) => kinds.includes(row.kind)).map((row) => row.id)),
];

export async function loadNoticeDetails(tx: Tx, tenantId: string, rows: NoticeRow[]): Promise<NoticeDetails> {
  const documentIds = idsOf(rows, [
    "document.viewed",
    "document.expiring",
    "document.signed",
    "document.refused",
    "document.revoked",
    "document.paused",
  ]);
  const emailIds = idsOf(rows, ["email.failed"]);
  const uploadIds = idsOf(rows, ["feegow.failed"]);
  const certificateIds = idsOf(rows, ["certificate.expiring", "certificate.expired"]);
  const systemIds = idsOf(rows, ["system"]);
  const awaitingIds = idsOf(rows, ["professional.awaiting"]);

  const [documents, emails, uploads, certificates, system] = [
    documentIds.length
      ? await tx
          .select({
            id: contratos.id,
            titulo: contratos.titulo,
            status: contratos.status,
            viewed_at: contratos.viewed_at,
            expiracao_at: contratos.expiracao_at,
            signed_at: contratos.signed_at,
            recusado_at: contratos.recusado_at,
            revogado_at: contratos.revogado_at,
            compreensao_pausada_at: contratos.compreensao_pausada_at,
            // The newest refusal or revocation's reason (decision 056).
            motivo: sql<
              string | null
            >`(select r.motivo from contrato_registros r where r.tenant_id = ${contratos.tenant_id} and r.contrato_id = ${contratos.id} order by r.created_at desc limit 1)`,
            paciente: pacientes.nome,
          })
          .from(contratos)
          .leftJoin(
            pacientes,
            and(eq(pacientes.tenant_id, contratos.tenant_id), eq(pacientes.id, contratos.paciente_id)),
          )
          .where(and(eq(contratos.tenant_id, tenantId), inArray(contratos.id, documentIds)))
      : [],
    emailIds.length
      ? await tx
          .select({
            id: emailOutbox.id,
            to_address: emailOutbox.to_address,
            subject: emailOutbox.subject,
            attempts: emailOutbox.attempts,
          })
          .from(emailOutbox)
          .where(and(eq(emailOutbox.tenant_id, tenantId), inArray(emailOutbox.id, emailIds)))
      : [],
    uploadIds.length
      ? await tx
          .select({
            id: feegowUploads.id,
            contrato_id: feegowUploads.contrato_id,
            ultimo_erro: feegowUploads.ultimo_erro,
            motivo: feegowUploads.motivo,
            titulo: contratos.titulo,
            paciente: pacientes.nome,
          })
          .from(feegowUploads)
          .leftJoin(
            contratos,
            and(eq(contratos.tenant_id, feegowUploads.tenant_id), eq(contratos.id, feegowUploads.contrato_id)),
          )
          .leftJoin(
            pacientes,
            and(eq(pacientes.tenant_id, contratos.tenant_id), eq(pacientes.id, contratos.paciente_id)),
          )
          .where(and(eq(feegowUploads.tenant_id, tenantId), inArray(feegowUploads.id, uploadIds)))
      : [],
    certificateIds.length
      ? await tx
          .select({
            id: certificados.id,
            alias: certificados.alias,
            cn: certificados.cn,
            vence_em: certificados.vence_em,
          })
          .from(certificados)
          .where(and(eq(certificados.tenant_id, tenantId), inArray(certificados.id, certificateIds)))
      : [],
    systemIds.length
      ? await tx
          .select({
            id: systemNotices.id,
            title: systemNotices.title,
            body: systemNotices.body,
            link: systemNotices.link,
          })
          .from(systemNotices)
          .where(and(eq(systemNotices.tenant_id, tenantId), inArray(systemNotices.id, systemIds)))
      : [],
  ];
  const awaiting = awaitingIds.length
    ? await tx
        .select({ id: contratos.medico_responsavel_id, n: sql<number>`count(*)::int` })
        .from(contratos)
        .where(
          and(
            eq(contratos.tenant_id, tenantId),
            inArray(contratos.medico_responsavel_id, awaitingIds),
            awaitingProfessional(new Date()),
          ),
        )
        .groupBy(contratos.medico_responsavel_id)
    : [];
  const byId = <T extends { id: string }>(list: T[]) => new Map(list.map(({ id, ...rest }) => [id, rest]));
  return {
    documents: byId(documents),
    emails: byId(emails),
    uploads: byId(uploads),
    certificates: byId(certificates),
    system: byId(system),
    awaiting: new Map(awaiting.map((row) => [row.id ?? "", Number(row.n)])),
  };
}
