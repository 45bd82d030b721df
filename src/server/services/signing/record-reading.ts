import { and, eq } from "drizzle-orm";
import type { Db, Tx } from "../../../db/client.js";
import { auditEvents, signingTokens } from "../../../db/schema.js";
import { withTenant } from "../../../db/tenant-scope.js";
import type { DocumentModel } from "../../../shared/document-model/build-document-model.js";
import {
  boundBatch,
  keptTotals,
  READING_MAX_BATCHES,
  type ReadingBatch,
  type ReadingSummary,
  type StoredReadingBatch,
  summarize,
} from "../../../shared/reading/reading-record.js";
import { AppError } from "../../errors.js";
import { recordAuditEvent } from "../audit/record-audit-event.js";
import type { LinkSigner } from "./link-signer.js";
import { loadLinkState } from "./open-signing-page.js";
import { findSigningTokenOrThrow, type SigningTokenRow } from "./signing-tokens.js";

/**
 * Reading batches are audit events of the clinic's hash chain under their own entity type, so the
 * document's printed chain is not 200 rows long; the signature's event carries their sum (decision 052).
 */
export const READING_ENTITY = "contrato_leitura";
export const READING_ACTION = "document.reading";

interface KeptBatch extends StoredReadingBatch {
  link_id: string;
}

/** The frozen model's sections, in order. */
export function modelSections(documento: unknown): { id: string; title: string }[] {
  const sections = (documento as Partial<DocumentModel> | null)?.sections;
  return Array.isArray(sections)
    ? sections.filter((s) => typeof s?.id === "string").map((s) => ({ id: s.id, title: String(s.title ?? "") }))
    : [];
}

/** This link's kept batches (a witness's link and the patient's are told apart by the link id). */
async function keptBatches(tx: Tx, tenantId: string, contratoId: string, linkId: string): Promise<KeptBatch[]> {
  const rows = await tx
    .select({ data: auditEvents.data })
    .from(auditEvents)
    .where(
      and(
        eq(auditEvents.tenant_id, tenantId),
        eq(auditEvents.entity_type, READING_ENTITY),
        eq(auditEvents.entity_id, contratoId),
      ),
    );
  return rows.map((r) => r.data as unknown as KeptBatch).filter((d) => d?.link_id === linkId);
}

/**
 * The wall time a link may account for: since the later of the link's issue and the document's
 * first opening (both server clock), so no section's total can exceed the time the term could
 * have been on any screen. Locks the link's row: two batches at once are counted and capped in turn.
 */
async function wallMs(tx: Tx, link: SigningTokenRow, viewedAt: Date | null, now: Date): Promise<number> {
  const [row] = await tx
    .select({ createdAt: signingTokens.created_at })
    .from(signingTokens)
    .where(and(eq(signingTokens.tenant_id, link.tenantId), eq(signingTokens.id, link.id)))
    .for("update");
  const start = Math.max(row?.createdAt.getTime() ?? now.getTime(), viewedAt?.getTime() ?? now.getTime());
  return Math.max(0, now.getTime() - start);
}

/**
 * Keeps one bounded batch for this link in the caller's transaction; `strict` refuses an unknown
 * section (the reading route) instead of dropping it (the signature, which a reading never blocks).
 */
export async function keepReadingBatch(
  tx: Tx,
  options: {
    link: SigningTokenRow;
    document: { id: string; documento: unknown; viewed_at: Date | null };
    signer: Pick<LinkSigner, "papel" | "testemunhaId">;
    batch: ReadingBatch;
    audit: { ip?: string | undefined; userAgent?: string | undefined };
    strict: boolean;
    now: Date;
  },
): Promise<void> {
  const { link, document, batch, now } = options;
  const known = new Set(modelSections(document.documento).map((s) => s.id));
  if (options.strict) {
    const cited = [...batch.secoes.map((s) => s.id), ...(batch.ouvir ?? [])];
    if (cited.some((id) => !known.has(id))) throw new AppError("READING_UNKNOWN_SECTION");
  }
  const wall = await wallMs(tx, link, document.viewed_at, now);
  const kept = await keptBatches(tx, link.tenantId, document.id, link.id);
  if (kept.length >= READING_MAX_BATCHES) {
    if (options.strict) throw new AppError("READING_TOO_MANY");
    return;
  }
  const bounded = boundBatch(batch, {
    known,
    kept: keptTotals(kept),
    wallMs: wall,
  });
  const empty =
    Object.keys(bounded.secoes).length === 0 && !bounded.salto && bounded.ouvir.length === 0 && !bounded.texto_grande;
  if (empty) return;
  await recordAuditEvent(
    tx,
    { tenantId: link.tenantId, actorProfileId: null, ...options.audit },
    {
      action: READING_ACTION,
      entityType: READING_ENTITY,
      entityId: document.id,
      data: {
        link_id: link.id,
        papel: options.signer.papel,
        ...(options.signer.testemunhaId ? { testemunha_id: options.signer.testemunhaId } : {}),
        ...bounded,
      },
    },
  );
}

/** The link's reading record, summed per section of the frozen model (null: nothing was recorded). */
export async function readingSummary(
  tx: Tx,
  link: Pick<SigningTokenRow, "id" | "tenantId">,
  document: { id: string; documento: unknown },
): Promise<ReadingSummary | null> {
  const kept = await keptBatches(tx, link.tenantId, document.id, link.id);
  if (kept.length === 0) return null;
  return summarize(modelSections(document.documento), kept);
}

export interface RecordReadingOptions {
  db: Db;
  token: string;
  batch: ReadingBatch;
  audit: { ip?: string | undefined; userAgent?: string | undefined };
  now?: Date;
}

/**
 * POST /api/public/sign/:token/reading: a batch from the page while the signer reads. Only while
 * the link is pending (signed: 409; invalid: 410); bounded by keepReadingBatch.
 */
export async function recordReading({
  db,
  token,
  batch,
  audit,
  now = new Date(),
}: RecordReadingOptions): Promise<{ registrado: true }> {
  const link = await findSigningTokenOrThrow(db, token);
  await withTenant(db, link.tenantId, async (tx) => {
    const state = await loadLinkState(tx, link, now);
    if (state.estado === "signed") throw new AppError("SIGNING_ALREADY_SIGNED");
    if (state.estado === "invalid") throw new AppError("SIGNING_LINK_INVALID");
    await keepReadingBatch(tx, {
      link,
      document: state.document,
      signer: state.signer,
      batch,
      audit,
      strict: true,
      now,
    });
  });
  return { registrado: true };
}
