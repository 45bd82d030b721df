/**
 * Since when the contact a signing code went to has been on the patient's record (decision 046).
 * The code proves that the signer controls that e-mail or mobile; what ties the contact to the
 * patient is the clinic's record. A contact on the record for months says more than one typed
 * into it minutes before the link was sent — and only the clinic's own trail can tell the two
 * apart, so the registry prints it: when the record got that contact, and who recorded it.
 */
export type RecordedContactField = "email" | "telefone" | "responsavel_email" | "responsavel_telefone";

/** The patient's record events, as the clinic's audit trail keeps them. */
export interface PatientRecordEvent {
  action: string;
  /** ISO 8601 UTC. */
  created_at: string;
  /** The staff member who acted, or null. */
  actor: string | null;
  /** patient.updated: the fields that changed. */
  campos?: readonly string[];
}

export interface ContactSince {
  /** ISO 8601 UTC: when the record got the contact. */
  em: string;
  /** Who recorded it (staff name), or null when the trail names nobody. */
  por: string | null;
  /** On the record since it was created, or since a later change. */
  como: "cadastro" | "alteracao";
}

/** The last time, up to `asOf` (the code's sending), the record got `field`; null when the trail does not say. */
export function contactSince(
  events: readonly PatientRecordEvent[],
  field: RecordedContactField,
  asOf: string,
): ContactSince | null {
  const limit = Date.parse(asOf);
  let since: ContactSince | null = null;
  const ordered = [...events].sort((a, b) => Date.parse(a.created_at) - Date.parse(b.created_at));
  for (const event of ordered) {
    if (Date.parse(event.created_at) > limit) break;
    if (event.action === "patient.created") since = { em: event.created_at, por: event.actor, como: "cadastro" };
    else if (event.action === "patient.updated" && event.campos?.includes(field))
      since = { em: event.created_at, por: event.actor, como: "alteracao" };
  }
  return since;
}
