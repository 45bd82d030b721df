/**
 * Outbound requests to addresses taken from certificates or configuration refuse this machine and
 * private networks, at every redirect hop (decision 053), unless the operator allows it.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeCrl, revocationPki } from "../../../tests/fixtures/crl.js";
import { startCrlServer, type CrlServer } from "../../../tests/fakes/crl-server.js";
import { startFakeTsaServer, type FakeTsa } from "../../../tests/fakes/tsa-server.js";
import { CrlFetchError, httpCrlSource } from "../services/certificates/revocation/crl-source.js";
import { requestTimestamp, TsaRefusedError } from "../services/timestamping/tsa-client.js";
import { checkOutboundUrl, isPrivateAddress, OutboundAddressError } from "./outbound-address.js";
import { createHash } from "node:crypto";

let server: CrlServer;
let tsa: FakeTsa;
beforeAll(async () => {
  server = await startCrlServer();
  tsa = await startFakeTsaServer();
  const pki = revocationPki(server.base, { cpf: "52998224725", cnpj: "11222333000181" });
  server.publish("/ac.crl", await makeCrl({ issuer: pki.ac }));
});
afterAll(async () => {
  await server?.close();
  await tsa?.close();
});

/** A name that resolves to a public address, served by the local repository (the network edge). */
const PUBLIC = "lcr.autoridade.example";
const resolve = async (host: string) => (host === PUBLIC ? ["200.160.2.3"] : ["127.0.0.1"]);
const toLocal: typeof fetch = (input, init) => fetch(String(input).replace(`http://${PUBLIC}`, server.base), init);

describe("isPrivateAddress", () => {
  it("refuses loopback, link-local, private, CGNAT, multicast, IPv6 local and IPv4-mapped; accepts public", () => {
    for (const address of [
      "127.0.0.1",
      "127.8.9.10",
      "10.1.2.3",
      "172.16.0.1",
      "172.31.255.255",
      "192.168.1.1",
      "169.254.169.254",
      "100.64.0.1",
      "0.0.0.0",
      "224.0.0.1",
      "::1",
      "::",
      "fe80::1",
      "fd00::1",
      "::ffff:127.0.0.1",
      "::ffff:10.0.0.1",
      "não é ip",
    ])
      expect(isPrivateAddress(address), address).toBe(true);
    for (const address of ["200.160.2.3", "8.8.8.8", "172.32.0.1", "2001:4860:4860::8888", "::ffff:200.160.2.3"])
      expect(isPrivateAddress(address), address).toBe(false);
  });

  it("checks what a name resolves to, and only http(s)", async () => {
    await expect(checkOutboundUrl(new URL("http://localhost/x.crl"))).rejects.toBeInstanceOf(OutboundAddressError);
    await expect(checkOutboundUrl(new URL("http://[::1]/x.crl"))).rejects.toThrow(/rede privada/);
    await expect(checkOutboundUrl(new URL("file:///etc/passwd"))).rejects.toThrow(/não é http/);
    await expect(checkOutboundUrl(new URL(`http://${PUBLIC}/ac.crl`), { resolve })).resolves.toBeUndefined();
    await expect(
      checkOutboundUrl(new URL("http://127.0.0.1/x.crl"), { allowPrivateNetwork: true }),
    ).resolves.toBeUndefined();
  });
});

describe("revocation lists", () => {
  it("a list on this machine is not fetched without the operator's allowance; with it, it is", async () => {
    const refused = httpCrlSource({ timeoutMs: 2000 });
    const error = await refused(`${server.base}/ac.crl`).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CrlFetchError);
    expect((error as Error).message).toMatch(
      /não foi buscada: o endereço 127\.0\.0\.1 é desta máquina ou de uma rede privada/,
    );
    expect(server.hits("/ac.crl")).toBe(0);
    const allowed = httpCrlSource({ timeoutMs: 2000, allowPrivateNetwork: true });
    await expect(allowed(`${server.base}/ac.crl`)).resolves.toBeDefined();
  });

  it("a redirect from a public address to a private one is not followed", async () => {
    server.redirect("/para-metadados.crl", "http://169.254.169.254/latest/meta-data/");
    server.redirect("/para-local.crl", `${server.base}/ac.crl`);
    const source = httpCrlSource({ timeoutMs: 2000, fetch: toLocal, resolve });
    for (const path of ["/para-metadados.crl", "/para-local.crl"]) {
      const before = server.hits("/ac.crl");
      const error = await source(`http://${PUBLIC}${path}`).catch((e: unknown) => e);
      expect(error, path).toBeInstanceOf(CrlFetchError);
      expect((error as Error).message).toMatch(/rede privada/);
      expect(server.hits(path)).toBe(1);
      expect(server.hits("/ac.crl")).toBe(before);
    }
    // With the allowance, the redirect is followed to the list.
    const allowed = httpCrlSource({ timeoutMs: 2000, allowPrivateNetwork: true });
    await expect(allowed(`${server.base}/para-local.crl`)).resolves.toBeDefined();
  });
});

describe("time-stamp authority", () => {
  it("on this machine is not called without the allowance (not retryable: it is the configuration)", async () => {
    const hash = createHash("sha256").update("x").digest();
    const error = await requestTimestamp(hash, { urls: [tsa.url] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TsaRefusedError);
    expect(error).toMatchObject({ retryable: false });
    expect((error as Error).message).toMatch(/não foi chamada: o endereço 127\.0\.0\.1/);
    expect(tsa.requests).toHaveLength(0);
    await expect(requestTimestamp(hash, { urls: [tsa.url], allowPrivateNetwork: true })).resolves.toMatchObject({
      messageImprint: { hash },
    });
  });
});
