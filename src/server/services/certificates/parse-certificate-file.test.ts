import forge from "node-forge";
import { describe, expect, it } from "vitest";
import { issueEndEntity, newKeyPair, testPki, toPfx } from "../../../../tests/fixtures/icp-brasil.js";
import {
  docxRenamed,
  ecPfx,
  ecpfWithStringType,
  opensslRepack,
  selfSignedOutsideIcp,
} from "../../../../tests/fixtures/icp-brasil-variants.js";
import { CertificateRefusal, type RefusalReason } from "./certificate-refusal.js";
import { withKdfBudget } from "./kdf-budget.js";
import { openPkcs12 } from "./open-pkcs12.js";
import { parseCertificateFile } from "./parse-certificate-file.js";

const pki = testPki();
const DAY = 86_400_000;

function refusal(run: () => unknown): { reason: RefusalReason; message: string } {
  try {
    run();
  } catch (error) {
    if (error instanceof CertificateRefusal) return { reason: error.reason, message: error.message };
    throw error;
  }
  throw new Error("expected a refusal");
}

describe("parseCertificateFile: what an ICP-Brasil A1 says", () => {
  it("reads an e-CPF (AES-256 PKCS#12): names, serial, validity, key usage, CPF, ICP-Brasil", () => {
    const parsed = parseCertificateFile(pki.ecpf.pfx, pki.ecpf.password);
    expect(parsed).toMatchObject({
      commonName: `MARIA DA SILVA TESTE:${pki.cpf}`,
      issuerCommonName: "AC Teste Consentir v1",
      holderKind: "e-CPF",
      cpf: pki.cpf,
      cnpj: null,
      icpBrasil: true,
      keyUsage: ["digitalSignature", "nonRepudiation", "keyEncipherment"],
      policies: ["2.16.76.1.2.1.999"],
      email: "maria@consentir.test",
    });
    expect(parsed.subject).toMatch(/^CN=MARIA DA SILVA TESTE:52998224725, OU=.*, O=ICP-Brasil, C=BR$/);
    expect(parsed.serialNumber).toBe(pki.ecpf.cert.serialNumber.toUpperCase());
    expect(Math.floor(parsed.notAfter.getTime() / 1000)).toBe(
      Math.floor(pki.ecpf.cert.validity.notAfter.getTime() / 1000),
    );
    expect(parsed.chainFingerprints).toHaveLength(3);
    expect(parsed.fingerprintSha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it("opens the legacy 3DES files OpenSSL 3 refuses", () => {
    expect(parseCertificateFile(pki.ecpf.pfx3des, pki.ecpf.password).cpf).toBe(pki.cpf);
  });

  it("reads an e-CNPJ: CNPJ (2.16.76.1.3.3), responsible's name (3.2) and CPF (3.4)", () => {
    expect(parseCertificateFile(pki.ecnpj.pfx, pki.ecnpj.password)).toMatchObject({
      holderKind: "e-CNPJ",
      cnpj: pki.cnpj,
      cpf: pki.cpf,
      responsibleName: "MARIA DA SILVA TESTE",
      icpBrasil: true,
    });
  });

  it("accepts otherName values as PrintableString and UTF8String too", () => {
    for (const type of ["printable", "utf8"] as const) {
      const entity = ecpfWithStringType(pki, type);
      expect(parseCertificateFile(entity.pfx, entity.password), type).toMatchObject({
        holderKind: "e-CPF",
        cpf: pki.cpf,
      });
    }
  });

  it("does not call ICP-Brasil a certificate whose chain does not reach an ICP-Brasil root", () => {
    const outside = selfSignedOutsideIcp();
    expect(parseCertificateFile(outside.pfx, outside.password)).toMatchObject({
      icpBrasil: false,
      holderKind: "outro",
      cpf: null,
    });
    // The holder alone (no AC, no root in the file) cannot show where it comes from either.
    const alone = toPfx(pki.ecpf.forgeKey, [pki.ecpf], pki.ecpf.password);
    expect(parseCertificateFile(alone, pki.ecpf.password)).toMatchObject({ icpBrasil: false, holderKind: "e-CPF" });
  });

  it("opens a file made by OpenSSL with an accented password (PBES2 takes it as UTF-8)", () => {
    const password = "ação-çãõ-senha";
    const repacked = opensslRepack(pki.ecpf, password);
    if (!repacked) return; // no openssl CLI here
    expect(parseCertificateFile(repacked, password).cpf).toBe(pki.cpf);
  });
});

describe("parseCertificateFile: refusals, each with its reason and a pt-BR message", () => {
  it("refuses a file that is not PKCS#12 (a .docx renamed .pfx, random bytes, empty)", () => {
    expect(refusal(() => parseCertificateFile(docxRenamed(), "x"))).toEqual({
      reason: "not_pkcs12",
      message: "O arquivo não é um certificado digital PKCS#12 (.pfx ou .p12) válido.",
    });
    expect(refusal(() => parseCertificateFile(Buffer.from([0x30, 0x82, 0xff, 0xff, 1, 2, 3]), "x")).reason).toBe(
      "not_pkcs12",
    );
    expect(refusal(() => parseCertificateFile(Buffer.alloc(0), "x")).reason).toBe("not_pkcs12");
    expect(
      refusal(() => parseCertificateFile(Buffer.concat([pki.ecpf.pfx, Buffer.from("lixo")]), pki.ecpf.password)).reason,
    ).toBe("not_pkcs12");
  });

  it("refuses a wrong password, for AES and 3DES files", () => {
    for (const file of [pki.ecpf.pfx, pki.ecpf.pfx3des]) {
      expect(refusal(() => parseCertificateFile(file, "senha-errada"))).toEqual({
        reason: "wrong_password",
        message: "Senha do certificado incorreta.",
      });
    }
  });

  it("refuses a file without a private key, and a key without its certificate", () => {
    const noKey = toPfx(null, pki.ecpf.chain, "s3nha");
    expect(refusal(() => parseCertificateFile(noKey, "s3nha")).reason).toBe("no_private_key");
    const otherKey = newKeyPair();
    const mismatch = toPfx(otherKey.forgeKey, pki.ecpf.chain, "s3nha");
    expect(refusal(() => parseCertificateFile(mismatch, "s3nha"))).toEqual({
      reason: "key_mismatch",
      message: "A chave privada do arquivo não corresponde a nenhum dos certificados dele.",
    });
  });

  it("refuses expired and not-yet-valid certificates, with the date", () => {
    const expired = issueEndEntity(pki, {
      name: "VENCIDO TESTE",
      kind: "PF",
      cpf: pki.cpf,
      notBefore: new Date(Date.now() - 400 * DAY),
      notAfter: new Date(Date.now() - DAY),
    });
    const expiredRefusal = refusal(() => parseCertificateFile(expired.pfx, expired.password));
    expect(expiredRefusal.reason).toBe("expired");
    expect(expiredRefusal.message).toMatch(/^O certificado venceu em \d{2}\/\d{2}\/\d{4}\./);
    const future = issueEndEntity(pki, {
      name: "FUTURO TESTE",
      kind: "PF",
      cpf: pki.cpf,
      notBefore: new Date(Date.now() + 10 * DAY),
      notAfter: new Date(Date.now() + 400 * DAY),
    });
    expect(refusal(() => parseCertificateFile(future.pfx, future.password)).reason).toBe("not_yet_valid");
  });

  it("refuses a certificate whose key usage cannot sign", () => {
    const encryptOnly = issueEndEntity(pki, {
      name: "CIFRA TESTE",
      kind: "PF",
      cpf: pki.cpf,
      keyUsage: { keyEncipherment: true },
    });
    expect(refusal(() => parseCertificateFile(encryptOnly.pfx, encryptOnly.password)).reason).toBe("no_signing_usage");
    const nonRepudiationOnly = issueEndEntity(pki, {
      name: "NR TESTE",
      kind: "PF",
      cpf: pki.cpf,
      keyUsage: { nonRepudiation: true },
    });
    expect(parseCertificateFile(nonRepudiationOnly.pfx, nonRepudiationOnly.password).keyUsage).toEqual([
      "nonRepudiation",
    ]);
  });

  it("refuses a non-RSA key", () => {
    const ec = ecPfx("senha-ec");
    if (!ec) return; // no openssl CLI here
    expect(refusal(() => parseCertificateFile(ec, "senha-ec")).reason).toMatch(/unsupported_key|unsupported_algorithm/);
  });

  it("refuses a short RSA key", () => {
    const weak = issueEndEntity(pki, { name: "FRACA TESTE", kind: "PF", cpf: pki.cpf });
    const keys = newKeyPair(1024);
    const cert = forge.pki.createCertificate();
    cert.publicKey = keys.publicKey;
    cert.serialNumber = "0badc0de";
    cert.validity.notBefore = new Date(Date.now() - DAY);
    cert.validity.notAfter = new Date(Date.now() + DAY * 100);
    cert.setSubject(weak.cert.subject.attributes);
    cert.setIssuer(pki.ac.cert.subject.attributes);
    cert.sign(pki.ac.forgeKey, forge.md.sha256.create());
    const file = Buffer.from(
      forge.asn1.toDer(forge.pkcs12.toPkcs12Asn1(keys.forgeKey, [cert], "s", { algorithm: "aes256" })).getBytes(),
      "binary",
    );
    expect(refusal(() => parseCertificateFile(file, "s")).reason).toBe("weak_key");
  });

  it("stops a file that asks for too many key-derivation iterations, and puts forge back", () => {
    const original = forge.pkcs5.pbkdf2;
    expect(refusal(() => withKdfBudget(() => openPkcs12(pki.ecpf.pfx, pki.ecpf.password), 1000)).reason).toBe(
      "too_costly",
    );
    expect(forge.pkcs5.pbkdf2).toBe(original);
    // The MAC's iteration count raised to 2^31 − 1 (the MAC is derived first: it never runs).
    const pfx = forge.asn1.fromDer(forge.util.createBuffer(pki.ecpf.pfx.toString("binary")));
    const macData = (pfx.value as forge.asn1.Asn1[])[2]!;
    (macData.value as forge.asn1.Asn1[])[2]!.value = forge.util.hexToBytes("7fffffff");
    const costly = Buffer.from(forge.asn1.toDer(pfx).getBytes(), "binary");
    const started = Date.now();
    expect(refusal(() => parseCertificateFile(costly, "s")).reason).toBe("too_costly");
    expect(Date.now() - started).toBeLessThan(5000);
  });
});
