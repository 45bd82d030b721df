/**
 * A local RFC 3161 time-stamp authority for the tests: POST application/timestamp-query →
 * application/timestamp-reply, issuing real tokens — a TSTInfo (our messageImprint and nonce,
 * a random serial, genTime now, accuracy 1 s) in a SignedData signed by a TSA certificate issued
 * by the test AC (tests/fixtures/icp-brasil.ts) with extKeyUsage timeStamping (critical), as
 * RFC 3161 §2.3 and `openssl ts -verify` require. Built with the DER writer of sealing/der.ts.
 *
 * `mode` makes it misbehave the ways a real authority or a proxy can, for the client's tests.
 */
import { createHash, createPrivateKey, randomBytes, sign } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import forge from "node-forge";
import { children, derOf, parseDer } from "../../src/server/services/sealing/cms-reader.js";
import {
  derNull,
  generalizedTime,
  OID,
  octetString,
  oid,
  retag,
  sequence,
  setOf,
  smallInteger,
  TAG,
  tlv,
  unsignedInteger,
  utf8String,
} from "../../src/server/services/sealing/der.js";
import { newKeyPair, type TestCertificate, testPki } from "../fixtures/icp-brasil.js";

/**
 * The policy our fake authority states by default: one under the ICP-Brasil arc of time-stamp
 * policies (2.16.76.1.6, DOC-ICP-04.01), since the fake plays an ACT chained to the test root
 * (decision 078 checks the token's policy before "ACT credenciada").
 */
export const FAKE_TSA_POLICY = "2.16.76.1.6.2";
/** A policy outside that arc, for the tests of an authority that is not an ICP-Brasil ACT. */
export const FOREIGN_TSA_POLICY = "1.3.6.1.4.1.55555.1.1";

export type FakeTsaMode =
  | "ok"
  | "reject"
  | "http-500"
  | "garbage"
  | "wrong-content-type"
  | "wrong-nonce"
  | "wrong-imprint"
  | "bad-signature"
  | "hang";

export interface FakeTsa {
  url: string;
  mode: FakeTsaMode;
  /** The TSA policy OID its tokens state (FAKE_TSA_POLICY unless a test changes it). */
  policy: string;
  /** The authority's certificate and its issuer chain (AC, root), for openssl ts -verify. */
  certificate: TestCertificate;
  chain: TestCertificate[];
  /** Each request body received. */
  requests: Buffer[];
  /** Each Authorization header received (undefined when absent). */
  authorizations: (string | undefined)[];
  /** A new authority certificate (a new key, valid `validDays` from now), as an authority renews its own. */
  renew(validDays: number): TestCertificate;
  close(): Promise<void>;
}

function issueTsaCertificate(issuer: TestCertificate, validDays = 365): TestCertificate {
  const keys = newKeyPair();
  const cert = forge.pki.createCertificate();
  cert.publicKey = keys.publicKey;
  cert.serialNumber = `1${randomBytes(10).toString("hex")}`;
  cert.validity.notBefore = new Date(Date.now() - 24 * 3600_000);
  cert.validity.notAfter = new Date(Date.now() + validDays * 24 * 3600_000);
  cert.setSubject([
    { shortName: "C", value: "BR" },
    { shortName: "O", value: "ICP-Brasil" },
    { shortName: "CN", value: "ACT Teste Consentir" },
  ]);
  cert.setIssuer(issuer.cert.subject.attributes);
  cert.setExtensions([
    { name: "basicConstraints", cA: false, critical: true },
    { name: "keyUsage", digitalSignature: true, nonRepudiation: true, critical: true },
    { name: "extKeyUsage", timeStamping: true, critical: true },
    { name: "subjectKeyIdentifier" },
    { name: "authorityKeyIdentifier", keyIdentifier: issuer.cert.generateSubjectKeyIdentifier().getBytes() },
  ]);
  cert.sign(issuer.forgeKey, forge.md.sha256.create());
  const der = Buffer.from(forge.asn1.toDer(forge.pki.certificateToAsn1(cert)).getBytes(), "binary");
  return { ...keys, cert, der, pem: forge.pki.certificateToPem(cert) };
}

/** IssuerAndSerialNumber of a certificate. */
function issuerAndSerial(certificateDer: Buffer): { issuer: Buffer; serial: Buffer } {
  const tbs = children(children(parseDer(certificateDer))[0]);
  const offset = tbs[0]?.tagClass === forge.asn1.Class.CONTEXT_SPECIFIC ? 1 : 0;
  return { issuer: derOf(tbs[offset + 2]!), serial: derOf(tbs[offset]!) };
}

const attribute = (type: string, value: Buffer) => sequence(oid(type), setOf(value));

interface TokenParts {
  messageImprint: Buffer;
  nonce: Buffer | undefined;
  certReq: boolean;
}

/** TimeStampReq → the parts the token repeats. */
function readRequest(body: Buffer): TokenParts {
  const [, messageImprint, ...rest] = children(parseDer(body));
  const nonce = rest.find((n) => n.tagClass === forge.asn1.Class.UNIVERSAL && n.type === forge.asn1.Type.INTEGER);
  const certReq = rest.find((n) => n.tagClass === forge.asn1.Class.UNIVERSAL && n.type === forge.asn1.Type.BOOLEAN);
  return {
    messageImprint: derOf(messageImprint!),
    nonce: nonce ? derOf(nonce) : undefined,
    certReq: certReq ? String(certReq.value) !== "\x00" : false,
  };
}

/** Like most authorities, the token carries the authority's certificate and its issuing AC (not the root). */
function issueToken(
  tsa: TestCertificate,
  issuingAc: TestCertificate,
  parts: TokenParts,
  mode: FakeTsaMode,
  policy: string,
): Buffer {
  const privateKey = createPrivateKey(tsa.privateKeyPem);
  let imprint = parts.messageImprint;
  if (mode === "wrong-imprint") {
    imprint = Buffer.from(imprint);
    imprint[imprint.length - 1] = imprint[imprint.length - 1]! ^ 0xff;
  }
  const nonce = mode === "wrong-nonce" ? unsignedInteger(randomBytes(8)) : parts.nonce;
  const tstInfo = sequence(
    smallInteger(1),
    oid(policy),
    imprint,
    unsignedInteger(randomBytes(12)),
    generalizedTime(new Date()),
    sequence(smallInteger(1)), // accuracy: 1 second
    ...(nonce ? [nonce] : []),
  );
  const { issuer, serial } = issuerAndSerial(tsa.der);
  const certHash = createHash("sha256").update(tsa.der).digest();
  const signedAttrs = setOf(
    attribute(OID.contentType, oid(OID.tstInfo)),
    attribute(OID.messageDigest, octetString(createHash("sha256").update(tstInfo).digest())),
    attribute(OID.signingCertificateV2, sequence(sequence(sequence(octetString(certHash))))),
  );
  const signature = sign("sha256", signedAttrs, privateKey);
  if (mode === "bad-signature") signature[10] = signature[10]! ^ 0x01;
  const sha256Algorithm = sequence(oid(OID.sha256));
  const signerInfo = sequence(
    smallInteger(1),
    sequence(issuer, serial),
    sha256Algorithm,
    retag(signedAttrs, TAG.CONTEXT_0),
    sequence(oid(OID.sha256WithRSAEncryption), derNull()),
    octetString(signature),
  );
  const signedData = sequence(
    smallInteger(3),
    setOf(sha256Algorithm),
    sequence(oid(OID.tstInfo), tlv(TAG.CONTEXT_0, octetString(tstInfo))),
    ...(parts.certReq ? [tlv(TAG.CONTEXT_0, Buffer.concat([tsa.der, issuingAc.der]))] : []),
    setOf(signerInfo),
  );
  return sequence(oid(OID.signedData), tlv(TAG.CONTEXT_0, signedData));
}

const granted = (token: Buffer) => sequence(sequence(smallInteger(0)), token);
/** PKIStatusInfo { rejection, "pedido recusado", failInfo badAlg } */
const rejection = () =>
  sequence(
    sequence(
      smallInteger(2),
      sequence(utf8String("pedido recusado pelo teste")),
      tlv(TAG.BIT_STRING, Buffer.from([0x07, 0x80])),
    ),
  );

export async function startFakeTsaServer(
  options: { username?: string; password?: string; validDays?: number } = {},
): Promise<FakeTsa> {
  const pki = testPki();
  const certificate = issueTsaCertificate(pki.ac, options.validDays);
  const state: FakeTsa = {
    url: "",
    mode: "ok",
    policy: FAKE_TSA_POLICY,
    certificate,
    chain: [pki.ac, pki.root],
    requests: [],
    authorizations: [],
    renew: (validDays) => {
      state.certificate = issueTsaCertificate(pki.ac, validDays);
      return state.certificate;
    },
    close: async () => {},
  };
  const expectedAuth = options.username
    ? `Basic ${Buffer.from(`${options.username}:${options.password ?? ""}`).toString("base64")}`
    : undefined;

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const body = Buffer.concat(chunks);
      state.requests.push(body);
      state.authorizations.push(req.headers.authorization);
      const reply = (status: number, contentType: string, bytes: Buffer) => {
        res.writeHead(status, { "content-type": contentType });
        res.end(bytes);
      };
      if (state.mode === "hang") return; // never answers: the client's timeout must fire
      if (req.method !== "POST" || req.headers["content-type"] !== "application/timestamp-query")
        return reply(400, "text/plain", Buffer.from("bad request"));
      if (expectedAuth && req.headers.authorization !== expectedAuth)
        return reply(401, "text/plain", Buffer.from("unauthorized"));
      if (state.mode === "http-500") return reply(500, "text/plain", Buffer.from("erro interno"));
      if (state.mode === "garbage") return reply(200, "application/timestamp-reply", randomBytes(64));
      if (state.mode === "wrong-content-type") return reply(200, "text/html", Buffer.from("<html>proxy</html>"));
      if (state.mode === "reject") return reply(200, "application/timestamp-reply", rejection());
      try {
        reply(
          200,
          "application/timestamp-reply",
          granted(issueToken(state.certificate, pki.ac, readRequest(body), state.mode, state.policy)),
        );
      } catch {
        reply(200, "application/timestamp-reply", sequence(sequence(smallInteger(2))));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  state.url = `http://127.0.0.1:${port}/tsa`;
  state.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return state;
}
