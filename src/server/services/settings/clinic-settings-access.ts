import { AppError } from "../../errors.js";
import { can, type Actor } from "../../policies/roles.js";

/** Configurações is the owner's and the administrators': others get 'Acesso negado'. */
export function assertSettingsManager(actor: Actor): void {
  if (!can(actor, "settings.manage")) throw new AppError("SETTINGS_ACCESS_DENIED");
}
