import { and, eq } from "drizzle-orm";
import type { Db } from "../../../db/client.js";
import { profiles } from "../../../db/schema.js";
import { withTenant } from "../../../db/tenant-scope.js";
import { councilColumns } from "../../../shared/schemas/council.js";
import type { User, UserUpdate } from "../../../shared/schemas/users.js";
import { AppError } from "../../errors.js";
import type { SessionUser } from "../auth/sessions.js";
import { recordAuditEvent } from "../audit/record-audit-event.js";
import { assertUsersManager } from "./access.js";
import type { RequestContext } from "./create-user.js";
import { findUser, invitationStateOf } from "./find-user.js";
import { presentUser } from "./present-user.js";

const EDITABLE = ["nome", "role", "conselho_tipo", "conselho_numero", "conselho_uf", "especialidades"] as const;

export interface UpdateUserOptions {
  db: Db;
  actor: SessionUser;
  id: string;
  input: UserUpdate;
  context: Omit<RequestContext, "origin">;
}

/**
 * PATCH /api/users/:id: the owner corrects a user's name, role, council and
 * specialties with the add-user dialog's rules. The owner's row keeps its role. Audited with the
 * fields that changed; the role applies to the user's open sessions at once (read per request).
 */
export async function updateUser({ db, actor, id, input, context }: UpdateUserOptions): Promise<User> {
  return withTenant(db, actor.tenantId, async (tx) => {
    await assertUsersManager(tx, actor);
    const user = await findUser(tx, actor.tenantId, id);
    if (user.is_proprietario && input.role !== user.role) {
      throw new AppError("USER_OWNER_PROTECTED", "A função do proprietário da clínica não pode ser alterada.", {
        issues: [{ path: "role", message: "A função do proprietário da clínica não pode ser alterada." }],
      });
    }
    const [row] = await tx
      .update(profiles)
      .set({ nome: input.nome, role: input.role, ...councilColumns(input), updated_at: new Date() })
      .where(and(eq(profiles.tenant_id, actor.tenantId), eq(profiles.id, id)))
      .returning();
    if (!row) throw new AppError("USER_NOT_FOUND");
    const changed = EDITABLE.filter((key) => JSON.stringify(user[key]) !== JSON.stringify(row[key]));
    await recordAuditEvent(
      tx,
      { tenantId: actor.tenantId, actorProfileId: actor.profileId, ip: context.ip, userAgent: context.userAgent },
      {
        action: "user.updated",
        entityType: "profile",
        entityId: id,
        data: {
          nome: row.nome,
          campos: changed,
          ...(user.role !== row.role ? { role: { from: user.role, to: row.role } } : {}),
        },
      },
    );
    return presentUser(row, invitationStateOf(user));
  });
}
