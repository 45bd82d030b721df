/**
 * The archive re-time-stamp (decision 064, extending 053): a daily job that keeps every sealed PDF
 * provable past its authority's certificate. A file whose latest document time-stamp's authority
 * certificate expires within RETIMESTAMP_MARGIN_DAYS — or whose stamp leans on SHA-1 — gets a new
 * revision: a DSS update with the previous authority's chain (and its lists, when they can be
 * read), then a document time-stamp over the whole file and the DSS update that describes it.
 * Incremental updates only: the previous file is a byte-for-byte prefix of the new one.
 *
 * Crash safety: the new bytes are stored first (content-addressed: a put is idempotent and never
 * touches the previous object), checked back, and only then, in one tenant transaction, the file
 * row, the revision row and the document's pointer are written — after checking, with the row
 * locked, that the document still points at the file this run started from. A process killed
 * anywhere leaves either the old pointer (and at most an unreferenced object) or the complete new
 * revision; a second run finds the new file's stamp outside the margin and does nothing.
 */
import { createHash, randomBytes, X509Certificate } from "node:crypto";
import { and, asc, eq, isNotNull, isNull, lte, max } from "drizzle-orm";
import { contratoRevisoesPdf, contratos, files, jobs } from "../../../db/schema.js";
import { withTenant } from "../../../db/tenant-scope.js";
import { dateInSaoPaulo } from "../../../shared/dates/sao-paulo.js";
import { enqueueJob } from "../../jobs/enqueue-job.js";
import type { JobContext } from "../../jobs/job-context.js";
import { sha256Hex } from "../../lib/content-hash.js";
import { recordAuditEvent } from "../audit/record-audit-event.js";
import { officialRootOf, officialRootsFromEnv } from "../certificates/official-roots.js";
import { crlSourceFromEnv, ocspSourceFromEnv, revocationOf } from "../certificates/revocation/revocation-checker.js";
import {
  type DocumentTimestampFacts,
  latestDocumentTimestamp,
  newStampHelps,
  retimestampDecision,
} from "../sealing/archive-timestamp-rule.js";
import { addDocumentTimestamp } from "../sealing/document-timestamp.js";
import { derOf, parseSignedData } from "../sealing/cms-reader.js";
import { OID } from "../sealing/der.js";
import { appendDss, readDss, signatureBytes, type ValidationMaterial } from "../sealing/dss.js";
import { checkAllPdfSignatures } from "../sealing/verify-pdf-signature.js";
import { verifySignedPdf } from "../sealing/verify-signed-pdf.js";
import { requestTimestamp, type TsaConfig, tsaConfigFromEnv, TsaError } from "../timestamping/tsa-client.js";

const DAY_MS = 24 * 60 * 60 * 1000;
/** "Never look again": a sealed file without any document time-stamp (nothing to renew). */
export const NEVER = new Date("9999-12-31T00:00:00.000Z");
const BATCH = 50;
/** Documents one run handles at most (the rest waits for the next day's run). */
const MAX_PER_RUN = 2_000;

export interface RetimestampSummary {
  /** False with TSA_URL=none (or unset): nothing done. */
  configured: boolean;
  /** Files read for the first time (their next look was unknown). */
  read: number;
  /** New revisions recorded. */
  stamped: number;
  /** Due files left for another day (the authority's certificate would not help, a file missing, a check failed). */
  postponed: number;
}

export type DocumentOutcome = "stamped" | "not_due" | "postponed" | "changed";

interface ArchivedDocument {
  id: string;
  tenantId: string;
  fileId: string;
  sha256: string;
}

/** The chain of `holder` through `pool` (holder first), each link's signature verified. */
function chainOf(holder: Buffer, pool: readonly Buffer[]): Buffer[] {
  const parsed = pool.flatMap((der) => {
    try {
      return [{ der, certificate: new X509Certificate(der) }];
    } catch {
      return [];
    }
  });
  const chain = [holder];
  let current = new X509Certificate(holder);
  for (let depth = 0; depth < 8; depth++) {
    if (current.checkIssued(current) && current.verify(current.publicKey)) break;
    const issuer = parsed.find(
      (p) =>
        !chain.some((c) => c.equals(p.der)) &&
        current.checkIssued(p.certificate) &&
        current.verify(p.certificate.publicKey),
    );
    if (!issuer) break;
    chain.push(issuer.der);
    current = issuer.certificate;
  }
  return chain;
}

/** The certificates a CMS carries, and those of the time-stamp tokens in its unsigned attributes. */
function certificatesOfCms(contents: Buffer): Buffer[] {
  try {
    const signedData = parseSignedData(contents);
    const tokens = signedData.signerInfos.flatMap((info) =>
      info.unsignedAttributes.filter((a) => a.type === OID.signatureTimeStampToken).flatMap((a) => a.values),
    );
    return [
      ...signedData.certificates,
      ...tokens.flatMap((token) => {
        try {
          return parseSignedData(derOf(token)).certificates;
        } catch {
          return [];
        }
      }),
    ];
  } catch {
    return [];
  }
}

/**
 * What the new DSS adds before (and after) the new time-stamp (decisions 064 and 078): for EVERY
 * holder certificate in the file — each signature's signer, each time-stamp authority, the
 * previous stamp's among them — its chain (from the file, its DSS and the official roots) and, for
 * a chain to an official root with CRL_CHECK, the revocation lists read NOW through the same
 * address-checked source as the sealing (decision 053), not only the lists the file kept: the new
 * stamp then covers evidence that was current when it was made.
 */
async function validationMaterialFor(
  ctx: JobContext,
  pdf: Buffer,
  stamp: DocumentTimestampFacts | null,
  now: Date,
): Promise<ValidationMaterial> {
  const roots = officialRootsFromEnv(ctx.env);
  let dssCertificates: Buffer[] = [];
  try {
    dssCertificates = readDss(pdf)?.certs.map((c) => c.der) ?? [];
  } catch {
    // A DSS the reader cannot follow: the signatures' own certificates still go in.
  }
  const inSignatures = signatureBytes(pdf).flatMap((s) => certificatesOfCms(s.contents));
  const pool = [
    ...(stamp?.tokenCertificates ?? []),
    ...inSignatures,
    ...dssCertificates,
    ...(roots?.certificates.map((c) => c.raw) ?? []),
  ];
  const unique = [...new Map(pool.map((der) => [createHash("sha256").update(der).digest("hex"), der])).values()];
  const holders = unique.filter((der) => {
    try {
      return !new X509Certificate(der).ca;
    } catch {
      return false;
    }
  });
  if (stamp?.tsaCertificateDer && !holders.some((h) => h.equals(stamp.tsaCertificateDer!)))
    holders.push(stamp.tsaCertificateDer);
  const source = crlSourceFromEnv(ctx.env);
  const ocsp = ocspSourceFromEnv(ctx.env);
  const certificates: Buffer[] = [];
  const crls: Buffer[] = [];
  const ocsps: Buffer[] = [];
  for (const holder of holders) {
    const chain = chainOf(holder, unique);
    certificates.push(...chain);
    const revocation = await revocationOf(chain, officialRootOf(chain, roots), source, now, { crls, ocsps, ocsp });
    if (revocation.status === "revogado")
      ctx.log.warn(
        { certificado: revocation.certificado, revogadoEm: revocation.revogadoEm },
        "carimbo de arquivo: um certificado do arquivo consta como revogado nas listas lidas agora",
      );
  }
  const distinct = (list: Buffer[]) => [
    ...new Map(list.map((der) => [createHash("sha256").update(der).digest("hex"), der])).values(),
  ];
  return { certificates: distinct(certificates), crls: distinct(crls), ocsps: distinct(ocsps) };
}

/** The stamp's authority certificate details, for the revision row. */
function authorityOf(tokenCertificateDer: Buffer | undefined) {
  if (!tokenCertificateDer) return { autoridade: null, sha256: null, venceEm: null };
  const certificate = new X509Certificate(tokenCertificateDer);
  return {
    autoridade: /(?:^|\n)CN=([^\n]+)/.exec(certificate.subject)?.[1] ?? null,
    sha256: createHash("sha256").update(tokenCertificateDer).digest("hex"),
    venceEm: new Date(certificate.validTo),
  };
}

const setLookAgain = (ctx: JobContext, document: ArchivedDocument, at: Date) =>
  withTenant(ctx.db, document.tenantId, (tx) =>
    tx
      .update(contratos)
      .set({ carimbo_revisar_em: at })
      .where(
        and(
          eq(contratos.tenant_id, document.tenantId),
          eq(contratos.id, document.id),
          eq(contratos.signed_pdf_sha256, document.sha256),
        ),
      ),
  );

export interface BuildRevisionOptions {
  ctx: JobContext;
  previous: Buffer;
  stamp: DocumentTimestampFacts;
  tsa: TsaConfig;
  now: Date;
}

/** The new revision's bytes, checked: the previous file as a prefix, every signature and stamp valid. */
export async function buildRevision({
  ctx,
  previous,
  stamp,
  tsa,
  now,
}: BuildRevisionOptions): Promise<{ pdf: Buffer; genTime: Date; tsaCertificateDer: Buffer | undefined }> {
  const material = await validationMaterialFor(ctx, previous, stamp, now);
  const withDss = appendDss(previous, material);
  const stamped = await addDocumentTimestamp(withDss, tsa);
  // The new stamp's authority too: its chain and lists, read now (the others' come from the cache).
  const pdf = appendDss(stamped.pdf, await validationMaterialFor(ctx, stamped.pdf, null, now));
  if (pdf.length <= previous.length || !pdf.subarray(0, previous.length).equals(previous))
    throw new Error("carimbo de arquivo: o arquivo anterior não é prefixo do novo");
  const all = checkAllPdfSignatures(pdf);
  const last = all.signatures.at(-1);
  if (!all.valid || last?.kind !== "carimbo_documento" || !last.valid)
    throw new Error(`carimbo de arquivo: a nova revisão não se verifica (${all.reason ?? "último carimbo"})`);
  // The same verdict as before, or better: the evidence inside has not moved.
  const before = verifySignedPdf(previous);
  const after = verifySignedPdf(pdf);
  if (!after.selo_ok || (before.ok && !after.ok))
    throw new Error(
      `carimbo de arquivo: o verificador não aceita a nova revisão (${after.linhas.find((l) => l.ok === false)?.text ?? "selo"})`,
    );
  return { pdf, genTime: stamped.timestamp.genTime, tsaCertificateDer: stamped.timestamp.tsaCertificateDer };
}

/**
 * Stores `pdf` as revision n+1 of the document, if it still points at `document.sha256`: the file
 * row, the revision row (which the retention trigger requires, migration 0049) and the pointer, in
 * one transaction. Returns false when another run got there first.
 */
export async function recordRevision(
  ctx: JobContext,
  document: ArchivedDocument,
  revision: { pdf: Buffer; genTime: Date; tsaCertificateDer: Buffer | undefined; reason: "vencimento" | "algoritmo" },
  lookAgainAt: Date,
): Promise<boolean> {
  const sha256 = sha256Hex(revision.pdf);
  const authority = authorityOf(revision.tsaCertificateDer);
  return withTenant(ctx.db, document.tenantId, async (tx) => {
    const [locked] = await tx
      .select({ fileId: contratos.signed_pdf_file_id, sha256: contratos.signed_pdf_sha256 })
      .from(contratos)
      .where(and(eq(contratos.tenant_id, document.tenantId), eq(contratos.id, document.id)))
      .for("update");
    if (!locked || locked.sha256 !== document.sha256 || locked.fileId !== document.fileId) return false;
    const [previousFile] = await tx
      .select({ nome: files.nome })
      .from(files)
      .where(and(eq(files.tenant_id, document.tenantId), eq(files.id, document.fileId)));
    const [last] = await tx
      .select({ revisao: max(contratoRevisoesPdf.revisao) })
      .from(contratoRevisoesPdf)
      .where(
        and(eq(contratoRevisoesPdf.tenant_id, document.tenantId), eq(contratoRevisoesPdf.contrato_id, document.id)),
      );
    const number = (last?.revisao ?? 0) + 1;
    const [file] = await tx
      .insert(files)
      .values({
        tenant_id: document.tenantId,
        sha256,
        size: revision.pdf.length,
        content_type: "application/pdf",
        nome: previousFile?.nome ?? "documento assinado.pdf",
        created_by: null,
      })
      .returning({ id: files.id });
    if (!file) throw new Error("files insert returned no row");
    await tx.insert(contratoRevisoesPdf).values({
      tenant_id: document.tenantId,
      contrato_id: document.id,
      revisao: number,
      file_id: file.id,
      sha256,
      anterior_sha256: document.sha256,
      anterior_file_id: document.fileId,
      motivo: revision.reason,
      carimbo_em: revision.genTime,
      autoridade: authority.autoridade,
      autoridade_certificado_sha256: authority.sha256,
      autoridade_vence_em: authority.venceEm,
    });
    await tx
      .update(contratos)
      .set({ signed_pdf_file_id: file.id, signed_pdf_sha256: sha256, carimbo_revisar_em: lookAgainAt })
      .where(and(eq(contratos.tenant_id, document.tenantId), eq(contratos.id, document.id)));
    await recordAuditEvent(
      tx,
      { tenantId: document.tenantId, actorProfileId: null },
      {
        action: "document.archive_timestamped",
        entityType: "contrato",
        entityId: document.id,
        data: {
          revisao: number,
          file_id: file.id,
          sha256,
          anterior_sha256: document.sha256,
          motivo: revision.reason,
          carimbo_em: revision.genTime.toISOString(),
          autoridade: authority.autoridade,
        },
      },
    );
    return true;
  });
}

export interface RetimestampDocumentOptions {
  ctx: JobContext;
  document: ArchivedDocument;
  tsa: TsaConfig;
  authorityNotAfter: Date;
  now: Date;
}

/** One due document: read, decide, build, store, record. */
export async function retimestampDocument({
  ctx,
  document,
  tsa,
  authorityNotAfter,
  now,
}: RetimestampDocumentOptions): Promise<DocumentOutcome> {
  const margin = ctx.env.RETIMESTAMP_MARGIN_DAYS;
  const tomorrow = new Date(now.getTime() + DAY_MS);
  const previous = await ctx.storage.get(document.sha256);
  if (!previous || sha256Hex(previous) !== document.sha256) {
    ctx.log.error(
      { contratoId: document.id, tenantId: document.tenantId, sha256: document.sha256 },
      "carimbo de arquivo: o PDF selado não está no armazenamento (ou não confere); tentado de novo amanhã",
    );
    await setLookAgain(ctx, document, tomorrow);
    return "postponed";
  }
  const stamp = latestDocumentTimestamp(previous);
  const decision = retimestampDecision(stamp, now, margin);
  if (!decision.due || !stamp) {
    await setLookAgain(ctx, document, decision.due ? tomorrow : (decision.lookAgainAt ?? NEVER));
    return "not_due";
  }
  if (!newStampHelps(decision.reason, stamp.tsaNotAfter, authorityNotAfter, now, margin)) {
    await setLookAgain(ctx, document, tomorrow);
    return "postponed";
  }
  let revision;
  try {
    revision = await buildRevision({ ctx, previous, stamp, tsa, now });
  } catch (error) {
    // The authority failing propagates (the job retries); a file we cannot renew is kept as it is.
    if (error instanceof TsaError) throw error;
    ctx.log.error(
      { err: error, contratoId: document.id, tenantId: document.tenantId },
      "carimbo de arquivo: a nova revisão não foi aceita; o arquivo anterior continua guardado",
    );
    await setLookAgain(ctx, document, tomorrow);
    return "postponed";
  }
  const stored = await ctx.storage.put(revision.pdf);
  const back = await ctx.storage.get(stored.sha256);
  if (!back || !back.equals(revision.pdf))
    throw new Error("carimbo de arquivo: o armazenamento não devolveu os bytes gravados");
  const next = retimestampDecision(latestDocumentTimestamp(revision.pdf), now, margin);
  const lookAgainAt = next.due ? tomorrow : (next.lookAgainAt ?? NEVER);
  const recorded = await recordRevision(ctx, document, { ...revision, reason: decision.reason }, lookAgainAt);
  return recorded ? "stamped" : "changed";
}

/** Sealed documents whose next look is `unread` (null) or due by `now`, in the order they fell due. */
async function archivedDocuments(ctx: JobContext, now: Date, unread: boolean): Promise<ArchivedDocument[]> {
  const rows = await ctx.db
    .select({
      id: contratos.id,
      tenantId: contratos.tenant_id,
      fileId: contratos.signed_pdf_file_id,
      sha256: contratos.signed_pdf_sha256,
    })
    .from(contratos)
    .where(
      and(
        isNotNull(contratos.signed_pdf_file_id),
        isNotNull(contratos.signed_pdf_sha256),
        unread ? isNull(contratos.carimbo_revisar_em) : lte(contratos.carimbo_revisar_em, now),
      ),
    )
    .orderBy(asc(contratos.carimbo_revisar_em), asc(contratos.id))
    .limit(BATCH);
  return rows.map((r) => ({ id: r.id, tenantId: r.tenantId, fileId: r.fileId!, sha256: r.sha256! }));
}

/** The 'archive.retimestamp' job: every clinic's archive, across tenants (each write in its own tenant). */
export async function retimestampArchive(ctx: JobContext, now: Date = new Date()): Promise<RetimestampSummary> {
  const summary: RetimestampSummary = { configured: false, read: 0, stamped: 0, postponed: 0 };
  const tsa = tsaConfigFromEnv(ctx.env);
  if (!tsa) {
    ctx.log.info(NO_AUTHORITY);
    return summary;
  }
  summary.configured = true;
  const margin = ctx.env.RETIMESTAMP_MARGIN_DAYS;
  let handled = 0;
  // 1. Files never read: when their latest stamp falls due (no authority needed).
  for (let batch = await archivedDocuments(ctx, now, true); batch.length > 0 && handled < MAX_PER_RUN;) {
    for (const document of batch) {
      handled += 1;
      const pdf = await ctx.storage.get(document.sha256);
      const decision = pdf ? retimestampDecision(latestDocumentTimestamp(pdf), now, margin) : null;
      await setLookAgain(ctx, document, !decision || decision.due ? now : (decision.lookAgainAt ?? NEVER));
      summary.read += 1;
    }
    batch = await archivedDocuments(ctx, now, true);
  }
  // 2. Due files: one probe of the authority says whether a new stamp would help at all.
  let batch = await archivedDocuments(ctx, now, false);
  if (batch.length === 0) return summary;
  const probe = await requestTimestamp(createHash("sha256").update(randomBytes(32)).digest(), tsa);
  const authorityNotAfter = probe.tsaCertificateDer
    ? new Date(new X509Certificate(probe.tsaCertificateDer).validTo)
    : now;
  if (authorityNotAfter.getTime() - margin * DAY_MS <= now.getTime())
    ctx.log.warn(
      { venceEm: authorityNotAfter.toISOString(), margemDias: margin },
      "carimbo de arquivo: o certificado da autoridade de carimbo do tempo vence dentro da margem; só os carimbos com algoritmo fraco são renovados",
    );
  while (batch.length > 0 && handled < MAX_PER_RUN) {
    for (const document of batch) {
      handled += 1;
      const outcome = await retimestampDocument({ ctx, document, tsa, authorityNotAfter, now });
      if (outcome === "stamped") summary.stamped += 1;
      if (outcome === "postponed") summary.postponed += 1;
    }
    batch = await archivedDocuments(ctx, now, false);
  }
  ctx.log.info(summary, "carimbo de arquivo: rodada concluída");
  return summary;
}

const dedupeKey = (dia: string) => `archive.retimestamp:${dia}`;

const NO_AUTHORITY =
  "carimbo de arquivo: nenhuma autoridade de carimbo do tempo configurada (TSA_URL=none ou ausente); nada a fazer";
/** The configurations already told (once per process) that there is nothing to schedule. */
const told = new WeakSet<object>();
/** The last day this process saw scheduled, per configuration: the sweep runs each minute, the query once a day. */
const scheduledDay = new WeakMap<object, string>();

/**
 * Called by the worker's sweep: the day's 'archive.retimestamp' job, once a day (São Paulo).
 * Without an authority there is nothing to do: no job, and the log says so once.
 */
export async function scheduleArchiveRetimestamp(ctx: JobContext, now: Date = new Date()): Promise<boolean> {
  if (!tsaConfigFromEnv(ctx.env)) {
    if (!told.has(ctx.env)) ctx.log.info(NO_AUTHORITY);
    told.add(ctx.env);
    return false;
  }
  const dia = dateInSaoPaulo(now);
  if (scheduledDay.get(ctx.env) === dia) return false;
  const [existing] = await ctx.db
    .select({ id: jobs.id })
    .from(jobs)
    .where(eq(jobs.dedupe_key, dedupeKey(dia)))
    .limit(1);
  if (!existing)
    await enqueueJob(ctx.db, {
      kind: "archive.retimestamp",
      payload: { dia },
      dedupeKey: dedupeKey(dia),
      maxAttempts: 3,
    });
  scheduledDay.set(ctx.env, dia);
  return !existing;
}
