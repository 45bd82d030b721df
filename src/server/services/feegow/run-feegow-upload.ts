import { and, eq, isNull } from "drizzle-orm";
import type { Tx } from "../../../db/client.js";
import { contratoRegistros, contratos, feegowUploads, pacientes } from "../../../db/schema.js";
import { withTenant } from "../../../db/tenant-scope.js";
import { CHOICE_RECORD_TITLE } from "../../../shared/schemas/choices.js";
import { FEEGOW_MESSAGES } from "../../../shared/schemas/feegow.js";
import type { JobContext } from "../../jobs/job-context.js";
import { AppError } from "../../errors.js";
import { recordAuditEvent } from "../audit/record-audit-event.js";
import { frozenOptionalItem } from "../choices/optional-item.js";
import { type FeegowClient, FeegowError, type FeegowFailure } from "./feegow-client.js";
import { clientFor, feegowConnection, loadFeegowRow } from "./feegow-store.js";
import { FEEGOW_UPLOAD_MAX_ATTEMPTS, FEEGOW_UPLOAD_MAX_BYTES, type FeegowUploadRow } from "./feegow-uploads-store.js";

/**
 * Failures where Feegow may have stored the file although we never heard so: no answer in time,
 * a connection lost, an answer we could not read, a gateway's 502/503/504 in front of Feegow.
 */
const UNCERTAIN: ReadonlySet<FeegowFailure> = new Set(["tempo_esgotado", "sem_conexao", "resposta_invalida"]);
const GATEWAY_STATUSES: ReadonlySet<number> = new Set([502, 503, 504]);
/** Failures worth another try later; the others need someone to act (token, patient, content). */
const TRANSIENT: ReadonlySet<FeegowFailure> = new Set(["tempo_esgotado", "sem_conexao", "resposta_invalida", "http"]);

/** How long past the call's time limit an 'enviando' row is still taken for a live call. */
const SENDING_MARGIN_MS = 10_000;

/** A failure of ours or Feegow's that ends (or pauses) this attempt. */
class UploadStop extends Error {
  constructor(
    readonly motivo: string,
    message: string,
    readonly transient: boolean,
    /** The upload call itself was made and its outcome is unknown. */
    readonly uncertain = false,
  ) {
    super(message);
  }
}

/** "Termo de Consentimento - {title}" (spec part 1 §7), "(assinado)" for the sealed PDF, and a reference to the file. */
export function uploadDescription(titulo: string, sealed: boolean, sha256: string): string {
  return `Termo de Consentimento - ${titulo.slice(0, 150)}${sealed ? " (assinado)" : ""} · ref. ${sha256.slice(0, 12)}`;
}

interface Claimed {
  upload: FeegowUploadRow;
  client: FeegowClient;
  titulo: string;
  /** A record of one optional consent's revocation (decision 057): that item's title. */
  itemTitulo: string | null;
  sealed: boolean;
  paciente: { id: string; cpf: string | null; feegow_patient_id: number | null };
  /** A previous call's outcome is unknown (the process died during it, or it timed out). */
  uncertain: boolean;
}

/**
 * The 'feegow.upload' job (decision 016, second step): sends one stored PDF to the patient's
 * record (POST /patient/upload-base64) and records the outcome on its feegow_uploads row.
 *
 * - An upload already 'enviado' (or 'falhou', until "Tentar de novo") is never sent again.
 * - 'enviando' and the attempt are written before the call; 'enviado' after Feegow's success.
 *   Feegow has no idempotency key: when an earlier call's outcome is unknown (the worker died
 *   during it, the answer timed out or was lost) the file is sent again and the row says
 *   `possivel_duplicata` — at most that one extra copy, and we know which uploads may have it.
 * - The patient's Feegow id is pacientes.feegow_patient_id, else GET /patient/list?cpf= (stored).
 * - Token, switch, patient, refusal (401/403/409/422, success:false) → 'falhou' with the message,
 *   not retried. Timeouts, dropped connections, 5xx → retried by the job with back-off (10 s × 4ⁿ)
 *   up to FEEGOW_UPLOAD_MAX_ATTEMPTS calls, then 'falhou'. The PDF stays in our storage always.
 * No transaction stays open while Feegow answers.
 */
export async function runFeegowUpload(ctx: JobContext, payload: { uploadId: string }, tenantId: string): Promise<void> {
  const claimed = await claim(ctx, payload.uploadId, tenantId);
  if (!claimed) return;
  const { upload, client } = claimed;
  let startedCall = false;
  try {
    const pacienteId = await feegowPatientId(ctx, tenantId, claimed);
    const pdf = await ctx.storage.get(upload.file_sha256);
    if (!pdf)
      throw new UploadStop(
        "arquivo_ausente",
        "O arquivo do PDF não está no armazenamento do Consentir. Gere o PDF de novo e envie.",
        false,
      );
    if (pdf.length > FEEGOW_UPLOAD_MAX_BYTES) {
      throw new UploadStop(
        "arquivo_grande",
        `O PDF tem ${(pdf.length / 1024 / 1024).toFixed(1)} MB, acima do limite de envio ao Feegow.`,
        false,
      );
    }
    const sending = await withTenant(ctx.db, tenantId, (tx) =>
      tx
        .update(feegowUploads)
        .set({
          status: "enviando",
          envio_iniciado_at: new Date(),
          feegow_patient_id: pacienteId,
          updated_at: new Date(),
        })
        .where(
          and(
            eq(feegowUploads.tenant_id, tenantId),
            eq(feegowUploads.id, upload.id),
            eq(feegowUploads.status, "pendente"),
          ),
        )
        .returning({ id: feegowUploads.id }),
    );
    if (sending.length === 0) return; // Someone else finished or failed it meanwhile.
    startedCall = true;
    await client.uploadPdf({
      pacienteId,
      pdf,
      descricao:
        upload.origem === "recusa" || upload.origem === "revogacao"
          ? recordDescription(claimed, upload.origem)
          : uploadDescription(claimed.titulo, claimed.sealed, upload.file_sha256),
    });
  } catch (error) {
    const stop = asStop(error, startedCall);
    await recordFailure(ctx, tenantId, claimed, stop);
    if (stop.transient && upload.tentativas < FEEGOW_UPLOAD_MAX_ATTEMPTS) {
      // The job's back-off decides when the next attempt comes (run-due-jobs.ts).
      throw new Error(`envio ao Feegow adiado: ${stop.message}`, { cause: error });
    }
    return;
  }
  await withTenant(ctx.db, tenantId, async (tx) => {
    const now = new Date();
    const [done] = await tx
      .update(feegowUploads)
      .set({
        status: "enviado",
        enviado_at: now,
        ultimo_erro: null,
        motivo: null,
        envio_iniciado_at: null,
        possivel_duplicata: upload.possivel_duplicata || claimed.uncertain,
        updated_at: now,
      })
      .where(
        and(
          eq(feegowUploads.tenant_id, tenantId),
          eq(feegowUploads.id, upload.id),
          eq(feegowUploads.status, "enviando"),
        ),
      )
      .returning();
    if (!done) return;
    await recordAuditEvent(
      tx,
      { tenantId, actorProfileId: null },
      {
        action: "document.feegow_uploaded",
        entityType: "contrato",
        entityId: upload.contrato_id,
        data: {
          upload_id: upload.id,
          sha256: upload.file_sha256,
          origem: upload.origem,
          feegow_patient_id: done.feegow_patient_id,
          tentativas: done.tentativas,
          possivel_duplicata: done.possivel_duplicata,
        },
      },
    );
  });
}

/** Reads the upload and what it needs, counts the attempt; null when there is nothing to send. */
async function claim(ctx: JobContext, uploadId: string, tenantId: string): Promise<Claimed | null> {
  return withTenant(ctx.db, tenantId, async (tx) => {
    const [upload] = await tx
      .select()
      .from(feegowUploads)
      .where(and(eq(feegowUploads.tenant_id, tenantId), eq(feegowUploads.id, uploadId)))
      .for("update");
    if (!upload) {
      ctx.log.warn({ uploadId, tenantId }, "feegow.upload: envio não encontrado; nada a fazer");
      return null;
    }
    if (upload.status === "enviado" || upload.status === "falhou") return null;
    // 'enviando' younger than one call's time limit (plus a margin) is a live worker's call:
    // not ours to repeat. Older, its worker died during the call: the outcome is unknown.
    const limit = ctx.env.FEEGOW_TIMEOUT_MS + SENDING_MARGIN_MS;
    if (
      upload.status === "enviando" &&
      upload.envio_iniciado_at &&
      Date.now() - upload.envio_iniciado_at.getTime() < limit
    ) {
      throw new Error("feegow.upload: outro envio deste arquivo está em andamento; nova verificação mais tarde");
    }
    const uncertain = upload.status === "enviando" || upload.envio_iniciado_at !== null;
    const [counted] = await tx
      .update(feegowUploads)
      .set({ status: "pendente", tentativas: upload.tentativas + 1, updated_at: new Date() })
      .where(eq(feegowUploads.id, upload.id))
      .returning();
    const current = counted ?? upload;
    const [document] = await tx
      .select({ titulo: contratos.titulo, signedSha: contratos.signed_pdf_sha256, pacienteId: contratos.paciente_id })
      .from(contratos)
      .where(and(eq(contratos.tenant_id, tenantId), eq(contratos.id, upload.contrato_id)))
      .limit(1);
    const [paciente] = document
      ? await tx
          .select({ id: pacientes.id, cpf: pacientes.cpf, feegow_patient_id: pacientes.feegow_patient_id })
          .from(pacientes)
          .where(and(eq(pacientes.tenant_id, tenantId), eq(pacientes.id, document.pacienteId)))
          .limit(1)
      : [];
    const settings = await loadFeegowRow(tx, tenantId);
    const fail = (stop: UploadStop) => markFailed({ tx, tenantId, upload: current, stop, uncertain }).then(() => null);
    if (!document || !paciente)
      return fail(new UploadStop("sem_documento", "O documento ou o paciente não existe mais.", false));
    if (settings?.integrations.file_upload !== true) {
      return fail(
        new UploadStop(
          "desativado",
          `${FEEGOW_MESSAGES.disabled}: ${FEEGOW_MESSAGES.disabledDetail.file_upload}`,
          false,
        ),
      );
    }
    let client: FeegowClient;
    try {
      client = clientFor(settings, ctx.secretBox, feegowConnection(ctx.env));
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      return fail(
        new UploadStop(
          "sem_token",
          `${error.message}. Salve o token do Feegow em Integração e use Tentar de novo.`.replace("..", "."),
          false,
        ),
      );
    }
    return {
      upload: current,
      client,
      titulo: document.titulo,
      itemTitulo: upload.origem === "revogacao" ? await revokedItemTitle(tx, tenantId, upload) : null,
      sealed: document.signedSha === upload.file_sha256,
      paciente,
      uncertain,
    };
  });
}

/** The title of the optional consent whose revocation record this file is, or null (a whole revocation). */
async function revokedItemTitle(tx: Tx, tenantId: string, upload: FeegowUploadRow): Promise<string | null> {
  const [record] = await tx
    .select({ itemId: contratoRegistros.item_id, documento: contratos.documento })
    .from(contratoRegistros)
    .innerJoin(
      contratos,
      and(eq(contratos.tenant_id, contratoRegistros.tenant_id), eq(contratos.id, contratoRegistros.contrato_id)),
    )
    .where(and(eq(contratoRegistros.tenant_id, tenantId), eq(contratoRegistros.pdf_file_id, upload.file_id)))
    .limit(1);
  if (!record?.itemId) return null;
  return frozenOptionalItem(record.documento, record.itemId)?.title ?? record.itemId;
}

/** What the chart shows for the file: the record's kind (and item), the title, a short reference. */
function recordDescription(claimed: Claimed, kind: "recusa" | "revogacao"): string {
  const item = claimed.itemTitulo ? ` da autorização “${claimed.itemTitulo.slice(0, 80)}”` : "";
  return `${CHOICE_RECORD_TITLE[kind]}${item} - ${claimed.titulo.slice(0, 150)} · ref. ${claimed.upload.file_sha256.slice(0, 12)}`;
}

/** The patient's id in Feegow: the one we keep, else looked up by CPF and kept. */
async function feegowPatientId(ctx: JobContext, tenantId: string, claimed: Claimed): Promise<number> {
  const { paciente } = claimed;
  if (paciente.feegow_patient_id) return paciente.feegow_patient_id;
  const cpf = (paciente.cpf ?? "").replace(/\D/g, "");
  if (cpf.length !== 11) {
    throw new UploadStop(
      "sem_paciente",
      "O paciente não tem CPF no cadastro, e sem ele não é possível achá-lo no Feegow. Informe o CPF (ou busque o paciente no Feegow) e use Tentar de novo.",
      false,
    );
  }
  const ids = await claimed.client.findPatientIds(cpf);
  const id = ids[0];
  if (!id) {
    throw new UploadStop(
      "sem_paciente",
      "Paciente não encontrado no Feegow com o CPF do cadastro. Cadastre-o no Feegow (ou confira o CPF) e use Tentar de novo.",
      false,
    );
  }
  await withTenant(ctx.db, tenantId, (tx) =>
    tx
      .update(pacientes)
      .set({ feegow_patient_id: id })
      .where(
        and(eq(pacientes.tenant_id, tenantId), eq(pacientes.id, paciente.id), isNull(pacientes.feegow_patient_id)),
      ),
  );
  return id;
}

function asStop(error: unknown, startedCall: boolean): UploadStop {
  if (error instanceof UploadStop) return error;
  if (error instanceof FeegowError) {
    const uncertain =
      UNCERTAIN.has(error.failure) || (error.failure === "http" && GATEWAY_STATUSES.has(error.httpStatus ?? 0));
    return new UploadStop(error.failure, error.message, TRANSIENT.has(error.failure), startedCall && uncertain);
  }
  throw error;
}

/** A failed attempt: 'falhou' when it is for good, else back to 'pendente' with the reason shown. */
async function recordFailure(ctx: JobContext, tenantId: string, claimed: Claimed, stop: UploadStop): Promise<void> {
  await withTenant(ctx.db, tenantId, async (tx) => {
    const [current] = await tx
      .select()
      .from(feegowUploads)
      .where(and(eq(feegowUploads.tenant_id, tenantId), eq(feegowUploads.id, claimed.upload.id)))
      .for("update");
    if (!current || current.status === "enviado" || current.status === "falhou") return;
    const lastTry = current.tentativas >= FEEGOW_UPLOAD_MAX_ATTEMPTS;
    if (stop.transient && !lastTry) {
      await tx
        .update(feegowUploads)
        .set({
          status: "pendente",
          ultimo_erro: stop.message,
          motivo: stop.motivo,
          // An answer we never got (now or before) leaves the outcome open for the next attempt.
          envio_iniciado_at: stop.uncertain || claimed.uncertain ? current.envio_iniciado_at : null,
          updated_at: new Date(),
        })
        .where(eq(feegowUploads.id, current.id));
      return;
    }
    await markFailed({ tx, tenantId, upload: current, stop, uncertain: claimed.uncertain || stop.uncertain });
  });
}

interface MarkFailedOptions {
  tx: Tx;
  tenantId: string;
  upload: FeegowUploadRow;
  stop: UploadStop;
  uncertain: boolean;
}

async function markFailed({ tx, tenantId, upload, stop, uncertain }: MarkFailedOptions): Promise<void> {
  const now = new Date();
  await tx
    .update(feegowUploads)
    .set({
      status: "falhou",
      ultimo_erro: stop.message,
      motivo: stop.motivo,
      envio_iniciado_at: uncertain ? (upload.envio_iniciado_at ?? now) : null,
      updated_at: now,
    })
    .where(and(eq(feegowUploads.tenant_id, tenantId), eq(feegowUploads.id, upload.id)));
  await recordAuditEvent(
    tx,
    { tenantId, actorProfileId: null },
    {
      action: "document.feegow_upload_failed",
      entityType: "contrato",
      entityId: upload.contrato_id,
      data: {
        upload_id: upload.id,
        sha256: upload.file_sha256,
        falha: stop.motivo,
        mensagem: stop.message,
        tentativas: upload.tentativas,
      },
    },
  );
}
