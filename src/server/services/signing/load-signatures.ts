import { and, asc, eq, sql } from "drizzle-orm";
import type { Tx } from "../../../db/client.js";
import { auditEvents, contratoPartes, contratos, files } from "../../../db/schema.js";
import type { ReadingSummary } from "../../../shared/reading/reading-record.js";
import { formatCpf } from "../../../shared/br/cpf.js";
import { appliedSigningMethod } from "../../../shared/signing-method.js";
import { maskCpf, maskEmail, type SignatureSummary } from "../../../shared/schemas/signing.js";
import type { FileStorage } from "../../storage/file-storage.js";
import { pngDataUrl } from "./signature-png.js";
import { readComprehension } from "../../../shared/document-model/comprehension.js";
import { readAudioEvidence } from "../../../shared/audio/audio-consent.js";

export type SignatureRow = Awaited<ReturnType<typeof selectSignatures>>[number];

/** The parties that signed the document, oldest first (spec part 1 §7: ordered by assinou_em). */
export function selectSignatures(tx: Tx, tenantId: string, contratoId: string) {
  return tx
    .select({
      parte: contratoPartes,
      sha256: files.sha256,
      icpAplicada: contratos.icp_profissional_aplicada,
      // The reading record travels in the signature's own event (decision 052).
      leitura: sql<ReadingSummary | null>`${auditEvents.data} -> 'leitura'`,
      // …and so do the comprehension answers (decision 061).
      compreensao: sql<unknown>`${auditEvents.data} -> 'compreensao'`,
      // …and the audio of the agreement (decision 069).
      audio: sql<unknown>`${auditEvents.data} -> 'audio'`,
    })
    .from(contratoPartes)
    .innerJoin(
      contratos,
      and(eq(contratos.tenant_id, contratoPartes.tenant_id), eq(contratos.id, contratoPartes.contrato_id)),
    )
    .leftJoin(
      files,
      and(eq(files.tenant_id, contratoPartes.tenant_id), eq(files.id, contratoPartes.assinatura_file_id)),
    )
    .leftJoin(
      auditEvents,
      and(
        eq(auditEvents.tenant_id, contratoPartes.tenant_id),
        eq(auditEvents.entity_type, "contrato"),
        sql`${auditEvents.entity_id} = ${contratoPartes.contrato_id}::text`,
        eq(auditEvents.action, "document.party_signed"),
        sql`${auditEvents.data} ->> 'parte_id' = ${contratoPartes.id}::text`,
      ),
    )
    .where(and(eq(contratoPartes.tenant_id, tenantId), eq(contratoPartes.contrato_id, contratoId)))
    .orderBy(asc(contratoPartes.assinou_em), asc(contratoPartes.id));
}

/**
 * The Signatures block: for staff, every field (full CPF, IP, user agent); for the public page
 * (anyone holding the link), the CPF and e-mail masked and no phone, IP or user agent. The drawn image is read from storage (outside any
 * transaction) and given as a PNG data URL; null when the bytes are gone.
 */
export async function presentSignatures(
  rows: SignatureRow[],
  storage: FileStorage,
  audience: "staff" | "public",
): Promise<SignatureSummary[]> {
  return Promise.all(
    rows.map(async ({ parte, sha256, icpAplicada, leitura, compreensao, audio }) => {
      const recorded = audience === "staff" ? readAudioEvidence(audio) : null;
      const bytes = sha256 ? await storage.get(sha256) : null;
      return {
        nome: parte.nome,
        papel: parte.papel,
        qualidade: parte.qualidade,
        cpf: audience === "staff" ? formatCpf(parte.cpf) : maskCpf(parte.cpf),
        email: audience === "staff" ? parte.email : maskEmail(parte.email),
        telefone: audience === "staff" ? parte.telefone : null,
        assinou_em: parte.assinou_em.toISOString(),
        metodo_assinatura: appliedSigningMethod(parte, icpAplicada),
        ip_address: audience === "staff" ? parte.ip_address : null,
        user_agent: audience === "staff" ? parte.user_agent : null,
        leitura: audience === "staff" ? (leitura ?? null) : null,
        compreensao: audience === "staff" ? readComprehension(compreensao) : null,
        audio: recorded
          ? {
              gravado: recorded.gravado && parte.audio_file_id !== null,
              sha256: recorded.sha256 ?? null,
              duracao_ms: recorded.duracao_ms ?? null,
              frase: recorded.frase ?? null,
            }
          : null,
        ...(audience === "staff" ? { parte_id: parte.id } : {}),
        porta_origem: audience === "staff" ? parte.porta_origem : null,
        dispositivo: audience === "staff" ? parte.dispositivo : null,
        nivel_assinatura: parte.nivel_assinatura,
        otp_verificado: parte.otp_verificado,
        tipo_assinatura: parte.tipo_assinatura,
        assinatura: bytes ? pngDataUrl(bytes) : null,
      };
    }),
  );
}
