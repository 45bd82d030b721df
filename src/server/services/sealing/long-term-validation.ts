/**
 * What makes a sealed PDF checkable in twenty years (decision 053), appended after the last
 * signature: the DSS with the chains and the revocation lists the server read (PAdES B-LT); with
 * a time-stamp authority, a document time-stamp over all of it (B-LTA) and a DSS update with the
 * authority's certificates. Each step is an incremental update: earlier bytes never change.
 */
import type { TsaConfig } from "../timestamping/tsa-client.js";
import { addDocumentTimestamp } from "./document-timestamp.js";
import { appendDss, type ValidationMaterial } from "./dss.js";

export interface LongTermValidationOptions {
  material: ValidationMaterial;
  /** With an authority: the document time-stamp too. Its errors (TsaError) propagate: the job retries. */
  timestamp?: TsaConfig | undefined;
}

export async function addLongTermValidation(pdf: Buffer, options: LongTermValidationOptions): Promise<Buffer> {
  const withDss = appendDss(pdf, options.material);
  if (!options.timestamp) return withDss;
  const stamped = await addDocumentTimestamp(withDss, options.timestamp);
  // The authority's certificates (in the token) and the document time-stamp's own /VRI entry.
  return appendDss(stamped.pdf, { certificates: [], crls: [] });
}
