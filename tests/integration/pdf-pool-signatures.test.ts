/**
 * The PDF pool applies several PAdES signatures in one task: a professional's
 * ICP-Brasil A1 with its chain and the AD-RB policy, then a seal over it — the chain and the
 * policy survive the trip to the worker thread (structured clone), and both signatures verify.
 */
import { afterAll, describe, expect, it } from "vitest";
import { createPdfPool } from "../../src/server/pdf-pool/pdf-pool.js";
import { PADES_AD_RB_V1_3, policyForSigning } from "../../src/server/services/sealing/icp-brasil-policies.js";
import { generateSealCertificate } from "../../src/server/services/sealing/seal-certificate.js";
import { checkAllPdfSignatures } from "../../src/server/services/sealing/verify-pdf-signature.js";
import { testPki } from "../fixtures/icp-brasil.js";
import { materialOf } from "../helpers/pdf-signatures.js";
import { sampleDocumentInput } from "../unit/pdf/fixtures.js";

const pool = createPdfPool({ threads: 1 });
afterAll(async () => {
  await pool.close();
});

describe("renderAndSign", () => {
  it("signs with the professional's chain and policy, then seals; both verify", async () => {
    const pki = testPki();
    const professional = materialOf(pki.ecpf, [pki.ac, pki.root]);
    const seal = generateSealCertificate().material;
    const pdf = await pool.renderAndSign(sampleDocumentInput(), [
      {
        material: professional,
        options: { policy: policyForSigning(PADES_AD_RB_V1_3), reason: "Declaração do profissional" },
      },
      { material: seal, options: {} },
    ]);
    const report = checkAllPdfSignatures(pdf);
    expect(report.valid).toBe(true);
    expect(report.signatures).toHaveLength(2);
    const [first, last] = report.signatures;
    expect(first).toMatchObject({
      valid: true,
      coversWholeFile: false,
      endsAtEof: true,
      policyOid: PADES_AD_RB_V1_3.oid,
      hasSigningTime: false,
    });
    expect(first!.chainDer.map((der) => der.toString("hex"))).toEqual(
      expect.arrayContaining([pki.ac.der.toString("hex"), pki.root.der.toString("hex")]),
    );
    expect(first!.signerCommonName).toBe("MARIA DA SILVA TESTE:52998224725");
    expect(last).toMatchObject({ valid: true, coversWholeFile: true, signerCommonName: seal.commonName });
  });
});
