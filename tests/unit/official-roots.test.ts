import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  officialRootOf,
  officialRootsFromEnv,
  OfficialRootsError,
  parseOfficialRoots,
} from "../../src/server/services/certificates/official-roots.js";
import { issueCertificate, testPki } from "../fixtures/icp-brasil.js";

const pki = testPki();
/** A self-signed root with exactly the test root's name, and a key of its own. */
const lookAlike = issueCertificate({
  subject: pki.root.cert.subject.attributes.map((attr) => ({ shortName: attr.shortName!, value: String(attr.value) })),
  ca: true,
  notBefore: new Date(Date.now() - 24 * 3600_000),
  notAfter: new Date(Date.now() + 365 * 24 * 3600_000),
});

describe("official ICP-Brasil roots (ICP_BRASIL_ROOTS_FILE, decision 041)", () => {
  it("reads the roots of a PEM bundle and finds the root a chain ends at", () => {
    const roots = parseOfficialRoots(`comentário do operador\n${pki.root.pem}\n`);
    expect([...roots.byFingerprint.values()]).toEqual(["Autoridade Certificadora Raiz de Teste v1"]);
    // By DER (the seal material's chain: AC, root) and by fingerprint (the stored chain_fingerprints).
    expect(officialRootOf([pki.ac.der, pki.root.der], roots)).toBe("Autoridade Certificadora Raiz de Teste v1");
    const [fingerprint] = roots.byFingerprint.keys();
    expect(officialRootOf(["a".repeat(64), fingerprint!.toUpperCase()], roots)).toBe(
      "Autoridade Certificadora Raiz de Teste v1",
    );
  });

  it("does not take a look-alike root with the same name, nor a chain that stops below a root", () => {
    const roots = parseOfficialRoots(pki.root.pem);
    expect(officialRootOf([pki.ac.der, lookAlike.der], roots)).toBeNull();
    expect(officialRootOf([pki.ecpf.der, pki.ac.der], roots)).toBeNull();
    expect(officialRootOf([], roots)).toBeNull();
    expect(officialRootOf([pki.root.der], null)).toBeNull();
  });

  it("refuses a file with no certificate, an unreadable one, or one that is not a root", () => {
    expect(() => parseOfficialRoots("nada aqui")).toThrow(OfficialRootsError);
    expect(() => parseOfficialRoots("-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----")).toThrow(
      /não é um certificado X.509 legível/,
    );
    expect(() => parseOfficialRoots(pki.ac.pem)).toThrow(/“AC Teste Consentir v1” não é um certificado raiz/);
  });

  it("reads ICP_BRASIL_ROOTS_FILE once; a missing file is named", () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "consentir-roots-"));
    const file = path.join(dir, "raizes.pem");
    writeFileSync(file, pki.root.pem);
    expect(officialRootsFromEnv({})).toBeNull();
    const first = officialRootsFromEnv({ ICP_BRASIL_ROOTS_FILE: file });
    expect(first?.byFingerprint.size).toBe(1);
    expect(officialRootsFromEnv({ ICP_BRASIL_ROOTS_FILE: file })).toBe(first);
    expect(() => officialRootsFromEnv({ ICP_BRASIL_ROOTS_FILE: path.join(dir, "nao-existe.pem") })).toThrow(
      /ICP_BRASIL_ROOTS_FILE: não consegui ler o arquivo/,
    );
  });
});
