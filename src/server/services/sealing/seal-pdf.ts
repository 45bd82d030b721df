/**
 * PAdES signature of a finished PDF (DESIGN §3, §6): a signature dictionary with a /Contents
 * placeholder is added by @signpdf/placeholder-plain as an incremental update (pdfmake writes
 * classic cross-reference tables, no object streams, so the plain writer works — also on a PDF
 * that already carries signatures: it appends after the last %%EOF and leaves earlier bytes alone),
 * then @signpdf fills the /ByteRange and the CMS from {@link CadesSigner}. Pages are always added
 * before this step: any rewrite after signing would break the digest.
 *
 * Several signatures: call sealPdf again on its output (the professional's ICP-Brasil signature
 * first, then the clinic's or the instance seal); each one covers everything before it.
 */
import { createHash, randomBytes } from "node:crypto";
import { plainAddPlaceholder } from "@signpdf/placeholder-plain";
import { SignPdf } from "@signpdf/signpdf";
import { SignPdfError, SUBFILTER_ETSI_CADES_DETACHED } from "@signpdf/utils";
import { requestTimestamp, type TsaConfig } from "../timestamping/tsa-client.js";
import { CadesSigner, cmsSizeWithoutTimestamp, type SignaturePolicy } from "./cades-signer.js";
import { tidyIncrementalTrailer } from "./incremental-trailer.js";
import type { SealMaterial } from "./seal-certificate.js";

/**
 * Room kept for a time-stamp token in /Contents: a token with its ACT certificate is ~2–3 kB, and
 * some authorities add their chain (ICP-Brasil ACT certificates with 4096-bit keys, ~2 kB each).
 * A larger token is not an error: the signature is redone once with room for it.
 */
export const TIMESTAMP_BUDGET_BYTES = 8192;
/** Slack on top of the measured CMS, then rounded up to this multiple. */
const SPACE_SLACK_BYTES = 64;
const SPACE_ROUNDING_BYTES = 512;

export const DEFAULT_REASON = "Documento assinado eletronicamente";
export const DEFAULT_LOCATION = "Brasil";

export interface SealOptions {
  /** Written as the dictionary's /M (the signing time of a PAdES signature; never a CMS attribute). */
  signingTime?: Date;
  /** /Name of the signer shown by readers (default: the certificate's CN). */
  name?: string;
  contactInfo?: string;
  reason?: string;
  location?: string;
  /** ICP-Brasil policy (see icp-brasil-policies.ts and signatureLevel()): adds sigPolicyId. */
  policy?: SignaturePolicy;
  /**
   * RFC 3161 authority asked for a signatureTimeStampToken. Plain data, so the options can cross
   * to a PDF worker thread. Its errors (TsaError) propagate: the calling job retries.
   */
  timestamp?: TsaConfig;
  /** Bytes reserved for the CMS; default sized from this material, policy and time-stamp. */
  signatureBytes?: number;
}

const roundUp = (n: number, step: number) => Math.ceil(n / step) * step;

/** /Contents room for this material: the CMS measured without signing, a token budget, rounded up. */
export function signatureSpace(
  material: SealMaterial,
  options: { policy?: SignaturePolicy | undefined; timestamp?: boolean } = {},
): number {
  const cms = cmsSizeWithoutTimestamp(material, options.policy);
  return roundUp(cms + SPACE_SLACK_BYTES + (options.timestamp ? TIMESTAMP_BUDGET_BYTES : 0), SPACE_ROUNDING_BYTES);
}

/** A worker-thread clone turns Buffers into Uint8Arrays: make the policy hash a Buffer again. */
function revivePolicy(policy: SignaturePolicy | undefined): SignaturePolicy | undefined {
  return policy && { ...policy, hash: Buffer.from(policy.hash) };
}

export async function sealPdf(pdf: Buffer, material: SealMaterial, options: SealOptions = {}): Promise<Buffer> {
  const policy = revivePolicy(options.policy);
  const tsa = options.timestamp;
  const timestamp = tsa
    ? async (signatureValue: Buffer) =>
        (await requestTimestamp(createHash("sha256").update(signatureValue).digest(), tsa)).tokenDer
    : undefined;
  const space = options.signatureBytes ?? signatureSpace(material, { policy, timestamp: !!tsa });
  const signer = new CadesSigner(material, { policy, timestamp });
  try {
    return await signOnce(pdf, material, options, signer, space);
  } catch (error) {
    // Only a token larger than its budget gets here in practice: redo once with room for it.
    if (!(error instanceof SignPdfError) || signer.lastCmsLength <= space) throw error;
    const bigger = roundUp(signer.lastCmsLength + 2048, SPACE_ROUNDING_BYTES);
    return signOnce(pdf, material, options, new CadesSigner(material, { policy, timestamp }), bigger);
  }
}

async function signOnce(
  pdf: Buffer,
  material: SealMaterial,
  options: SealOptions,
  signer: CadesSigner,
  space: number,
): Promise<Buffer> {
  const signingTime = options.signingTime ?? new Date();
  const texts = new TextStrings();
  const withPlaceholder = plainAddPlaceholder({
    pdfBuffer: pdf,
    reason: texts.add(options.reason ?? DEFAULT_REASON),
    contactInfo: texts.add(options.contactInfo ?? "Consentir"),
    name: texts.add(options.name ?? material.commonName),
    location: texts.add(options.location ?? DEFAULT_LOCATION),
    signingTime,
    signatureLength: space,
    subFilter: SUBFILTER_ETSI_CADES_DETACHED,
    appName: "Consentir",
  });
  return new SignPdf().sign(tidyIncrementalTrailer(texts.write(withPlaceholder, pdf.length - 2)), signer, signingTime);
}

/**
 * PDF text strings must be PDFDocEncoding or UTF-16BE with a byte-order mark (ISO 32000-1
 * §7.9.2.2). @signpdf's PDFObject makes UTF-16BE of a non-ASCII string, but as a JavaScript
 * "binary" string that placeholder-plain then writes as UTF-8, so every byte ≥ 0x80 becomes two
 * and readers show "Ã¾Ã¿…". The library writes ASCII correctly, so a non-ASCII value goes in as
 * an ASCII marker exactly as long as its hex form, and the marker's `(…)` is then overwritten
 * in place by `<FEFF…>`: same length, so the cross-reference offsets stay right.
 */
class TextStrings {
  private readonly pending = new Map<string, string>();

  add(value: string): string {
    if (/^[\x20-\x7e]*$/.test(value)) return value;
    const hex = `FEFF${Buffer.from(value, "utf16le").swap16().toString("hex").toUpperCase()}`;
    // `(marker)` and `<hex>` have the same length when the marker is as long as the hex digits.
    const marker = randomBytes(Math.ceil(hex.length / 2))
      .toString("hex")
      .slice(0, hex.length);
    this.pending.set(marker, hex);
    return marker;
  }

  /** Replaces each marker written after `from` (the new objects only). */
  write(pdf: Buffer, from: number): Buffer {
    if (this.pending.size === 0) return pdf;
    const out = Buffer.from(pdf);
    for (const [marker, hex] of this.pending) {
      const at = out.indexOf(`(${marker})`, Math.max(0, from), "latin1");
      if (at < 0) throw new Error("marcador de texto não encontrado no dicionário da assinatura");
      out.write(`<${hex}>`, at, "latin1");
    }
    return out;
  }
}
