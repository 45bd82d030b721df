import type { profiles } from "../../../db/schema.js";
import type { User } from "../../../shared/schemas/users.js";

type ProfileRow = typeof profiles.$inferSelect;

/** The invitation facts read beside a profile (see userInvitationColumns). */
export interface InvitationState {
  /** Latest expiry among the profile's unused invitations, or null. */
  pendingUntil: Date | null;
  /** True once any invitation of the profile was accepted. */
  accepted: boolean;
}

/** What leaves the server about a clinic's user: never the password hash nor the personal defaults. */
export function presentUser(row: ProfileRow, invitation: InvitationState, now = new Date()): User {
  const pending = invitation.pendingUntil && !invitation.accepted ? invitation.pendingUntil : null;
  return {
    id: row.id,
    nome: row.nome,
    email: row.email,
    cpf: row.cpf,
    role: row.role,
    is_proprietario: row.is_proprietario,
    is_active: row.is_active,
    conselho_tipo: row.conselho_tipo,
    conselho_numero: row.conselho_numero,
    conselho_uf: row.conselho_uf,
    especialidades: row.especialidades,
    convite: pending
      ? { status: pending.getTime() > now.getTime() ? "pendente" : "expirado", expires_at: pending.toISOString() }
      : null,
    created_at: row.created_at.toISOString(),
  };
}
