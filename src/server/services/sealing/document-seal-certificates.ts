/**
 * GET /api/public/seal-certificates?codigo=…: the instance seals, plus the certificates that signed
 * that one document — the clinic's e-CNPJ that sealed it, the professional's e-CPF applied before —
 * as the document.sealed event recorded them (decision 060). Nothing else of the clinic's: another
 * professional's e-CPF names a CPF, and the code is only a capability for its own document. The
 * list is what `npm run verify -- --confiaveis` reads, so a clinic-sealed file is confirmed offline.
 */
import { and, desc, eq, inArray } from "drizzle-orm";
import type { Db } from "../../../db/client.js";
import { auditEvents, certificados } from "../../../db/schema.js";
import { withTenant } from "../../../db/tenant-scope.js";
import { maskCpf } from "../../../shared/signing-rules.js";
import { findByCode } from "./public-verification.js";
import { instanceSealCertificates, type PublishedSealCertificate } from "./trusted-seal-certificates.js";

const HEX64 = /^[0-9a-f]{64}$/;

export async function documentSealCertificates(db: Db, rawCode: string): Promise<PublishedSealCertificate[]> {
  const { id, tenantId } = await findByCode(db, rawCode);
  const instance = await instanceSealCertificates(db);
  const own = await withTenant(db, tenantId, async (tx) => {
    const [sealed] = await tx
      .select({ data: auditEvents.data })
      .from(auditEvents)
      .where(
        and(
          eq(auditEvents.tenant_id, tenantId),
          eq(auditEvents.entity_id, id),
          eq(auditEvents.action, "document.sealed"),
        ),
      )
      .orderBy(desc(auditEvents.seq))
      .limit(1);
    const data = (sealed?.data ?? {}) as { certificado_sha256?: unknown; profissional_certificado_sha256?: unknown };
    const fingerprints = [data.certificado_sha256, data.profissional_certificado_sha256].filter(
      (f): f is string => typeof f === "string" && HEX64.test(f),
    );
    if (fingerprints.length === 0) return [];
    return tx
      .select({
        assunto: certificados.cn,
        sha256: certificados.fingerprint_sha256,
        criado_em: certificados.not_before,
        valido_ate: certificados.vence_em,
      })
      .from(certificados)
      .where(and(eq(certificados.tenant_id, tenantId), inArray(certificados.fingerprint_sha256, fingerprints)));
  });
  const seen = new Set(instance.map((c) => c.sha256));
  return [
    ...instance,
    ...own
      .filter((c) => !seen.has(c.sha256) && seen.add(c.sha256))
      .map((c) => ({
        // An e-CPF's name is "NOME:CPF": the public list never shows a full CPF (decision 051).
        assunto: c.assunto.replace(/:(\d{11})$/, (_m, cpf: string) => `:${maskCpf(cpf)}`),
        sha256: c.sha256,
        criado_em: c.criado_em.toISOString(),
        valido_ate: c.valido_ate.toISOString(),
      })),
  ];
}
