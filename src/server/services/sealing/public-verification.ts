/**
 * /verificar/:code (public): what anyone holding the code may learn about a signed document, and
 * the check of a PDF they hold. The code is the capability: the document is found by its code
 * across tenants (owner connection, no RLS: there is no session), then that tenant's rows are
 * read inside its own RLS transaction. Never returned: content, IPs, full CPFs, e-mails.
 */
import { and, asc, eq } from "drizzle-orm";
import type { Db } from "../../../db/client.js";
import { contratoPartes, contratoRegistros, contratoRevisoesPdf, contratos, tenants } from "../../../db/schema.js";
import { frozenOptionalItem } from "../choices/optional-item.js";
import { withTenant } from "../../../db/tenant-scope.js";
import { maskCpf, type PdfVerdict, type Verification } from "../../../shared/schemas/signing.js";
import { appliedSigningMethod } from "../../../shared/signing-method.js";
import { AppError } from "../../errors.js";
import { sha256Hex } from "../../lib/content-hash.js";
import type { PdfRenderer } from "../../pdf-pool/pdf-pool.js";
import { trustedSealCertificates } from "./trusted-seal-certificates.js";

const CODE = /^[0-9A-Z]{6,32}$/;
const notFound = () => new AppError("NOT_FOUND", "Documento não encontrado");

/** Codes are typed from paper: case and separators do not matter. */
export function normalizeVerificationCode(code: string): string {
  return code.trim().toUpperCase().replace(/[\s-]/g, "");
}

export async function findByCode(db: Db, rawCode: string): Promise<{ id: string; tenantId: string; code: string }> {
  const code = normalizeVerificationCode(rawCode);
  if (!CODE.test(code)) throw notFound();
  const [row] = await db
    .select({ id: contratos.id, tenantId: contratos.tenant_id })
    .from(contratos)
    .where(eq(contratos.verification_code, code))
    .limit(1);
  if (row) return { ...row, code };
  // A revocation record's own code (decision 056) leads to its document.
  const [record] = await db
    .select({ id: contratoRegistros.contrato_id, tenantId: contratoRegistros.tenant_id })
    .from(contratoRegistros)
    .where(eq(contratoRegistros.verification_code, code))
    .limit(1);
  if (!record) throw notFound();
  return { ...record, code };
}

export async function getPublicVerification(db: Db, rawCode: string): Promise<Verification> {
  const { id, tenantId, code } = await findByCode(db, rawCode);
  return withTenant(db, tenantId, async (tx) => {
    const [contrato] = await tx
      .select({
        titulo: contratos.titulo,
        status: contratos.status,
        created_at: contratos.created_at,
        conteudo_sha256: contratos.conteudo_sha256,
        signed_pdf_sha256: contratos.signed_pdf_sha256,
        icp_profissional_aplicada: contratos.icp_profissional_aplicada,
        recusado_at: contratos.recusado_at,
        revogado_at: contratos.revogado_at,
        documento: contratos.documento,
      })
      .from(contratos)
      .where(and(eq(contratos.tenant_id, tenantId), eq(contratos.id, id)))
      .limit(1);
    const [clinic] = await tx
      .select({ nome: tenants.nome, nome_fantasia: tenants.nome_fantasia })
      .from(tenants)
      .where(eq(tenants.id, tenantId))
      .limit(1);
    if (!contrato || !clinic) throw notFound();
    const parties = await tx
      .select({
        nome: contratoPartes.nome,
        cpf: contratoPartes.cpf,
        assinou_em: contratoPartes.assinou_em,
        metodo_assinatura: contratoPartes.metodo_assinatura,
        papel: contratoPartes.papel,
      })
      .from(contratoPartes)
      .where(and(eq(contratoPartes.tenant_id, tenantId), eq(contratoPartes.contrato_id, id)))
      .orderBy(asc(contratoPartes.assinou_em));
    const records = await tx
      .select({
        tipo: contratoRegistros.tipo,
        em: contratoRegistros.ocorrido_em,
        codigo: contratoRegistros.verification_code,
        pdf_sha256: contratoRegistros.pdf_sha256,
        item_id: contratoRegistros.item_id,
      })
      .from(contratoRegistros)
      .where(and(eq(contratoRegistros.tenant_id, tenantId), eq(contratoRegistros.contrato_id, id)))
      .orderBy(asc(contratoRegistros.created_at));
    const refusal = records.find((r) => r.tipo === "recusa");
    return {
      codigo: code,
      titulo: contrato.titulo,
      clinica: clinic.nome_fantasia ?? clinic.nome,
      status: contrato.status,
      criado_em: contrato.created_at.toISOString(),
      assinaturas: parties.map((p) => ({
        nome: p.nome,
        cpf: maskCpf(p.cpf),
        assinou_em: p.assinou_em.toISOString(),
        metodo_assinatura: appliedSigningMethod(p, contrato.icp_profissional_aplicada),
      })),
      // A refused document has no signed PDF: its sealed file is the refusal record.
      pdf_selado_sha256: contrato.signed_pdf_sha256 ?? refusal?.pdf_sha256 ?? null,
      conteudo_sha256: contrato.conteudo_sha256,
      recusado_em: contrato.recusado_at?.toISOString() ?? null,
      revogado_em: contrato.revogado_at?.toISOString() ?? null,
      registros: records.map(({ item_id, ...r }) => ({
        ...r,
        em: r.em.toISOString(),
        ...(item_id ? { autorizacao: frozenOptionalItem(contrato.documento, item_id)?.title ?? item_id } : {}),
      })),
    };
  });
}

/** Is `pdf` exactly this document's sealed PDF, and does its PAdES signature verify? */
export async function checkPdfForCode(
  db: Db,
  verifier: Pick<PdfRenderer, "verify">,
  rawCode: string,
  pdf: Buffer,
): Promise<PdfVerdict> {
  const { id, tenantId, code } = await findByCode(db, rawCode);
  const [row] = await withTenant(db, tenantId, (tx) =>
    tx
      .select({ signed_pdf_sha256: contratos.signed_pdf_sha256 })
      .from(contratos)
      .where(and(eq(contratos.tenant_id, tenantId), eq(contratos.id, id)))
      .limit(1),
  );
  if (!row) throw notFound();
  const recordShas = await withTenant(db, tenantId, (tx) =>
    tx
      .select({ sha256: contratoRegistros.pdf_sha256 })
      .from(contratoRegistros)
      .where(and(eq(contratoRegistros.tenant_id, tenantId), eq(contratoRegistros.contrato_id, id))),
  );
  // The copies e-mailed before an archive revision (decision 064) are this document's files too.
  const revisions = await withTenant(db, tenantId, (tx) =>
    tx
      .select({ sha256: contratoRevisoesPdf.sha256, anterior: contratoRevisoesPdf.anterior_sha256 })
      .from(contratoRevisoesPdf)
      .where(and(eq(contratoRevisoesPdf.tenant_id, tenantId), eq(contratoRevisoesPdf.contrato_id, id))),
  );
  const sha256 = sha256Hex(pdf);
  const trusted = await trustedSealCertificates(db, tenantId);
  // The same checks as `npm run verify` (no database): the evidence the file carries, and the
  // seal's certificate against the keys this instance and this clinic own.
  // In a PDF thread (decision 049): a stranger's file is parsed off the event loop, under a timeout.
  const { report, signature } = await verifier.verify(pdf, { trusted, expectedCode: code });
  const reconhecido = report.certificado_ok === true;
  const hasEvidence = report.documento !== null;
  return {
    identico:
      (row.signed_pdf_sha256 !== null && row.signed_pdf_sha256 === sha256) ||
      recordShas.some((r) => r.sha256 === sha256) ||
      revisions.some((r) => r.sha256 === sha256 || r.anterior === sha256),
    assinatura_valida: signature.valid && reconhecido,
    selo_integro: signature.valid,
    certificado_reconhecido: reconhecido,
    sha256,
    certificado: signature.signerCommonName,
    certificado_sha256: report.certificado?.sha256 ?? null,
    evidencias: hasEvidence
      ? {
          conteudo_ok: report.conteudo_ok,
          cadeia_ok: report.cadeia_ok,
          eventos: report.eventos,
          certificado_sha256: report.certificado?.sha256 ?? null,
          // What /verificar prints, line by line, like `npm run verify`.
          ok: report.ok,
          certificado_assunto: report.certificado?.assunto ?? null,
          partes: report.partes,
          linhas: report.linhas,
        }
      : null,
  };
}

/**
 * /verificar without a code: the code is read from the evidence the file itself carries, then the
 * file is checked exactly as /verificar/:code checks it. A file without our evidence, or whose
 * code no document of this server has, gets a pt-BR 404 that says what to do instead.
 */
export async function checkPdfWithoutCode(
  db: Db,
  verifier: Pick<PdfRenderer, "verify">,
  pdf: Buffer,
): Promise<PdfVerdict & { codigo: string }> {
  const { report } = await verifier.verify(pdf, {});
  const code = report.documento?.codigo_verificacao;
  if (!code)
    throw new AppError(
      "NOT_FOUND",
      "Este arquivo não traz o código de verificação de um documento do Consentir. Digite o código impresso no registro de assinaturas.",
    );
  try {
    await findByCode(db, code);
  } catch (error) {
    if (error instanceof AppError && error.code === "NOT_FOUND")
      throw new AppError(
        "NOT_FOUND",
        "O código de verificação deste arquivo não é de um documento deste servidor. Confira o endereço impresso no registro de assinaturas.",
      );
    throw error;
  }
  return { codigo: normalizeVerificationCode(code), ...(await checkPdfForCode(db, verifier, code, pdf)) };
}
