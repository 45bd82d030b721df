import { AppError } from "../errors.js";

/**
 * Who may do what (spec part 1 §6, part 2 §6). Every route asks this module; nothing else
 * decides permissions. Later issues add their actions here.
 */
export const ROLES = ["profissional", "admin", "atendente", "juridico", "auditor", "pro_saude", "saas_admin"] as const;
export type Role = (typeof ROLES)[number];

export const ROLE_LABEL: Record<Role, string> = {
  profissional: "Profissional",
  admin: "Administrador/Secretária",
  atendente: "Atendente",
  juridico: "Jurídico",
  auditor: "Auditor",
  pro_saude: "Profissional de saúde",
  saas_admin: "Administrador da plataforma",
};

export interface Actor {
  profileId: string;
  tenantId: string;
  role: Role;
  isOwner: boolean;
}

export type Action =
  | "app.use"
  | "patients.read"
  | "patients.write"
  | "patients.delete"
  | "users.manage"
  | "documents.chooseResponsiblePhysician"
  | "procedures.makePrivate"
  | "procedures.read"
  | "procedures.write"
  | "content.read"
  | "content.write";

const rules: Record<Action, (actor: Actor) => boolean> = {
  "app.use": () => true,
  // Everyone in the clinic reads patients (auditors and legal staff included).
  "patients.read": () => true,
  // Auditors and legal staff only read; the care team and the front desk register and edit.
  "patients.write": (a) => a.isOwner || ["profissional", "admin", "atendente", "pro_saude"].includes(a.role),
  "patients.delete": (a) => a.isOwner || a.role === "admin",
  "users.manage": (a) => a.isOwner,
  "documents.chooseResponsiblePhysician": (a) => a.isOwner || a.role === "admin",
  "procedures.makePrivate": (a) => a.isOwner || a.role === "profissional",
  // Procedures and the content library: everyone reads; auditors and legal staff only read.
  "procedures.read": () => true,
  "procedures.write": (a) => a.isOwner || ["profissional", "admin", "atendente", "pro_saude"].includes(a.role),
  "content.read": () => true,
  "content.write": (a) => a.isOwner || ["profissional", "admin", "atendente", "pro_saude"].includes(a.role),
};

export function can(actor: Actor, action: Action): boolean {
  return rules[action](actor);
}

/** Throws FORBIDDEN unless `actor` may do `action`. */
export function authorize(actor: Actor, action: Action): void {
  if (!can(actor, action)) throw new AppError("FORBIDDEN");
}
