import { eq } from "drizzle-orm";
import type { Db } from "../../../db/client.js";
import { certificados } from "../../../db/schema.js";
import { withTenant } from "../../../db/tenant-scope.js";
import type { CertificateList } from "../../../shared/schemas/certificates.js";
import type { Actor } from "../../policies/roles.js";
import { certificateScope } from "./access.js";
import { findCertificates } from "./find-certificates.js";
import type { OfficialRoots } from "./official-roots.js";

/**
 * GET /api/certificates (spec part 1 §7: provider local, newest first): the whole clinic's for
 * the owner and administrators, only their own for a health professional.
 */
export async function listCertificates(db: Db, roots: OfficialRoots | null, actor: Actor): Promise<CertificateList> {
  const scope = certificateScope(actor);
  return withTenant(db, actor.tenantId, async (tx) => ({
    items: await findCertificates({
      tx,
      tenantId: actor.tenantId,
      roots,
      where: scope === "own" ? eq(certificados.owner_profile_id, actor.profileId) : undefined,
    }),
  }));
}
