/**
 * The 'document.finalize' job (DESIGN §3): after a document is signed, builds its final PDF (the
 * document with the Signatures block and the "Registro de assinaturas" page), signs it — the
 * professional's ICP-Brasil A1 when chosen, then the clinic's e-CNPJ or the instance seal
 * (final-signers.ts) — stores it, links it to the document with the SHA-256 of the sealed
 * bytes, records 'document.sealed' and queues the e-mails with the PDF attached (and, for a
 * signer reached by mobile, the message with their link to it: decision 074) — in one tenant
 * transaction, after the rendering and sealing (which touch no table; they run in the PDF worker
 * pool, decision 012).
 *
 * Idempotent: a document that already has its sealed PDF is not sealed again; the run only
 * makes sure its e-mails and its message were queued (once). Two runs at the same time: the second to reach the
 * locked row finds the PDF linked and stops (its stored bytes are content-addressed, harmless).
 */
import { maskCpf, maskEmail } from "../../../shared/signing-rules.js";
import { and, eq } from "drizzle-orm";
import { contratos, files } from "../../../db/schema.js";
import { withTenant } from "../../../db/tenant-scope.js";
import { pdfFileName } from "../../../pdf/file-name.js";
import type { JobContext } from "../../jobs/job-context.js";
import { sha256Hex } from "../../lib/content-hash.js";
import { recordAuditEvent } from "../audit/record-audit-event.js";
import { recordCertificateUse } from "../certificates/record-certificate-use.js";
import { inlinePdfRenderer } from "../../pdf-pool/inline-renderer.js";
import { loadFinalDocument, withRegistry } from "./final-pdf-input.js";
import { finalSigners, pdfSignatures } from "./final-signers.js";
import { DOCUMENT_FILE, EVIDENCE_FILE } from "../../../shared/evidence/evidence.js";
import { appliedSigningMethod } from "../../../shared/signing-method.js";
import { emailsWithAttachment, enqueueSignedDocumentEmails } from "./signed-document-emails.js";
import { enqueueSignedCopyMessage } from "./signed-copy-message.js";
import { addLongTermValidation } from "../sealing/long-term-validation.js";
import { tsaConfigFromEnv } from "../timestamping/tsa-client.js";
import { enqueueSealedPdfUpload } from "../feegow/enqueue-sealed-pdf-upload.js";

/** Download name of the sealed PDF: "<title> assinado_<timestamp>.pdf" made safe. */
export function signedPdfFileName(title: string, at: Date): string {
  return pdfFileName(`${title} assinado`, at);
}

export async function finalizeSignedDocument(
  ctx: JobContext,
  payload: { contratoId: string },
  tenantId: string,
): Promise<void> {
  const { contratoId } = payload;
  const document = await loadFinalDocument(ctx, tenantId, contratoId);
  if (!document) {
    ctx.log.warn({ contratoId, tenantId }, "finalize: documento não encontrado; nada a fazer");
    return;
  }
  const { contrato } = document;

  if (contrato.signed_pdf_file_id) {
    const fileId = contrato.signed_pdf_file_id;
    await withTenant(ctx.db, tenantId, async (tx) => {
      // The copy's message once per document (decision 074): the row locked, then the trail read.
      await tx
        .select({ id: contratos.id })
        .from(contratos)
        .where(and(eq(contratos.tenant_id, tenantId), eq(contratos.id, contratoId)))
        .for("update");
      await enqueueSignedCopyMessage(tx, ctx, tenantId, document);
      if ((await emailsWithAttachment(tx, tenantId, fileId)) > 0) return;
      const [file] = await tx
        .select({ nome: files.nome })
        .from(files)
        .where(and(eq(files.tenant_id, tenantId), eq(files.id, fileId)))
        .limit(1);
      await enqueueSignedDocumentEmails(
        tx,
        ctx.secretBox,
        tenantId,
        document,
        { fileId, filename: file?.nome ?? signedPdfFileName(contrato.titulo, new Date()) },
        ctx.origin,
      );
    });
    return;
  }
  if (contrato.status !== "signed" || document.parties.length === 0) {
    ctx.log.warn(
      { contratoId, tenantId, status: contrato.status },
      "finalize: documento não está assinado; nada a fazer",
    );
    return;
  }

  const now = new Date();
  const signers = await finalSigners(ctx, tenantId, document, now);
  if (signers.professionalMissing) ctx.log.warn({ contratoId, tenantId }, `finalize: ${signers.professionalMissing}`);
  if (signers.clinicSealMissing)
    ctx.log.warn({ contratoId, tenantId }, `finalize: certificado da clínica não usado: ${signers.clinicSealMissing}`);
  const seal = signers.seal;
  // The professional's chosen ICP-Brasil signature, when it cannot be applied, is not shown as one.
  const applied = signers.professionalMissing ? false : signers.professional ? true : null;
  const shown = {
    ...document,
    input: {
      ...document.input,
      signatures: document.input.signatures?.map((s) => ({
        ...s,
        metodo: appliedSigningMethod({ metodo_assinatura: s.metodo, papel: s.papel ?? "" }, applied),
        // The professional's full CPF and e-mail only with their ICP-Brasil signature (decision 051).
        ...(s.papel === "profissional" && !signers.professional
          ? { cpf: maskCpf(s.cpf), email: s.email ? maskEmail(s.email) : s.email }
          : {}),
      })),
    },
  };
  const input = await withRegistry(shown, ctx.origin, seal.material, {
    sealLevel: seal.level.description,
    sealTrust: seal.trust,
    professional: signers.professional
      ? {
          commonName: signers.professional.material.commonName,
          fingerprintSha256: signers.professional.material.fingerprintSha256,
          level: signers.professional.level.description,
          trust: signers.professional.trust,
        }
      : null,
    professionalMissing: signers.professionalMissing,
    clinicSealMissing: signers.clinicSealMissing,
    timestamped: tsaConfigFromEnv(ctx.env) !== undefined,
    timestampAuthority: signers.timestampAuthority,
  });
  const documentJson = input.attachments?.find((a) => a.name === DOCUMENT_FILE)?.content ?? "";
  const evidenceJson = input.attachments?.find((a) => a.name === EVIDENCE_FILE)?.content ?? "";
  if (sha256Hex(documentJson) !== contrato.conteudo_sha256) {
    // The embedded content would not match its own hash: the verifier will say so; say it here too.
    ctx.log.error(
      { contratoId, tenantId },
      "finalize: o JSON canônico do conteúdo não tem o SHA-256 registrado no documento",
    );
  }
  // Drawn and signed in the PDF pool as background work: it waits for room rather than taking
  // the places people are waiting for; if the pool stays full, SERVER_BUSY sends the job back to
  // the queue without spending an attempt (run-due-jobs.ts). A time-stamp authority that does not
  // answer throws too: the job retries later.
  const signed = await (ctx.pdf ?? inlinePdfRenderer).renderAndSign(input, pdfSignatures(signers, ctx, now), {
    background: true,
  });
  // After the last signature: the DSS (chains and the lists just read) and, with an authority, the
  // document time-stamp (decision 053). Incremental updates: the signatures above stay intact.
  const sealed = await addLongTermValidation(signed, {
    material: {
      certificates: [signers.professional, signers.seal].flatMap((s) =>
        s ? [s.material.certificateDer, ...(s.material.chainDer ?? [])].map((der) => Buffer.from(der)) : [],
      ),
      crls: signers.crls,
      ocsps: signers.ocsps,
    },
    // The same authorities as the signatures' stamps: only checked ACTs when they declare AD-RT/AD-RC.
    timestamp: signers.tsa,
  });
  const stored = await ctx.storage.put(sealed);
  const nome = signedPdfFileName(contrato.titulo, now);

  await withTenant(ctx.db, tenantId, async (tx) => {
    const [locked] = await tx
      .select({ signed_pdf_file_id: contratos.signed_pdf_file_id })
      .from(contratos)
      .where(and(eq(contratos.tenant_id, tenantId), eq(contratos.id, contratoId)))
      .for("update");
    if (!locked || locked.signed_pdf_file_id) return;
    const [file] = await tx
      .insert(files)
      .values({
        tenant_id: tenantId,
        sha256: stored.sha256,
        size: stored.size,
        content_type: "application/pdf",
        nome,
        created_by: null,
      })
      .returning({ id: files.id });
    if (!file) throw new Error("files insert returned no row");
    await tx
      .update(contratos)
      .set({
        signed_pdf_file_id: file.id,
        signed_pdf_sha256: sha256Hex(sealed),
        icp_profissional_aplicada: applied,
        updated_at: now,
      })
      .where(and(eq(contratos.tenant_id, tenantId), eq(contratos.id, contratoId)));
    await recordAuditEvent(
      tx,
      { tenantId, actorProfileId: null },
      {
        action: "document.sealed",
        entityType: "contrato",
        entityId: contratoId,
        data: {
          file_id: file.id,
          sha256: stored.sha256,
          size: stored.size,
          certificado: seal.material.subject,
          certificado_sha256: seal.material.fingerprintSha256,
          selo: seal.kind,
          nivel: seal.level.level,
          profissional_certificado_sha256: signers.professional?.material.fingerprintSha256 ?? null,
          profissional_nivel: signers.professional?.level.level ?? null,
          // What the PDF carries (decision 014): kept in the clinic's own chain as well.
          evidencias_sha256: sha256Hex(evidenceJson),
          cadeia_hash_final: input.registry?.finalHash ?? null,
        },
      },
    );
    for (const signer of [signers.professional, seal]) {
      if (!signer?.certificateId) continue;
      await recordCertificateUse(tx, {
        tenantId,
        certificateId: signer.certificateId,
        fingerprintSha256: signer.material.fingerprintSha256,
        documentId: contratoId,
        purpose: signer === seal ? "selo_clinica" : "assinatura_profissional",
      });
    }
    await enqueueSignedDocumentEmails(
      tx,
      ctx.secretBox,
      tenantId,
      document,
      { fileId: file.id, filename: nome },
      ctx.origin,
    );
    // No e-mail on record, or the link went by WhatsApp: the copy by message too (decision 074).
    await enqueueSignedCopyMessage(tx, ctx, tenantId, document, now);
    await enqueueSealedPdfUpload(tx, tenantId, contratoId, { fileId: file.id, sha256: stored.sha256 });
  });
}
