import { eq } from "drizzle-orm";
import type { Db, DbOrTx } from "../../../../db/client.js";
import { clinicLogos } from "../../../../db/schema.js";
import type { PdfLogo } from "../../../../pdf/document-pdf.js";

/** The clinic's logo as the PDF header draws it, or null. Runs inside the caller's tenant transaction. */
export async function loadPdfLogo(tx: DbOrTx, tenantId: string): Promise<PdfLogo | null> {
  const [row] = await tx
    .select({ png: clinicLogos.png, width: clinicLogos.width, height: clinicLogos.height })
    .from(clinicLogos)
    .where(eq(clinicLogos.tenant_id, tenantId))
    .limit(1);
  return row
    ? {
        pngDataUrl: `data:image/png;base64,${Buffer.from(row.png).toString("base64")}`,
        width: row.width,
        height: row.height,
      }
    : null;
}

/** The PNG stored under this SHA-256, for the public, content-addressed address (any clinic's). */
export async function loadClinicLogoBySha256(db: Db, sha256: string): Promise<Buffer | null> {
  const [row] = await db
    .select({ png: clinicLogos.png })
    .from(clinicLogos)
    .where(eq(clinicLogos.sha256, sha256))
    .limit(1);
  return row ? Buffer.from(row.png) : null;
}
