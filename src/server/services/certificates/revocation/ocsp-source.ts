/**
 * Asks a certificate's OCSP responder whether it was revoked (RFC 6960; decision 082): the address
 * comes from the certificate's Authority Information Access, the request is a POST of one CertID
 * (SHA-1, what every responder answers), the answer is checked with pkijs — signed by the issuer or
 * by a responder the issuer delegated (id-kp-OCSPSigning), about this very certificate, issued
 * not in the future and not past its next update. The answer's DER is kept for the sealed PDF's
 * DSS. Good answers are cached until their next update (at most `cacheMs`), failures briefly.
 */
import * as asn1js from "asn1js";
import * as pkijs from "pkijs";
import { readBoundedBody } from "../../../lib/bounded-body.js";
import { fetchOutbound, OutboundAddressError } from "../../../lib/outbound-address.js";

export type OcspAnswer =
  | { kind: "good"; der: Buffer; thisUpdate: Date; nextUpdate: Date | null }
  | { kind: "revoked"; at: Date; reason: number | null }
  | { kind: "unavailable"; why: string };

/** Never throws: anything but a checked answer is "unavailable", with a pt-BR reason. */
export type OcspSource = (
  url: string,
  certificate: pkijs.Certificate,
  issuer: pkijs.Certificate,
) => Promise<OcspAnswer>;

export interface OcspSourceOptions {
  timeoutMs: number;
  allowPrivateNetwork?: boolean;
  cacheMs?: number;
  failureCacheMs?: number;
  fetch?: typeof globalThis.fetch;
  resolve?: (host: string) => Promise<string[]>;
  clock?: () => number;
}

const AUTHORITY_INFO_ACCESS = "1.3.6.1.5.5.7.1.1";
const ID_AD_OCSP = "1.3.6.1.5.5.7.48.1";
const ID_PKIX_OCSP_BASIC = "1.3.6.1.5.5.7.48.1.1";
/** An OCSP answer is a few kB; a responder that sends more is not one. */
const MAX_ANSWER_BYTES = 256 * 1024;
const CLOCK_SKEW_MS = 5 * 60_000;
/** The CertID hashes a responder may answer with (SHA-1 asked; some answer SHA-256). */
const HASHES: Record<string, string> = { "1.3.14.3.2.26": "SHA-1", "2.16.840.1.101.3.4.2.1": "SHA-256" };
/** Without a next update, an answer older than this is not taken as current. */
const MAX_AGE_WITHOUT_NEXT_UPDATE_MS = 7 * 86_400_000;
const DEFAULT_CACHE_MS = 60 * 60_000;
const DEFAULT_FAILURE_CACHE_MS = 60_000;

/** The http(s) addresses of the certificate's OCSP responders, in the authority's order. */
export function ocspUrlsOf(certificate: pkijs.Certificate): string[] {
  const extension = certificate.extensions?.find((e) => e.extnID === AUTHORITY_INFO_ACCESS);
  const access = (extension?.parsedValue as pkijs.InfoAccess | undefined)?.accessDescriptions ?? [];
  return access
    .filter((d) => d.accessMethod === ID_AD_OCSP && d.accessLocation.type === 6)
    .map((d) => String(d.accessLocation.value))
    .filter((url) => /^https?:\/\//i.test(url));
}

function revokedInfo(status: asn1js.AsnType | undefined): { at: Date; reason: number | null } | null {
  const block = status as asn1js.Constructed | undefined;
  if (block?.idBlock.tagClass !== 3 || block.idBlock.tagNumber !== 1) return null;
  const [time, reason] = block.valueBlock.value as [asn1js.GeneralizedTime | undefined, asn1js.Constructed | undefined];
  if (!(time instanceof asn1js.GeneralizedTime)) return null;
  const code = (reason?.valueBlock.value[0] as asn1js.Enumerated | undefined)?.valueBlock.valueDec;
  return { at: time.toDate(), reason: typeof code === "number" ? code : null };
}

/** Reads and checks one answer (exported for the tests of hostile answers). */
export async function readOcspAnswer(
  der: Buffer,
  certificate: pkijs.Certificate,
  issuer: pkijs.Certificate,
  url: string,
  now: Date,
): Promise<OcspAnswer> {
  const unavailable = (why: string): OcspAnswer => ({ kind: "unavailable", why: `o OCSP em ${url} ${why}` });
  let basic: pkijs.BasicOCSPResponse;
  try {
    const response = pkijs.OCSPResponse.fromBER(new Uint8Array(der));
    const status = response.responseStatus.valueBlock.valueDec;
    if (status !== 0) return unavailable(`recusou a consulta (código ${status})`);
    if (response.responseBytes?.responseType !== ID_PKIX_OCSP_BASIC)
      return unavailable("deu uma resposta de tipo desconhecido");
    basic = pkijs.BasicOCSPResponse.fromBER(new Uint8Array(response.responseBytes.response.valueBlock.valueHexView));
  } catch {
    return unavailable("não devolveu uma resposta OCSP legível");
  }
  // A responder that is the issuer itself often sends no certificate: the issuer is the candidate.
  if (!basic.certs?.length) basic.certs = [issuer];
  // The issuer is already checked up to an official root (decision 048): it is the anchor here,
  // and pkijs then requires a delegated responder to be issued by it with id-kp-OCSPSigning.
  const signed = await basic
    .verify({ trustedResponders: [issuer], trustedCerts: [issuer], issuerCerts: [issuer] })
    .catch(() => false);
  if (!signed) return unavailable("deu uma resposta cuja assinatura não é da autoridade do certificado");
  let single: pkijs.SingleResponse | undefined;
  for (const candidate of basic.tbsResponseData.responses) {
    const hashAlgorithm = HASHES[candidate.certID.hashAlgorithm.algorithmId];
    if (!hashAlgorithm) continue;
    const mine = new pkijs.CertID();
    await mine.createForCertificate(certificate, { hashAlgorithm, issuerCertificate: issuer });
    if (candidate.certID.isEqual(mine)) {
      single = candidate;
      break;
    }
  }
  if (!single) return unavailable("respondeu sobre outro certificado");
  const thisUpdate = single.thisUpdate;
  const nextUpdate = single.nextUpdate ?? null;
  if (thisUpdate.getTime() > now.getTime() + CLOCK_SKEW_MS) return unavailable("deu uma resposta com data no futuro");
  if (
    nextUpdate
      ? nextUpdate.getTime() < now.getTime()
      : now.getTime() - thisUpdate.getTime() > MAX_AGE_WITHOUT_NEXT_UPDATE_MS
  )
    return unavailable("deu uma resposta vencida");
  const tag = (single.certStatus as asn1js.BaseBlock).idBlock;
  // CertStatus: good [0] NULL, revoked [1] RevokedInfo, unknown [2] NULL.
  if (tag.tagClass === 3 && tag.tagNumber === 0) return { kind: "good", der, thisUpdate, nextUpdate };
  const revoked = revokedInfo(single.certStatus);
  if (revoked) return { kind: "revoked", ...revoked };
  return unavailable("não conhece o certificado");
}

async function ask(
  url: string,
  certificate: pkijs.Certificate,
  issuer: pkijs.Certificate,
  options: OcspSourceOptions,
  now: Date,
): Promise<OcspAnswer> {
  const request = new pkijs.OCSPRequest();
  await request.createForCertificate(certificate, { hashAlgorithm: "SHA-1", issuerCertificate: issuer });
  let response: Response;
  try {
    // Every address is checked as for the lists (decision 053); an OCSP POST is not redirected.
    response = await fetchOutbound(
      url,
      {
        method: "POST",
        headers: { "content-type": "application/ocsp-request", accept: "application/ocsp-response" },
        body: Buffer.from(request.toSchema(true).toBER(false)),
        signal: AbortSignal.timeout(options.timeoutMs),
      },
      {
        allowPrivateNetwork: options.allowPrivateNetwork,
        maxRedirects: 0,
        ...(options.fetch ? { fetch: options.fetch } : {}),
        ...(options.resolve ? { resolve: options.resolve } : {}),
      },
    );
  } catch (error) {
    return {
      kind: "unavailable",
      why:
        error instanceof OutboundAddressError
          ? `o OCSP em ${url} não foi consultado: ${error.message}`
          : `o OCSP em ${url} não respondeu`,
    };
  }
  if (!response.ok) {
    await response.body?.cancel().catch(() => undefined);
    return { kind: "unavailable", why: `o OCSP em ${url} respondeu HTTP ${response.status}` };
  }
  const body = await readBoundedBody(response, MAX_ANSWER_BYTES);
  if (!body.ok)
    return {
      kind: "unavailable",
      why:
        body.why === "too-large"
          ? `o OCSP em ${url} deu uma resposta grande demais`
          : `o OCSP em ${url} chegou incompleto`,
    };
  return readOcspAnswer(body.bytes, certificate, issuer, url, now);
}

export function httpOcspSource(options: OcspSourceOptions): OcspSource {
  const cache = new Map<string, { answer: OcspAnswer; until: number }>();
  const clock = options.clock ?? Date.now;
  const cacheMs = options.cacheMs ?? DEFAULT_CACHE_MS;
  const failureCacheMs = options.failureCacheMs ?? DEFAULT_FAILURE_CACHE_MS;
  return async (url, certificate, issuer) => {
    const key = `${url} ${Buffer.from(certificate.serialNumber.valueBlock.valueHexView).toString("hex")}`;
    const known = cache.get(key);
    if (known && known.until > clock()) return known.answer;
    const answer = await ask(url, certificate, issuer, options, new Date(clock()));
    const until =
      answer.kind === "good"
        ? Math.min(clock() + cacheMs, answer.nextUpdate?.getTime() ?? Number.POSITIVE_INFINITY)
        : answer.kind === "revoked"
          ? clock() + cacheMs
          : clock() + failureCacheMs;
    cache.set(key, { answer, until });
    return answer;
  };
}
