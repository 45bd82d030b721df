/**
 * Long-term validation (decision 053) checked with outside tools: after the DSS update pdfsig still
 * finds every signature valid and qpdf finds the file sound; the DSS parsed back holds the chains
 * and the very lists the local CRL repository served, with a /VRI per signature; the document
 * time-stamp is accepted by `openssl ts -verify` over its byte range; anything else appended after
 * the seal is reported as an update after the seal.
 */
import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { renderDocumentPdf } from "../../../pdf/document-pdf.js";
import { sampleDocumentInput } from "../../../../tests/unit/pdf/fixtures.js";
import { makeCrl, revocationPki, type RevocationPki } from "../../../../tests/fixtures/crl.js";
import { startCrlServer, type CrlServer } from "../../../../tests/fakes/crl-server.js";
import { startFakeTsaServer, type FakeTsa } from "../../../../tests/fakes/tsa-server.js";
import { materialOf, run, scratchDir, signatureAt, writeScratch } from "../../../../tests/helpers/pdf-signatures.js";
import { checkRevocation } from "../certificates/revocation/crl-check.js";
import { httpCrlSource } from "../certificates/revocation/crl-source.js";
import { checkAfterSeal, UPDATE_AFTER_SEAL } from "./after-seal.js";
import { appendDss, appendUpdate, MAX_DSS_ENTRIES, readDss, signatureBytes } from "./dss.js";
import { addLongTermValidation } from "./long-term-validation.js";
import { dictOf, objectIn, objectOffsets, type PdfValue, readRevisions, writeValue } from "./pdf-objects.js";
import { generateSealCertificate, type SealMaterial } from "./seal-certificate.js";
import { sealPdf } from "./seal-pdf.js";
import { checkAllPdfSignatures, checkPdfSignature } from "./verify-pdf-signature.js";
import { verifySignedPdf } from "./verify-signed-pdf.js";

let server: CrlServer;
let tsa: FakeTsa;
let pki: RevocationPki;
let professional: SealMaterial;
const instance = generateSealCertificate().material;
const lists: Buffer[] = [];
let signed: Buffer;

beforeAll(async () => {
  server = await startCrlServer();
  tsa = await startFakeTsaServer();
  pki = revocationPki(server.base, { cpf: "52998224725", cnpj: "11222333000181" });
  server.publish("/raiz.crl", await makeCrl({ issuer: pki.root }));
  server.publish("/ac.crl", await makeCrl({ issuer: pki.ac }));
  professional = materialOf(pki.ecpf, [pki.ac, pki.root]);
  // What final-signers.ts does before sealing: read the chain's lists, and keep them.
  const answer = await checkRevocation(
    [pki.ecpf.der, pki.ac.der, pki.root.der],
    httpCrlSource({ allowPrivateNetwork: true, timeoutMs: 5000 }),
    new Date(),
    { crls: lists },
  );
  expect(answer.status).toBe("nao_revogado");
  const pdf = await renderDocumentPdf(sampleDocumentInput());
  signed = await sealPdf(
    await sealPdf(pdf, professional, { timestamp: { urls: [tsa.url], allowPrivateNetwork: true } }),
    instance,
  );
}, 60_000);
afterAll(async () => {
  await server?.close();
  await tsa?.close();
});

const material = () => ({ certificates: [professional.certificateDer, ...professional.chainDer!], crls: lists });
const sha1Hex = (bytes: Buffer) => createHash("sha1").update(bytes).digest("hex").toUpperCase();

describe("DSS (PAdES B-LT)", () => {
  it("keeps every earlier byte; pdfsig finds both signatures valid and qpdf finds the file sound", async () => {
    const lt = await addLongTermValidation(signed, { material: material() });
    expect(lt.subarray(0, signed.length).equals(signed)).toBe(true);
    const dir = scratchDir();
    const file = writeScratch(dir, "lt.pdf", lt);
    const pdfsig = run("pdfsig", [file]).output;
    expect(pdfsig.match(/Signature Validation: Signature is Valid\./g)).toHaveLength(2);
    const qpdf = run("qpdf", ["--check", file]);
    expect(qpdf.output).toContain("No syntax or stream encoding errors found");
    expect(qpdf.status).toBe(0);
    expect(checkAllPdfSignatures(lt)).toMatchObject({ valid: true, afterSeal: { ok: true } });
    expect(checkPdfSignature(lt)).toMatchObject({ valid: true });
  });

  it("holds the chains, the lists the repository served and a /VRI per signature (SHA-1 of /Contents)", async () => {
    const lt = await addLongTermValidation(signed, { material: material() });
    const dss = readDss(lt)!;
    const certs = dss.certs.map((c) => c.der);
    for (const der of [pki.ecpf.der, pki.ac.der, pki.root.der, instance.certificateDer, tsa.certificate.der])
      expect(certs.some((c) => c.equals(der))).toBe(true);
    expect(new Set(certs.map((c) => c.toString("hex"))).size).toBe(certs.length);
    // The bytes the repository served, not a re-encoding.
    expect(dss.crls.map((c) => c.der.toString("hex")).sort()).toEqual(lists.map((l) => l.toString("hex")).sort());
    expect(lists).toHaveLength(2);

    const [first, second] = signatureBytes(lt);
    const contents = (index: number) => {
      const [, b, c] = signatureAt(lt, index).range;
      return Buffer.from(lt.subarray(b! + 1, c! - 1).toString("latin1"), "hex");
    };
    expect(first!.vriKey).toBe(sha1Hex(contents(0)));
    const professionalVri = dss.vri.get(sha1Hex(contents(0)))!;
    const numOf = (der: Buffer) => dss.certs.find((c) => c.der.equals(der))!.num;
    expect(professionalVri.certs).toEqual(expect.arrayContaining([pki.ecpf.der, pki.ac.der, pki.root.der].map(numOf)));
    // The time-stamp authority of the professional's signature is in its entry too.
    expect(professionalVri.certs).toContain(numOf(tsa.certificate.der));
    expect(professionalVri.crls).toHaveLength(2);
    const sealVri = dss.vri.get(second!.vriKey)!;
    expect(sealVri.certs).toEqual([numOf(instance.certificateDer)]);
    expect(sealVri.crls).toEqual([]);

    const report = verifySignedPdf(lt);
    expect(report.dss).toEqual({ certificados: certs.length, lcr: 2, ocsp: 0, assinaturas_com_vri: [1, 2] });
    expect(report.linhas.map((l) => l.text)).toContain(
      `Dados de validação de longo prazo (DSS) no arquivo: ${certs.length} certificado(s), 2 lista(s) de revogação (LCR); entradas VRI para as assinaturas 1, 2.`,
    );
  });
});

describe("document time-stamp (PAdES B-LTA)", () => {
  it("openssl ts -verify accepts the token over its byte range; the DSS then names the authority", async () => {
    const lta = await addLongTermValidation(signed, {
      material: material(),
      timestamp: { urls: [tsa.url], allowPrivateNetwork: true },
    });
    const dir = scratchDir();
    const file = writeScratch(dir, "lta.pdf", lta);
    expect(lta.toString("latin1")).toMatch(
      /\/Type \/DocTimeStamp\n\/Filter \/Adobe\.PPKLite\n\/SubFilter \/ETSI\.RFC3161/,
    );

    const stamp = signatureAt(lta, 2);
    const token = writeScratch(dir, "carimbo.tsr", stamp.cms);
    const data = writeScratch(dir, "dados.bin", stamp.signed);
    const chain = writeScratch(dir, "cadeia.pem", tsa.chain.map((c) => c.pem).join(""));
    const verified = run("openssl", ["ts", "-verify", "-in", token, "-token_in", "-data", data, "-CAfile", chain]);
    expect(verified.output).toContain("Verification: OK");
    // One byte of the DSS changed: the token no longer matches.
    const other = Buffer.from(stamp.signed);
    other[signed.length + 10] = other[signed.length + 10]! ^ 1;
    const wrong = run("openssl", [
      "ts",
      "-verify",
      "-in",
      token,
      "-token_in",
      "-data",
      writeScratch(dir, "x.bin", other),
      "-CAfile",
      chain,
    ]);
    expect(wrong.output).not.toContain("Verification: OK");

    // The time-stamp covers the first DSS; a second DSS update after it has the time-stamp's VRI.
    const [, , , d] = stamp.range;
    expect(stamp.range[2]! + d!).toBeLessThan(lta.length);
    const dss = readDss(lta)!;
    const stampKey = signatureBytes(lta)[2]!.vriKey;
    expect(dss.vri.get(stampKey)?.certs).toContain(dss.certs.find((c) => c.der.equals(tsa.certificate.der))!.num);

    const pdfsig = run("pdfsig", [file]).output;
    expect(pdfsig.match(/Signature Validation: Signature is Valid\./g)).toHaveLength(2);
    expect(run("qpdf", ["--check", file]).output).toContain("No syntax or stream encoding errors found");

    const all = checkAllPdfSignatures(lta);
    expect(all).toMatchObject({ valid: true, sealIndex: 1 });
    expect(all.signatures[2]).toMatchObject({
      kind: "carimbo_documento",
      valid: true,
      signerCommonName: "ACT Teste Consentir",
    });
    expect(all.afterSeal).toMatchObject({
      ok: true,
      revisions: [{ kind: "dss" }, { kind: "carimbo_documento" }, { kind: "dss" }],
    });
    const report = verifySignedPdf(lta);
    expect(report.carimbos_documento).toEqual([
      { em: all.signatures[2]!.timestamp!.genTime!.toISOString(), autoridade: "ACT Teste Consentir", valido: true },
    ]);
    expect(report.selo_ok).toBe(true);
    expect(report.linhas.some((l) => l.ok && l.text.includes("carimbo do tempo do documento (PAdES B-LTA)"))).toBe(
      true,
    );
  });
});

describe("an update after the seal that is not ours", () => {
  /** An incremental update that rewrites the first page with one more key. */
  function changePage(pdf: Buffer): Buffer {
    const revisions = readRevisions(pdf);
    const offsets = objectOffsets(revisions);
    const root = revisions.at(-1)!.trailer.get("Root")!;
    const catalog = dictOf(objectIn(pdf, offsets, (root as { num: number }).num)!.value)!;
    const pages = dictOf(objectIn(pdf, offsets, (catalog.get("Pages") as { num: number }).num)!.value)!;
    const pageNum = (pages.get("Kids") as { items: { num: number }[] }).items[0]!.num;
    const page = new Map(dictOf(objectIn(pdf, offsets, pageNum)!.value)!);
    page.set("UserUnit", { kind: "number", value: 2 });
    return appendUpdate(
      pdf,
      [
        {
          num: pageNum,
          body: Buffer.from(`${pageNum} 0 obj\n${writeValue({ kind: "dict", entries: page })}\nendobj\n`),
        },
      ],
      { trailer: revisions.at(-1)!.trailer, prev: revisions.at(-1)!.xrefOffset, size: Math.max(...offsets.keys()) + 1 },
    );
  }

  it("is reported as an update after the seal, with the seal's certificate still read", async () => {
    const lta = await addLongTermValidation(signed, {
      material: material(),
      timestamp: { urls: [tsa.url], allowPrivateNetwork: true },
    });
    for (const base of [signed, appendDss(signed, material()), lta]) {
      const changed = changePage(base);
      const seal = checkPdfSignature(changed);
      expect(seal.valid).toBe(false);
      expect(seal.reason).toContain(UPDATE_AFTER_SEAL);
      expect(seal.certificateDer?.equals(instance.certificateDer)).toBe(true);
      const report = verifySignedPdf(changed);
      expect(report.certificado?.sha256).toBe(instance.fingerprintSha256);
      expect(report.linhas[0]!.text).toContain("Selo digital inválido: atualização incremental posterior ao selo");
    }
  });

  /** An update written by hand: its own xref lines and extra trailer entries. */
  function rawUpdate(pdf: Buffer, xrefBody: string, trailerExtra = ""): Buffer {
    const revisions = readRevisions(pdf);
    const last = revisions.at(-1)!;
    const size = Math.max(...objectOffsets(revisions).keys()) + 1;
    const lead = pdf[pdf.length - 1] === 0x0a ? "" : "\n";
    const at = pdf.length + lead.length;
    const trailer = `<< /Root ${writeValue(last.trailer.get("Root")!)} /Size ${size} /Prev ${last.xrefOffset}${trailerExtra} >>`;
    return Buffer.concat([
      pdf,
      Buffer.from(`${lead}xref\n${xrefBody}trailer\n${trailer}\nstartxref\n${at}\n%%EOF\n`, "latin1"),
    ]);
  }

  function firstPage(pdf: Buffer): { num: number; dict: Map<string, PdfValue> } {
    const revisions = readRevisions(pdf);
    const offsets = objectOffsets(revisions);
    const root = revisions.at(-1)!.trailer.get("Root") as { num: number };
    const catalog = dictOf(objectIn(pdf, offsets, root.num)!.value)!;
    const pages = dictOf(objectIn(pdf, offsets, (catalog.get("Pages") as { num: number }).num)!.value)!;
    const num = (pages.get("Kids") as { items: { num: number }[] }).items[0]!.num;
    return { num, dict: new Map(dictOf(objectIn(pdf, offsets, num)!.value)!) };
  }

  it("a trailer that points readers at a second table (/XRefStm) is not ours", () => {
    const hybrid = rawUpdate(appendDss(signed, material()), "", " /XRefStm 0");
    expect(checkPdfSignature(hybrid).reason).toContain(UPDATE_AFTER_SEAL);
  });

  it("freeing an object of the sealed file (a page's text gone in every viewer) is not ours", () => {
    const { num } = firstPage(signed);
    const freed = rawUpdate(appendDss(signed, material()), `${num} 1\n0000000000 00001 f \n`);
    expect(checkPdfSignature(freed).reason).toContain(UPDATE_AFTER_SEAL);
  });

  it("a visible annotation that calls itself /DocTimeStamp is not a document time-stamp", () => {
    const revisions = readRevisions(signed);
    const size = Math.max(...objectOffsets(revisions).keys()) + 1;
    const page = firstPage(signed);
    page.dict.set("Annots", { kind: "array", items: [{ kind: "ref", num: size, gen: 0 } as PdfValue] });
    const note =
      `${size} 0 obj\n<< /Type /DocTimeStamp /Subtype /FreeText /Rect [50 700 550 760] ` +
      "/Contents (O paciente NAO autoriza a anestesia geral) /DA (/Helv 12 Tf 0 g) >>\nendobj\n";
    const forged = appendUpdate(
      signed,
      [
        { num: size, body: Buffer.from(note, "latin1") },
        {
          num: page.num,
          body: Buffer.from(`${page.num} 0 obj\n${writeValue({ kind: "dict", entries: page.dict })}\nendobj\n`),
        },
      ],
      { trailer: revisions.at(-1)!.trailer, prev: revisions.at(-1)!.xrefOffset, size: size + 1 },
    );
    // Even taken as a time-stamp revision (its end where a stamp's byte range would end), it is refused.
    const after = checkAfterSeal(forged, signed.length, [forged.length]);
    expect(after.ok).toBe(false);
  });

  /** A DSS written by a stranger: one stream of `streamBytes`, named `times` times in /Certs. */
  function dssNaming(pdf: Buffer, streamBytes: number, times: number): Buffer {
    const revisions = readRevisions(pdf);
    const offsets = objectOffsets(revisions);
    const size = Math.max(...offsets.keys()) + 1;
    const rootNum = (revisions.at(-1)!.trailer.get("Root") as { num: number }).num;
    const catalog = new Map(dictOf(objectIn(pdf, offsets, rootNum)!.value)!);
    catalog.set("DSS", { kind: "ref", num: size + 1, gen: 0 });
    const certs = Array.from({ length: times }, () => `${size} 0 R`).join(" ");
    return appendUpdate(
      pdf,
      [
        {
          num: size,
          body: Buffer.concat([
            Buffer.from(`${size} 0 obj\n<< /Length ${streamBytes} >>\nstream\n`, "latin1"),
            Buffer.alloc(streamBytes, 0x30),
            Buffer.from("\nendstream\nendobj\n", "latin1"),
          ]),
        },
        { num: size + 1, body: Buffer.from(`${size + 1} 0 obj\n<< /Type /DSS /Certs [${certs}] >>\nendobj\n`) },
        {
          num: rootNum,
          body: Buffer.from(`${rootNum} 0 obj\n${writeValue({ kind: "dict", entries: catalog })}\nendobj\n`),
        },
      ],
      { trailer: revisions.at(-1)!.trailer, prev: revisions.at(-1)!.xrefOffset, size: size + 2 },
    );
  }

  it("a DSS that names one big stream thousands of times is read once, and an oversized one is refused", () => {
    // 4 MB named 4,000 times would be 16 GB of copies; read once, it is 4 MB.
    const repeated = dssNaming(signed, 4 * 1024 * 1024, 4_000);
    const started = process.hrtime.bigint();
    const store = readDss(repeated)!;
    expect(store.certs).toHaveLength(1);
    expect(store.certs[0]!.der.length).toBe(4 * 1024 * 1024);
    expect(Number(process.hrtime.bigint() - started) / 1e6).toBeLessThan(2_000);
    const oversized = dssNaming(signed, 16, MAX_DSS_ENTRIES + 1);
    expect(() => readDss(oversized)).toThrow(`/DSS /Certs: mais de ${MAX_DSS_ENTRIES} entradas`);
    // The verifier says it could not read the DSS, and the seal itself is judged as before.
    const report = verifySignedPdf(oversized);
    expect(report.linhas.map((l) => l.text).join("\n")).toContain("Não foi possível ler os dados de validação (DSS)");
  });

  it("bytes with no cross-reference section after the DSS are not ours either", () => {
    const garbage = Buffer.concat([appendDss(signed, material()), Buffer.from("1 0 obj\n<< >>\nendobj\n")]);
    expect(checkPdfSignature(garbage).reason).toContain(UPDATE_AFTER_SEAL);
    expect(checkAllPdfSignatures(garbage).reason).toContain(`assinatura 2: ${UPDATE_AFTER_SEAL}`);
  });
});
