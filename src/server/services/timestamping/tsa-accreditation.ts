/**
 * Whether a time-stamp authority is an ICP-Brasil ACT, checked rather than assumed (decision 060):
 * the authority is asked for a token over a probe hash, and its certificate — time-stamping only,
 * valid now — must chain, link by link with verified signatures, through the certificates the
 * token carries to one of the official roots (ICP_BRASIL_ROOTS_FILE) — and the token must state an
 * ICP-Brasil time-stamp policy (decision 078: the arc 2.16.76.1.6 of DOC-ICP-04.01, under which
 * each ACT's PCT is registered), since a certificate of the ICP-Brasil chain says who stamped, the
 * policy under which it stamped. Only then may a signature
 * declare AD-RT and the PDF say "ACT credenciada". The answer is kept for an hour per authority.
 */
import { createHash, X509Certificate } from "node:crypto";
import { commonNameOf, type OfficialRoots, rootOfChain } from "../certificates/official-roots.js";
import { parseSignedData } from "../sealing/cms-reader.js";
import { requestTimestamp, type TsaConfig } from "./tsa-client.js";
import { ICP_BRASIL_TSA_POLICY_ARC, isIcpBrasilTsaPolicy } from "./tsa-policy.js";

export interface TsaAccreditation {
  url: string;
  accredited: boolean;
  /** Common name of the authority's certificate, when a token came back. */
  authority: string | null;
  /** The official root its chain ends at (accredited only). */
  root: string | null;
  /** SHA-256 of the authority's certificate (hex), when a token came back. */
  certificateSha256: string | null;
  /** Why it is not accredited (pt-BR), or null. */
  reason: string | null;
}

const CACHE_MS = 60 * 60 * 1000;

/** Per set of official roots (an app's), per authority URL. */
let cache = new WeakMap<OfficialRoots, Map<string, { at: number; result: TsaAccreditation }>>();

/** Asks one authority for a probe token and checks its certificate's chain (see the module comment). */
export async function checkTsaAccreditation(
  url: string,
  config: Omit<TsaConfig, "urls">,
  roots: OfficialRoots | null,
  now: Date = new Date(),
): Promise<TsaAccreditation> {
  const base = { url, accredited: false, authority: null, root: null, certificateSha256: null };
  if (!roots) return { ...base, reason: "as raízes oficiais da ICP-Brasil não foram dadas ao servidor" };
  const probe = createHash("sha256")
    .update(`consentir: conferência da autoridade ${url} ${now.toISOString()}`)
    .digest();
  let token;
  try {
    token = await requestTimestamp(probe, { ...config, urls: [url] });
  } catch (error) {
    return { ...base, reason: `a autoridade não deu um carimbo válido: ${(error as Error).message}` };
  }
  if (!token.tsaCertificateDer) return { ...base, reason: "o carimbo não traz o certificado da autoridade" };
  const holder = new X509Certificate(token.tsaCertificateDer);
  const pool = parseSignedData(token.tokenDer).certificates.flatMap((der) => {
    try {
      return [new X509Certificate(der)];
    } catch {
      return [];
    }
  });
  const named = {
    ...base,
    authority: commonNameOf(holder),
    certificateSha256: createHash("sha256").update(token.tsaCertificateDer).digest("hex"),
  };
  const root = rootOfChain(holder, pool, roots, now);
  if (!root)
    return {
      ...named,
      reason: "a cadeia do certificado da autoridade não chega, válida, a uma raiz oficial da ICP-Brasil",
    };
  if (!isIcpBrasilTsaPolicy(token.policyOid))
    return {
      ...named,
      reason: `o carimbo declara a política ${token.policyOid || "(nenhuma)"}, que não é uma política de carimbo do tempo da ICP-Brasil (${ICP_BRASIL_TSA_POLICY_ARC}.…)`,
    };
  return { ...named, accredited: true, root, reason: null };
}

/** Each configured authority's answer, kept an hour (a failed check is asked again at the next sealing). */
export async function tsaAccreditations(
  tsa: TsaConfig,
  roots: OfficialRoots | null,
  now: Date = new Date(),
): Promise<TsaAccreditation[]> {
  const { urls, ...config } = tsa;
  if (!roots) return Promise.all(urls.map((url) => checkTsaAccreditation(url, config, roots, now)));
  const known = cache.get(roots) ?? new Map<string, { at: number; result: TsaAccreditation }>();
  cache.set(roots, known);
  return Promise.all(
    urls.map(async (url) => {
      const kept = known.get(url);
      if (kept && Math.abs(now.getTime() - kept.at) < CACHE_MS) return kept.result;
      const result = await checkTsaAccreditation(url, config, roots, now);
      // Only a definite answer is kept: an authority that gave no token is asked again next time.
      if (result.authority) known.set(url, { at: now.getTime(), result });
      return result;
    }),
  );
}

/** For tests: forget what was checked. */
export function forgetTsaAccreditations(): void {
  cache = new WeakMap();
}
