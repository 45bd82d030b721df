/**
 * The official ICP-Brasil roots (decision 041), when the operator gives them: ICP_BRASIL_ROOTS_FILE
 * names a PEM file with the AC Raiz certificates published by ITI (v5, v10, v11…, downloaded from
 * ITI's repository by whoever runs the server; nothing is fetched here). A certificate whose chain
 * — verified link by link at upload (parse-certificate-file.ts) — ends at one of them is "ICP-Brasil,
 * root checked"; without the file, or with another root, it only presents itself as ICP-Brasil.
 * Only chains that end at one of these roots are looked up in revocation lists (decision 048).
 */
import { createHash, X509Certificate } from "node:crypto";
import { readFileSync } from "node:fs";

export interface OfficialRoots {
  /** SHA-256 of each root's DER (lower-case hex) → its common name. */
  byFingerprint: ReadonlyMap<string, string>;
  /** The roots themselves, to check that a chain's last link was issued by one (decision 060). */
  certificates: readonly X509Certificate[];
}

export class OfficialRootsError extends Error {
  constructor(message: string) {
    super(`ICP_BRASIL_ROOTS_FILE: ${message}`);
    this.name = "OfficialRootsError";
  }
}

const PEM_BLOCK = /-----BEGIN CERTIFICATE-----([\s\S]*?)-----END CERTIFICATE-----/g;

/** Parses a PEM bundle of root certificates; each must be a self-signed CA certificate. */
export function parseOfficialRoots(pem: string): OfficialRoots {
  const byFingerprint = new Map<string, string>();
  const certificates: X509Certificate[] = [];
  for (const [, body] of pem.matchAll(PEM_BLOCK)) {
    const der = Buffer.from(body!.replace(/\s+/g, ""), "base64");
    let certificate: X509Certificate;
    try {
      certificate = new X509Certificate(der);
    } catch {
      throw new OfficialRootsError("há um bloco CERTIFICATE que não é um certificado X.509 legível.");
    }
    const commonName = /(?:^|\n)CN=([^\n]+)/.exec(certificate.subject)?.[1] ?? certificate.subject;
    if (!certificate.ca || certificate.subject !== certificate.issuer || !certificate.verify(certificate.publicKey)) {
      throw new OfficialRootsError(
        `“${commonName}” não é um certificado raiz (autoassinado, de autoridade certificadora).`,
      );
    }
    byFingerprint.set(createHash("sha256").update(der).digest("hex"), commonName);
    certificates.push(certificate);
  }
  if (byFingerprint.size === 0)
    throw new OfficialRootsError("nenhum certificado (-----BEGIN CERTIFICATE-----) no arquivo.");
  return { byFingerprint, certificates };
}

const cache = new Map<string, OfficialRoots>();

/** The roots ICP_BRASIL_ROOTS_FILE names (read once per process), or null when it is not set. */
export function officialRootsFromEnv(env: { ICP_BRASIL_ROOTS_FILE?: string | undefined }): OfficialRoots | null {
  const file = env.ICP_BRASIL_ROOTS_FILE;
  if (!file) return null;
  const known = cache.get(file);
  if (known) return known;
  let pem: string;
  try {
    pem = readFileSync(file, "utf8");
  } catch {
    throw new OfficialRootsError(`não consegui ler o arquivo ${file}.`);
  }
  const roots = parseOfficialRoots(pem);
  cache.set(file, roots);
  return roots;
}

/** The official root a chain ends at (its common name), or null. `chain`: fingerprints or DERs, holder first. */
export function officialRootOf(
  chain: readonly (string | Buffer)[] | undefined,
  roots: OfficialRoots | null,
): string | null {
  const last = chain?.at(-1);
  if (!roots || last === undefined) return null;
  const fingerprint = typeof last === "string" ? last.toLowerCase() : createHash("sha256").update(last).digest("hex");
  return roots.byFingerprint.get(fingerprint) ?? null;
}

const MAX_CHAIN = 6;

export const commonNameOf = (certificate: X509Certificate) =>
  /(?:^|\n)CN=([^\n]+)/.exec(certificate.subject)?.[1] ?? certificate.subject;

const issued = (child: X509Certificate, issuer: X509Certificate) =>
  child.checkIssued(issuer) && child.verify(issuer.publicKey);

/**
 * The official root `holder` chains to through `pool` (the token's other certificates), each link's
 * signature verified and every link valid at `now`; null when there is none.
 */
export function rootOfChain(
  holder: X509Certificate,
  pool: readonly X509Certificate[],
  roots: OfficialRoots,
  now: Date,
): string | null {
  const validAt = (c: X509Certificate) => new Date(c.validFrom) <= now && now <= new Date(c.validTo);
  let current = holder;
  for (let depth = 0; depth < MAX_CHAIN; depth++) {
    if (!validAt(current)) return null;
    const root = roots.certificates.find((r) => issued(current, r));
    if (root) return validAt(root) ? commonNameOf(root) : null;
    const next = pool.find((c) => c !== current && c.ca && c.subject !== current.subject && issued(current, c));
    if (!next) return null;
    current = next;
  }
  return null;
}
