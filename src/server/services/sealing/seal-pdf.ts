/**
 * PAdES seal of a finished PDF (DESIGN §3, §6): a signature dictionary with a /Contents
 * placeholder is added by @signpdf/placeholder-plain (pdfmake writes classic cross-reference
 * tables, no object streams, so the plain incremental writer works), then @signpdf fills the
 * /ByteRange and the CMS from {@link CadesSigner}. Pages are always added before this step: any
 * rewrite after sealing would break the digest.
 */
import { plainAddPlaceholder } from "@signpdf/placeholder-plain";
import { SignPdf } from "@signpdf/signpdf";
import { SUBFILTER_ETSI_CADES_DETACHED } from "@signpdf/utils";
import { CadesSigner } from "./cades-signer.js";
import type { SealMaterial } from "./seal-certificate.js";

/**
 * Bytes reserved for the CMS (written as hex, so twice as many characters). Ours is ~1.5 kB
 * (one 900-byte certificate, 256-byte signature, three attributes); a clinic's A1 with its chain
 * needs more and will size it from its own chain.
 */
export const SEAL_SIGNATURE_BYTES = 4096;

export interface SealOptions {
  /** Written as the dictionary's /M (the signing time of a PAdES signature). */
  signingTime?: Date;
  /** /Name of the signer shown by readers (default: the certificate's CN). */
  name?: string;
  contactInfo?: string;
}

export async function sealPdf(pdf: Buffer, material: SealMaterial, options: SealOptions = {}): Promise<Buffer> {
  const signingTime = options.signingTime ?? new Date();
  const withPlaceholder = plainAddPlaceholder({
    pdfBuffer: pdf,
    reason: "Documento assinado eletronicamente",
    contactInfo: options.contactInfo ?? "Consentir",
    name: options.name ?? material.commonName,
    location: "Brasil",
    signingTime,
    signatureLength: SEAL_SIGNATURE_BYTES,
    subFilter: SUBFILTER_ETSI_CADES_DETACHED,
    appName: "Consentir",
  });
  return new SignPdf().sign(withPlaceholder, new CadesSigner(material), signingTime);
}
