import { clinicDisplayName, pdfClinic, pdfPhysician } from "../../presenters/pdf-parties.js";
/**
 * Everything the final PDF draws, read in one tenant transaction: the document and its frozen
 * model, the clinic, the responsible physician, the parties who signed (with their drawn PNGs
 * from storage) and the document's audit events for the "Registro de assinaturas" page.
 */
import { and, asc, eq } from "drizzle-orm";
import QRCode from "qrcode";
import { auditEvents, contratoPartes, contratos, files, profiles, tenants } from "../../../db/schema.js";
import { withTenant } from "../../../db/tenant-scope.js";
import type { DocumentPdfInput, DocumentPdfSignature } from "../../../pdf/document-pdf.js";
import type { RegistryEvent } from "../../../pdf/signature-registry.js";
import { auditActionLabel } from "../../../shared/audit/labels.js";
import type { DocumentModel } from "../../../shared/document-model/build-document-model.js";
import type { JobContext } from "../../jobs/job-context.js";

/**
 * QR code of the verification link: 4 px per module, 8-bit grayscale without alpha (PDFKit then
 * embeds the PNG's compressed data as is, instead of decoding it to split an alpha channel).
 */
export const QR_OPTIONS = { errorCorrectionLevel: "M", margin: 1, scale: 4, rendererOpts: { colorType: 0 } } as QRCode.QRCodeToDataURLOptions;

/** Public path of the verification page for a code. */
export const verificationPath = (code: string) => `/verificar/${code}`;

export interface FinalDocument {
  contrato: typeof contratos.$inferSelect;
  clinicName: string;
  physician: { nome: string; email: string } | null;
  parties: (typeof contratoPartes.$inferSelect)[];
  /** The PDF input without the registry's seal name (known once the seal is loaded). */
  input: DocumentPdfInput;
  events: RegistryEvent[];
}

/** Reads the document for its final PDF; null when it does not exist in this tenant. */
export async function loadFinalDocument(ctx: Pick<JobContext, "db" | "storage">, tenantId: string, contratoId: string): Promise<FinalDocument | null> {
  const read = await withTenant(ctx.db, tenantId, async (tx) => {
    const [contrato] = await tx
      .select()
      .from(contratos)
      .where(and(eq(contratos.tenant_id, tenantId), eq(contratos.id, contratoId)))
      .limit(1);
    if (!contrato) return null;
    const [clinic] = await tx.select().from(tenants).where(eq(tenants.id, tenantId)).limit(1);
    const [physician] = contrato.medico_responsavel_id
      ? await tx
          .select()
          .from(profiles)
          .where(and(eq(profiles.tenant_id, tenantId), eq(profiles.id, contrato.medico_responsavel_id)))
          .limit(1)
      : [];
    const parties = await tx
      .select({ parte: contratoPartes, imageSha256: files.sha256 })
      .from(contratoPartes)
      .leftJoin(files, and(eq(files.tenant_id, contratoPartes.tenant_id), eq(files.id, contratoPartes.assinatura_file_id)))
      .where(and(eq(contratoPartes.tenant_id, tenantId), eq(contratoPartes.contrato_id, contratoId)))
      .orderBy(asc(contratoPartes.assinou_em));
    const events = await tx
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.tenant_id, tenantId), eq(auditEvents.entity_type, "contrato"), eq(auditEvents.entity_id, contratoId)))
      .orderBy(asc(auditEvents.seq), asc(auditEvents.created_at));
    return { contrato, clinic, physician, parties, events };
  });
  if (!read?.clinic) return null;
  const { contrato, clinic, physician, parties, events } = read;

  const signatures = await Promise.all(
    parties.map(async ({ parte, imageSha256 }): Promise<DocumentPdfSignature> => ({
      nome: parte.nome,
      cpf: parte.cpf,
      email: parte.email,
      telefone: parte.telefone,
      assinou_em: parte.assinou_em,
      metodo: parte.metodo_assinatura,
      imagePng: imageSha256 ? await ctx.storage.get(imageSha256) : null,
      ip: parte.ip_address,
      userAgent: parte.user_agent,
    })),
  );

  return {
    contrato,
    clinicName: clinicDisplayName(clinic),
    physician: physician ? { nome: physician.nome, email: physician.email } : null,
    parties: parties.map((p) => p.parte),
    events: events.map((e) => ({ at: e.created_at, label: auditActionLabel(e.action), ip: e.ip_address, userAgent: e.user_agent })),
    input: {
      model: contrato.documento as unknown as DocumentModel,
      documentId: contrato.id,
      contentSha256: contrato.conteudo_sha256,
      createdAt: contrato.created_at,
      clinic: pdfClinic(clinic),
      physician: pdfPhysician(physician),
      signatures,
    },
  };
}

/** The PDF input with the registry page (QR code of the verification link as a PNG data URL). */
export async function withRegistry(document: FinalDocument, origin: string, sealCommonName: string): Promise<DocumentPdfInput> {
  const code = document.contrato.verification_code;
  if (!code) throw new Error(`documento ${document.contrato.id} assinado sem código de verificação`);
  const verificationUrl = `${origin}${verificationPath(code)}`;
  const qrPngDataUrl = await QRCode.toDataURL(verificationUrl, QR_OPTIONS);
  return {
    ...document.input,
    registry: { events: document.events, verificationCode: code, verificationUrl, qrPngDataUrl, sealCommonName },
  };
}
