/**
 * What the PDF worker threads do (decision 012): draw a document (src/pdf) and, for the final
 * PDF, seal it (src/server/services/sealing). Tasks cross the thread boundary by structured
 * clone, so they carry only plain data: Dates, strings, Uint8Arrays — never a Buffer method, a
 * KeyObject or a function. {@link runPdfTask} runs in a worker (pdf-worker.ts) and, for callers
 * without a pool (unit tests, scripts), in the calling thread (inline-renderer.ts).
 */
import { createPrivateKey } from "node:crypto";
import type { DocumentPdfInput } from "../../pdf/document-pdf.js";
import { renderDocumentPdf } from "../../pdf/document-pdf.js";
import type { SealMaterial } from "../services/sealing/seal-certificate.js";
import { type SealOptions, sealPdf } from "../services/sealing/seal-pdf.js";
import type { PdfSignatureCheck } from "../services/sealing/verify-pdf-signature.js";
import type { SignedPdfReport, VerifySignedPdfOptions } from "../services/sealing/verify-signed-pdf.js";

/** A seal as plain data: the PKCS#8 key and the certificate as bytes. */
export interface SealKey {
  privateKeyPkcs8: Uint8Array;
  certificateDer: Uint8Array;
  /** Issuers (AC … root) for an ICP-Brasil certificate; none for the self-signed instance seal. */
  chainDer?: Uint8Array[];
  commonName: string;
  subject: string;
  fingerprintSha256: string;
  notAfter: Date;
}

/** One PAdES signature to apply, in order (the professional's, then the seal). */
export interface PdfSignatureTask {
  seal: SealKey;
  options: SealOptions;
}

export type PdfTask =
  | { kind: "render"; input: DocumentPdfInput }
  | { kind: "render-and-sign"; input: DocumentPdfInput; signatures: PdfSignatureTask[] };

/**
 * Checking a PDF someone sent (/verificar, decision 049): its seal and the evidence it carries.
 * Parsing a stranger's file runs in a thread, under the task timeout, never on the event loop.
 */
export interface PdfVerifyTask {
  kind: "verify";
  pdf: Uint8Array;
  options: VerifySignedPdfOptions;
}

export interface PdfVerification {
  report: SignedPdfReport;
  signature: PdfSignatureCheck;
}

/**
 * Loaded when the first verification comes (the evidence code needs canonicalize, an ES-only
 * package the thread's loader cannot require while it starts; render-only threads never load it).
 */
export async function runVerifyTask(task: PdfVerifyTask): Promise<PdfVerification> {
  const { verifyPdfBytes } = await import("./pdf-verify.js");
  return verifyPdfBytes(asBuffer(task.pdf), task.options);
}

const sealKeys = new WeakMap<SealMaterial, SealKey>();

/** The seal as plain data (exported once per unlocked seal). */
export function sealKeyOf(material: SealMaterial): SealKey {
  let key = sealKeys.get(material);
  if (!key) {
    key = {
      privateKeyPkcs8: new Uint8Array(material.privateKey.export({ type: "pkcs8", format: "der" })),
      certificateDer: new Uint8Array(material.certificateDer),
      ...(material.chainDer ? { chainDer: material.chainDer.map((der) => new Uint8Array(der)) } : {}),
      commonName: material.commonName,
      subject: material.subject,
      fingerprintSha256: material.fingerprintSha256,
      notAfter: material.notAfter,
    };
    sealKeys.set(material, key);
  }
  return key;
}

/** Per thread: the seal rebuilt from its key, by fingerprint (the signer caches per material). */
const materials = new Map<string, SealMaterial>();

function materialOf(key: SealKey): SealMaterial {
  const cached = materials.get(key.fingerprintSha256);
  if (cached) return cached;
  const material: SealMaterial = {
    privateKey: createPrivateKey({ key: asBuffer(key.privateKeyPkcs8), format: "der", type: "pkcs8" }),
    certificateDer: asBuffer(key.certificateDer),
    ...(key.chainDer ? { chainDer: key.chainDer.map(asBuffer) } : {}),
    commonName: key.commonName,
    subject: key.subject,
    fingerprintSha256: key.fingerprintSha256,
    notAfter: key.notAfter,
  };
  if (materials.size >= 8) materials.clear();
  materials.set(key.fingerprintSha256, material);
  return material;
}

/** A Buffer over the same bytes (structured clone turns a Buffer into a plain Uint8Array). */
export function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** The input as the renderer expects it after a structured clone (signature PNGs as Buffers). */
function revive(input: DocumentPdfInput): DocumentPdfInput {
  if (!input.signatures) return input;
  return {
    ...input,
    signatures: input.signatures.map((s) => ({ ...s, imagePng: s.imagePng ? asBuffer(s.imagePng) : null })),
  };
}

/** The input ready to be cloned: signature PNGs copied to exact-size arrays (no pooled slabs). */
export function cloneableInput(input: DocumentPdfInput): DocumentPdfInput {
  if (!input.signatures) return input;
  return {
    ...input,
    signatures: input.signatures.map((s) => ({
      ...s,
      imagePng: s.imagePng ? (new Uint8Array(s.imagePng) as Buffer) : null,
    })),
  };
}

export async function runPdfTask(task: PdfTask): Promise<Buffer> {
  let pdf = await renderDocumentPdf(revive(task.input));
  if (task.kind === "render") return pdf;
  // Each signature is an incremental update over the previous revision: earlier bytes never change.
  for (const signature of task.signatures) pdf = await sealPdf(pdf, materialOf(signature.seal), signature.options);
  return pdf;
}
