/**
 * The revocation check against a local list repository (decision 048): every link of the chain
 * but the root, lists signed by the right key, in date, the serial looked up; the HTTP source's
 * cache, timeouts and size limit.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { checkRevocation } from "../../src/server/services/certificates/revocation/crl-check.js";
import { httpCrlSource, type CrlSource } from "../../src/server/services/certificates/revocation/crl-source.js";
import { makeCrl, revocationPki, type RevocationPki } from "../fixtures/crl.js";
import { issueCertificate } from "../fixtures/icp-brasil.js";
import { startCrlServer, type CrlServer } from "../fakes/crl-server.js";

let server: CrlServer;
let pki: RevocationPki;
let chain: Buffer[];
let source: CrlSource;
const HOUR = 3_600_000;

beforeAll(async () => {
  server = await startCrlServer();
  pki = revocationPki(server.base, { cpf: "52998224725", cnpj: "11222333000181" });
  chain = [pki.ecnpj.der, pki.ac.der, pki.root.der];
}, 60_000);
afterAll(async () => server?.close());
beforeEach(async () => {
  // A fresh cache each test; both lists published, nothing revoked.
  source = httpCrlSource({ allowPrivateNetwork: true, timeoutMs: 2_000, cacheMs: 60_000, failureCacheMs: 60_000 });
  server.publish("/ac.crl", await makeCrl({ issuer: pki.ac }));
  server.publish("/raiz.crl", await makeCrl({ issuer: pki.root }));
});

describe("checkRevocation", () => {
  it("not revoked: both links looked up, the holder's list first", async () => {
    const now = new Date();
    const result = await checkRevocation(chain, source, now);
    expect(result).toMatchObject({ status: "nao_revogado", consultadoEm: now.toISOString() });
    if (result.status !== "nao_revogado") throw new Error(result.status);
    expect(result.listas.map((l) => [l.url, l.certificado])).toEqual([
      [`${server.base}/ac.crl`, "CLINICA TESTE LTDA:11222333000181"],
      [`${server.base}/raiz.crl`, "AC Teste LCR v1"],
    ]);
  });

  it("revoked holder, with the date and the reason", async () => {
    const at = new Date(Date.now() - 2 * HOUR);
    server.publish("/ac.crl", await makeCrl({ issuer: pki.ac, revoked: [{ certificate: pki.ecnpj, at, reason: 1 }] }));
    const result = await checkRevocation(chain, source);
    expect(result).toMatchObject({
      status: "revogado",
      certificado: "CLINICA TESTE LTDA:11222333000181",
      revogadoEm: new Date(Math.floor(at.getTime() / 1000) * 1000).toISOString(),
      motivo: "comprometimento da chave",
      lista: `${server.base}/ac.crl`,
    });
  });

  it("a revoked AC revokes what it issued; a lifted suspension (removeFromCRL) does not count", async () => {
    server.publish(
      "/raiz.crl",
      await makeCrl({ issuer: pki.root, revoked: [{ certificate: pki.ac, at: new Date(Date.now() - HOUR) }] }),
    );
    expect(await checkRevocation(chain, source)).toMatchObject({
      status: "revogado",
      certificado: "AC Teste LCR v1",
      motivo: null,
    });

    const fresh = httpCrlSource({ allowPrivateNetwork: true, timeoutMs: 2_000 });
    server.publish("/raiz.crl", await makeCrl({ issuer: pki.root }));
    server.publish(
      "/ac.crl",
      await makeCrl({
        issuer: pki.ac,
        revoked: [{ certificate: pki.ecnpj, at: new Date(Date.now() - HOUR), reason: 8 }],
      }),
    );
    expect((await checkRevocation(chain, fresh)).status).toBe("nao_revogado");
  });

  it("refuses a list signed by another key, of another issuer, stale, or from the future", async () => {
    const stranger = issueCertificate({ subject: [{ shortName: "CN", value: "Intruso" }], ca: true });
    const cases: [string, Buffer, RegExp][] = [
      [
        "forged",
        await makeCrl({ issuer: pki.ac, signer: stranger }),
        /assinatura da lista de revogação .* não confere/,
      ],
      ["other issuer", await makeCrl({ issuer: stranger }), /não é da autoridade que emitiu/],
      [
        "stale",
        await makeCrl({
          issuer: pki.ac,
          thisUpdate: new Date(Date.now() - 48 * HOUR),
          nextUpdate: new Date(Date.now() - HOUR),
        }),
        /está vencida/,
      ],
      [
        "future",
        await makeCrl({ issuer: pki.ac, thisUpdate: new Date(Date.now() + 2 * HOUR) }),
        /data de emissão no futuro/,
      ],
    ];
    for (const [name, der, why] of cases) {
      server.publish("/ac.crl", der);
      const result = await checkRevocation(chain, httpCrlSource({ allowPrivateNetwork: true, timeoutMs: 2_000 }));
      expect(result.status, name).toBe("indisponivel");
      expect(result.status === "indisponivel" && result.motivo, name).toMatch(why);
    }
  });

  it("unavailable when the repository errs, hangs past the timeout, or sends what is not a list", async () => {
    server.fail("/ac.crl", 503);
    expect(await checkRevocation(chain, source)).toMatchObject({
      status: "indisponivel",
      motivo: expect.stringMatching(/respondeu HTTP 503/),
    });

    server.fail("/ac.crl", "hang");
    const started = Date.now();
    const hanging = await checkRevocation(chain, httpCrlSource({ allowPrivateNetwork: true, timeoutMs: 300 }));
    expect(hanging).toMatchObject({ status: "indisponivel", motivo: expect.stringMatching(/não respondeu/) });
    expect(Date.now() - started).toBeLessThan(2_000);

    server.publish("/ac.crl", Buffer.from("<html>não é uma LCR</html>"));
    expect(await checkRevocation(chain, httpCrlSource({ allowPrivateNetwork: true, timeoutMs: 2_000 }))).toMatchObject({
      status: "indisponivel",
      motivo: expect.stringMatching(/não devolveu uma lista de revogação legível/),
    });
  });

  it("refuses a list larger than the limit", async () => {
    const big = httpCrlSource({ allowPrivateNetwork: true, timeoutMs: 2_000, maxBytes: 100 });
    expect(await checkRevocation(chain, big)).toMatchObject({
      status: "indisponivel",
      motivo: expect.stringMatching(/grande demais/),
    });
  });

  it("a certificate that names no list is unavailable, not good", async () => {
    const bare = issueCertificate({ subject: [{ shortName: "CN", value: "Sem LCR" }], issuer: pki.ac });
    expect(await checkRevocation([bare.der, pki.ac.der, pki.root.der], source)).toMatchObject({
      status: "indisponivel",
      motivo: "o certificado “Sem LCR” não indica onde está sua lista de revogação",
    });
  });
});

describe("httpCrlSource", () => {
  it("reads each list once while it is fresh, and remembers a failure for a while", async () => {
    const before = server.hits("/ac.crl");
    await Promise.all([checkRevocation(chain, source), checkRevocation(chain, source), checkRevocation(chain, source)]);
    await checkRevocation(chain, source);
    expect(server.hits("/ac.crl") - before).toBe(1);

    let clock = Date.now();
    const failing = httpCrlSource({
      allowPrivateNetwork: true,
      timeoutMs: 2_000,
      failureCacheMs: 60_000,
      clock: () => clock,
    });
    server.fail("/ac.crl", 500);
    const failedAt = server.hits("/ac.crl");
    await checkRevocation(chain, failing);
    await checkRevocation(chain, failing);
    expect(server.hits("/ac.crl") - failedAt).toBe(1);
    clock += 61_000;
    server.publish("/ac.crl", await makeCrl({ issuer: pki.ac }));
    expect((await checkRevocation(chain, failing)).status).toBe("nao_revogado");
  });
});
