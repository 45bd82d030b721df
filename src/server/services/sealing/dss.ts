/**
 * The Document Security Store (ISO 32000-2 §12.8.4.3, ETSI EN 319 142-1 §5.4; decision 053): the
 * validation data a verifier needs years from now, when the certificates have expired and the
 * authorities' lists are no longer online — every certificate of every chain (signers, clinic,
 * instance seal, time-stamp authorities), the revocation lists the server read before sealing,
 * and one /VRI entry per signature (key: uppercase hex SHA-1 of the signature's /Contents bytes,
 * padding included, as iText and PDFBox compute it) naming the certificates and lists of that
 * signature. Written as an incremental update after the last signature: the bytes before it are
 * untouched, so every signature still verifies. A second call (after a document time-stamp) keeps
 * what the first wrote and adds what is new, under the same /DSS object.
 *
 * No library we have writes a DSS (@signpdf only adds signature placeholders, and pdf-lib would
 * rewrite the file), so this is a small writer of one incremental xref section over pdf-objects.ts.
 */
import { createHash, X509Certificate } from "node:crypto";
import * as pkijs from "pkijs";

import { OID } from "./der.js";
import { derOf, parseSignedData } from "./cms-reader.js";
import {
  type DssContents as DssBytes,
  MAX_DSS_ENTRIES,
  readDss as readDssBytes,
} from "../../../shared/pdf-reader/dss-reader.js";

export { MAX_DSS_ENTRIES };
import {
  dictOf,
  nameOf,
  objectIn,
  objectOffsets,
  PdfStructureError,
  type PdfValue,
  readRevisions,
  writeValue,
} from "./pdf-objects.js";

/** What the server has beyond the file: the chains it signed with, the lists it read. */
export interface ValidationMaterial {
  certificates: readonly Buffer[];
  crls: readonly Buffer[];
  ocsps?: readonly Buffer[];
}

export interface PdfSignatureBytes {
  /** 0 = the first signature in the file. */
  index: number;
  byteRange: [number, number, number, number];
  subFilter: string | null;
  /** The decoded /Contents, zero padding included (what the VRI key hashes). */
  contents: Buffer;
  /** The uppercase hex SHA-1 of `contents`: this signature's /VRI key. */
  vriKey: string;
}

export interface DssContents extends DssBytes {
  certs: { num: number; der: Buffer }[];
  crls: { num: number; der: Buffer }[];
  ocsps: { num: number; der: Buffer }[];
}

const BYTE_RANGE = /\/ByteRange\s*\[\s*(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s*\]/g;
/**
 * Signatures we describe at most: a PDF of ours has three or four, plus one document time-stamp
 * per archive revision (decision 064; the verifier's limits are 8 and 32).
 */
const MAX_SIGNATURES = 48;

/** Each /ByteRange's signature dictionary: its /Contents bytes and /SubFilter. */
export function signatureBytes(pdf: Buffer): PdfSignatureBytes[] {
  const text = pdf.toString("latin1");
  const out: PdfSignatureBytes[] = [];
  for (const match of text.matchAll(BYTE_RANGE)) {
    if (out.length >= MAX_SIGNATURES) break;
    const range = match.slice(1, 5).map(Number) as [number, number, number, number];
    const gap = text.slice(range[1], range[2]);
    if (!/^<[0-9a-fA-F]*>$/.test(gap)) continue;
    const contents = Buffer.from(gap.slice(1, -1), "hex");
    // The /SubFilter of the same dictionary: the nearest one before the /ByteRange.
    const dictStart = text.lastIndexOf("<<", match.index);
    const subFilter = /\/SubFilter\s*\/([^\s/<>[\]()]+)/.exec(text.slice(dictStart, match.index))?.[1] ?? null;
    out.push({
      index: out.length,
      byteRange: range,
      subFilter,
      contents,
      vriKey: createHash("sha1").update(contents).digest("hex").toUpperCase(),
    });
  }
  return out;
}

/** The certificates a signature's CMS carries: its own, and those of its time-stamp tokens. */
function certificatesInSignature(contents: Buffer): Buffer[] {
  try {
    const signedData = parseSignedData(contents);
    const tokens = signedData.signerInfos.flatMap((info) =>
      info.unsignedAttributes.filter((a) => a.type === OID.signatureTimeStampToken).flatMap((a) => a.values),
    );
    const inTokens = tokens.flatMap((token) => {
      try {
        return parseSignedData(derOf(token)).certificates;
      } catch {
        return [];
      }
    });
    return [...signedData.certificates, ...inTokens];
  } catch {
    return [];
  }
}

const keyOf = (der: Buffer) => createHash("sha256").update(der).digest("hex");

/** `certificates` and every issuer of theirs found in `pool`, by name and signature. */
function withIssuers(certificates: Buffer[], pool: Buffer[]): Buffer[] {
  const parsed = new Map(pool.map((der) => [keyOf(der), der]));
  const result = new Map<string, Buffer>();
  const queue = [...certificates];
  while (queue.length > 0) {
    const der = queue.shift()!;
    const key = keyOf(der);
    if (result.has(key)) continue;
    result.set(key, der);
    let certificate: X509Certificate;
    try {
      certificate = new X509Certificate(der);
    } catch {
      continue;
    }
    for (const candidate of parsed.values()) {
      try {
        const issuer = new X509Certificate(candidate);
        if (!result.has(keyOf(candidate)) && certificate.checkIssued(issuer) && certificate.verify(issuer.publicKey))
          queue.push(candidate);
      } catch {
        // not a certificate: skipped
      }
    }
  }
  return [...result.values()];
}

/** Lists issued by the issuer of some certificate of `chain` (the lists that answer for them). */
function listsFor(chain: Buffer[], crls: Buffer[]): Buffer[] {
  const issuers = chain.flatMap((der) => {
    try {
      return [pkijs.Certificate.fromBER(new Uint8Array(der)).issuer];
    } catch {
      return [];
    }
  });
  return crls.filter((der) => {
    try {
      const crl = pkijs.CertificateRevocationList.fromBER(new Uint8Array(der));
      return issuers.some((issuer) => issuer.isEqual(crl.issuer));
    } catch {
      return false;
    }
  });
}

/**
 * The OCSP answers about a certificate of the chain (decision 082): a SingleResponse whose serial is
 * a chain certificate's and whose issuer-name hash is that certificate's issuer's (SHA-1 or SHA-256).
 */
function answersFor(chain: Buffer[], ocsps: Buffer[]): Buffer[] {
  const ids = chain.flatMap((der) => {
    try {
      const certificate = pkijs.Certificate.fromBER(new Uint8Array(der));
      const issuerName = Buffer.from(certificate.issuer.toSchema().toBER(false));
      return [
        {
          serial: Buffer.from(certificate.serialNumber.valueBlock.valueHexView).toString("hex"),
          names: [
            createHash("sha1").update(issuerName).digest("hex"),
            createHash("sha256").update(issuerName).digest("hex"),
          ],
        },
      ];
    } catch {
      return [];
    }
  });
  return ocsps.filter((der) => {
    try {
      const response = pkijs.OCSPResponse.fromBER(new Uint8Array(der));
      const bytes = response.responseBytes?.response.valueBlock.valueHexView;
      if (!bytes) return false;
      const basic = pkijs.BasicOCSPResponse.fromBER(new Uint8Array(bytes));
      return basic.tbsResponseData.responses.some((single) => {
        const serial = Buffer.from(single.certID.serialNumber.valueBlock.valueHexView).toString("hex");
        const name = Buffer.from(single.certID.issuerNameHash.valueBlock.valueHexView).toString("hex");
        return ids.some((id) => id.serial === serial && id.names.includes(name));
      });
    } catch {
      return false;
    }
  });
}

/** The file's /DSS, or null when it has none (the reader is shared with the browser verifier, decision 077). */
export function readDss(pdf: Buffer): DssContents | null {
  const store = readDssBytes(pdf);
  if (!store) return null;
  const view = (entry: { num: number; der: Uint8Array }) => ({
    num: entry.num,
    der: Buffer.from(entry.der.buffer, entry.der.byteOffset, entry.der.length),
  });
  return { ...store, certs: store.certs.map(view), crls: store.crls.map(view), ocsps: store.ocsps.map(view) };
}

const ref = (num: number): PdfValue => ({ kind: "ref", num, gen: 0 });
const refArray = (nums: number[]): PdfValue => ({ kind: "array", items: nums.map(ref) });

/**
 * Appends an incremental update with the /DSS: what `material` holds, the certificates in every
 * signature (and their time-stamp tokens), and a /VRI entry for each signature of the file.
 */
export function appendDss(pdf: Buffer, material: ValidationMaterial): Buffer {
  const revisions = readRevisions(pdf);
  const offsets = objectOffsets(revisions);
  const lastTrailer = revisions.at(-1)!.trailer;
  const rootRef = lastTrailer.get("Root");
  if (rootRef?.kind !== "ref") throw new PdfStructureError("trailer sem /Root");
  const catalogObject = objectIn(pdf, offsets, rootRef.num);
  const catalog = dictOf(catalogObject?.value);
  if (!catalog || nameOf(catalog.get("Type")) !== "Catalog") throw new PdfStructureError("/Root não é o catálogo");
  const existing = readDss(pdf);
  const size = lastTrailer.get("Size");
  let next = Math.max(size?.kind === "number" ? size.value : 0, ...[...offsets.keys()].map((n) => n + 1));

  const written: { num: number; body: Buffer }[] = [];
  /** Streams by content: what the DSS has already, then what this update adds. */
  const streamsOf = (kept: { num: number; der: Buffer }[], wanted: readonly Buffer[]) => {
    const byKey = new Map(kept.map((s) => [keyOf(s.der), s.num]));
    for (const der of wanted) {
      const key = keyOf(der);
      if (byKey.has(key)) continue;
      const num = next++;
      byKey.set(key, num);
      written.push({
        num,
        body: Buffer.concat([
          Buffer.from(`${num} 0 obj\n<< /Length ${der.length} >>\nstream\n`, "latin1"),
          der,
          Buffer.from("\nendstream\nendobj\n", "latin1"),
        ]),
      });
    }
    return byKey;
  };

  const signatures = signatureBytes(pdf);
  const inSignatures = signatures.map((s) => certificatesInSignature(s.contents));
  const allCerts = [...(existing?.certs.map((c) => c.der) ?? []), ...material.certificates, ...inSignatures.flat()];
  const certs = streamsOf(existing?.certs ?? [], allCerts);
  const allCrls = [...(existing?.crls.map((c) => c.der) ?? []), ...material.crls];
  const crls = streamsOf(existing?.crls ?? [], allCrls);
  const certPool = [...new Map(allCerts.map((der) => [keyOf(der), der])).values()];
  const crlPool = [...new Map(allCrls.map((der) => [keyOf(der), der])).values()];
  const allOcsps = [...(existing?.ocsps.map((o) => o.der) ?? []), ...(material.ocsps ?? [])];
  const ocspPool = [...new Map(allOcsps.map((der) => [keyOf(der), der])).values()];
  const ocsps = streamsOf(existing?.ocsps ?? [], allOcsps);

  const vri = new Map<string, PdfValue>();
  for (const [key, entry] of existing?.vri ?? []) {
    const entries = new Map<string, PdfValue>([["Type", { kind: "name", value: "VRI" }]]);
    if (entry.certs.length) entries.set("Cert", refArray(entry.certs));
    if (entry.crls.length) entries.set("CRL", refArray(entry.crls));
    if (entry.ocsps.length) entries.set("OCSP", refArray(entry.ocsps));
    vri.set(key, { kind: "dict", entries });
  }
  signatures.forEach((signature, i) => {
    const chain = withIssuers(inSignatures[i]!, certPool);
    const lists = listsFor(chain, crlPool);
    const entries = new Map<string, PdfValue>([["Type", { kind: "name", value: "VRI" }]]);
    if (chain.length) entries.set("Cert", refArray(chain.map((der) => certs.get(keyOf(der))!)));
    if (lists.length) entries.set("CRL", refArray(lists.map((der) => crls.get(keyOf(der))!)));
    const answers = answersFor(chain, ocspPool);
    if (answers.length) entries.set("OCSP", refArray(answers.map((der) => ocsps.get(keyOf(der))!)));
    vri.set(signature.vriKey, { kind: "dict", entries });
  });

  const dssEntries = new Map<string, PdfValue>([
    ["Type", { kind: "name", value: "DSS" }],
    ["Certs", refArray([...certs.values()])],
  ]);
  if (crls.size) dssEntries.set("CRLs", refArray([...crls.values()]));
  if (ocsps.size) dssEntries.set("OCSPs", refArray([...ocsps.values()]));
  dssEntries.set("VRI", { kind: "dict", entries: vri });
  const dssNum = existing?.objectNumber ?? next++;
  written.push({
    num: dssNum,
    body: Buffer.from(`${dssNum} 0 obj\n${writeValue({ kind: "dict", entries: dssEntries })}\nendobj\n`, "latin1"),
  });
  if (!existing) {
    const withDss = new Map(catalog);
    withDss.set("DSS", ref(dssNum));
    written.push({
      num: rootRef.num,
      body: Buffer.from(`${rootRef.num} 0 obj\n${writeValue({ kind: "dict", entries: withDss })}\nendobj\n`, "latin1"),
    });
  }
  return appendUpdate(pdf, written, {
    trailer: lastTrailer,
    prev: revisions.at(-1)!.xrefOffset,
    size: Math.max(next, dssNum + 1),
  });
}

/** Appends objects as one incremental update: the objects, a classic xref section, the trailer. */
export function appendUpdate(
  pdf: Buffer,
  objects: { num: number; body: Buffer }[],
  options: { trailer: Map<string, PdfValue>; prev: number; size: number },
): Buffer {
  const parts: Buffer[] = [pdf];
  let at = pdf.length;
  if (pdf[pdf.length - 1] !== 0x0a) {
    parts.push(Buffer.from("\n"));
    at += 1;
  }
  const offsets = new Map<number, number>();
  for (const object of objects) {
    offsets.set(object.num, at);
    parts.push(object.body);
    at += object.body.length;
  }
  const xrefAt = at;
  const numbers = [...offsets.keys()].sort((a, b) => a - b);
  let xref = "xref\n";
  for (let i = 0; i < numbers.length;) {
    let j = i;
    while (j + 1 < numbers.length && numbers[j + 1] === numbers[j]! + 1) j++;
    xref += `${numbers[i]} ${j - i + 1}\n`;
    for (let k = i; k <= j; k++) xref += `${String(offsets.get(numbers[k]!)).padStart(10, "0")} 00000 n \n`;
    i = j + 1;
  }
  // /Root first: @signpdf's reader takes the text up to the next "/" as its value.
  const trailer = new Map<string, PdfValue>();
  for (const key of ["Root", "Info", "ID"]) {
    const value = options.trailer.get(key);
    if (value) trailer.set(key, value);
  }
  trailer.set("Size", { kind: "number", value: options.size });
  trailer.set("Prev", { kind: "number", value: options.prev });
  xref += `trailer\n${writeValue({ kind: "dict", entries: trailer })}\nstartxref\n${xrefAt}\n%%EOF\n`;
  parts.push(Buffer.from(xref, "latin1"));
  return Buffer.concat(parts);
}
