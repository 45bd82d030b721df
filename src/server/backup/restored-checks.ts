import { createHash } from "node:crypto";
import { sql } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { rawRows } from "../../db/raw.js";
import { type AuditChainReport, verifyAllAuditChains } from "../services/audit/verify-audit-chain.js";
import type { FileStorage } from "../storage/file-storage.js";

export interface SealedPdfCheck {
  checked: number;
  /** Documents whose sealed PDF is missing from storage or has other bytes than recorded. */
  failed: { contrato_id: string; problem: string }[];
}

export interface RestoredChecks {
  /** null when the anchors could not be checked (no instance key here). */
  audit: AuditChainReport[] | null;
  pdfs: SealedPdfCheck;
}

const PAGE = 500;

/** Every sealed PDF's bytes in storage against the SHA-256 its document recorded. */
export async function checkSealedPdfs(db: Db, storage: FileStorage): Promise<SealedPdfCheck> {
  const result: SealedPdfCheck = { checked: 0, failed: [] };
  let after = "00000000-0000-0000-0000-000000000000";
  for (;;) {
    const rows = await rawRows<{ id: string; recorded: string | null; file_sha256: string | null }>(
      db,
      sql`select c.id::text as id, c.signed_pdf_sha256 as recorded, f.sha256 as file_sha256
            from contratos c left join files f on f.id = c.signed_pdf_file_id
           where c.signed_pdf_file_id is not null and c.id > ${after}::uuid
           order by c.id limit ${PAGE}`,
    );
    for (const row of rows) {
      result.checked += 1;
      const bytes = row.file_sha256 ? await storage.get(row.file_sha256) : null;
      if (!bytes) {
        result.failed.push({ contrato_id: row.id, problem: "o PDF selado não está no armazenamento" });
        continue;
      }
      const actual = createHash("sha256").update(bytes).digest("hex");
      if (actual !== (row.recorded ?? row.file_sha256))
        result.failed.push({ contrato_id: row.id, problem: "o SHA-256 do PDF selado não confere" });
    }
    if (rows.length < PAGE) return result;
    after = rows.at(-1)?.id ?? after;
  }
}

/** What `npm run audit:verify` checks, plus the sealed PDFs' hashes. */
export async function checkRestored(db: Db, storage: FileStorage, anchorKey: Buffer | null): Promise<RestoredChecks> {
  return {
    audit: anchorKey ? await verifyAllAuditChains(db, anchorKey) : null,
    pdfs: await checkSealedPdfs(db, storage),
  };
}
