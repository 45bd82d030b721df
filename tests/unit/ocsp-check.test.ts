/**
 * OCSP before the list (decision 082), against a local responder: a checked "good" answer is the
 * holder's revocation answer and is kept for the DSS; "revoked" refuses; anything the server cannot
 * trust — another key, a responder without id-kp-OCSPSigning, another certificate's answer, stale,
 * "unknown", an error status, garbage, a hang — falls back to the list, and says why when that fails too.
 */
import * as pkijs from "pkijs";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { checkRevocation } from "../../src/server/services/certificates/revocation/crl-check.js";
import { httpCrlSource, type CrlSource } from "../../src/server/services/certificates/revocation/crl-source.js";
import { httpOcspSource, type OcspSource } from "../../src/server/services/certificates/revocation/ocsp-source.js";
import { revocationText } from "../../src/shared/evidence/revocation.js";
import {
  makeCrl,
  makeOcspResponse,
  ocspResponder,
  ocspResponderCertificate,
  revocationPki,
  type RevocationPki,
} from "../fixtures/crl.js";
import { issueCertificate } from "../fixtures/icp-brasil.js";
import { startCrlServer, type CrlServer } from "../fakes/crl-server.js";

let server: CrlServer;
let pki: RevocationPki;
let chain: Buffer[];
let crl: CrlSource;
let ocsp: OcspSource;
const HOUR = 3_600_000;

const check = async () => {
  const crls: Buffer[] = [];
  const ocsps: Buffer[] = [];
  const result = await checkRevocation(chain, crl, new Date(), { crls, ocsps, ocsp });
  return { result, crls, ocsps };
};

beforeAll(async () => {
  server = await startCrlServer();
  pki = revocationPki(server.base, { cpf: "52998224725", cnpj: "11222333000181", ocsp: true });
  chain = [pki.ecnpj.der, pki.ac.der, pki.root.der];
}, 60_000);
afterAll(async () => server?.close());
beforeEach(async () => {
  crl = httpCrlSource({ allowPrivateNetwork: true, timeoutMs: 2_000, cacheMs: 60_000, failureCacheMs: 60_000 });
  ocsp = httpOcspSource({ allowPrivateNetwork: true, timeoutMs: 1_000, cacheMs: 60_000, failureCacheMs: 60_000 });
  server.publish("/ac.crl", await makeCrl({ issuer: pki.ac }));
  server.publish("/raiz.crl", await makeCrl({ issuer: pki.root }));
  server.respond("/ocsp", ocspResponder({ issuer: pki.ac }));
});

describe("OCSP", () => {
  it("good: the holder's answer comes from the responder and is kept; the AC's from its list", async () => {
    const before = server.hits("/ac.crl");
    const { result, crls, ocsps } = await check();
    expect(result.status).toBe("nao_revogado");
    if (result.status !== "nao_revogado") throw new Error(result.status);
    expect(result.listas.map((l) => [l.url, l.fonte ?? "lcr"])).toEqual([
      [`${server.base}/ocsp`, "ocsp"],
      [`${server.base}/raiz.crl`, "lcr"],
    ]);
    expect(server.hits("/ac.crl")).toBe(before);
    expect(ocsps).toHaveLength(1);
    expect(crls).toHaveLength(1);
    expect(revocationText(result)).toMatch(
      /^não revogado segundo as listas de revogação \(LCR\) e respostas OCSP da cadeia, consultadas pelo servidor em .*; a resposta OCSP sobre o titular foi emitida em /,
    );
    // A second check within the answer's validity asks nobody.
    const hits = server.hits("/ocsp");
    await check();
    expect(server.hits("/ocsp")).toBe(hits);
  });

  it("revoked by the responder: refused with its date and reason, said to be from OCSP", async () => {
    const at = new Date(Date.now() - 2 * HOUR);
    server.respond("/ocsp", ocspResponder({ issuer: pki.ac, revoked: [{ certificate: pki.ecnpj, at, reason: 1 }] }));
    const { result } = await check();
    expect(result).toMatchObject({
      status: "revogado",
      certificado: "CLINICA TESTE LTDA:11222333000181",
      revogadoEm: expect.any(String),
      motivo: "comprometimento da chave",
      lista: `${server.base}/ocsp`,
      fonte: "ocsp",
    });
    if (result.status !== "revogado") throw new Error(result.status);
    expect(Math.abs(new Date(result.revogadoEm).getTime() - at.getTime())).toBeLessThan(1_000);
    expect(revocationText(result)).toContain("segundo o OCSP consultado pelo servidor");
  });

  it("a delegated responder with id-kp-OCSPSigning is taken", async () => {
    server.respond("/ocsp", ocspResponder({ issuer: pki.ac, signer: ocspResponderCertificate(pki.ac) }));
    const { result, ocsps } = await check();
    expect(result.status).toBe("nao_revogado");
    expect(ocsps).toHaveLength(1);
  });

  const untrusted: [string, () => void][] = [
    [
      "signed by a key that is not the authority's",
      () => {
        const stranger = issueCertificate({ subject: [{ shortName: "CN", value: "AC Teste LCR v1" }], ca: true });
        server.respond("/ocsp", ocspResponder({ issuer: pki.ac, signer: stranger }));
      },
    ],
    [
      "signed by a certificate of the authority without id-kp-OCSPSigning",
      () => server.respond("/ocsp", ocspResponder({ issuer: pki.ac, signer: ocspResponderCertificate(pki.ac, false) })),
    ],
    [
      "past its next update",
      () =>
        server.respond(
          "/ocsp",
          ocspResponder({
            issuer: pki.ac,
            nextUpdate: new Date(Date.now() - HOUR),
            thisUpdate: new Date(Date.now() - 2 * HOUR),
          }),
        ),
    ],
    [
      "issued in the future",
      () => server.respond("/ocsp", ocspResponder({ issuer: pki.ac, thisUpdate: new Date(Date.now() + 2 * HOUR) })),
    ],
    ["unknown to the responder", () => server.respond("/ocsp", ocspResponder({ issuer: pki.ac, status: "unknown" }))],
    ["an error status", () => server.respond("/ocsp", ocspResponder({ issuer: pki.ac, responseStatus: 2 }))],
    ["garbage", () => server.respond("/ocsp", async () => Buffer.from("não é OCSP"))],
    [
      "about another certificate of the same authority",
      () =>
        server.respond("/ocsp", async () => {
          const other = new pkijs.CertID();
          await other.createForCertificate(pkijs.Certificate.fromBER(new Uint8Array(pki.ecpf.der)), {
            hashAlgorithm: "SHA-1",
            issuerCertificate: pkijs.Certificate.fromBER(new Uint8Array(pki.ac.der)),
          });
          return makeOcspResponse([other], { issuer: pki.ac });
        }),
    ],
    ["HTTP 500", () => server.fail("/ocsp", 500)],
    ["no answer in time", () => server.fail("/ocsp", "hang")],
  ];
  it.each(untrusted)("%s: the list answers instead, and nothing of the responder is kept", async (_, arrange) => {
    arrange();
    const { result, crls, ocsps } = await check();
    expect(result.status).toBe("nao_revogado");
    if (result.status !== "nao_revogado") throw new Error(result.status);
    expect(result.listas[0]).toMatchObject({ url: `${server.base}/ac.crl` });
    expect(result.listas[0]!.fonte).toBeUndefined();
    expect(ocsps).toEqual([]);
    expect(crls).toHaveLength(2);
  });

  it("responder and list both fail: unavailable, with both reasons in Portuguese", async () => {
    server.fail("/ocsp", 500);
    server.fail("/ac.crl", 503);
    const { result } = await check();
    expect(result).toMatchObject({
      status: "indisponivel",
      motivo: `o OCSP em ${server.base}/ocsp respondeu HTTP 500; a lista de revogação em ${server.base}/ac.crl respondeu HTTP 503`,
    });
  });

  it("a responder on a private address is not asked unless the operator allows it", async () => {
    const strict = httpOcspSource({ timeoutMs: 1_000 });
    const hits = server.hits("/ocsp");
    const result = await checkRevocation(chain, crl, new Date(), { ocsp: strict });
    expect(server.hits("/ocsp")).toBe(hits);
    expect(result.status).toBe("nao_revogado");
  });
});
