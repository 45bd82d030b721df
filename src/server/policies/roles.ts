import { type Action, can as canSubject, type Role } from "../../shared/permissions.js";
import { AppError } from "../errors.js";

export { type Action, ROLE_LABEL, ROLES, type Role } from "../../shared/permissions.js";

/** Who is acting: always taken from the session, never from the request. */
export interface Actor {
  profileId: string;
  tenantId: string;
  role: Role;
  isOwner: boolean;
}

/** The one permission table (src/shared/permissions.ts), asked by every route. */
export function can(actor: Actor, action: Action): boolean {
  return canSubject(actor, action);
}

/** Throws FORBIDDEN unless `actor` may do `action`. */
export function authorize(actor: Actor, action: Action): void {
  if (!can(actor, action)) throw new AppError("FORBIDDEN");
}
