import type { Db } from "../../../db/client.js";
import { withTenant } from "../../../db/tenant-scope.js";
import { AppError } from "../../errors.js";
import type { SecretBox } from "../../lib/secret-box.js";
import { type Actor } from "../../policies/roles.js";
import type { FileStorage } from "../../storage/file-storage.js";
import { type AuditContext, recordAuditEvent } from "../audit/record-audit-event.js";
import { AUDIO_PLAYED_ACTION, openPartyAudio } from "../signing/record-audio.js";
import { findDocumentOrThrow } from "./find-document.js";

export interface PlayDocumentAudioOptions {
  ctx: { db: Db; storage: FileStorage; secretBox: SecretBox };
  actor: Actor;
  contratoId: string;
  parteId: string;
  audit: Omit<AuditContext, "tenantId" | "actorProfileId">;
}

/**
 * GET /api/documents/:id/parties/:parteId/audio — the audio of the agreement kept with a
 * signature (decision 069), opened for one play: each request is a `document.audio_played` event
 * in the trail ("Áudio do aceite reproduzido por …"). Another clinic's document, a party of
 * another document or a party without audio: 404.
 */
export async function playDocumentAudio({
  ctx,
  actor,
  contratoId,
  parteId,
  audit,
}: PlayDocumentAudioOptions): Promise<{ bytes: Buffer; mime: string; nome: string }> {
  return withTenant(ctx.db, actor.tenantId, async (tx) => {
    const document = await findDocumentOrThrow(tx, actor.tenantId, contratoId);
    const audio = await openPartyAudio({ tx, ctx, tenantId: actor.tenantId, contratoId: document.id, parteId });
    if (!audio) throw new AppError("AUDIO_NOT_FOUND");
    await recordAuditEvent(
      tx,
      { tenantId: actor.tenantId, actorProfileId: actor.profileId, ...audit },
      {
        action: AUDIO_PLAYED_ACTION,
        entityType: "contrato",
        entityId: document.id,
        data: { parte_id: parteId, sha256: audio.sha256 },
      },
    );
    return audio;
  });
}
