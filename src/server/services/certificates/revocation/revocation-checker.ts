/**
 * The server's revocation check (decision 048): on by default (CRL_CHECK), and only for chains that
 * end at an official ICP-Brasil root the operator gave the server (ICP_BRASIL_ROOTS_FILE) — the
 * lists' addresses come from the certificates, and only an accredited authority's are fetched.
 */
import { webcrypto } from "node:crypto";
import * as pkijs from "pkijs";
import type { RevocationResult } from "../../../../shared/evidence/revocation.js";
import { checkRevocation, type RevocationCollector } from "./crl-check.js";
import { httpCrlSource, type CrlSource } from "./crl-source.js";
import { httpOcspSource, type OcspSource } from "./ocsp-source.js";

pkijs.setEngine("node", new pkijs.CryptoEngine({ name: "node", crypto: webcrypto as unknown as Crypto }));

import type { OfficialRoots } from "../official-roots.js";

/** What the server checks of an uploaded or signing certificate beyond the file itself. */
export interface CertificateChecks {
  /** The official ICP-Brasil roots (ICP_BRASIL_ROOTS_FILE), or null. */
  roots: OfficialRoots | null;
  /** Where revocation lists are read from, or null when CRL_CHECK is off. */
  crl: CrlSource | null;
  /** The OCSP responders certificates name (decision 082), or null when CRL_CHECK is off. */
  ocsp?: OcspSource | null;
}

export interface RevocationEnv {
  CRL_CHECK: boolean;
  CRL_TIMEOUT_MS: number;
  OUTBOUND_ALLOW_PRIVATE_NETWORK: boolean;
}

const sources = new WeakMap<RevocationEnv, CrlSource>();
const ocspSources = new WeakMap<RevocationEnv, OcspSource>();

/**
 * The process's list cache for this configuration (one per env object: the app and its worker
 * share one), or null when the check is off.
 */
export function crlSourceFromEnv(env: RevocationEnv): CrlSource | null {
  if (!env.CRL_CHECK) return null;
  let source = sources.get(env);
  if (!source) {
    source = httpCrlSource({
      timeoutMs: env.CRL_TIMEOUT_MS,
      allowPrivateNetwork: env.OUTBOUND_ALLOW_PRIVATE_NETWORK,
    });
    sources.set(env, source);
  }
  return source;
}

/** The process's OCSP client for this configuration (CRL_CHECK turns both on; decision 082). */
export function ocspSourceFromEnv(env: RevocationEnv): OcspSource | null {
  if (!env.CRL_CHECK) return null;
  let source = ocspSources.get(env);
  if (!source) {
    source = httpOcspSource({ timeoutMs: env.CRL_TIMEOUT_MS, allowPrivateNetwork: env.OUTBOUND_ALLOW_PRIVATE_NETWORK });
    ocspSources.set(env, source);
  }
  return source;
}

/**
 * The revocation answer for a chain (holder first) whose official root is `officialRoot` (null:
 * none), or why it was not looked up. `collect` receives the DER of the lists and OCSP answers
 * read (decision 053) and names the OCSP client.
 */
export async function revocationOf(
  chainDer: readonly Buffer[] | undefined,
  officialRoot: string | null,
  source: CrlSource | null,
  now: Date = new Date(),
  collect?: RevocationCollector,
): Promise<RevocationResult> {
  if (!source)
    return { status: "nao_consultado", motivo: "a consulta às listas de revogação está desligada neste servidor" };
  if (!officialRoot)
    return { status: "nao_consultado", motivo: "a cadeia não foi conferida até uma raiz oficial da ICP-Brasil" };
  if (!chainDer || chainDer.length < 2)
    return {
      status: "indisponivel",
      consultadoEm: now.toISOString(),
      motivo: "o arquivo não traz a cadeia do certificado",
    };
  return checkRevocation(chainDer, source, now, collect);
}
