import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  FAKE_TSA_POLICY,
  FOREIGN_TSA_POLICY,
  type FakeTsa,
  startFakeTsaServer,
} from "../../../../tests/fakes/tsa-server.js";
import { issueCertificate, testPki } from "../../../../tests/fixtures/icp-brasil.js";
import { parseOfficialRoots } from "../certificates/official-roots.js";
import { checkTsaAccreditation, forgetTsaAccreditations, tsaAccreditations } from "./tsa-accreditation.js";
import { requestTimestamp, TsaBadResponseError } from "./tsa-client.js";
import { isIcpBrasilTsaPolicy } from "./tsa-policy.js";

let tsa: FakeTsa;
const pki = testPki();
const officialRoots = parseOfficialRoots(pki.root.pem);
const otherRoot = issueCertificate({
  subject: [
    { shortName: "C", value: "BR" },
    { shortName: "CN", value: "Outra Raiz Qualquer" },
  ],
  ca: true,
  keyUsage: { keyCertSign: true, cRLSign: true },
});
const config = { allowPrivateNetwork: true, timeoutMs: 3000 };

beforeAll(async () => {
  tsa = await startFakeTsaServer();
});
afterAll(async () => {
  await tsa?.close();
});

describe("is the time-stamp authority an ICP-Brasil ACT? (checked, decision 060)", () => {
  it("yes when its certificate chains, through the AC the token carries, to an official root", async () => {
    const result = await checkTsaAccreditation(tsa.url, config, officialRoots);
    expect(result).toMatchObject({
      accredited: true,
      authority: "ACT Teste Consentir",
      root: "Autoridade Certificadora Raiz de Teste v1",
      reason: null,
    });
    expect(result.certificateSha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it("no when the chain ends at a root that is not among the official ones, or none were given", async () => {
    const elsewhere = await checkTsaAccreditation(tsa.url, config, parseOfficialRoots(otherRoot.pem));
    expect(elsewhere).toMatchObject({ accredited: false, authority: "ACT Teste Consentir", root: null });
    expect(elsewhere.reason).toContain("não chega, válida, a uma raiz oficial");
    const without = await checkTsaAccreditation(tsa.url, config, null);
    expect(without).toMatchObject({ accredited: false, authority: null });
    expect(without.reason).toContain("raízes oficiais da ICP-Brasil não foram dadas");
  });

  it("no when the token states a policy that is not an ICP-Brasil time-stamp policy, even with the chain (decision 078)", async () => {
    tsa.policy = FOREIGN_TSA_POLICY;
    try {
      const result = await checkTsaAccreditation(tsa.url, config, officialRoots);
      expect(result).toMatchObject({ accredited: false, authority: "ACT Teste Consentir", root: null });
      expect(result.reason).toContain(`o carimbo declara a política ${FOREIGN_TSA_POLICY}`);
      expect(result.reason).toContain("não é uma política de carimbo do tempo da ICP-Brasil");
      // And a seal's token under another policy is refused when an ICP-Brasil one is required.
      const hash = Buffer.alloc(32, 7);
      await expect(
        requestTimestamp(hash, { urls: [tsa.url], ...config, requireIcpBrasilPolicy: true }),
      ).rejects.toThrow(TsaBadResponseError);
      expect((await requestTimestamp(hash, { urls: [tsa.url], ...config })).policyOid).toBe(FOREIGN_TSA_POLICY);
    } finally {
      tsa.policy = FAKE_TSA_POLICY;
    }
    expect((await checkTsaAccreditation(tsa.url, config, officialRoots)).accredited).toBe(true);
  });

  it("knows the ICP-Brasil arc of time-stamp policies (2.16.76.1.6)", () => {
    expect(isIcpBrasilTsaPolicy("2.16.76.1.6.2")).toBe(true);
    expect(isIcpBrasilTsaPolicy("2.16.76.1.6.6")).toBe(true);
    for (const other of ["2.16.76.1.6", "2.16.76.1.60.1", "2.16.76.1.7.1.12.1.3", "1.3.6.1.4.1.55555.1.1", "", null])
      expect(isIcpBrasilTsaPolicy(other), String(other)).toBe(false);
  });

  it("no when the chain is checked at a time its certificates are not valid", async () => {
    const later = new Date(Date.now() + 50 * 365 * 24 * 3600_000);
    const result = await checkTsaAccreditation(tsa.url, config, officialRoots, later);
    expect(result.accredited).toBe(false);
  });

  it("no, with the reason, when the authority gives no good token; only definite answers are kept", async () => {
    forgetTsaAccreditations();
    tsa.mode = "garbage";
    try {
      const [failed] = await tsaAccreditations({ urls: [tsa.url], ...config }, officialRoots);
      expect(failed).toMatchObject({ accredited: false, authority: null });
      expect(failed!.reason).toContain("a autoridade não deu um carimbo válido");
    } finally {
      tsa.mode = "ok";
    }
    const before = tsa.requests.length;
    const [checked] = await tsaAccreditations({ urls: [tsa.url], ...config }, officialRoots);
    expect(checked!.accredited).toBe(true);
    expect(tsa.requests.length).toBe(before + 1);
    // Kept for an hour: the next sealing asks nothing.
    await tsaAccreditations({ urls: [tsa.url], ...config }, officialRoots);
    expect(tsa.requests.length).toBe(before + 1);
  });
});
