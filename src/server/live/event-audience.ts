import { type Actor, can } from "../policies/roles.js";
import type { LiveEventKind } from "./change.js";

/**
 * Who hears of a change in their clinic: documents and patients, whoever may read them; a user
 * profile, the users' manager (the owner) and that user.
 */
export function hears(actor: Actor, kind: LiveEventKind, id: string): boolean {
  switch (kind) {
    case "document":
      return can(actor, "documents.read");
    case "patient":
      return can(actor, "patients.read");
    case "profile":
      return actor.profileId === id || can(actor, "users.manage");
    case "notice":
      // Only "refetch Avisos": the API then applies each reader's audience (decision 028).
      return can(actor, "notices.read");
  }
}
