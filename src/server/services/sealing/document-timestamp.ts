/**
 * A document time-stamp (ISO 32000-2 §12.8.5, ETSI EN 319 142-1 §5.4.3; PAdES B-LTA, decision
 * 053): an incremental update with a /DocTimeStamp signature dictionary (/SubFilter
 * /ETSI.RFC3161) whose /Contents is an RFC 3161 TimeStampToken over the SHA-256 of the whole file
 * but that /Contents — the DSS included. It proves the file, with its validation data, existed at
 * that time; before the authority's certificate expires a new one can be added over it.
 *
 * The placeholder and byte range are @signpdf's (as for our signatures); the token comes from the
 * TSA client, which checks imprint, nonce and signature before we write it.
 */
import { createHash, randomBytes } from "node:crypto";
import { plainAddPlaceholder } from "@signpdf/placeholder-plain";
import { SignPdf } from "@signpdf/signpdf";
import { Signer, SignPdfError } from "@signpdf/utils";
import { requestTimestamp, type TimestampResult, type TsaConfig } from "../timestamping/tsa-client.js";
import { tidyIncrementalTrailer } from "./incremental-trailer.js";

export const SUBFILTER_ETSI_RFC3161 = "ETSI.RFC3161";
/** Room for the token: its TSTInfo, the authority's certificate and, for some, its chain. */
const DOC_TIMESTAMP_BYTES = 12_288;

class TimestampSigner extends Signer {
  result: TimestampResult | null = null;
  lastLength = 0;

  constructor(private readonly tsa: TsaConfig) {
    super();
  }

  override async sign(pdfBuffer: Buffer): Promise<Buffer> {
    this.result = await requestTimestamp(createHash("sha256").update(pdfBuffer).digest(), this.tsa);
    this.lastLength = this.result.tokenDer.length;
    return this.result.tokenDer;
  }
}

/**
 * placeholder-plain writes `/Type /Sig`; a document time-stamp is `/Type /DocTimeStamp`, 9 bytes
 * longer. The /Location is written as a 9-byte marker and emptied, in the same dictionary, so no
 * offset of the update moves.
 */
const LOCATION_MARKER_LENGTH = "DocTimeStamp".length - "Sig".length;

function asDocTimeStamp(pdf: Buffer, from: number, marker: string): Buffer {
  const text = pdf.toString("latin1");
  const typeAt = text.indexOf("/Type /Sig\n", from);
  const locationAt = text.indexOf(`/Location (${marker})`, from);
  if (typeAt < 0 || locationAt < typeAt) throw new Error("dicionário do carimbo do documento não encontrado");
  const before = text.slice(0, typeAt);
  const middle = text.slice(typeAt + "/Type /Sig".length, locationAt);
  const after = text.slice(locationAt + `/Location (${marker})`.length);
  return Buffer.from(`${before}/Type /DocTimeStamp${middle}/Location ()${after}`, "latin1");
}

async function stampOnce(pdf: Buffer, tsa: TsaConfig, space: number, signer: TimestampSigner): Promise<Buffer> {
  const marker = randomBytes(8).toString("hex").slice(0, LOCATION_MARKER_LENGTH);
  const withPlaceholder = plainAddPlaceholder({
    pdfBuffer: pdf,
    reason: "Carimbo do tempo do documento",
    contactInfo: "Consentir",
    name: "Carimbo do tempo",
    location: marker,
    signatureLength: space,
    subFilter: SUBFILTER_ETSI_RFC3161,
    appName: "Consentir",
  });
  const stamped = asDocTimeStamp(tidyIncrementalTrailer(withPlaceholder), pdf.length - 2, marker);
  return new SignPdf().sign(stamped, signer);
}

/** The file with a document time-stamp appended, and the token's details. TsaError propagates. */
export async function addDocumentTimestamp(
  pdf: Buffer,
  tsa: TsaConfig,
): Promise<{ pdf: Buffer; timestamp: TimestampResult }> {
  let signer = new TimestampSigner(tsa);
  let out: Buffer;
  try {
    out = await stampOnce(pdf, tsa, DOC_TIMESTAMP_BYTES, signer);
  } catch (error) {
    // A token larger than planned: once more with room for it.
    if (!(error instanceof SignPdfError) || signer.lastLength <= DOC_TIMESTAMP_BYTES) throw error;
    const bigger = Math.ceil((signer.lastLength + 2048) / 512) * 512;
    signer = new TimestampSigner(tsa);
    out = await stampOnce(pdf, tsa, bigger, signer);
  }
  return { pdf: out, timestamp: signer.result! };
}
