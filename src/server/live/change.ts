import { z } from "zod";

/** The channel the database triggers of migration 0026 notify on (decision 022). */
export const CHANGES_CHANNEL = "consentir_changes";

/**
 * Kinds browsers receive; `session` stays on the server (it ends that session's streams).
 * `notice`: a Feegow failure, an e-mail given up on, a certificate or a system notice (decision 028).
 */
export const LIVE_EVENT_KINDS = ["document", "patient", "profile", "notice"] as const;
export type LiveEventKind = (typeof LIVE_EVENT_KINDS)[number];

const changeSchema = z.object({
  tenant_id: z.uuid(),
  kind: z.enum([...LIVE_EVENT_KINDS, "session"]),
  id: z.uuid(),
  status: z.string().max(40).optional(),
});

/** One committed change, as a trigger announced it: ids (and a document's status), never personal data. */
export interface Change {
  tenantId: string;
  kind: LiveEventKind | "session";
  id: string;
  status?: string;
}

/** The notification's JSON as a Change, or null when it is not one of ours. */
export function parseChange(payload: string): Change | null {
  let json: unknown;
  try {
    json = JSON.parse(payload);
  } catch {
    return null;
  }
  const parsed = changeSchema.safeParse(json);
  if (!parsed.success) return null;
  const { tenant_id, kind, id, status } = parsed.data;
  return { tenantId: tenant_id, kind, id, ...(status === undefined ? {} : { status }) };
}
