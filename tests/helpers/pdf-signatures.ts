/**
 * Helpers for the signature tests: SealMaterial from the ICP-Brasil test PKI, the CMS of the
 * n-th signature of a PDF (trimmed of its zero padding, for openssl), and running the outside
 * checkers (pdfsig, openssl, qpdf) in a scratch directory.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { createPrivateKey } from "node:crypto";
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { certificateNames, type SealMaterial } from "../../src/server/services/sealing/seal-certificate.js";
import type { EndEntity, TestCertificate } from "../fixtures/icp-brasil.js";

/** An A1 as the certificates service will hand it to the signer: key, holder, chain. */
export function materialOf(holder: EndEntity, chain: TestCertificate[]): SealMaterial {
  return {
    privateKey: createPrivateKey(holder.privateKeyPem),
    certificateDer: holder.der,
    chainDer: chain.map((c) => c.der),
    ...certificateNames(holder.der),
    fingerprintSha256: "",
    notAfter: holder.cert.validity.notAfter,
  };
}

const BYTE_RANGE = /\/ByteRange\s*\[\s*(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s*\]/g;

/** The n-th signature's byte ranges, signed bytes and CMS (DER, without /Contents' zero padding). */
export function signatureAt(pdf: Buffer, index: number): { range: number[]; signed: Buffer; cms: Buffer } {
  const match = [...pdf.toString("latin1").matchAll(BYTE_RANGE)][index];
  if (!match) throw new Error(`sem a assinatura ${index}`);
  const [a, b, c, d] = match.slice(1, 5).map(Number) as [number, number, number, number];
  const padded = Buffer.from(pdf.subarray(b + 1, c - 1).toString("latin1"), "hex");
  // Outer SEQUENCE length: keep exactly the DER.
  const lengthByte = padded[1]!;
  const headerLength = lengthByte & 0x80 ? 2 + (lengthByte & 0x7f) : 2;
  const bodyLength = lengthByte & 0x80 ? padded.subarray(2, headerLength).readUIntBE(0, lengthByte & 0x7f) : lengthByte;
  return {
    range: [a, b, c, d],
    signed: Buffer.concat([pdf.subarray(a, a + b), pdf.subarray(c, c + d)]),
    cms: padded.subarray(0, headerLength + bodyLength),
  };
}

export function scratchDir(): string {
  return mkdtempSync(path.join(os.tmpdir(), "consentir-sig-"));
}

export function writeScratch(dir: string, name: string, bytes: Buffer | string): string {
  const file = path.join(dir, name);
  writeFileSync(file, bytes);
  return file;
}

/** stdout + stderr and the exit status (pdfsig exits non-zero for an untrusted issuer). */
export function run(command: string, args: string[]): { status: number | null; output: string } {
  const result = spawnSync(command, args, { encoding: "utf8" });
  return { status: result.status, output: `${result.stdout ?? ""}${result.stderr ?? ""}` };
}

export function hasTool(command: string): boolean {
  try {
    execFileSync("which", [command], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}
