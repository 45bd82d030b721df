import { and, eq, sql } from "drizzle-orm";
import type { Db } from "../../../db/client.js";
import { profiles } from "../../../db/schema.js";
import { withTenant } from "../../../db/tenant-scope.js";
import type { User, UserCreate } from "../../../shared/schemas/users.js";
import { hashPassword } from "../../lib/passwords.js";
import { isUniqueViolation } from "../../lib/pg-errors.js";
import { newToken } from "../../lib/tokens.js";
import type { SessionUser } from "../auth/sessions.js";
import { recordAuditEvent } from "../audit/record-audit-event.js";
import { assertUsersManager } from "./access.js";
import { findUser, invitationStateOf } from "./find-user.js";
import { sendInvitation } from "./invitations.js";
import { presentUser } from "./present-user.js";
import { cpfTaken, emailTaken, violatedConstraint } from "./uniqueness.js";
import type { SecretBox } from "../../lib/secret-box.js";

export interface RequestContext {
  /** siteOrigin(env): invitation links are built from it only. */
  origin: string;
  /** Seals the invitation e-mail in the outbox. */
  box: SecretBox;
  ip?: string;
  userAgent?: string;
}

/**
 * Adds a user to the owner's clinic (spec part 2 §2 add-user dialog). With acesso "convite" the
 * account gets an unusable random password and an invitation e-mail whose link lets the person
 * choose one (decision 017). E-mail addresses are unique across the instance (they sign in);
 * CPFs within the clinic.
 */
export async function createUser(
  db: Db,
  actor: SessionUser,
  input: UserCreate,
  context: RequestContext,
): Promise<User> {
  const passwordHash = await hashPassword(input.password ?? newToken());
  const first = input.especialidades[0];
  // Other clinics' accounts are invisible under row-level security: the instance-wide e-mail check runs as the server.
  const [existing] = await db
    .select({ id: profiles.id })
    .from(profiles)
    .where(sql`lower(${profiles.email}) = ${input.email}`)
    .limit(1);
  try {
    return await withTenant(db, actor.tenantId, async (tx) => {
      await assertUsersManager(tx, actor);
      if (existing) throw emailTaken();
      const [sameCpf] = await tx
        .select({ id: profiles.id })
        .from(profiles)
        .where(and(eq(profiles.tenant_id, actor.tenantId), eq(profiles.cpf, input.cpf)))
        .limit(1);
      if (sameCpf) throw cpfTaken();
      const [created] = await tx
        .insert(profiles)
        .values({
          tenant_id: actor.tenantId,
          nome: input.nome,
          email: input.email,
          cpf: input.cpf,
          role: input.role,
          password_hash: passwordHash,
          conselho_tipo: input.conselho_tipo ?? null,
          conselho_numero: input.conselho_numero ?? null,
          conselho_uf: input.conselho_uf ?? null,
          crm: input.conselho_tipo === "CRM" ? (input.conselho_numero ?? null) : null,
          especialidades: input.especialidades,
          especialidade: first?.especialidade ?? null,
          rqe: first?.rqe ?? null,
        })
        .returning({ id: profiles.id });
      if (!created) throw new Error("profile insert returned no row");
      const audit = {
        tenantId: actor.tenantId,
        actorProfileId: actor.profileId,
        ip: context.ip,
        userAgent: context.userAgent,
      };
      await recordAuditEvent(tx, audit, {
        action: "user.created",
        entityType: "profile",
        entityId: created.id,
        data: {
          nome: input.nome,
          email: input.email,
          role: input.role,
          acesso: input.acesso,
          conselho_tipo: input.conselho_tipo ?? null,
        },
      });
      if (input.acesso === "convite") {
        const { expiresAt } = await sendInvitation(tx, {
          tenantId: actor.tenantId,
          profile: { id: created.id, nome: input.nome, email: input.email, role: input.role },
          invitedBy: { profileId: actor.profileId, nome: actor.nome },
          origin: context.origin,
          box: context.box,
        });
        await recordAuditEvent(tx, audit, {
          action: "user.invited",
          entityType: "profile",
          entityId: created.id,
          data: { email: input.email, expires_at: expiresAt.toISOString() },
        });
      }
      const row = await findUser(tx, actor.tenantId, created.id);
      return presentUser(row, invitationStateOf(row));
    });
  } catch (error) {
    if (isUniqueViolation(error)) {
      // Two owners' clicks at once: the indexes have the last word.
      throw violatedConstraint(error) === "profiles_tenant_cpf_unique" ? cpfTaken() : emailTaken();
    }
    throw error;
  }
}
