import { and, eq, isNull } from "drizzle-orm";
import type { Db } from "../../../db/client.js";
import { profiles, sessions, userInvitations } from "../../../db/schema.js";
import { withTenant } from "../../../db/tenant-scope.js";
import { USER_MESSAGES, needsCouncil, type AssignableRole, type User } from "../../../shared/schemas/users.js";
import { AppError } from "../../errors.js";
import type { SessionUser } from "../auth/sessions.js";
import { recordAuditEvent } from "../audit/record-audit-event.js";
import { assertUsersManager } from "./access.js";
import type { RequestContext } from "./create-user.js";
import { findUser, invitationStateOf } from "./find-user.js";
import { sendInvitation } from "./invitations.js";
import { presentUser } from "./present-user.js";

const auditOf = (actor: SessionUser, context: Omit<RequestContext, "origin" | "box">) => ({
  tenantId: actor.tenantId,
  actorProfileId: actor.profileId,
  ip: context.ip,
  userAgent: context.userAgent,
});

export interface SetUserActiveOptions {
  db: Db;
  actor: SessionUser;
  id: string;
  isActive: boolean;
  context: Omit<RequestContext, "origin" | "box">;
}

/**
 * Activates or deactivates a user (spec part 2 §4: the owner only; the owner row never).
 * Deactivating ends the user's sessions in the same transaction: their next request is a 401.
 */
export async function setUserActive({ db, actor, id, isActive, context }: SetUserActiveOptions): Promise<User> {
  return withTenant(db, actor.tenantId, async (tx) => {
    await assertUsersManager(tx, actor);
    const user = await findUser(tx, actor.tenantId, id);
    if (user.is_proprietario) throw new AppError("USER_OWNER_PROTECTED");
    if (user.is_active === isActive) return presentUser(user, invitationStateOf(user));
    await tx
      .update(profiles)
      .set({ is_active: isActive, updated_at: new Date() })
      .where(and(eq(profiles.tenant_id, actor.tenantId), eq(profiles.id, id)));
    let sessionsEnded = 0;
    if (!isActive) {
      const ended = await tx
        .delete(sessions)
        .where(and(eq(sessions.tenant_id, actor.tenantId), eq(sessions.profile_id, id)))
        .returning({ id: sessions.id });
      sessionsEnded = ended.length;
    }
    await recordAuditEvent(tx, auditOf(actor, context), {
      action: isActive ? "user.activated" : "user.deactivated",
      entityType: "profile",
      entityId: id,
      data: isActive ? { nome: user.nome } : { nome: user.nome, sessions_ended: sessionsEnded },
    });
    return presentUser({ ...user, is_active: isActive }, invitationStateOf(user));
  });
}

export interface ChangeUserRoleOptions {
  db: Db;
  actor: SessionUser;
  id: string;
  role: AssignableRole;
  context: Omit<RequestContext, "origin" | "box">;
}

/**
 * Gives a user another role. The owner's row keeps its role; care roles need a council on
 * record, and a CRM registration outside the administration needs an RQE per specialty (part 2 §5).
 */
export async function changeUserRole({ db, actor, id, role, context }: ChangeUserRoleOptions): Promise<User> {
  return withTenant(db, actor.tenantId, async (tx) => {
    await assertUsersManager(tx, actor);
    const user = await findUser(tx, actor.tenantId, id);
    if (user.is_proprietario)
      throw new AppError("USER_OWNER_PROTECTED", "A função do proprietário da clínica não pode ser alterada.");
    if (user.role === role) return presentUser(user, invitationStateOf(user));
    if (needsCouncil(role) && !user.conselho_tipo) throw new AppError("USER_COUNCIL_REQUIRED");
    if (role !== "admin" && user.conselho_tipo === "CRM" && user.especialidades.some((e) => !e.rqe)) {
      throw new AppError("USER_COUNCIL_REQUIRED", USER_MESSAGES.rqeRequired);
    }
    await tx
      .update(profiles)
      .set({ role, updated_at: new Date() })
      .where(and(eq(profiles.tenant_id, actor.tenantId), eq(profiles.id, id)));
    await recordAuditEvent(tx, auditOf(actor, context), {
      action: "user.role_changed",
      entityType: "profile",
      entityId: id,
      data: { nome: user.nome, from: user.role, to: role },
    });
    // The role is read from the profile on every request: it applies to open sessions at once.
    return presentUser({ ...user, role }, invitationStateOf(user));
  });
}

/** Sends a new invitation to a user who has not accepted one yet; the earlier links stop working. */
export async function resendInvitation(db: Db, actor: SessionUser, id: string, context: RequestContext): Promise<User> {
  return withTenant(db, actor.tenantId, async (tx) => {
    await assertUsersManager(tx, actor);
    const user = await findUser(tx, actor.tenantId, id);
    if (user.is_proprietario || user.accepted || !user.pendingUntil) throw new AppError("USER_INVITATION_NOT_PENDING");
    if (!user.is_active) throw new AppError("USER_INACTIVE");
    await tx
      .delete(userInvitations)
      .where(
        and(
          eq(userInvitations.tenant_id, actor.tenantId),
          eq(userInvitations.profile_id, id),
          isNull(userInvitations.used_at),
        ),
      );
    const { expiresAt } = await sendInvitation(tx, {
      tenantId: actor.tenantId,
      profile: { id, nome: user.nome, email: user.email, role: user.role },
      invitedBy: { profileId: actor.profileId, nome: actor.nome },
      origin: context.origin,
      box: context.box,
    });
    await recordAuditEvent(tx, auditOf(actor, context), {
      action: "user.invited",
      entityType: "profile",
      entityId: id,
      data: { email: user.email, expires_at: expiresAt.toISOString(), resent: true },
    });
    return presentUser(user, { pendingUntil: expiresAt, accepted: false });
  });
}
