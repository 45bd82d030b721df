import { and, eq, ne, sql } from "drizzle-orm";
import type { DbOrTx } from "../../../db/client.js";
import { profiles } from "../../../db/schema.js";
import { ERRORS } from "../../../shared/errors.js";
import { AppError } from "../../errors.js";

/** E-mail addresses are unique across the instance (they sign in); CPFs within a clinic (decision 017). */
export const emailTaken = () =>
  new AppError("USER_EMAIL_TAKEN", undefined, {
    issues: [{ path: "email", message: ERRORS.USER_EMAIL_TAKEN.message }],
  });
export const cpfTaken = () =>
  new AppError("USER_CPF_TAKEN", undefined, { issues: [{ path: "cpf", message: ERRORS.USER_CPF_TAKEN.message }] });

/** The name of the unique index a violation hit, when the driver says. */
export function violatedConstraint(error: unknown): string | undefined {
  let current: unknown = error;
  while (current && typeof current === "object") {
    const name = (current as { constraint?: unknown }).constraint;
    if (typeof name === "string") return name;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** The error a unique violation on profiles means: the CPF index, or else the e-mail one. */
export const uniquenessError = (error: unknown): AppError =>
  violatedConstraint(error) === "profiles_tenant_cpf_unique" ? cpfTaken() : emailTaken();

/**
 * Is `email` someone else's, in any clinic? Runs as the server's role (pass the Db, not a tenant
 * transaction): other clinics' accounts are invisible under row-level security.
 */
export async function emailUsedByOther(db: DbOrTx, email: string, exceptProfileId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: profiles.id })
    .from(profiles)
    .where(and(sql`lower(${profiles.email}) = ${email.toLowerCase()}`, ne(profiles.id, exceptProfileId)))
    .limit(1);
  return Boolean(row);
}

/** Is `cpf` another user's in this clinic? */
export async function cpfUsedByOther(
  tx: DbOrTx,
  tenantId: string,
  cpf: string,
  exceptProfileId: string,
): Promise<boolean> {
  const [row] = await tx
    .select({ id: profiles.id })
    .from(profiles)
    .where(and(eq(profiles.tenant_id, tenantId), eq(profiles.cpf, cpf), ne(profiles.id, exceptProfileId)))
    .limit(1);
  return Boolean(row);
}
