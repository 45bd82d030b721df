import { eq } from "drizzle-orm";
import { strFromU8, unzipSync } from "fflate";
import type { FastifyInstance } from "fastify";
import type { Database } from "../../src/db/client.js";
import { contratos } from "../../src/db/schema.js";
import type { SignedIn } from "./sessions.js";
import { type SignablePatient, signableDocument, signAsPatient, tokenOf } from "./signing.js";

export interface SignedDocument {
  documentId: string;
  patient: SignablePatient;
  versionId: string;
}

/**
 * A document signed through the real flow (professional's declaration, link, the patient's
 * signature) and, unless `seal: false`, sealed by the worker's final-PDF job.
 */
export async function signedDocument(
  app: FastifyInstance,
  database: Database,
  who: SignedIn,
  options: { versionId?: string; nome?: string; seal?: boolean } = {},
): Promise<SignedDocument> {
  const { documentId, patient, versionId } = await signableDocument(app, who, options);
  const sent = await app.inject({
    method: "POST",
    url: `/api/documents/${documentId}/send`,
    payload: {},
    headers: { cookie: who.cookie },
  });
  if (sent.statusCode !== 200) throw new Error(`send: ${sent.statusCode} ${sent.body}`);
  const { response } = await signAsPatient(app, database, tokenOf(sent.json().link as string), patient);
  if (response.statusCode !== 200) throw new Error(`sign: ${response.statusCode} ${response.body}`);
  if (options.seal !== false) {
    for (let round = 0; round < 5; round++) {
      const [row] = await database.db
        .select({ sealed: contratos.signed_pdf_file_id })
        .from(contratos)
        .where(eq(contratos.id, documentId));
      if (row?.sealed) break;
      await app.worker.tick();
    }
  }
  return { documentId, patient, versionId };
}

/** What PostgreSQL said when it refused a statement (drizzle wraps the driver's error). */
export async function databaseRefusal(
  work: Promise<unknown>,
): Promise<{ message: string; code?: string; constraint?: string }> {
  try {
    await work;
  } catch (error) {
    let current: unknown = error;
    while (current && typeof current === "object" && "cause" in current && (current as { cause?: unknown }).cause)
      current = (current as { cause: unknown }).cause;
    const found = current as { message?: string; code?: string; constraint?: string };
    return { message: found.message ?? String(current), code: found.code, constraint: found.constraint };
  }
  throw new Error("the database accepted a statement it should have refused");
}

/** The entries of a ZIP, by name. */
export function unzipEntries(bytes: Uint8Array): Record<string, Uint8Array> {
  return unzipSync(bytes);
}

export const entryText = (entries: Record<string, Uint8Array>, name: string): string => {
  const entry = entries[name];
  if (!entry) throw new Error(`no ${name} in the ZIP (has: ${Object.keys(entries).join(", ")})`);
  return strFromU8(entry);
};
