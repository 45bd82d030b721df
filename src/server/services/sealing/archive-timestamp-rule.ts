/**
 * Which archived sealed PDFs need a new document time-stamp (decision 064): the latest one's
 * authority certificate expires within the margin, or the stamp leans on SHA-1 (its imprint, its
 * digest or its signature algorithm). Pure: the facts come from the file, the clock and the margin
 * from the caller, so the rule is tested without a database or an authority.
 */
import { X509Certificate } from "node:crypto";
import { parseSignedData } from "./cms-reader.js";
import { OID } from "./der.js";
import { signatureBytes } from "./dss.js";
import { SUBFILTER_ETSI_RFC3161 } from "./document-timestamp.js";
import { readTimeStampToken } from "../timestamping/timestamp-token.js";

const DAY_MS = 24 * 60 * 60 * 1000;
/** Algorithms no longer trusted to hold a time-stamp's proof (SHA-1 and what signs with it). */
export const WEAK_ALGORITHMS = new Set<string>([OID.sha1, OID.sha1WithRSAEncryption, "1.2.840.10045.4.1"]);

/** What the rule needs of the file's latest document time-stamp. */
export interface DocumentTimestampFacts {
  /** 0-based position among the file's /ByteRange signatures. */
  index: number;
  genTime: Date | null;
  /** The authority's certificate in the token (absent: unknown expiry). */
  tsaCertificateDer: Buffer | undefined;
  /** The other certificates the token carries (the authority's issuers, when sent). */
  tokenCertificates: Buffer[];
  /** Expiry of the authority's certificate, null when it cannot be read. */
  tsaNotAfter: Date | null;
  tsaCommonName: string | null;
  /** The imprint's hash, the token signer's digest and signature algorithms. */
  algorithms: string[];
}

/** The last document time-stamp of the file (/SubFilter /ETSI.RFC3161), or null when it has none. */
export function latestDocumentTimestamp(pdf: Buffer): DocumentTimestampFacts | null {
  const stamp = signatureBytes(pdf)
    .filter((s) => s.subFilter === SUBFILTER_ETSI_RFC3161)
    .at(-1);
  if (!stamp) return null;
  // The padding after the DER is ignored by the readers.
  const facts: DocumentTimestampFacts = {
    index: stamp.index,
    genTime: null,
    tsaCertificateDer: undefined,
    tokenCertificates: [],
    tsaNotAfter: null,
    tsaCommonName: null,
    algorithms: [],
  };
  try {
    const signedData = parseSignedData(stamp.contents);
    facts.tokenCertificates = signedData.certificates;
    for (const info of signedData.signerInfos) facts.algorithms.push(info.digestAlgorithm, info.signatureAlgorithm);
    const token = readTimeStampToken(stamp.contents);
    facts.genTime = token.genTime;
    facts.algorithms.push(token.messageImprint.hashAlgorithmOid);
    facts.tsaCertificateDer = token.tsaCertificateDer;
    if (token.tsaCertificateDer) {
      const certificate = new X509Certificate(token.tsaCertificateDer);
      facts.tsaNotAfter = new Date(certificate.validTo);
      facts.tsaCommonName = /(?:^|\n)CN=([^\n]+)/.exec(certificate.subject)?.[1] ?? null;
    }
  } catch {
    // An unreadable stamp proves nothing: it is due (below), and the new one is over it too.
  }
  return facts;
}

export type RetimestampDecision =
  | { due: true; reason: "vencimento" | "algoritmo" }
  /** `lookAgainAt`: when the rule could first say yes (null: never — the file has no document time-stamp). */
  | { due: false; lookAgainAt: Date | null };

/** The rule: weak algorithm, or the authority's certificate expires within `marginDays` of `now`. */
export function retimestampDecision(
  stamp: DocumentTimestampFacts | null,
  now: Date,
  marginDays: number,
): RetimestampDecision {
  if (!stamp) return { due: false, lookAgainAt: null };
  if (stamp.algorithms.some((oid) => WEAK_ALGORITHMS.has(oid))) return { due: true, reason: "algoritmo" };
  if (!stamp.tsaNotAfter || Number.isNaN(stamp.tsaNotAfter.getTime())) return { due: true, reason: "vencimento" };
  const lookAgainAt = new Date(stamp.tsaNotAfter.getTime() - marginDays * DAY_MS);
  return lookAgainAt.getTime() <= now.getTime() ? { due: true, reason: "vencimento" } : { due: false, lookAgainAt };
}

/**
 * Whether a new stamp by an authority whose certificate expires at `newNotAfter` is worth
 * appending. Against a weak algorithm, any (ours are SHA-256). Against an expiry, the new
 * certificate must reach past the previous one and itself lie outside the margin — else the next
 * run would stamp again, and again, with nothing gained.
 */
export function newStampHelps(
  reason: "vencimento" | "algoritmo",
  previousNotAfter: Date | null,
  newNotAfter: Date,
  now: Date,
  marginDays: number,
): boolean {
  if (reason === "algoritmo") return true;
  if (newNotAfter.getTime() - marginDays * DAY_MS <= now.getTime()) return false;
  return !previousNotAfter || newNotAfter.getTime() > previousNotAfter.getTime();
}
