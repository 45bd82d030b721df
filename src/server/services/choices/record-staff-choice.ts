import { and, eq } from "drizzle-orm";
import type { Db } from "../../../db/client.js";
import { profiles } from "../../../db/schema.js";
import { withTenant } from "../../../db/tenant-scope.js";
import { dateInSaoPaulo } from "../../../shared/dates/sao-paulo.js";
import type { ChoiceKind, StaffChoiceData } from "../../../shared/schemas/choices.js";
import { requiredSigner } from "../../../shared/signing-rules.js";
import { AppError } from "../../errors.js";
import { isUniqueViolation } from "../../lib/pg-errors.js";
import type { Actor } from "../../policies/roles.js";
import { findDocumentOrThrow } from "../documents/find-document.js";
import { loadSignerRecord } from "../signing/signer-record.js";
import { revocableOptionalItem } from "./optional-item.js";
import { recordChoice } from "./record-choice.js";
import { unusedChoiceCode } from "./unused-choice-code.js";

/** Unsigned documents whose refusal staff may record (a draft too: the patient read it at the clinic). */
const REFUSABLE = new Set(["draft", "sent", "viewed", "expired"]);
/** A moment a little ahead of the server's clock still counts as now (devices' clocks drift). */
const CLOCK_SLACK_MS = 5 * 60_000;

export interface RecordStaffChoiceOptions {
  db: Db;
  actor: Actor;
  input: { id: string; tipo: ChoiceKind; data: StaffChoiceData; itemId?: string };
  audit: { ip?: string | undefined; userAgent?: string | undefined };
  now?: Date;
}

/**
 * Staff record what the patient said in person or by phone (decision 056): a refusal of an
 * unsigned document, or the revocation of a signed one — who recorded it (the session's member),
 * how, when the patient said it and why. The same record, event and sealing job as on the link;
 * the document locked, so two at once make one record and the second is told it was done.
 */
export async function recordStaffChoice({
  db,
  actor,
  input,
  audit,
  now = new Date(),
}: RecordStaffChoiceOptions): Promise<{ registro_id: string; codigo_verificacao: string }> {
  const { tipo, data } = input;
  const ocorridoEm = data.ocorrido_em ? new Date(data.ocorrido_em) : now;
  if (ocorridoEm.getTime() > now.getTime() + CLOCK_SLACK_MS) throw new AppError("CHOICE_IN_FUTURE");
  const verificationCode = await unusedChoiceCode(db);
  try {
    return await withTenant(db, actor.tenantId, async (tx) => {
      const document = await findDocumentOrThrow(tx, actor.tenantId, input.id, true);
      if (tipo === "recusa") {
        if (document.status === "signed") throw new AppError("SIGNING_ALREADY_SIGNED");
        if (!REFUSABLE.has(document.status)) throw new AppError("DOCUMENT_NOT_REFUSABLE");
      } else {
        if (document.status !== "signed") throw new AppError("DOCUMENT_NOT_REVOCABLE");
        if (document.revogado_at) throw new AppError("DOCUMENT_ALREADY_REVOKED");
        if (ocorridoEm.getTime() < (document.signed_at?.getTime() ?? 0)) throw new AppError("DOCUMENT_NOT_REVOCABLE");
      }
      const item =
        tipo === "revogacao" && input.itemId !== undefined
          ? await revocableOptionalItem(tx, document, input.itemId)
          : null;
      const patient = await loadSignerRecord(tx, actor.tenantId, document.paciente_id);
      if (!patient) throw new AppError("NOT_FOUND", "Paciente não encontrado");
      const signer = requiredSigner(patient, dateInSaoPaulo(now));
      const [staff] = await tx
        .select({ nome: profiles.nome })
        .from(profiles)
        .where(and(eq(profiles.tenant_id, actor.tenantId), eq(profiles.id, actor.profileId)))
        .limit(1);
      const record = await recordChoice(tx, {
        tenantId: actor.tenantId,
        document,
        tipo,
        origem: "equipe",
        meio: data.meio,
        nome: signer.nome,
        papel: signer.papel,
        cpf: null,
        motivo: data.motivo ?? null,
        otpVerificado: false,
        staff: { profileId: actor.profileId, nome: staff?.nome ?? "Equipe" },
        audit,
        ocorridoEm,
        verificationCode,
        now,
        item: item ? { id: item.id, title: item.title } : null,
      });
      return { registro_id: record.id, codigo_verificacao: verificationCode };
    });
  } catch (error) {
    if (input.itemId !== undefined && isUniqueViolation(error, "contrato_registros_item_unique"))
      throw new AppError("OPTIONAL_CONSENT_ALREADY_REVOKED");
    if (isUniqueViolation(error, "contrato_registros_tipo_unique"))
      throw new AppError(tipo === "recusa" ? "DOCUMENT_NOT_REFUSABLE" : "DOCUMENT_ALREADY_REVOKED");
    throw error;
  }
}
