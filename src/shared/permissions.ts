/**
 * Who may do what (spec part 1 §6, part 2 §6). One table for both sides: the server enforces it
 * (src/server/policies/roles.ts: every route calls authorize), the client reads it only to offer
 * the actions the server will accept.
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

export interface PermissionSubject {
  role: string;
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
  | "content.write"
  | "templates.read"
  | "templates.write"
  | "templates.publish"
  | "documents.read"
  | "documents.write"
  | "documents.delete"
  | "documents.playAudio"
  | "integration.manage"
  | "certificates.manageClinic"
  | "certificates.manageOwn"
  | "certificates.open"
  | "settings.manage"
  | "patients.exportData"
  | "patients.anonymize"
  | "clinic.export"
  | "notices.read"
  | "notices.operations"
  | "platform.chooseClinic";

/** The care team and the front desk write; auditors and legal staff only read. */
const CLINIC_WRITERS = new Set(["profissional", "admin", "atendente", "pro_saude"]);
const clinicWriter = (a: PermissionSubject) => a.isOwner || CLINIC_WRITERS.has(a.role);
const TEMPLATE_AUTHORS = new Set(["profissional", "admin", "pro_saude"]);
const TEMPLATE_PUBLISHERS = new Set(["profissional", "admin"]);

const rules: Record<Action, (subject: PermissionSubject) => boolean> = {
  "app.use": () => true,
  "patients.read": () => true,
  "patients.write": clinicWriter,
  "patients.delete": (a) => a.isOwner || a.role === "admin",
  "users.manage": (a) => a.isOwner,
  "documents.chooseResponsiblePhysician": (a) => a.isOwner || a.role === "admin",
  "procedures.makePrivate": (a) => a.isOwner || a.role === "profissional",
  "procedures.read": () => true,
  "procedures.write": clinicWriter,
  "content.read": () => true,
  "content.write": clinicWriter,
  "templates.read": () => true,
  /** Consent wording is the care team's and the administration's; the front desk only uses it. */
  "templates.write": (a) => a.isOwner || TEMPLATE_AUTHORS.has(a.role),
  "templates.publish": (a) => a.isOwner || TEMPLATE_PUBLISHERS.has(a.role),
  "documents.read": () => true,
  "documents.write": clinicWriter,
  /** Deleting drafts and cancelling sent documents: the people who manage the clinic's documents. */
  "documents.delete": (a) => a.isOwner || a.role === "admin" || a.role === "profissional" || a.role === "pro_saude",
  /**
   * The patient's recorded voice (decision 069): the care team, the administration, legal and
   * auditors; not the front desk, whose work never needs it.
   */
  "documents.playAudio": (a) => a.isOwner || (a.role !== "atendente" && a.role !== "saas_admin"),
  /** The clinic-system token and switches (/integration): the owner and the administration. */
  "integration.manage": (a) => a.isOwner || a.role === "admin",
  /** The clinic's certificates (e-CNPJ), and removing any of the clinic's (decision 019). */
  "certificates.manageClinic": (a) => a.isOwner || a.role === "admin",
  /** A health professional's own e-CPF: the people who sign medical documents. */
  "certificates.manageOwn": (a) => a.isOwner || a.role === "profissional" || a.role === "pro_saude",
  /** The /certificates screen (menu entry): whoever may manage the clinic's or their own. */
  "certificates.open": (a) => a.isOwner || a.role === "admin" || a.role === "profissional" || a.role === "pro_saude",
  /** Configurações (/settings): the clinic's data, document validity, signing options. */
  "settings.manage": (a) => a.isOwner || a.role === "admin",
  /** A patient's rights (LGPD art. 18 II, V; IV, VI): their data in a ZIP, or anonymized (decision 026). */
  "patients.exportData": (a) => a.isOwner || a.role === "admin",
  "patients.anonymize": (a) => a.isOwner || a.role === "admin",
  /** Everything of the clinic in one ZIP: the owner only. */
  "clinic.export": (a) => a.isOwner,
  /** Avisos (/notifications): everyone, each seeing what their role covers (src/shared/notices/notice-audience.ts). */
  "notices.read": () => true,
  /** Notices about the clinic's operation — e-mails not delivered, system notices (e.g. a failed backup). */
  "notices.operations": (a) => a.isOwner || a.role === "admin",
  /** Another clinic's specialties (part 2 §6, p_clinica_id): the platform administrator only, never an owner. */
  "platform.chooseClinic": (a) => a.role === "saas_admin",
};

/** Every action of the table (decision 058 compares a key's role with its creator's over all of them). */
export const ACTIONS = Object.keys(rules) as Action[];

export function can(subject: PermissionSubject, action: Action): boolean {
  return rules[action](subject);
}

/** The same question for a profile as the API presents it (role, is_proprietario); none → no. */
export function profileCan(
  profile: { role: string; is_proprietario: boolean } | null | undefined,
  action: Action,
): boolean {
  return profile ? can({ role: profile.role, isOwner: profile.is_proprietario }, action) : false;
}
