/**
 * The RFC 3161 client against the local authority (tests/fakes/tsa-server.ts): good tokens are
 * accepted and OpenSSL agrees they are good; every way a reply can be wrong is a typed error;
 * an unreachable or silent authority fails fast. Then a timestamped AD-RT signature end to end.
 */
import { createHash, randomBytes } from "node:crypto";
import { createServer } from "node:net";
import { plainAddPlaceholder } from "@signpdf/placeholder-plain";
import { SignPdf } from "@signpdf/signpdf";
import { SUBFILTER_ETSI_CADES_DETACHED } from "@signpdf/utils";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { renderDocumentPdf } from "../../../pdf/document-pdf.js";
import { sampleDocumentInput } from "../../../../tests/unit/pdf/fixtures.js";
import { testPki } from "../../../../tests/fixtures/icp-brasil.js";
import { type FakeTsa, FAKE_TSA_POLICY, startFakeTsaServer } from "../../../../tests/fakes/tsa-server.js";
import { materialOf, run, scratchDir, signatureAt, writeScratch } from "../../../../tests/helpers/pdf-signatures.js";
import { CadesSigner } from "../sealing/cades-signer.js";
import { PADES_AD_RT_V1_3, policyForSigning } from "../sealing/icp-brasil-policies.js";
import { sealPdf } from "../sealing/seal-pdf.js";
import { checkAllPdfSignatures } from "../sealing/verify-pdf-signature.js";
import {
  checkReply,
  requestTimestamp,
  timeStampRequest,
  TsaBadResponseError,
  TsaRefusedError,
  TsaUnreachableError,
  tsaConfigFromEnv,
} from "./tsa-client.js";

const pki = testPki();
const professional = materialOf(pki.ecpf, [pki.ac, pki.root]);
const sha256 = (bytes: Buffer | string) => createHash("sha256").update(bytes).digest();

let tsa: FakeTsa;
let pemFiles: { root: string; untrusted: string };

beforeAll(async () => {
  tsa = await startFakeTsaServer();
  const dir = scratchDir();
  pemFiles = {
    root: writeScratch(dir, "raiz.pem", pki.root.pem),
    untrusted: writeScratch(dir, "act-e-ac.pem", tsa.certificate.pem + pki.ac.pem),
  };
});
afterAll(() => tsa.close());

/** A TCP port nobody listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe("requestTimestamp", () => {
  it("gets a token over our hash with our nonce, signed by the authority's certificate inside it", async () => {
    tsa.mode = "ok";
    const hash = sha256("assinatura");
    const before = Date.now();
    const result = await requestTimestamp(hash, { urls: [tsa.url], allowPrivateNetwork: true });
    expect(result.messageImprint.hash.equals(hash)).toBe(true);
    expect(result.signatureValid).toBe(true);
    expect(result.policyOid).toBe(FAKE_TSA_POLICY);
    expect(result.genTime.getTime()).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000);
    expect(result.genTime.getTime()).toBeLessThanOrEqual(Date.now() + 1000);
    expect(result.tsaCertificateDer!.equals(tsa.certificate.der)).toBe(true);
    // The request as sent: TimeStampReq v1, SHA-256, a 64-bit nonce, certReq true.
    const sent = run("openssl", [
      "ts",
      "-query",
      "-in",
      writeScratch(scratchDir(), "pedido.tsq", tsa.requests.at(-1)!),
      "-text",
    ]).output;
    expect(sent).toContain("Version: 1");
    expect(sent).toContain("Hash Algorithm: sha256");
    expect(sent).toContain("Certificate required: yes");
    expect(sent).toMatch(/Nonce: 0x[0-9A-F]+/);
  });

  it("its replies pass `openssl ts -verify` against the request, the test root and the ACT certificate", async () => {
    tsa.mode = "ok";
    const hash = sha256("conteúdo");
    const nonce = randomBytes(8);
    const query = timeStampRequest(hash, nonce);
    const response = await fetch(tsa.url, {
      method: "POST",
      headers: { "content-type": "application/timestamp-query" },
      body: new Uint8Array(query),
    });
    expect(response.headers.get("content-type")).toBe("application/timestamp-reply");
    const reply = Buffer.from(await response.arrayBuffer());
    expect(checkReply(reply, hash, nonce).signatureValid).toBe(true);
    const dir = scratchDir();
    const verified = run("openssl", [
      "ts",
      "-verify",
      "-in",
      writeScratch(dir, "resposta.tsr", reply),
      "-queryfile",
      writeScratch(dir, "pedido.tsq", query),
      "-CAfile",
      pemFiles.root,
      "-untrusted",
      pemFiles.untrusted,
    ]);
    expect(verified.output).toContain("Verification: OK");
    // And OpenSSL rejects it for another request (the check can fail).
    const other = run("openssl", [
      "ts",
      "-verify",
      "-in",
      writeScratch(dir, "resposta.tsr", reply),
      "-queryfile",
      writeScratch(dir, "outro.tsq", timeStampRequest(sha256("outro"), nonce)),
      "-CAfile",
      pemFiles.root,
      "-untrusted",
      pemFiles.untrusted,
    ]);
    expect(other.output).not.toContain("Verification: OK");
  });

  it("sends HTTP basic credentials when configured; without them the authority refuses (401, not retryable)", async () => {
    const guarded = await startFakeTsaServer({ username: "consentir", password: "s3nha" });
    try {
      const ok = await requestTimestamp(sha256("x"), {
        urls: [guarded.url],
        allowPrivateNetwork: true,
        username: "consentir",
        password: "s3nha",
      });
      expect(ok.signatureValid).toBe(true);
      expect(guarded.authorizations.at(-1)).toBe(`Basic ${Buffer.from("consentir:s3nha").toString("base64")}`);
      const refused = await requestTimestamp(sha256("x"), { urls: [guarded.url], allowPrivateNetwork: true }).catch(
        (e: unknown) => e,
      );
      expect(refused).toBeInstanceOf(TsaRefusedError);
      expect(refused).toMatchObject({ kind: "refused", httpStatus: 401, retryable: false });
    } finally {
      await guarded.close();
    }
  });

  it.each([
    ["reject", TsaRefusedError, /recusou o pedido \(rejection: pedido recusado pelo teste\)/],
    ["http-500", TsaRefusedError, /HTTP 500/],
    ["garbage", TsaBadResponseError, /ilegível/],
    ["wrong-content-type", TsaBadResponseError, /tipo inesperado: text\/html/],
    ["wrong-nonce", TsaBadResponseError, /nonce/],
    ["wrong-imprint", TsaBadResponseError, /não é sobre o resumo enviado/],
    ["bad-signature", TsaBadResponseError, /assinatura do carimbo/],
  ] as const)("mode %s → %s", async (mode, type, message) => {
    tsa.mode = mode;
    try {
      const error = await requestTimestamp(sha256("x"), { urls: [tsa.url], allowPrivateNetwork: true }).catch(
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(type);
      expect((error as Error).message).toMatch(message);
    } finally {
      tsa.mode = "ok";
    }
  });

  it("an unreachable authority, or one that never answers, is a TsaUnreachableError within the timeout", async () => {
    let started = Date.now();
    const refused = await requestTimestamp(sha256("x"), {
      urls: [`http://127.0.0.1:${await closedPort()}/tsa`],
      timeoutMs: 2000,
      allowPrivateNetwork: true,
    }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(TsaUnreachableError);
    expect(refused).toMatchObject({ kind: "unreachable", retryable: true });
    expect(Date.now() - started).toBeLessThan(1500);

    tsa.mode = "hang";
    try {
      started = Date.now();
      const silent = await requestTimestamp(sha256("x"), {
        urls: [tsa.url],
        allowPrivateNetwork: true,
        timeoutMs: 300,
      }).catch((e: unknown) => e);
      expect(silent).toBeInstanceOf(TsaUnreachableError);
      expect((silent as Error).message).toContain("não respondeu a tempo");
      expect(Date.now() - started).toBeLessThan(1500);
    } finally {
      tsa.mode = "ok";
    }
  });

  it("reads its configuration from the environment", () => {
    expect(tsaConfigFromEnv({})).toBeUndefined();
    expect(
      tsaConfigFromEnv({
        TSA_URL: "https://act.exemplo/tsa",
        TSA_USERNAME: "u",
        TSA_PASSWORD: "p",
        TSA_TIMEOUT_MS: 5000,
      }),
    ).toEqual({
      urls: ["https://act.exemplo/tsa"],
      username: "u",
      password: "p",
      timeoutMs: 5000,
    });
    expect(tsaConfigFromEnv({ TSA_URL: "https://a.exemplo/tsa, https://b.exemplo/tsa" })?.urls).toEqual([
      "https://a.exemplo/tsa",
      "https://b.exemplo/tsa",
    ]);
    expect(tsaConfigFromEnv({ TSA_URL: "none" })).toBeUndefined();
  });

  it("fails over: an authority that is down or answers garbage gives way to the next one in the list", async () => {
    const second = await startFakeTsaServer();
    try {
      tsa.mode = "garbage";
      const hash = sha256("failover");
      const result = await requestTimestamp(hash, {
        urls: [`http://127.0.0.1:${await closedPort()}/tsa`, tsa.url, second.url],
        allowPrivateNetwork: true,
        timeoutMs: 2000,
      });
      expect(result.signatureValid).toBe(true);
      expect(result.messageImprint.hash.equals(hash)).toBe(true);
      // The token is the last authority's: only it was asked a good question and answered it.
      expect(result.tsaCertificateDer?.equals(second.certificate.der)).toBe(true);
      expect(second.requests).toHaveLength(1);
    } finally {
      tsa.mode = "ok";
      await second.close();
    }
  });

  it("takes tokens only from the accepted authority certificates, when they are named", async () => {
    const other = await startFakeTsaServer();
    try {
      const accepted = [createHash("sha256").update(tsa.certificate.der).digest("hex")];
      const refused = await requestTimestamp(sha256("x"), {
        urls: [other.url],
        allowPrivateNetwork: true,
        acceptedCertificates: accepted,
      }).catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(TsaBadResponseError);
      expect((refused as Error).message).toContain("não foi assinado pelo certificado da autoridade conferida");
      // The other one first, the accepted one next: the accepted one's token is kept.
      const kept = await requestTimestamp(sha256("x"), {
        urls: [other.url, tsa.url],
        allowPrivateNetwork: true,
        acceptedCertificates: accepted,
      });
      expect(kept.tsaCertificateDer?.equals(tsa.certificate.der)).toBe(true);
    } finally {
      await other.close();
    }
  });

  it("when every authority fails, the error is retryable if any failure was", async () => {
    const guarded = await startFakeTsaServer({ username: "consentir", password: "s3nha" });
    try {
      const onlyRefused = await requestTimestamp(sha256("x"), { urls: [guarded.url], allowPrivateNetwork: true }).catch(
        (e: unknown) => e,
      );
      expect(onlyRefused).toMatchObject({ retryable: false });
      const mixed = await requestTimestamp(sha256("x"), {
        urls: [`http://127.0.0.1:${await closedPort()}/tsa`, guarded.url],
        allowPrivateNetwork: true,
        timeoutMs: 2000,
      }).catch((e: unknown) => e);
      expect(mixed).toBeInstanceOf(TsaUnreachableError);
      expect(mixed).toMatchObject({ retryable: true });
      expect((mixed as Error).message).toContain("nenhuma das 2 autoridades deu o carimbo");
    } finally {
      await guarded.close();
    }
  });
});

describe("a time-stamped AD-RT signature", () => {
  it("carries the token as the unsigned signatureTimeStampToken over the signature value; openssl, pdfsig and our verifier agree", async () => {
    tsa.mode = "ok";
    const policy = policyForSigning(PADES_AD_RT_V1_3);
    const before = Date.now();
    const signed = await sealPdf(await renderDocumentPdf(sampleDocumentInput()), professional, {
      policy,
      timestamp: { urls: [tsa.url], allowPrivateNetwork: true },
    });

    const [info] = checkAllPdfSignatures(signed).signatures;
    expect(info).toMatchObject({
      valid: true,
      policyOid: PADES_AD_RT_V1_3.oid,
      hasSigningTime: false,
      timestamp: { valid: true, policyOid: FAKE_TSA_POLICY, tsaCommonName: "ACT Teste Consentir" },
    });
    expect(info!.timestamp!.genTime!.getTime()).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000);

    const dir = scratchDir();
    const { cms } = signatureAt(signed, 0);
    const printed = run("openssl", [
      "cms",
      "-cmsout",
      "-print",
      "-inform",
      "DER",
      "-in",
      writeScratch(dir, "assinatura.p7s", cms),
    ]).output;
    const unsigned = printed.slice(printed.indexOf("unsignedAttrs:"));
    expect(unsigned).toContain("id-smime-aa-timeStampToken (1.2.840.113549.1.9.16.2.14)");
    expect(printed).not.toContain("unsignedAttrs:\n          <ABSENT>");

    // The token alone, checked by OpenSSL against the SHA-256 of the signature value.
    const signatureValue = signatureValueOf(printed);
    const token = tokenOf(cms);
    const verified = run("openssl", [
      "ts",
      "-verify",
      "-token_in",
      "-in",
      writeScratch(dir, "carimbo.der", token),
      "-digest",
      sha256(signatureValue).toString("hex"),
      "-CAfile",
      pemFiles.root,
      "-untrusted",
      pemFiles.untrusted,
    ]);
    expect(verified.output).toContain("Verification: OK");

    const report = run("pdfsig", [writeScratch(dir, "carimbado.pdf", signed)]).output;
    expect(report).toContain("Signature Validation: Signature is Valid.");
  });

  it("a token over something else is reported as not about this signature", async () => {
    tsa.mode = "ok";
    const wrongToken = async () =>
      (await requestTimestamp(sha256("outra coisa"), { urls: [tsa.url], allowPrivateNetwork: true })).tokenDer;
    const withPlaceholder = plainAddPlaceholder({
      pdfBuffer: await renderDocumentPdf(sampleDocumentInput()),
      reason: "teste",
      contactInfo: "teste",
      name: "teste",
      location: "teste",
      signatureLength: 16384,
      subFilter: SUBFILTER_ETSI_CADES_DETACHED,
    });
    const signed = await new SignPdf().sign(withPlaceholder, new CadesSigner(professional, { timestamp: wrongToken }));
    const [info] = checkAllPdfSignatures(signed).signatures;
    expect(info).toMatchObject({
      valid: true,
      timestamp: { valid: false, reason: "o carimbo do tempo não é sobre esta assinatura" },
    });
  });

  it("an unreachable authority makes sealPdf fail with the typed error (the job retries), never a signature without its token", async () => {
    const error = await sealPdf(await renderDocumentPdf(sampleDocumentInput()), professional, {
      policy: policyForSigning(PADES_AD_RT_V1_3),
      timestamp: { urls: [`http://127.0.0.1:${await closedPort()}/tsa`], timeoutMs: 1000, allowPrivateNetwork: true },
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TsaUnreachableError);
  });
});

/** The SignerInfo's signature value from `openssl cms -print` (hex dump lines "0000 - …"). */
function signatureValueOf(printed: string): Buffer {
  const signerInfos = printed.slice(printed.indexOf("signerInfos:"));
  const block = signerInfos.slice(signerInfos.indexOf("      signature: "), signerInfos.indexOf("unsignedAttrs:"));
  const hex = [...block.matchAll(/^\s+[0-9a-f]{4} - ((?:[0-9a-f]{2}[ -]?)+)/gm)]
    .map((m) => m[1]!.replace(/[ -]/g, ""))
    .join("");
  return Buffer.from(hex, "hex");
}

/** The signatureTimeStampToken's DER: the ContentInfo inside the unsigned attribute. */
function tokenOf(cms: Buffer): Buffer {
  const marker = Buffer.from("060b2a864886f70d010910020e", "hex"); // OID 1.2.840.113549.1.9.16.2.14
  const at = cms.indexOf(marker);
  const set = at + marker.length; // SET OF { token }
  const lengthByte = cms[set + 1]!;
  const tokenAt = set + 2 + (lengthByte & 0x80 ? lengthByte & 0x7f : 0);
  const tokenLengthByte = cms[tokenAt + 1]!;
  const n = tokenLengthByte & 0x80 ? tokenLengthByte & 0x7f : 0;
  const length = n ? cms.subarray(tokenAt + 2, tokenAt + 2 + n).readUIntBE(0, n) : tokenLengthByte;
  return cms.subarray(tokenAt, tokenAt + 2 + n + length);
}
