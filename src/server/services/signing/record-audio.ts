import { and, asc, eq, sql } from "drizzle-orm";
import type { Db, Tx } from "../../../db/client.js";
import { auditEvents, contratoPartes, files, signingTokens } from "../../../db/schema.js";
import { withTenant } from "../../../db/tenant-scope.js";
import {
  AUDIO_MAX_BYTES,
  AUDIO_MAX_MS,
  AUDIO_MAX_UPLOADS,
  type AudioEvidence,
  agreementSentence,
  checkAudio,
} from "../../../shared/audio/audio-consent.js";
import type { SigningPage } from "../../../shared/schemas/signing.js";
import { sha256Hex } from "../../lib/content-hash.js";
import type { SecretBox } from "../../lib/secret-box.js";
import { AppError } from "../../errors.js";
import type { FileStorage } from "../../storage/file-storage.js";
import { recordAuditEvent } from "../audit/record-audit-event.js";
import { findDocumentOrThrow } from "../documents/find-document.js";
import type { LinkSigner } from "./link-signer.js";
import { type LinkState, loadLinkState } from "./open-signing-page.js";
import { findSigningTokenOrThrow, type SigningTokenRow } from "./signing-tokens.js";

/**
 * Audio consent (decision 069): the patient records the agreement sentence on the signing page;
 * each upload is a sealed file and a `document.audio_recorded` event of the document's own chain;
 * the last one of the link goes with the signature (its SHA-256 into the evidence).
 */
export const AUDIO_RECORDED_ACTION = "document.audio_recorded";
export const AUDIO_PLAYED_ACTION = "document.audio_played";

type Audit = { ip?: string | undefined; userAgent?: string | undefined };

/** What a `document.audio_recorded` event keeps. */
export interface RecordedAudio {
  link_id: string;
  file_id: string;
  /** SHA-256 of the recording as made (before sealing). */
  sha256: string;
  duracao_ms: number;
  mime: string;
  tamanho: number;
  frase: string;
  tentativa: number;
  em: string;
}

/** The sealing context: a sealed recording opens only as the audio of this clinic's document. */
export function audioSealContext(tenantId: string, contratoId: string): string {
  return `consentir:audio:${tenantId}:${contratoId}`;
}

/** Whether this signer is asked for the audio: the patient or guardian of a document that asks it. */
export function asksAudio(document: { pedir_audio: boolean }, signer: Pick<LinkSigner, "papel">): boolean {
  return document.pedir_audio && signer.papel !== "testemunha";
}

/** This link's uploads, oldest first. */
async function linkRecordings(tx: Tx, link: Pick<SigningTokenRow, "id" | "tenantId">, contratoId: string) {
  const rows = await tx
    .select({ data: auditEvents.data, at: auditEvents.created_at })
    .from(auditEvents)
    .where(
      and(
        eq(auditEvents.tenant_id, link.tenantId),
        eq(auditEvents.entity_type, "contrato"),
        eq(auditEvents.entity_id, contratoId),
        eq(auditEvents.action, AUDIO_RECORDED_ACTION),
        sql`${auditEvents.data} ->> 'link_id' = ${link.id}`,
      ),
    )
    .orderBy(asc(auditEvents.seq));
  return rows.map((r) => r.data as unknown as RecordedAudio);
}

/** The recording the signature keeps: this link's last upload, or null. */
export async function latestRecording(
  tx: Tx,
  link: Pick<SigningTokenRow, "id" | "tenantId">,
  contratoId: string,
): Promise<{ recording: RecordedAudio | null; count: number }> {
  const all = await linkRecordings(tx, link, contratoId);
  return { recording: all.at(-1) ?? null, count: all.length };
}

/** The signature event's `audio` key: the kept recording, or "asked, not recorded". */
export function audioEvidence(recording: RecordedAudio | null): AudioEvidence {
  if (!recording) return { pedido: true, gravado: false };
  return {
    pedido: true,
    gravado: true,
    sha256: recording.sha256,
    duracao_ms: recording.duracao_ms,
    mime: recording.mime,
    tamanho: recording.tamanho,
    frase: recording.frase,
    gravado_em: recording.em,
  };
}

/** What the public page is told (null: not asked of this signer). */
export async function publicAudio(
  tx: Tx,
  link: Pick<SigningTokenRow, "id" | "tenantId">,
  document: { id: string; titulo: string; pedir_audio: boolean },
  signer: Pick<LinkSigner, "papel" | "nome">,
): Promise<SigningPage["audio"]> {
  if (!asksAudio(document, signer)) return null;
  const { recording, count } = await latestRecording(tx, link, document.id);
  return {
    frase: agreementSentence(signer.nome, document.titulo),
    max_ms: AUDIO_MAX_MS,
    max_bytes: AUDIO_MAX_BYTES,
    max_envios: AUDIO_MAX_UPLOADS,
    envios: count,
    gravacao: recording ? { duracao_ms: recording.duracao_ms, sha256: recording.sha256 } : null,
  };
}

/** The link as it is now, under the document's row lock (as the signature and Reenviar take it). */
async function openState(tx: Tx, found: SigningTokenRow, now: Date): Promise<LinkState> {
  await findDocumentOrThrow(tx, found.tenantId, found.contratoId, true).catch(() => {
    throw new AppError("SIGNING_LINK_INVALID");
  });
  const [current] = await tx
    .select({ expiresAt: signingTokens.expires_at, revokedAt: signingTokens.revoked_at })
    .from(signingTokens)
    .where(and(eq(signingTokens.tenant_id, found.tenantId), eq(signingTokens.id, found.id)))
    .limit(1);
  if (!current) throw new AppError("SIGNING_LINK_INVALID");
  const state = await loadLinkState(tx, { ...found, ...current }, now);
  if (state.estado === "signed") throw new AppError("SIGNING_ALREADY_SIGNED");
  if (state.estado === "invalid") throw new AppError("SIGNING_LINK_INVALID");
  return state;
}

export interface AudioUploadResult {
  gravado: true;
  sha256: string;
  duracao_ms: number;
  envios: number;
  max_envios: number;
}

export interface UploadAudioOptions {
  ctx: { db: Db; storage: FileStorage; secretBox: SecretBox };
  token: string;
  input: { bytes: Buffer; duracao_ms: number };
  audit: Audit;
  now?: Date;
}

/**
 * POST /api/public/sign/:token/audio: one recording, the raw bytes as the body. Refused with a
 * pt-BR 4xx when the document does not ask for it, the bytes are not audio (sniffed here, never
 * the declared type), too big, too long or too short, after AUDIO_MAX_UPLOADS, after signing, or
 * on a dead link. The bytes are sealed with the instance key before they reach the storage.
 */
export async function uploadAudio({
  ctx,
  token,
  input,
  audit,
  now = new Date(),
}: UploadAudioOptions): Promise<AudioUploadResult> {
  const link = await findSigningTokenOrThrow(ctx.db, token);
  return withTenant(ctx.db, link.tenantId, async (tx) => {
    const { document, signer } = await openState(tx, link, now);
    if (!asksAudio(document, signer)) throw new AppError("AUDIO_NOT_REQUESTED");
    // Counted in turn: openState holds the document's row.
    const { count } = await latestRecording(tx, link, document.id);
    if (count >= AUDIO_MAX_UPLOADS) throw new AppError("AUDIO_TOO_MANY");
    const checked = checkAudio(input.bytes, input.duracao_ms);
    if (!checked.ok) {
      const code = {
        not_audio: "AUDIO_NOT_AUDIO",
        too_big: "AUDIO_TOO_BIG",
        too_long: "AUDIO_TOO_LONG",
        too_short: "AUDIO_TOO_SHORT",
      } as const;
      throw new AppError(code[checked.reason]);
    }
    const sha256 = sha256Hex(input.bytes);
    const sealed = ctx.secretBox.seal(input.bytes, audioSealContext(link.tenantId, document.id));
    const stored = await ctx.storage.put(sealed);
    const [file] = await tx
      .insert(files)
      .values({
        tenant_id: link.tenantId,
        sha256: stored.sha256,
        size: stored.size,
        content_type: checked.audio.mime,
        nome: `aceite-em-audio-${document.id.slice(-8)}.${checked.audio.ext}`,
        created_at: now,
      })
      .returning({ id: files.id });
    if (!file) throw new Error("files insert returned no row");
    const recording: RecordedAudio = {
      link_id: link.id,
      file_id: file.id,
      sha256,
      duracao_ms: checked.duracao_ms,
      mime: checked.audio.mime,
      tamanho: input.bytes.length,
      frase: agreementSentence(signer.nome, document.titulo),
      tentativa: count + 1,
      em: now.toISOString(),
    };
    await recordAuditEvent(
      tx,
      { tenantId: link.tenantId, actorProfileId: null, ...audit },
      {
        action: AUDIO_RECORDED_ACTION,
        entityType: "contrato",
        entityId: document.id,
        data: { ...recording, papel: signer.papel },
      },
    );
    return {
      gravado: true as const,
      sha256,
      duracao_ms: checked.duracao_ms,
      envios: count + 1,
      max_envios: AUDIO_MAX_UPLOADS,
    };
  });
}

export interface OpenPartyAudioOptions {
  tx: Tx;
  ctx: { storage: FileStorage; secretBox: SecretBox };
  tenantId: string;
  contratoId: string;
  parteId: string;
}

/** A party's kept recording, opened: the bytes as made, their type and hash. Null: none. */
export async function openPartyAudio({
  tx,
  ctx,
  tenantId,
  contratoId,
  parteId,
}: OpenPartyAudioOptions): Promise<{ bytes: Buffer; mime: string; nome: string; sha256: string } | null> {
  const [row] = await tx
    .select({ sha256: files.sha256, mime: files.content_type, nome: files.nome })
    .from(contratoPartes)
    .innerJoin(files, and(eq(files.tenant_id, contratoPartes.tenant_id), eq(files.id, contratoPartes.audio_file_id)))
    .where(
      and(
        eq(contratoPartes.tenant_id, tenantId),
        eq(contratoPartes.contrato_id, contratoId),
        eq(contratoPartes.id, parteId),
      ),
    )
    .limit(1);
  if (!row) return null;
  const sealed = await ctx.storage.get(row.sha256);
  if (!sealed) return null;
  const bytes = ctx.secretBox.open(sealed, audioSealContext(tenantId, contratoId));
  return { bytes, mime: row.mime, nome: row.nome, sha256: sha256Hex(bytes) };
}

/** Every party of a document with a kept recording (exports). */
export async function partiesWithAudio(tx: Tx, tenantId: string, contratoId: string) {
  return tx
    .select({ id: contratoPartes.id, papel: contratoPartes.papel, ordem: contratoPartes.ordem })
    .from(contratoPartes)
    .where(
      and(
        eq(contratoPartes.tenant_id, tenantId),
        eq(contratoPartes.contrato_id, contratoId),
        sql`${contratoPartes.audio_file_id} IS NOT NULL`,
      ),
    );
}
