/**
 * Whether a certificate was revoked, from the certificate revocation lists (LCR) its authorities
 * publish (decision 048). For each link of the chain but the root — the holder, then each
 * intermediate AC — the list named in the certificate's CRL distribution points is read, its
 * signature checked with the issuer's key (the next certificate of the chain, itself verified at
 * upload), its issuer and dates checked, and the certificate's serial looked up. The first list of a
 * link that passes is the answer for that link; the root is the trust anchor and is not looked up.
 *
 * Only for chains that end at an official ICP-Brasil root: the addresses come from the certificates,
 * and only an accredited authority's are fetched (a certificate made by anyone could point the
 * server at any address). The caller decides that; this module reads what it is given.
 */
import * as pkijs from "pkijs";
import type { CrlSeen, RevocationResult } from "../../../../shared/evidence/revocation.js";
import { CrlFetchError, crlDer, type CrlSource } from "./crl-source.js";
import { type OcspSource, ocspUrlsOf } from "./ocsp-source.js";

/** RFC 5280 §5.3.1 reason codes, as a clinic reads them. */
const REASONS: Record<number, string> = {
  0: "não especificado",
  1: "comprometimento da chave",
  2: "comprometimento da autoridade certificadora",
  3: "mudança de vínculo",
  4: "substituído",
  5: "cessação de operação",
  6: "suspenso",
  9: "privilégio retirado",
  10: "comprometimento da autoridade de atributo",
};
/** removeFromCRL: a suspension lifted (delta lists); the certificate is not revoked. */
const REMOVE_FROM_CRL = 8;
/** A list issued a little in the future is the authority's clock, not a forgery. */
const CLOCK_SKEW_MS = 5 * 60_000;

const CRL_DISTRIBUTION_POINTS = "2.5.29.31";
const REASON_CODE = "2.5.29.21";
const COMMON_NAME = "2.5.4.3";

function commonNameOf(certificate: pkijs.Certificate): string {
  const cn = certificate.subject.typesAndValues.find((entry) => entry.type === COMMON_NAME);
  return cn ? String(cn.value.valueBlock.value) : "certificado sem nome";
}

/** The http(s) addresses of the certificate's lists, in the order the authority gave them. */
export function crlUrlsOf(certificate: pkijs.Certificate): string[] {
  const extension = certificate.extensions?.find((e) => e.extnID === CRL_DISTRIBUTION_POINTS);
  const points = (extension?.parsedValue as pkijs.CRLDistributionPoints | undefined)?.distributionPoints ?? [];
  const urls: string[] = [];
  for (const point of points) {
    const names = Array.isArray(point.distributionPoint) ? point.distributionPoint : [];
    for (const name of names) {
      // GeneralName uniformResourceIdentifier [6].
      if (name.type === 6 && typeof name.value === "string" && /^https?:\/\//i.test(name.value)) urls.push(name.value);
    }
  }
  return urls;
}

function reasonOf(entry: pkijs.RevokedCertificate): number | null {
  const extension = entry.crlEntryExtensions?.extensions.find((e) => e.extnID === REASON_CODE);
  const parsed = extension?.parsedValue as { valueBlock?: { valueDec?: number } } | undefined;
  return typeof parsed?.valueBlock?.valueDec === "number" ? parsed.valueBlock.valueDec : null;
}

function sameSerial(a: pkijs.RevokedCertificate, certificate: pkijs.Certificate): boolean {
  return a.userCertificate.isEqual(certificate.serialNumber);
}

type LinkAnswer =
  | { kind: "good"; seen: CrlSeen; der: Buffer; from: "crl" | "ocsp" }
  | { kind: "revoked"; at: Date; reason: number | null; url: string; from?: "ocsp" }
  | { kind: "unavailable"; why: string };

async function checkLinkCrl(
  certificate: pkijs.Certificate,
  issuer: pkijs.Certificate,
  source: CrlSource,
  now: Date,
): Promise<LinkAnswer> {
  const name = commonNameOf(certificate);
  const urls = crlUrlsOf(certificate);
  if (urls.length === 0)
    return { kind: "unavailable", why: `o certificado “${name}” não indica onde está sua lista de revogação` };
  let why = "";
  for (const url of urls) {
    let crl: pkijs.CertificateRevocationList;
    try {
      crl = await source(url);
    } catch (error) {
      why = error instanceof CrlFetchError ? error.message : "a lista de revogação não pôde ser lida";
      continue;
    }
    if (!crl.issuer.isEqual(issuer.subject)) {
      why = `a lista de revogação em ${url} não é da autoridade que emitiu “${name}”`;
      continue;
    }
    let signed: boolean;
    try {
      signed = await crl.verify({ issuerCertificate: issuer });
    } catch {
      signed = false;
    }
    if (!signed) {
      why = `a assinatura da lista de revogação em ${url} não confere`;
      continue;
    }
    const issuedAt = crl.thisUpdate.value;
    const nextUpdate = crl.nextUpdate?.value ?? null;
    if (issuedAt.getTime() > now.getTime() + CLOCK_SKEW_MS) {
      why = `a lista de revogação em ${url} tem data de emissão no futuro`;
      continue;
    }
    if (nextUpdate && nextUpdate.getTime() < now.getTime()) {
      why = `a lista de revogação em ${url} está vencida (próxima atualização prevista para ${nextUpdate.toISOString()})`;
      continue;
    }
    const entry = crl.revokedCertificates?.find((revoked) => sameSerial(revoked, certificate));
    const reason = entry ? reasonOf(entry) : null;
    if (entry && reason !== REMOVE_FROM_CRL) return { kind: "revoked", at: entry.revocationDate.value, reason, url };
    return {
      kind: "good",
      from: "crl",
      der: crlDer(crl),
      seen: {
        url,
        certificado: name,
        emitidaEm: issuedAt.toISOString(),
        proximaAte: nextUpdate?.toISOString() ?? null,
      },
    };
  }
  return { kind: "unavailable", why };
}

/**
 * A certificate that names an OCSP responder is asked there first (decision 082); its list is read
 * when the responder gives no checked answer, so a responder that is down costs only its timeout.
 */
async function checkLink(
  certificate: pkijs.Certificate,
  issuer: pkijs.Certificate,
  source: CrlSource,
  now: Date,
  ocsp: OcspSource | null | undefined,
): Promise<LinkAnswer> {
  let ocspWhy: string | null = null;
  for (const url of ocsp ? ocspUrlsOf(certificate) : []) {
    const answer = await ocsp!(url, certificate, issuer);
    if (answer.kind === "revoked") return { kind: "revoked", at: answer.at, reason: answer.reason, url, from: "ocsp" };
    if (answer.kind === "good")
      return {
        kind: "good",
        from: "ocsp",
        der: answer.der,
        seen: {
          url,
          certificado: commonNameOf(certificate),
          emitidaEm: answer.thisUpdate.toISOString(),
          proximaAte: answer.nextUpdate?.toISOString() ?? null,
          fonte: "ocsp",
        },
      };
    ocspWhy = answer.why;
  }
  const fromList = await checkLinkCrl(certificate, issuer, source, now);
  return fromList.kind === "unavailable" && ocspWhy
    ? { kind: "unavailable", why: `${ocspWhy}; ${fromList.why}` }
    : fromList;
}

/** Where the answers read go (for the sealed PDF's DSS, decision 053), and the responders to ask. */
export interface RevocationCollector {
  crls?: Buffer[];
  ocsps?: Buffer[];
  /** OCSP (decision 082); without it only the lists are read. */
  ocsp?: OcspSource | null;
}

/**
 * `chainDer`: the holder first, then its issuers up to the root. `collect`, when given, receives the
 * DER of each list and OCSP answer that answered.
 */
export async function checkRevocation(
  chainDer: readonly Buffer[],
  source: CrlSource,
  now: Date = new Date(),
  collect: RevocationCollector = {},
): Promise<RevocationResult> {
  const consultadoEm = now.toISOString();
  let chain: pkijs.Certificate[];
  try {
    chain = chainDer.map((der) => pkijs.Certificate.fromBER(new Uint8Array(der)));
  } catch {
    return { status: "indisponivel", consultadoEm, motivo: "a cadeia do certificado não pôde ser lida" };
  }
  if (chain.length < 2)
    return { status: "indisponivel", consultadoEm, motivo: "o arquivo não traz a cadeia do certificado" };
  const listas: CrlSeen[] = [];
  for (let index = 0; index < chain.length - 1; index += 1) {
    const certificate = chain[index]!;
    const answer = await checkLink(certificate, chain[index + 1]!, source, now, collect.ocsp);
    if (answer.kind === "revoked") {
      return {
        status: "revogado",
        consultadoEm,
        certificado: commonNameOf(certificate),
        revogadoEm: answer.at.toISOString(),
        motivo: answer.reason === null ? null : (REASONS[answer.reason] ?? null),
        lista: answer.url,
        ...(answer.from ? { fonte: answer.from } : {}),
      };
    }
    if (answer.kind === "unavailable") return { status: "indisponivel", consultadoEm, motivo: answer.why };
    listas.push(answer.seen);
    (answer.from === "ocsp" ? collect.ocsps : collect.crls)?.push(answer.der);
  }
  return { status: "nao_revogado", consultadoEm, listas };
}
