/**
 * Three ways to tamper with a sealed PDF, each a different verdict of the browser verifier
 * (decision 077) and a failure of `npm run verify`: a byte changed inside the signed range, an
 * incremental update appended after the seal, and a seal whose signature value no longer verifies.
 */
import * as asn1js from "asn1js";
import * as pkijs from "pkijs";
import { appendUpdate } from "../../src/server/services/sealing/dss.js";
import { objectOffsets, readRevisions } from "../../src/server/services/sealing/pdf-objects.js";
import { byteRanges } from "../../src/shared/pdf-reader/signature-ranges.js";

/** A byte of the first objects (inside every signature's range, which starts at the file's first byte) changed. */
export function byteChanged(pdf: Buffer, at = 200): Buffer {
  const first = byteRanges(pdf.toString("latin1"))[0];
  if (!first || at >= first.range[1]) throw new Error("the byte is not inside the first signed range");
  const tampered = Buffer.from(pdf);
  tampered[at] = tampered[at]! ^ 1;
  return tampered;
}

/** An annotation appended as an incremental update after everything (seal and time-stamps). */
export function updateAppended(pdf: Buffer): Buffer {
  const revisions = readRevisions(pdf);
  const next = Math.max(...objectOffsets(revisions).keys()) + 1;
  return appendUpdate(
    pdf,
    [{ num: next, body: Buffer.from(`${next} 0 obj\n<< /Type /Annot /Subtype /Text /Contents (novo) >>\nendobj\n`) }],
    { trailer: revisions.at(-1)!.trailer, prev: revisions.at(-1)!.xrefOffset, size: next + 1 },
  );
}

/** The seal's signature value (its SignerInfo's), as lower-case hex in the file. */
export function sealSignatureHex(pdf: Buffer): string {
  const text = pdf.toString("latin1");
  const seal = byteRanges(text).findLast((r) => r.kind === "assinatura");
  if (!seal) throw new Error("no seal in the PDF");
  const [, b, c] = seal.range;
  const contents = Buffer.from(text.slice(b + 1, c - 1), "hex");
  const info = new pkijs.ContentInfo({ schema: asn1js.fromBER(new Uint8Array(contents)).result });
  const signature = new pkijs.SignedData({ schema: info.content }).signerInfos[0]!.signature;
  return Buffer.from(signature.valueBlock.valueHexView).toString("hex");
}

/** A hex digit of the seal's signature value changed: the signed bytes are intact, the signature is not. */
export function sealSignatureChanged(pdf: Buffer): Buffer {
  const hex = sealSignatureHex(pdf);
  const at = pdf.toString("latin1").toLowerCase().indexOf(hex) + 10;
  if (at < 10) throw new Error("the seal's signature value is not in the file");
  const tampered = Buffer.from(pdf);
  tampered[at] = tampered[at] === 0x30 ? 0x31 : 0x30;
  return tampered;
}
