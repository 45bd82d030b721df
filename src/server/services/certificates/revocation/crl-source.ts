/**
 * Reads certificate revocation lists over HTTP (decision 048): GET the address, a DER (or PEM)
 * CertificateList back, within a timeout and a size limit; parsed lists are kept in memory until
 * the earlier of their next update and `cacheMs`, so a burst of sealings reads each list once.
 * A failure is remembered for `failureCacheMs`, so an authority that is down does not make every
 * sealing wait for the timeout.
 */
import * as pkijs from "pkijs";
import { readBoundedBody } from "../../../lib/bounded-body.js";
import { fetchOutbound, OutboundAddressError } from "../../../lib/outbound-address.js";

export type CrlSource = (url: string) => Promise<pkijs.CertificateRevocationList>;

/** The list could not be had: network, timeout, HTTP status, size, or not a list. `message` is pt-BR. */
export class CrlFetchError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "CrlFetchError";
  }
}

export interface CrlSourceOptions {
  timeoutMs: number;
  /** Largest list accepted (ICP-Brasil authorities' lists reach tens of MB). */
  maxBytes?: number;
  cacheMs?: number;
  failureCacheMs?: number;
  fetch?: typeof globalThis.fetch;
  clock?: () => number;
  /** OUTBOUND_ALLOW_PRIVATE_NETWORK: lists on this machine or a private network may be read (decision 053). */
  allowPrivateNetwork?: boolean;
  /** Name resolution (tests). */
  resolve?: (host: string) => Promise<string[]>;
}

export const DEFAULT_CRL_MAX_BYTES = 64 * 1024 * 1024;
const DEFAULT_CACHE_MS = 60 * 60_000;
const DEFAULT_FAILURE_CACHE_MS = 60_000;
const PEM = /-----BEGIN X509 CRL-----([\s\S]*?)-----END X509 CRL-----/;

type Cached = { crl: pkijs.CertificateRevocationList; until: number } | { error: CrlFetchError; until: number };

async function download(url: string, options: CrlSourceOptions): Promise<Buffer> {
  const maxBytes = options.maxBytes ?? DEFAULT_CRL_MAX_BYTES;
  let response: Response;
  try {
    // Every hop's address is checked: a list's redirect cannot reach a private address (decision 053).
    response = await fetchOutbound(
      url,
      { signal: AbortSignal.timeout(options.timeoutMs) },
      {
        allowPrivateNetwork: options.allowPrivateNetwork,
        maxRedirects: 5,
        ...(options.fetch ? { fetch: options.fetch } : {}),
        ...(options.resolve ? { resolve: options.resolve } : {}),
      },
    );
  } catch (error) {
    if (error instanceof OutboundAddressError)
      throw new CrlFetchError(`a lista de revogação em ${url} não foi buscada: ${error.message}`, { cause: error });
    throw new CrlFetchError(`a lista de revogação em ${url} não respondeu`, { cause: error });
  }
  if (!response.ok || !response.body) {
    await response.body?.cancel().catch(() => undefined);
    throw new CrlFetchError(`a lista de revogação em ${url} respondeu HTTP ${response.status}`);
  }
  const body = await readBoundedBody(response, maxBytes);
  if (body.ok) return body.bytes;
  throw new CrlFetchError(
    body.why === "too-large"
      ? `a lista de revogação em ${url} é grande demais`
      : `a lista de revogação em ${url} chegou incompleta`,
  );
}

/** The DER each parsed list was read from: kept to embed in the sealed PDF's DSS (decision 053). */
const derOfList = new WeakMap<pkijs.CertificateRevocationList, Buffer>();

/** The list's bytes as the authority published them (re-encoded only for a list not read here). */
export function crlDer(crl: pkijs.CertificateRevocationList): Buffer {
  return derOfList.get(crl) ?? Buffer.from(crl.toSchema(false).toBER(false));
}

/** DER, or one PEM block. */
export function parseCrl(bytes: Buffer, url: string): pkijs.CertificateRevocationList {
  const text = bytes.subarray(0, 64).toString("latin1");
  const der = text.includes("-----BEGIN")
    ? Buffer.from(PEM.exec(bytes.toString("latin1"))?.[1]?.replace(/\s+/g, "") ?? "", "base64")
    : bytes;
  try {
    const crl = pkijs.CertificateRevocationList.fromBER(new Uint8Array(der));
    derOfList.set(crl, Buffer.from(der));
    return crl;
  } catch (error) {
    throw new CrlFetchError(`o endereço ${url} não devolveu uma lista de revogação legível`, { cause: error });
  }
}

export function httpCrlSource(options: CrlSourceOptions): CrlSource {
  const cache = new Map<string, Cached>();
  const inFlight = new Map<string, Promise<pkijs.CertificateRevocationList>>();
  const clock = options.clock ?? Date.now;
  const cacheMs = options.cacheMs ?? DEFAULT_CACHE_MS;
  const failureCacheMs = options.failureCacheMs ?? DEFAULT_FAILURE_CACHE_MS;

  async function load(url: string): Promise<pkijs.CertificateRevocationList> {
    try {
      const crl = parseCrl(await download(url, options), url);
      const next = crl.nextUpdate?.value.getTime();
      cache.set(url, { crl, until: Math.min(clock() + cacheMs, next ?? Number.POSITIVE_INFINITY) });
      return crl;
    } catch (error) {
      const failure =
        error instanceof CrlFetchError
          ? error
          : new CrlFetchError(`a lista de revogação em ${url} não pôde ser lida`, { cause: error });
      cache.set(url, { error: failure, until: clock() + failureCacheMs });
      throw failure;
    }
  }

  return async (url) => {
    const known = cache.get(url);
    if (known && known.until > clock()) {
      if ("error" in known) throw known.error;
      return known.crl;
    }
    // Two sealings at once wait for the same download.
    const pending = inFlight.get(url) ?? load(url).finally(() => inFlight.delete(url));
    inFlight.set(url, pending);
    return pending;
  };
}
