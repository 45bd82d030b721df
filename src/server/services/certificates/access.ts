import { AppError } from "../../errors.js";
import { can, type Actor } from "../../policies/roles.js";

/**
 * Who sees /certificates (decision 019): the owner and administrators (all of the clinic's
 * certificates) and health professionals (their own). Everyone else: 403 'Acesso negado'.
 */
export function certificateScope(actor: Actor): "clinic" | "own" {
  if (can(actor, "certificates.manageClinic")) return "clinic";
  if (can(actor, "certificates.manageOwn")) return "own";
  throw new AppError("CERTIFICATES_FORBIDDEN");
}
