import { and, eq, getTableColumns } from "drizzle-orm";
import type { Tx } from "../../../db/client.js";
import { profiles } from "../../../db/schema.js";
import { AppError } from "../../errors.js";
import { invitationColumns } from "./invitations.js";

/** One user of the clinic with its invitation state; another clinic's id is USER_NOT_FOUND (404). */
export async function findUser(tx: Tx, tenantId: string, id: string) {
  const [row] = await tx
    .select({ ...getTableColumns(profiles), ...invitationColumns })
    .from(profiles)
    .where(and(eq(profiles.tenant_id, tenantId), eq(profiles.id, id)))
    .limit(1);
  if (!row) throw new AppError("USER_NOT_FOUND");
  return row;
}

export type UserRow = Awaited<ReturnType<typeof findUser>>;

export const invitationStateOf = (row: Pick<UserRow, "pendingUntil" | "accepted">) => ({
  pendingUntil: row.pendingUntil,
  accepted: row.accepted,
});
