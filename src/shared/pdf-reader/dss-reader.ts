/**
 * Reads the Document Security Store of a PDF (decision 053): its certificates, revocation lists,
 * OCSP answers and /VRI entries. Pure (bytes, no Buffer): shared by the server's dss.ts and the
 * browser verifier (decision 077).
 */
import { dictOf, objectIn, objectOffsets, PdfStructureError, readRevisions, refsOf } from "./pdf-objects.js";

export interface DssContents {
  /** The /DSS object's number. */
  objectNumber: number;
  certs: { num: number; der: Uint8Array }[];
  crls: { num: number; der: Uint8Array }[];
  ocsps: { num: number; der: Uint8Array }[];
  /** VRI key → the object numbers it names. */
  vri: Map<string, { certs: number[]; crls: number[]; ocsps: number[] }>;
}

/**
 * A stranger's file may name one huge stream thousands of times (decision 049): each stream is read
 * once, however often it is named, and an array or /VRI larger than any real DSS is refused.
 */
export const MAX_DSS_ENTRIES = 5_000;

/** The file's /DSS, or null when it has none. Throws PdfStructureError when the file cannot be followed. */
export function readDss(pdf: Uint8Array): DssContents | null {
  const revisions = readRevisions(pdf);
  const offsets = objectOffsets(revisions);
  const root = revisions.at(-1)!.trailer.get("Root");
  if (root?.kind !== "ref") throw new PdfStructureError("trailer sem /Root");
  const catalog = dictOf(objectIn(pdf, offsets, root.num)?.value);
  const dssRef = catalog?.get("DSS");
  if (!dssRef) return null;
  if (dssRef.kind !== "ref") throw new PdfStructureError("/DSS não é uma referência");
  const dss = dictOf(objectIn(pdf, offsets, dssRef.num)?.value);
  if (!dss) throw new PdfStructureError("/DSS não é um dicionário");
  const bounded = (key: string, nums: number[]) => {
    if (nums.length > MAX_DSS_ENTRIES) throw new PdfStructureError(`/DSS /${key}: mais de ${MAX_DSS_ENTRIES} entradas`);
    return [...new Set(nums)];
  };
  const read = new Map<number, Uint8Array>();
  const streams = (key: string) =>
    bounded(key, refsOf(dss.get(key))).map((num) => {
      let der = read.get(num);
      if (!der) {
        const object = objectIn(pdf, offsets, num);
        if (!object?.stream) throw new PdfStructureError(`/DSS /${key}: o objeto ${num} não é um fluxo`);
        der = object.stream.slice();
        read.set(num, der);
      }
      return { num, der };
    });
  const vri = new Map<string, { certs: number[]; crls: number[]; ocsps: number[] }>();
  const vriEntries = [...(dictOf(dss.get("VRI")) ?? [])];
  if (vriEntries.length > MAX_DSS_ENTRIES)
    throw new PdfStructureError(`/DSS /VRI: mais de ${MAX_DSS_ENTRIES} entradas`);
  for (const [key, value] of vriEntries) {
    const entry = dictOf(value.kind === "ref" ? objectIn(pdf, offsets, value.num)?.value : value);
    if (!entry) continue;
    vri.set(key.toUpperCase(), {
      certs: bounded("VRI /Cert", refsOf(entry.get("Cert"))),
      crls: bounded("VRI /CRL", refsOf(entry.get("CRL"))),
      ocsps: bounded("VRI /OCSP", refsOf(entry.get("OCSP"))),
    });
  }
  return {
    objectNumber: dssRef.num,
    certs: streams("Certs"),
    crls: streams("CRLs"),
    ocsps: streams("OCSPs"),
    vri,
  };
}
