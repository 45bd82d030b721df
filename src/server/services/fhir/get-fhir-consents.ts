import { createHash } from "node:crypto";
import { and, count, desc, eq, inArray } from "drizzle-orm";
import type { Db, Tx } from "../../../db/client.js";
import { contratoPartes, contratos, files, pacientes, profiles, tenants } from "../../../db/schema.js";
import { withTenant } from "../../../db/tenant-scope.js";
import { AppError } from "../../errors.js";
import type { Actor } from "../../policies/roles.js";
import type { FileStorage } from "../../storage/file-storage.js";
import { type AuditContext, recordAuditEvent } from "../audit/record-audit-event.js";
import { loadOptionalAnswers } from "../signing/optional-answers.js";
import type { ConsentSource } from "./consent-resource.js";

/** At most this many documents in one searchset (decision 063: no paging yet). */
export const FHIR_SEARCH_MAX = 100;

type Audit = Omit<AuditContext, "tenantId" | "actorProfileId">;
type DocumentRow = typeof contratos.$inferSelect;

export interface GetFhirConsentOptions {
  db: Db;
  storage: FileStorage;
  actor: Actor;
  id: string;
  audit: Audit;
}

/** One document of the clinic as the mapping's source; NOT_FOUND for another clinic's id. The read is audited. */
export async function getFhirConsent({ db, storage, actor, id, audit }: GetFhirConsentOptions): Promise<ConsentSource> {
  const [source] = await withTenant(db, actor.tenantId, async (tx) => {
    const [row] = await tx
      .select()
      .from(contratos)
      .where(and(eq(contratos.tenant_id, actor.tenantId), eq(contratos.id, id)))
      .limit(1);
    if (!row) throw new AppError("NOT_FOUND", "Documento não encontrado");
    return loadSources(tx, actor, [row], audit);
  });
  return withSealedHashes(storage, [source!]).then((all) => all[0]!);
}

export interface SearchFhirConsentsByCpfOptions {
  db: Db;
  storage: FileStorage;
  actor: Actor;
  cpf: string;
  audit: Audit;
}

/** The clinic's documents of the patient with this CPF (digits), newest first; none is an empty list. */
export async function searchFhirConsentsByCpf({
  db,
  storage,
  actor,
  cpf,
  audit,
}: SearchFhirConsentsByCpfOptions): Promise<{ total: number; sources: ConsentSource[] }> {
  const { total, sources } = await withTenant(db, actor.tenantId, async (tx) => {
    const [patient] = await tx
      .select({ id: pacientes.id })
      .from(pacientes)
      .where(and(eq(pacientes.tenant_id, actor.tenantId), eq(pacientes.cpf, cpf)))
      .limit(1);
    if (!patient) return { total: 0, sources: [] };
    const mine = and(eq(contratos.tenant_id, actor.tenantId), eq(contratos.paciente_id, patient.id));
    const [counted] = await tx.select({ n: count() }).from(contratos).where(mine);
    const rows = await tx
      .select()
      .from(contratos)
      .where(mine)
      .orderBy(desc(contratos.created_at), desc(contratos.id))
      .limit(FHIR_SEARCH_MAX);
    return { total: Number(counted?.n ?? 0), sources: await loadSources(tx, actor, rows, audit) };
  });
  return { total, sources: await withSealedHashes(storage, sources) };
}

interface Pending extends Omit<ConsentSource, "sealed"> {
  sealedFile: { nome: string; size: number; sha256: string; created_at: Date } | null;
}

async function loadSources(tx: Tx, actor: Actor, rows: DocumentRow[], audit: Audit): Promise<Pending[]> {
  if (rows.length === 0) return [];
  const tenantId = actor.tenantId;
  const [clinic] = await tx.select().from(tenants).where(eq(tenants.id, tenantId)).limit(1);
  if (!clinic) throw new AppError("NOT_FOUND");
  const patientIds = [...new Set(rows.map((r) => r.paciente_id))];
  const patientRows = await tx
    .select()
    .from(pacientes)
    .where(and(eq(pacientes.tenant_id, tenantId), inArray(pacientes.id, patientIds)));
  const physicianIds = [...new Set(rows.flatMap((r) => (r.medico_responsavel_id ? [r.medico_responsavel_id] : [])))];
  const physicianRows = physicianIds.length
    ? await tx
        .select()
        .from(profiles)
        .where(and(eq(profiles.tenant_id, tenantId), inArray(profiles.id, physicianIds)))
    : [];
  const ids = rows.map((r) => r.id);
  const guardians = await tx
    .select({ contrato_id: contratoPartes.contrato_id, nome: contratoPartes.nome, cpf: contratoPartes.cpf })
    .from(contratoPartes)
    .where(
      and(
        eq(contratoPartes.tenant_id, tenantId),
        inArray(contratoPartes.contrato_id, ids),
        eq(contratoPartes.papel, "responsavel"),
      ),
    );
  const fileIds = rows.flatMap((r) => (r.signed_pdf_file_id ? [r.signed_pdf_file_id] : []));
  const fileRows = fileIds.length
    ? await tx
        .select()
        .from(files)
        .where(and(eq(files.tenant_id, tenantId), inArray(files.id, fileIds)))
    : [];
  const out: Pending[] = [];
  for (const row of rows) {
    const patient = patientRows.find((p) => p.id === row.paciente_id);
    if (!patient) throw new AppError("NOT_FOUND", "Documento não encontrado");
    const physician = physicianRows.find((p) => p.id === row.medico_responsavel_id) ?? null;
    const guardian = guardians.find((g) => g.contrato_id === row.id) ?? null;
    const file = fileRows.find((f) => f.id === row.signed_pdf_file_id) ?? null;
    out.push({
      id: row.id,
      titulo: row.titulo,
      status: row.status,
      created_at: row.created_at,
      signed_at: row.signed_at,
      recusado_at: row.recusado_at,
      revogado_at: row.revogado_at,
      updated_at: row.updated_at,
      conteudo_sha256: row.conteudo_sha256,
      verification_code: row.verification_code,
      patient: {
        id: patient.id,
        nome: patient.nome,
        cpf: patient.cpf,
        data_nascimento: patient.data_nascimento,
        sexo: patient.sexo,
      },
      guardian: guardian ? { nome: guardian.nome, cpf: guardian.cpf } : null,
      physician: physician
        ? {
            id: physician.id,
            nome: physician.nome,
            cpf: physician.cpf,
            conselho_tipo: physician.conselho_tipo,
            conselho_numero: physician.conselho_numero,
            conselho_uf: physician.conselho_uf,
          }
        : null,
      clinic: {
        id: clinic.id,
        nome: clinic.nome_fantasia || clinic.nome,
        cnpj: clinic.cnpj,
        cnes: clinic.cnes,
      },
      sealedFile: file ? { nome: file.nome, size: file.size, sha256: file.sha256, created_at: file.created_at } : null,
      optional: (await loadOptionalAnswers(tx, tenantId, row.id)).map((a) => ({
        id: a.id,
        titulo: a.titulo,
        aceito: a.aceito,
      })),
    });
    // Health data leaving the clinic's screens: every document exported is in its trail.
    await recordAuditEvent(
      tx,
      { tenantId, actorProfileId: actor.profileId, ...audit },
      { action: "document.fhir_exported", entityType: "contrato", entityId: row.id },
    );
  }
  return out;
}

/** FHIR R4 Attachment.hash is the SHA-1 of the bytes, in base64: read from storage, never stored. */
async function withSealedHashes(storage: FileStorage, pending: Pending[]): Promise<ConsentSource[]> {
  const out: ConsentSource[] = [];
  for (const { sealedFile, ...source } of pending) {
    let sealed: ConsentSource["sealed"] = null;
    if (sealedFile) {
      const bytes = await storage.get(sealedFile.sha256);
      if (bytes)
        sealed = {
          nome: sealedFile.nome,
          size: sealedFile.size,
          sha256: sealedFile.sha256,
          created_at: sealedFile.created_at,
          sha1Base64: createHash("sha1").update(bytes).digest("base64"),
        };
    }
    out.push({ ...source, sealed });
  }
  return out;
}
