import { eq } from "drizzle-orm";
import type { Db } from "../../../db/client.js";
import { contratoRegistros, contratos } from "../../../db/schema.js";
import { newVerificationCode } from "../signing/verification-code.js";

/**
 * A verification code neither a document nor a record uses (decision 056): /verificar/:code finds
 * one or the other. Looked up as the owner role (every clinic's codes), before the tenant's
 * transaction; the unique indexes stay the last wall.
 */
export async function unusedChoiceCode(db: Db): Promise<string> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const code = newVerificationCode();
    const [document] = await db
      .select({ id: contratos.id })
      .from(contratos)
      .where(eq(contratos.verification_code, code))
      .limit(1);
    const [record] = await db
      .select({ id: contratoRegistros.id })
      .from(contratoRegistros)
      .where(eq(contratoRegistros.verification_code, code))
      .limit(1);
    if (!document && !record) return code;
  }
  throw new Error("could not find an unused verification code");
}
