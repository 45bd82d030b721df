/**
 * The browser's verifier of a sealed PDF (decision 077): what `npm run verify` checks with the
 * file alone (verify-signed-pdf.ts), run with WebCrypto and pkijs so the file never leaves the
 * computer. It shares with the CLI the PDF readers (src/shared/pdf-reader: signature ranges, objects and
 * revisions, what may follow the seal, the DSS, the embedded files) and, whole, the check of the
 * embedded evidence and the lines after it (embedded-evidence.ts, decision 077 amended); the CMS
 * checks are cms-check.ts, the same rules over another crypto library.
 *
 * Every signature: its byte range is exactly the file around its /Contents, the messageDigest is
 * the digest of those bytes, the signature over the signed attributes verifies with the
 * certificate in the CMS; an earlier one ends at a complete revision; after the seal only the DSS
 * and document time-stamps (whose imprint must be the hash of their range). Then the embedded
 * documento.json / evidencias.json, the content hash, the parties and the chain of events, and
 * what the evidence records (audio, comprehension, reading, optional consents, a choice record).
 *
 * It cannot judge what needs the outside world or a list the person checking must supply: whether
 * the certificate is this clinic's (a fingerprint to compare), chains to official roots, and
 * whether the lists in the DSS were the newest. The page says so.
 */
import { checkAfterSeal, UPDATE_AFTER_SEAL } from "../pdf-reader/after-seal.js";
import { concatBytes, equalBytes, fromHex, latin1, toHex } from "../pdf-reader/bytes.js";
import * as asn1js from "asn1js";
import { readDss } from "../pdf-reader/dss-reader.js";
import { policyPromiseLines } from "./policy-promise.js";
import { embeddedFiles, type Inflate } from "../pdf-reader/embedded-files.js";
import {
  byteRanges,
  type FoundRange,
  rangeContents,
  type SignatureKind,
  tooMany,
} from "../pdf-reader/signature-ranges.js";
import {
  attributeValues,
  commonName,
  digest,
  OIDS,
  parseSignedData,
  readTimeStampToken,
  subjectLine,
  verifySignerInfo,
} from "./cms-check.js";
import { CHOICE_RECORD_TITLE } from "../schemas/choices.js";
import { checkEmbeddedEvidence } from "./embedded-evidence.js";
import type { EvidenceLine } from "./optional-consent-lines.js";
import { sha256Hex } from "./sha256.js";

export type VerifierLine = EvidenceLine;

/**
 * The verdict in one word: "integro" (everything holds; the certificate still to be compared),
 * "alterado" (bytes a signature covers changed), "atualizacao_posterior" (something was appended
 * after the seal), "assinatura_invalida" (a signature does not verify with its certificate, or is
 * unreadable), "evidencias" (the seal holds but the embedded evidence does not), "sem_assinatura".
 */
export type Verdict =
  "integro" | "alterado" | "atualizacao_posterior" | "assinatura_invalida" | "evidencias" | "sem_assinatura";

export interface SignatureSummary {
  index: number;
  kind: SignatureKind;
  valid: boolean;
  digestOk: boolean;
  signatureOk: boolean;
  signer: string | null;
  sha256: string | null;
  /** The signature's own time-stamp (or, for a document time-stamp, its time). */
  timestamp: { at: string | null; valid: boolean; authority: string | null } | null;
  /** The signature policy it declares (sigPolicyId), if any. */
  policyOid?: string | null;
  reason?: string;
}

export interface BrowserReport {
  ok: boolean;
  veredito: Verdict;
  selo_ok: boolean;
  conteudo_ok: boolean;
  cadeia_ok: boolean;
  eventos: number;
  certificado: { assunto: string; sha256: string } | null;
  documento: { titulo: string; id_curto: string; codigo_verificacao: string; conteudo_sha256: string } | null;
  /** A "Registro de recusa/revogação" (decision 056): its kind and title, as the CLI prints it. */
  registro: { tipo: "recusa" | "revogacao"; titulo: string } | null;
  partes: { nome: string; nivel: string }[];
  assinaturas: SignatureSummary[];
  dss: { certificados: number; lcr: number; ocsp: number; assinaturas_com_vri: number[] } | null;
  linhas: VerifierLine[];
}

export interface VerifyOptions {
  /** Inflates /FlateDecode streams within a bound (fflate in the browser). */
  inflate: Inflate;
}

interface Checked extends SignatureSummary {
  end: number;
  coversWholeFile: boolean;
  endsAtEof: boolean;
}

async function checkOne(pdf: Uint8Array, text: string, index: number, found: FoundRange): Promise<Checked> {
  const { range, kind } = found;
  const [a, b, c, d] = range;
  const base: Checked = {
    index,
    kind,
    valid: false,
    digestOk: false,
    signatureOk: false,
    signer: null,
    sha256: null,
    timestamp: null,
    end: c + d,
    coversWholeFile: false,
    endsAtEof: false,
  };
  const shape = rangeContents(text, pdf.length, range);
  if ("error" in shape) return { ...base, reason: shape.error };
  base.coversWholeFile = shape.coversWholeFile;
  base.endsAtEof = shape.endsAtEof;
  const contents = fromHex(shape.hex);
  const signed = concatBytes([pdf.subarray(a, a + b), pdf.subarray(c, c + d)]);

  if (kind === "carimbo_documento") {
    try {
      const token = await readTimeStampToken(contents);
      const imprintOk =
        !!token.imprint.hash && equalBytes(await digest(token.imprint.hash, signed), token.imprint.value);
      const valid = token.signatureValid && imprintOk;
      const authority = token.tsa ? commonName(token.tsa.certificate) : null;
      const reason = !token.signatureValid
        ? (token.reason ?? "carimbo inválido")
        : imprintOk
          ? undefined
          : "o carimbo do documento não é sobre os bytes assinados";
      return {
        ...base,
        valid,
        digestOk: imprintOk,
        signatureOk: token.signatureValid,
        signer: authority,
        sha256: token.tsa ? sha256Hex(token.tsa.der) : null,
        timestamp: { at: token.genTime.toISOString(), valid, authority },
        ...(reason ? { reason } : {}),
      };
    } catch (error) {
      return { ...base, reason: `carimbo do documento ilegível: ${message(error)}` };
    }
  }

  let parsed;
  try {
    parsed = parseSignedData(contents);
  } catch (error) {
    return {
      ...base,
      reason:
        error instanceof Error && error.message === "o conteúdo não é SignedData"
          ? "o /Contents não é SignedData"
          : `CMS ilegível: ${message(error)}`,
    };
  }
  const signerInfo = parsed.signedData.signerInfos[0];
  if (parsed.signedData.signerInfos.length !== 1 || !signerInfo)
    return { ...base, reason: "esperada uma assinatura no CMS" };

  // RFC 3161 appendix A: the signature's time-stamp is over the hash of its signature value.
  const tokenNode = attributeValues(signerInfo.unsignedAttrs, OIDS.signatureTimeStampToken)[0];
  let timestamp: Checked["timestamp"] = null;
  if (tokenNode) {
    try {
      const token = await readTimeStampToken(new Uint8Array(tokenNode.toBER()));
      const signatureValue = new Uint8Array(signerInfo.signature.valueBlock.valueHexView);
      const over =
        !!token.imprint.hash && equalBytes(await digest(token.imprint.hash, signatureValue), token.imprint.value);
      timestamp = {
        at: token.genTime.toISOString(),
        valid: token.signatureValid && over,
        authority: token.tsa ? commonName(token.tsa.certificate) : null,
      };
    } catch {
      timestamp = { at: null, valid: false, authority: null };
    }
  }
  const check = await verifySignerInfo(parsed, signerInfo, signed);
  const valid = check.digestOk && check.signatureOk;
  // SignaturePolicyId ::= SEQUENCE { sigPolicyId OID, sigPolicyHash, … }
  const policy = attributeValues(signerInfo.signedAttrs, OIDS.sigPolicyId)[0] as asn1js.Sequence | undefined;
  const policyOid =
    policy?.valueBlock.value[0] instanceof asn1js.ObjectIdentifier ? policy.valueBlock.value[0].getValue() : null;
  return {
    ...base,
    valid,
    policyOid,
    digestOk: check.digestOk,
    signatureOk: check.signatureOk,
    signer: check.certificate ? commonName(check.certificate.certificate) : null,
    sha256: check.certificate ? sha256Hex(check.certificate.der) : null,
    timestamp,
    ...(check.reason ? { reason: check.reason } : {}),
    ...(check.certificate ? { subject: subjectLine(check.certificate.certificate) } : {}),
  };
}

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** Checks a PDF with nothing but its bytes (decision 077). Never throws for a bad file: it says what is wrong. */
export async function verifyPdfBytes(pdf: Uint8Array, options: VerifyOptions): Promise<BrowserReport> {
  const lines: VerifierLine[] = [];
  const check = (ok: boolean, text: string) => {
    lines.push({ ok, text });
    return ok;
  };
  const info = (text: string) => lines.push({ ok: null, text });
  const text = latin1(pdf);

  // 1. The signatures (verify-pdf-signature.ts: checkAllPdfSignatures / checkPdfSignature).
  const ranges = byteRanges(text);
  const refused = tooMany(ranges);
  const signatures: Checked[] = [];
  if (!refused) for (const [index, range] of ranges.entries()) signatures.push(await checkOne(pdf, text, index, range));
  const sealIndex = signatures.findLastIndex((s) => s.kind === "assinatura");
  const seal = signatures[sealIndex] as (Checked & { subject?: string }) | undefined;
  const stampEnds = signatures.slice(sealIndex + 1).map((s) => s.end);
  const afterSeal = seal?.valid ? checkAfterSeal(pdf, seal.end, stampEnds) : null;
  const badStamp = signatures.slice(sealIndex + 1).find((s) => s.kind === "carimbo_documento" && !s.valid);
  const sealReason = refused
    ? refused
    : !seal
      ? "sem /ByteRange"
      : !seal.valid
        ? (seal.reason ?? "assinatura inválida")
        : afterSeal && !afterSeal.ok
          ? afterSeal.reason
          : badStamp
            ? `carimbo do tempo do documento inválido: ${badStamp.reason ?? "não confere"}`
            : null;
  const validationAfter = !!afterSeal?.ok && afterSeal.revisions.length > 0;
  const seloOk = check(
    sealReason === null,
    sealReason === null
      ? validationAfter
        ? "Selo digital (PAdES) válido: a assinatura cobre todo o arquivo anterior a ela; depois dela há só dados de validação (DSS) e carimbos do tempo do documento; e confere com o certificado que a contém."
        : "Selo digital (PAdES) válido: a assinatura cobre o arquivo inteiro e confere com o certificado que a contém."
      : sealReason.startsWith(UPDATE_AFTER_SEAL)
        ? `Há uma atualização acrescentada depois do selo (${sealReason.slice(UPDATE_AFTER_SEAL.length).replace(/^ \(|\)$/g, "")}): o arquivo selado continua dentro deste, mas o que foi acrescentado não é coberto pelo selo.`
        : `Selo digital inválido: ${sealReason} — o arquivo foi alterado depois de selado ou não é o original.`,
  );
  let certificado: BrowserReport["certificado"] = null;
  if (seal?.sha256) {
    certificado = { assunto: seal.subject ?? seal.signer ?? "", sha256: seal.sha256 };
    info(`Certificado do selo: ${certificado.assunto}`);
    info(`Impressão digital SHA-256 do certificado: ${certificado.sha256}`);
    info(
      "Compare esta impressão digital com a publicada pela clínica: um selo com o mesmo nome pode ser feito por qualquer um.",
    );
  }
  signatures.forEach((s, index) => {
    const n = `Assinatura ${index + 1} de ${signatures.length}`;
    if (s.kind === "carimbo_documento") {
      check(
        s.valid,
        s.valid
          ? `${n}: carimbo do tempo do documento (PAdES B-LTA) de ${s.timestamp?.at ?? "data ilegível"}, autoridade “${s.signer ?? "sem certificado"}”: confere sobre o arquivo até ele, dados de validação incluídos.`
          : `${n}: carimbo do tempo do documento NÃO confere (${s.reason ?? "inválido"}).`,
      );
      return;
    }
    const what = `${n}: “${s.signer ?? "sem certificado"}”${s.timestamp ? `, carimbo do tempo de ${s.timestamp.at ?? "data ilegível"}` : ""}`;
    if (index === sealIndex) {
      info(
        validationAfter
          ? `${what} (o selo; depois dele, só dados de validação e carimbos do tempo do documento).`
          : `${what} (o selo, sobre o arquivo inteiro).`,
      );
    } else {
      check(
        s.valid && s.endsAtEof,
        s.valid && s.endsAtEof ? `${what}: válida sobre a versão do arquivo que assinou.` : `${what}: INVÁLIDA.`,
      );
      if (s.sha256) info(`Impressão digital SHA-256 do certificado da assinatura ${index + 1}: ${s.sha256}`);
    }
    if (s.timestamp)
      check(
        s.timestamp.valid,
        s.timestamp.valid
          ? "O carimbo do tempo dessa assinatura confere."
          : "O carimbo do tempo dessa assinatura NÃO confere.",
      );
  });
  // The whole set (checkAllPdfSignatures): each earlier one a revision, each covering more.
  signatures.forEach((s, i) => {
    const last = i === signatures.length - 1;
    const previous = signatures[i - 1];
    if (!last && s.coversWholeFile) check(false, `Assinatura ${i + 1}: cobre o arquivo inteiro mas não é a última.`);
    if (previous && s.end <= previous.end) check(false, `Assinatura ${i + 1}: não cobre a revisão anterior.`);
  });

  // 1c. The DSS (decision 053).
  let dss: BrowserReport["dss"] = null;
  const vris = new Map<number, { crls: number; ocsps: number }>();
  try {
    const store = readDss(pdf);
    if (store) {
      const withVri: number[] = [];
      for (const [index, found] of ranges.entries()) {
        const shape = rangeContents(text, pdf.length, found.range);
        if ("error" in shape) continue;
        const key = toHex(await digest("SHA-1", fromHex(shape.hex))).toUpperCase();
        const vri = store.vri.get(key);
        if (vri) {
          withVri.push(index + 1);
          vris.set(index, { crls: vri.crls.length, ocsps: vri.ocsps.length });
        }
      }
      dss = {
        certificados: store.certs.length,
        lcr: store.crls.length,
        ocsp: store.ocsps.length,
        assinaturas_com_vri: withVri,
      };
      info(
        `Dados de validação de longo prazo (DSS) no arquivo: ${store.certs.length} certificado(s), ${store.crls.length} lista(s) de revogação (LCR)${store.ocsps.length ? `, ${store.ocsps.length} resposta(s) OCSP` : ""}; entradas VRI para ${withVri.length ? `as assinaturas ${withVri.join(", ")}` : "nenhuma assinatura"}.`,
      );
    } else info("Sem dados de validação de longo prazo (DSS) no arquivo.");
  } catch (error) {
    info(`Não foi possível ler os dados de validação (DSS): ${message(error)}.`);
  }

  // 1d. What an AD-RC/AD-RA declaration promises (decision 081), as the CLI checks it.
  lines.push(
    ...policyPromiseLines(
      signatures.map((s) => ({ kind: s.kind, policyOid: s.policyOid, timestamped: !!s.timestamp, valid: s.valid })),
      (index) => vris.get(index),
    ),
  );

  // 2–4. The embedded files, the content hash, the event chain and what the evidence records: the
  // CLI's own steps (embedded-evidence.ts).
  const embedded = checkEmbeddedEvidence({
    pdf,
    readFiles: () => embeddedFiles(pdf, options.inflate),
    sha256: sha256Hex,
  });
  lines.push(...embedded.lines);
  const { evidence, record, parties, conteudoOk, cadeiaOk } = embedded;

  const ok = seloOk && conteudoOk && cadeiaOk && lines.every((l) => l.ok !== false);
  // The seal speaks first: what happened to it, then to the signatures before or after it.
  const broken = seal && !seal.valid ? seal : signatures.find((s) => !s.valid);
  const veredito: Verdict = ok
    ? "integro"
    : signatures.length === 0 && !refused
      ? "sem_assinatura"
      : sealReason?.startsWith(UPDATE_AFTER_SEAL)
        ? "atualizacao_posterior"
        : broken && !broken.digestOk && broken.signatureOk
          ? "alterado"
          : broken || !seloOk
            ? "assinatura_invalida"
            : "evidencias";
  const doc = evidence?.documento;
  return {
    ok,
    veredito,
    selo_ok: seloOk,
    conteudo_ok: conteudoOk,
    cadeia_ok: cadeiaOk,
    eventos: embedded.eventos,
    certificado,
    documento:
      doc && typeof doc === "object"
        ? {
            titulo: String(doc.titulo ?? ""),
            id_curto: String(doc.id_curto ?? ""),
            codigo_verificacao: String(doc.codigo_verificacao ?? ""),
            conteudo_sha256: String(doc.conteudo_sha256 ?? ""),
          }
        : null,
    registro: record ? { tipo: record.tipo, titulo: CHOICE_RECORD_TITLE[record.tipo] } : null,
    partes: parties.map((p) => ({ nome: String(p?.nome ?? ""), nivel: String(p?.nivel ?? "") })),
    assinaturas: signatures.map(({ end: _end, coversWholeFile: _whole, endsAtEof: _eof, ...s }) => {
      const { subject: _subject, ...rest } = s as Checked & { subject?: string };
      return rest;
    }),
    dss,
    linhas: lines,
  };
}
