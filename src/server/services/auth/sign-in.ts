import { sql } from "drizzle-orm";
import type { Db } from "../../../db/client.js";
import { profiles } from "../../../db/schema.js";
import { AppError } from "../../errors.js";
import { burnPasswordCheck, verifyPassword } from "../../lib/passwords.js";

/** Checks the credentials; returns who signed in. Unknown e-mail and wrong password look alike. */
export async function checkCredentials(
  db: Db,
  email: string,
  password: string,
): Promise<{ profileId: string; tenantId: string }> {
  const [profile] = await db
    .select({
      id: profiles.id,
      tenantId: profiles.tenant_id,
      passwordHash: profiles.password_hash,
      isActive: profiles.is_active,
    })
    .from(profiles)
    .where(sql`lower(${profiles.email}) = ${email.toLowerCase()}`)
    .limit(1);
  if (!profile) {
    await burnPasswordCheck(password);
    throw new AppError("INVALID_CREDENTIALS");
  }
  if (!(await verifyPassword(profile.passwordHash, password))) throw new AppError("INVALID_CREDENTIALS");
  if (!profile.isActive) throw new AppError("ACCOUNT_INACTIVE");
  return { profileId: profile.id, tenantId: profile.tenantId };
}
