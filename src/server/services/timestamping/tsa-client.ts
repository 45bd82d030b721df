/**
 * RFC 3161 time-stamp client (DESIGN §3 "trusted time"). Asks the authority at TSA_URL
 * for a token over a SHA-256 hash (for a PAdES signature: of the SignerInfo's signature value),
 * over HTTP (RFC 3161 §3.4: POST application/timestamp-query → application/timestamp-reply),
 * and accepts the reply only when the status is granted (or grantedWithMods), the token is a
 * SignedData over a TSTInfo whose messageImprint and nonce are ours, and its signature verifies
 * with the authority's certificate inside it.
 *
 * Errors are typed so the job that seals can retry: {@link TsaUnreachableError} (network,
 * timeout), {@link TsaRefusedError} (HTTP error or status rejection/waiting), and
 * {@link TsaBadResponseError} (anything that is not a good token for our request).
 *
 *   TimeStampReq ::= SEQUENCE { version INTEGER { v1(1) }, messageImprint MessageImprint,
 *     reqPolicy OID OPTIONAL, nonce INTEGER OPTIONAL, certReq BOOLEAN DEFAULT FALSE, … }
 *   TimeStampResp ::= SEQUENCE { status PKIStatusInfo, timeStampToken ContentInfo OPTIONAL }
 *   PKIStatusInfo ::= SEQUENCE { status INTEGER, statusString SEQUENCE OF UTF8String OPTIONAL,
 *     failInfo BIT STRING OPTIONAL }
 */
import { createHash, randomBytes } from "node:crypto";
import forge from "node-forge";
import { isIcpBrasilTsaPolicy } from "./tsa-policy.js";
import { tsaUrlList } from "../../env.js";
import { fetchOutbound, OutboundAddressError } from "../../lib/outbound-address.js";
import { derBoolean, octetString, oid, OID, sequence, smallInteger, unsignedInteger } from "../sealing/der.js";
import { bytesOf, children, derOf, parseDer } from "../sealing/cms-reader.js";
import { integerMagnitude, readTimeStampToken, type TimeStampTokenInfo } from "./timestamp-token.js";

/** Where and how to ask. Plain data: it crosses to the PDF worker threads inside SealOptions. */
export interface TsaConfig {
  /** Tried in order: the next one only when the previous could not give a good token (decision 060). */
  urls: string[];
  /**
   * SHA-256 of the only authority certificates whose tokens are taken (the ACTs checked before an
   * AD-RT signature, decision 060): a token signed by any other is refused like a bad answer.
   */
  acceptedCertificates?: string[] | undefined;
  /**
   * Only tokens stating an ICP-Brasil time-stamp policy (2.16.76.1.6.…) are taken: set with
   * acceptedCertificates for an AD-RT seal (decision 078).
   */
  requireIcpBrasilPolicy?: boolean | undefined;
  username?: string | undefined;
  password?: string | undefined;
  /** Whole request, connection included (default 10 s). */
  timeoutMs?: number | undefined;
  /** OUTBOUND_ALLOW_PRIVATE_NETWORK: the authority may be on this machine or a private network (decision 053). */
  allowPrivateNetwork?: boolean | undefined;
}

export const DEFAULT_TSA_TIMEOUT_MS = 10_000;
const MAX_REPLY_BYTES = 1024 * 1024;

export type TsaErrorKind = "unreachable" | "refused" | "bad-response";

export class TsaError extends Error {
  constructor(
    readonly kind: TsaErrorKind,
    message: string,
    /** Worth trying again later (the job's retry decides when). */
    readonly retryable: boolean,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = "TsaError";
  }
}

/** No answer: DNS, connection refused, TLS, or the timeout. */
export class TsaUnreachableError extends TsaError {
  constructor(message: string, cause?: unknown) {
    super("unreachable", message, true, { cause });
    this.name = "TsaUnreachableError";
  }
}

/** The authority answered no: an HTTP error, or a PKIStatus other than granted. */
export class TsaRefusedError extends TsaError {
  constructor(
    message: string,
    retryable: boolean,
    readonly httpStatus?: number,
    readonly pkiStatus?: number,
  ) {
    super("refused", message, retryable);
    this.name = "TsaRefusedError";
  }
}

/** An answer that is not a valid token for this request (wrong type, imprint, nonce, signature). */
export class TsaBadResponseError extends TsaError {
  constructor(message: string, cause?: unknown) {
    super("bad-response", message, true, { cause });
    this.name = "TsaBadResponseError";
  }
}

export interface TimestampResult extends TimeStampTokenInfo {
  /** The TimeStampToken (ContentInfo DER): what goes in the signatureTimeStampToken attribute. */
  tokenDer: Buffer;
}

/** TimeStampReq v1 for a SHA-256 hash, with a nonce and certReq true. */
export function timeStampRequest(sha256Hash: Buffer, nonce: Buffer): Buffer {
  if (sha256Hash.length !== 32) throw new Error("o resumo deve ser SHA-256 (32 bytes)");
  return sequence(
    smallInteger(1),
    sequence(sequence(oid(OID.sha256)), octetString(sha256Hash)),
    unsignedInteger(nonce),
    derBoolean(true),
  );
}

const PKI_STATUS: Record<number, string> = {
  0: "granted",
  1: "grantedWithMods",
  2: "rejection",
  3: "waiting",
  4: "revocationWarning",
  5: "revocationNotification",
};

/**
 * Asks the authorities in order for a token over `sha256Hash` (see the module comment): the first
 * good token wins; when every one fails, the last error is thrown, retryable if any failure was.
 */
export async function requestTimestamp(sha256Hash: Buffer, config: TsaConfig): Promise<TimestampResult> {
  let last: TsaError | undefined;
  let anyRetryable = false;
  for (const url of config.urls) {
    try {
      return await requestTimestampFrom(url, sha256Hash, config);
    } catch (error) {
      if (!(error instanceof TsaError)) throw error;
      last = error;
      anyRetryable ||= error.retryable;
    }
  }
  if (!last) throw new TsaRefusedError("nenhuma autoridade de carimbo do tempo configurada", false);
  if (config.urls.length > 1 && anyRetryable && !last.retryable) {
    throw new TsaUnreachableError(`nenhuma das ${config.urls.length} autoridades deu o carimbo: ${last.message}`, last);
  }
  throw last;
}

async function requestTimestampFrom(url: string, sha256Hash: Buffer, config: TsaConfig): Promise<TimestampResult> {
  const nonce = randomBytes(8);
  const body = timeStampRequest(sha256Hash, nonce);
  const headers: Record<string, string> = {
    "content-type": "application/timestamp-query",
    accept: "application/timestamp-reply",
  };
  if (config.username !== undefined) {
    headers.authorization = `Basic ${Buffer.from(`${config.username}:${config.password ?? ""}`).toString("base64")}`;
  }
  let response: Response;
  let reply: Buffer;
  try {
    // No redirect is followed (a redirected POST is refused), and the address is checked (decision 053).
    response = await fetchOutbound(
      url,
      {
        method: "POST",
        headers,
        body: new Uint8Array(body),
        signal: AbortSignal.timeout(config.timeoutMs ?? DEFAULT_TSA_TIMEOUT_MS),
      },
      { allowPrivateNetwork: config.allowPrivateNetwork, maxRedirects: 0 },
    );
    reply = Buffer.from(await response.arrayBuffer());
  } catch (error) {
    if (error instanceof OutboundAddressError)
      throw new TsaRefusedError(`a autoridade de carimbo do tempo não foi chamada: ${error.message}`, false);
    const timedOut = error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError");
    throw new TsaUnreachableError(
      timedOut
        ? "a autoridade de carimbo do tempo não respondeu a tempo"
        : "a autoridade de carimbo do tempo está inacessível",
      error,
    );
  }
  if (!response.ok) {
    const retryable = response.status === 408 || response.status === 429 || response.status >= 500;
    throw new TsaRefusedError(
      `a autoridade de carimbo do tempo respondeu HTTP ${response.status}`,
      retryable,
      response.status,
    );
  }
  const contentType = (response.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
  if (contentType !== "application/timestamp-reply" && contentType !== "application/timestamp-response") {
    throw new TsaBadResponseError(`resposta com tipo inesperado: ${contentType || "(nenhum)"}`);
  }
  if (reply.length === 0 || reply.length > MAX_REPLY_BYTES)
    throw new TsaBadResponseError("resposta vazia ou grande demais");
  const result = checkReply(reply, sha256Hash, nonce);
  if (config.acceptedCertificates && config.acceptedCertificates.length > 0) {
    const fingerprint = result.tsaCertificateDer
      ? createHash("sha256").update(result.tsaCertificateDer).digest("hex")
      : "";
    if (!config.acceptedCertificates.includes(fingerprint))
      throw new TsaBadResponseError("o carimbo não foi assinado pelo certificado da autoridade conferida");
  }
  if (config.requireIcpBrasilPolicy && !isIcpBrasilTsaPolicy(result.policyOid))
    throw new TsaBadResponseError(
      `o carimbo declara a política ${result.policyOid || "(nenhuma)"}, que não é uma política de carimbo do tempo da ICP-Brasil`,
    );
  return result;
}

/** Checks a TimeStampResp against our request; returns the token and what it says. */
export function checkReply(reply: Buffer, sha256Hash: Buffer, nonce: Buffer): TimestampResult {
  let statusInfo: forge.asn1.Asn1[];
  let tokenNode: forge.asn1.Asn1 | undefined;
  let statusCode: number;
  try {
    const [status, token] = children(parseDer(reply));
    statusInfo = children(status);
    tokenNode = token;
    const statusBytes = integerMagnitude(bytesOf(statusInfo[0]));
    if (statusBytes.length !== 1) throw new Error("PKIStatus ausente");
    statusCode = statusBytes[0]!;
  } catch (error) {
    throw new TsaBadResponseError("resposta ilegível", error);
  }
  if (statusCode !== 0 && statusCode !== 1) {
    const text = children(statusInfo[1])
      .map((n) => forge.util.decodeUtf8(String(n.value)))
      .join("; ");
    throw new TsaRefusedError(
      `a autoridade de carimbo do tempo recusou o pedido (${PKI_STATUS[statusCode] ?? statusCode}${text ? `: ${text}` : ""})`,
      statusCode === 3,
      undefined,
      statusCode,
    );
  }
  if (!tokenNode) throw new TsaBadResponseError("resposta concedida sem carimbo");
  const tokenDer = derOf(tokenNode);
  let info: TimeStampTokenInfo;
  try {
    info = readTimeStampToken(tokenDer);
  } catch (error) {
    throw new TsaBadResponseError(`carimbo ilegível: ${error instanceof Error ? error.message : String(error)}`, error);
  }
  if (info.messageImprint.hashAlgorithmOid !== OID.sha256 || !info.messageImprint.hash.equals(sha256Hash)) {
    throw new TsaBadResponseError("o carimbo não é sobre o resumo enviado");
  }
  if (!info.nonce || !info.nonce.equals(integerMagnitude(nonce)))
    throw new TsaBadResponseError("o nonce do carimbo não é o enviado");
  if (!info.signatureValid) throw new TsaBadResponseError(info.reason ?? "a assinatura do carimbo não confere");
  return { ...info, tokenDer };
}

/** The authority configured in the environment, if any. */
export function tsaConfigFromEnv(env: {
  TSA_URL?: string | undefined;
  TSA_USERNAME?: string | undefined;
  TSA_PASSWORD?: string | undefined;
  TSA_TIMEOUT_MS?: number | undefined;
  OUTBOUND_ALLOW_PRIVATE_NETWORK?: boolean | undefined;
}): TsaConfig | undefined {
  if (!env.TSA_URL || env.TSA_URL === "none") return undefined;
  const urls = tsaUrlList(env.TSA_URL);
  if (!urls) return undefined;
  return {
    urls,
    username: env.TSA_USERNAME,
    password: env.TSA_PASSWORD,
    timeoutMs: env.TSA_TIMEOUT_MS,
    allowPrivateNetwork: env.OUTBOUND_ALLOW_PRIVATE_NETWORK,
  };
}
