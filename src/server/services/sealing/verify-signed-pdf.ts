/**
 * Checks a sealed PDF with nothing but the file (decision 014): the PAdES seal covers
 * the whole file and its CMS verifies; the signer certificate (and, when one is expected, that it
 * is that one); the embedded documento.json hashes to the content SHA-256 that evidencias.json,
 * the parties and the PDF's own metadata (printed in every footer) name; the document's event
 * chain recomputes link by link to the final hash printed in the registry. Shared by the CLI
 * (src/server/cli/verify-pdf.ts) and /verificar (public-verification.ts). No database.
 */
import { createHash, X509Certificate } from "node:crypto";
import { type OfficialRoots, rootOfChain } from "../certificates/official-roots.js";
import { certificateNames } from "./seal-certificate.js";
import { embeddedFiles } from "./pdf-embedded-files.js";
import { icpBrasilPolicyByOid } from "./icp-brasil-policies.js";
import { policyPromiseLines } from "../../../shared/verification/policy-promise.js";
import {
  checkAllPdfSignatures,
  checkPdfSignature,
  type PdfSignatureCheck,
  type PdfSignatureInfo,
} from "./verify-pdf-signature.js";
import { readDss, signatureBytes } from "./dss.js";
import { CHOICE_RECORD_TITLE } from "../../../shared/schemas/choices.js";
import type { ChoiceRecordEvidence } from "../../../shared/verification/choice-record-lines.js";
import type { EvidenceLine } from "../../../shared/verification/optional-consent-lines.js";
import { checkEmbeddedEvidence, partyLevelLine } from "../../../shared/verification/embedded-evidence.js";

export { partyLevelLine };

export type { EvidenceLine } from "../../../shared/verification/optional-consent-lines.js";

export interface SignedPdfReport {
  /** Every check holds (and the certificate is the expected one, when one was given). */
  ok: boolean;
  selo_ok: boolean;
  certificado: { assunto: string; sha256: string } | null;
  /** null when no expected fingerprint was given. */
  certificado_ok: boolean | null;
  conteudo_ok: boolean;
  cadeia_ok: boolean;
  eventos: number;
  documento: { titulo: string; id_curto: string; codigo_verificacao: string; conteudo_sha256: string } | null;
  partes: { nome: string; nivel: string; descricao: string }[];
  /** The validation data in the file (decision 053), or null when it has no /DSS. */
  dss: { certificados: number; lcr: number; ocsp: number; assinaturas_com_vri: number[] } | null;
  /** The document time-stamps after the seal (PAdES B-LTA). */
  carimbos_documento: { em: string | null; autoridade: string | null; valido: boolean }[];
  /**
   * The archive revisions (decision 064): each document time-stamp after the sealing's, with
   * whether it came while the previous stamp's authority certificate was still valid.
   */
  revisoes_arquivo: {
    revisao: number;
    em: string | null;
    autoridade: string | null;
    valido: boolean;
    anterior_valido_ate: string | null;
    a_tempo: boolean;
  }[];
  /** A "Registro de recusa/revogação" (decision 056): what it is and which original it names. */
  registro: {
    tipo: ChoiceRecordEvidence["tipo"];
    item: ChoiceRecordEvidence["item"];
    original_codigo_verificacao: string | null;
    original_pdf_sha256: string | null;
  } | null;
  linhas: EvidenceLine[];
}

/** "AB:CD:…" or "abcd…" → "abcd…" */
export function normalizeFingerprint(value: string): string {
  return value
    .trim()
    .toLowerCase()
    .replace(/[^0-9a-f]/g, "");
}

const sha256 = (bytes: Uint8Array | string) => createHash("sha256").update(bytes).digest("hex");

/** A certificate the verifier accepts as a seal (instance seals, the clinic's registered certificates). */
export interface TrustedCertificate {
  sha256: string;
  /** Who holds it, as printed: "selo da instância Consentir", "certificado da clínica …". */
  label: string;
}

export interface VerifySignedPdfOptions {
  /** One fingerprint given by the person checking (CLI --certificado). */
  expectedFingerprint?: string | undefined;
  /**
   * The certificates that may seal (server: instance seals + the clinic's certificates; CLI:
   * --confiaveis). When given, a seal by any other key — even a look-alike with the same name —
   * fails as "assinado por outro certificado".
   */
  trusted?: TrustedCertificate[] | undefined;
  /**
   * The verification code of the document the file must belong to (/verificar/:code): evidence of
   * another document — even one sealed by this very instance — then fails.
   */
  expectedCode?: string | undefined;
  /**
   * The official ICP-Brasil roots (CLI --raizes, decision 060): a signature whose certificate chains,
   * each link verified, to one of them is reported as such, and a seal that does is confirmed
   * without a list of fingerprints.
   */
  roots?: OfficialRoots | null | undefined;
  /**
   * For a "Registro de revogação": the sealed original PDF it names (CLI --original), checked to be
   * that very file (decision 056).
   */
  original?: Buffer | undefined;
}

/**
 * When a chain is judged: at a document time-stamp whose own authority chains to an official root
 * (a time anyone's authority could claim proves nothing), else today.
 */
function chainTime(
  signature: PdfSignatureInfo,
  all: PdfSignatureInfo[],
  roots: OfficialRoots,
  pool: readonly X509Certificate[],
): { at: Date; how: string } {
  const after = all.filter((s) => s.index > signature.index && s.kind === "carimbo_documento" && s.valid);
  for (const stamp of after) {
    const at = stamp.timestamp?.genTime;
    if (!at || !stamp.certificateDer) continue;
    try {
      const holder = new X509Certificate(stamp.certificateDer);
      if (rootOfChain(holder, [...certificatesOf(stamp.chainDer), ...pool], roots, at))
        return { at, how: "na hora do carimbo do tempo do documento, de autoridade com cadeia oficial" };
    } catch {
      // An unreadable authority certificate proves no time.
    }
  }
  return {
    at: new Date(),
    how: "hoje (sem carimbo do tempo de autoridade com cadeia oficial que prove uma data anterior)",
  };
}

function certificatesOf(ders: readonly Buffer[]): X509Certificate[] {
  return ders.flatMap((der) => {
    try {
      return [new X509Certificate(der)];
    } catch {
      return [];
    }
  });
}

/** The official root a signature's certificate chains to, through its CMS and the DSS certificates. */
function signatureRoot(
  signature: PdfSignatureInfo,
  all: PdfSignatureInfo[],
  roots: OfficialRoots,
  dssCertificates: readonly Buffer[],
): { root: string | null; how: string } {
  const dssPool = certificatesOf(dssCertificates);
  const { at, how } = chainTime(signature, all, roots, dssPool);
  if (!signature.certificateDer) return { root: null, how };
  try {
    const pool = [...certificatesOf(signature.chainDer), ...dssPool];
    return { root: rootOfChain(new X509Certificate(signature.certificateDer), pool, roots, at), how };
  } catch {
    return { root: null, how };
  }
}

export function verifySignedPdf(pdf: Buffer, options: VerifySignedPdfOptions = {}): SignedPdfReport {
  return verifySignedPdfWithSeal(pdf, options).report;
}

/** {@link verifySignedPdf}, and the check of the seal it made (so callers need not check it again). */
export function verifySignedPdfWithSeal(
  pdf: Buffer,
  options: VerifySignedPdfOptions = {},
): { report: SignedPdfReport; seal: PdfSignatureCheck } {
  const lines: EvidenceLine[] = [];
  const check = (ok: boolean, text: string) => {
    lines.push({ ok, text });
    return ok;
  };
  const info = (text: string) => lines.push({ ok: null, text });

  // 1. The seal.
  const seal = checkPdfSignature(pdf);
  const all = checkAllPdfSignatures(pdf);
  const validationAfter = !!all.afterSeal?.ok && all.afterSeal.revisions.length > 0;
  const seloOk = check(
    seal.valid,
    seal.valid
      ? validationAfter
        ? "Selo digital (PAdES) válido: a assinatura cobre todo o arquivo anterior a ela; depois dela há só dados de validação (DSS) e carimbos do tempo do documento; e confere com o certificado que a contém."
        : "Selo digital (PAdES) válido: a assinatura cobre o arquivo inteiro e confere com o certificado que a contém."
      : `Selo digital inválido: ${seal.reason ?? "não verificado"} — o arquivo foi alterado depois de selado ou não é o original.`,
  );
  let certificado: SignedPdfReport["certificado"] = null;
  let certificadoOk: boolean | null = null;
  const roots = options.roots ?? null;
  let dssCertificates: Buffer[] = [];
  if (roots) {
    try {
      dssCertificates = readDss(pdf)?.certs.map((c) => c.der) ?? [];
    } catch {
      // An unreadable DSS is reported below; the chains are then built from the signatures alone.
    }
  }
  const rootOf = (signature: PdfSignatureInfo | undefined) =>
    roots && signature ? signatureRoot(signature, all.signatures, roots, dssCertificates) : null;
  const sealRoot = rootOf(all.signatures[all.sealIndex]);
  if (seal.certificateDer) {
    certificado = { assunto: certificateNames(seal.certificateDer).subject, sha256: sha256(seal.certificateDer) };
    info(`Certificado do selo: ${certificado.assunto}`);
    info(`Impressão digital SHA-256 do certificado: ${certificado.sha256}`);
    const trusted = [
      ...(options.trusted ?? []).map((t) => ({ sha256: normalizeFingerprint(t.sha256), label: t.label, given: false })),
      ...(options.expectedFingerprint
        ? [{ sha256: normalizeFingerprint(options.expectedFingerprint), label: "", given: true }]
        : []),
    ];
    // Not reaching an official root is said, not failed: the instance seal, for one, is not ICP-Brasil.
    if (sealRoot) {
      (sealRoot.root ? (text: string) => check(true, text) : info)(
        sealRoot.root
          ? `Certificado do selo ICP-Brasil: cadeia conferida, elo por elo, até a raiz oficial “${sealRoot.root}”, ${sealRoot.how}.`
          : `A cadeia do certificado do selo não chega, válida ${sealRoot.how}, a nenhuma das raízes oficiais informadas.`,
      );
    }
    // A chain to an official root says who holds the certificate, not that it is this clinic's or
    // this instance's: anyone can buy an e-CNPJ. Confirmation stays with the fingerprints (decision 060).
    if (trusted.length > 0) {
      const sealSha256 = certificado.sha256;
      const known = trusted.find((t) => t.sha256 === sealSha256);
      certificadoOk = check(
        !!known,
        known
          ? known.given
            ? "O certificado do selo é o esperado (impressão digital igual à informada)."
            : `O certificado do selo é conhecido: ${known.label}.`
          : options.expectedFingerprint && !options.trusted
            ? `O certificado do selo NÃO é o esperado (esperada ${normalizeFingerprint(options.expectedFingerprint)}).`
            : "Assinado por outro certificado: o selo não é de nenhum certificado desta instância nem dos cadastrados pela clínica — um certificado com o mesmo nome não basta.",
      );
    } else {
      info(
        "Nenhuma impressão digital esperada foi informada: compare a acima com a publicada pela clínica (opção --certificado), ou, para um certificado ICP-Brasil, informe as raízes oficiais (opção --raizes).",
      );
    }
  } else if (options.expectedFingerprint || options.trusted?.length) {
    certificadoOk = check(false, "Não foi possível ler o certificado do selo para compará-lo com o esperado.");
  }

  // 1b. Signatures before the seal (the professional's ICP-Brasil A1): each covers an earlier
  // revision of the file, which the seal then covers whole.
  const trustedAll = (options.trusted ?? []).map((t) => ({ ...t, sha256: normalizeFingerprint(t.sha256) }));
  const carimbos: SignedPdfReport["carimbos_documento"] = [];
  all.signatures.forEach((signature, index) => {
    const policy = signature.policyOid ? icpBrasilPolicyByOid(signature.policyOid) : undefined;
    if (signature.kind === "carimbo_documento") {
      const at = signature.timestamp?.genTime?.toISOString() ?? null;
      carimbos.push({ em: at, autoridade: signature.signerCommonName, valido: signature.valid });
      const stampRoot = rootOf(signature);
      if (stampRoot)
        info(
          stampRoot.root
            ? `A autoridade do carimbo ${index + 1} tem cadeia conferida até a raiz oficial “${stampRoot.root}”.`
            : `A cadeia da autoridade do carimbo ${index + 1} não chega a nenhuma das raízes oficiais informadas.`,
        );
      check(
        signature.valid,
        signature.valid
          ? `Assinatura ${index + 1} de ${all.signatures.length}: carimbo do tempo do documento (PAdES B-LTA) de ${at ?? "data ilegível"}, autoridade “${signature.signerCommonName ?? "sem certificado"}”: confere sobre o arquivo até ele, dados de validação incluídos.`
          : `Assinatura ${index + 1} de ${all.signatures.length}: carimbo do tempo do documento NÃO confere (${signature.reason ?? "inválido"}).`,
      );
      return;
    }
    const what = `Assinatura ${index + 1} de ${all.signatures.length}: “${signature.signerCommonName ?? "sem certificado"}”${policy ? `, política ${policy.name}` : signature.policyOid ? `, política ${signature.policyOid}` : ""}${signature.timestamp ? `, carimbo do tempo de ${signature.timestamp.genTime?.toISOString() ?? "data ilegível"}` : ""}`;
    if (index === all.sealIndex) {
      info(
        all.afterSeal?.ok && all.afterSeal.revisions.length > 0
          ? `${what} (o selo; depois dele, só dados de validação e carimbos do tempo do documento).`
          : `${what} (o selo, sobre o arquivo inteiro).`,
      );
      return;
    }
    check(
      signature.valid && signature.endsAtEof,
      signature.valid && signature.endsAtEof
        ? `${what}: válida sobre a versão do arquivo que assinou.`
        : `${what}: INVÁLIDA.`,
    );
    if (signature.timestamp)
      check(
        signature.timestamp.valid,
        signature.timestamp.valid
          ? "O carimbo do tempo dessa assinatura confere."
          : "O carimbo do tempo dessa assinatura NÃO confere.",
      );
    const earlierRoot = rootOf(signature);
    if (earlierRoot)
      (earlierRoot.root ? (text: string) => check(true, text) : info)(
        earlierRoot.root
          ? `Certificado da assinatura ${index + 1} ICP-Brasil: cadeia conferida até a raiz oficial “${earlierRoot.root}”, ${earlierRoot.how}.`
          : `A cadeia do certificado da assinatura ${index + 1} não chega, válida ${earlierRoot.how}, a nenhuma das raízes oficiais informadas.`,
      );
    if (signature.certificateDer) {
      const fingerprint = sha256(signature.certificateDer);
      info(`Impressão digital SHA-256 do certificado da assinatura ${index + 1}: ${fingerprint}`);
      if (trustedAll.length > 0) {
        const known = trustedAll.find((t) => t.sha256 === fingerprint);
        check(
          !!known,
          known
            ? `O certificado da assinatura ${index + 1} é conhecido: ${known.label}.`
            : `Assinatura ${index + 1} feita por outro certificado, não cadastrado na clínica.`,
        );
      }
    }
  });

  // 1b'. Archive revisions (decision 064): the stamps after the sealing's one, each renewing the
  // proof while the previous stamp's authority certificate was still valid.
  const stamps = all.signatures.filter((s, i) => s.kind === "carimbo_documento" && i > all.sealIndex);
  const revisoes: SignedPdfReport["revisoes_arquivo"] = [];
  stamps.slice(1).forEach((stamp, i) => {
    const previous = stamps[i]!;
    let previousUntil: Date | null;
    try {
      previousUntil = previous.certificateDer ? new Date(new X509Certificate(previous.certificateDer).validTo) : null;
    } catch {
      previousUntil = null;
    }
    const at = stamp.timestamp?.genTime ?? null;
    const inTime = !!at && !!previousUntil && at.getTime() < previousUntil.getTime();
    revisoes.push({
      revisao: i + 1,
      em: at?.toISOString() ?? null,
      autoridade: stamp.signerCommonName,
      valido: stamp.valid,
      anterior_valido_ate: previousUntil?.toISOString() ?? null,
      a_tempo: inTime,
    });
  });
  if (revisoes.length > 0) {
    info(
      `Revisões de arquivo: ${revisoes.length} carimbo(s) do tempo do documento acrescentado(s) depois da selagem, cada um com novos dados de validação e sobre o arquivo inteiro anterior, que continua intacto dentro deste.`,
    );
    for (const r of revisoes) {
      const what = `Revisão de arquivo ${r.revisao}: carimbo de ${r.em ?? "data ilegível"}, autoridade “${r.autoridade ?? "sem certificado"}”`;
      // A renewal after the previous authority's certificate expired proves only from its own time on.
      if (r.valido && r.a_tempo)
        check(
          true,
          `${what}, feito antes de vencer o certificado da autoridade do carimbo anterior (${r.anterior_valido_ate}).`,
        );
      else if (r.valido)
        info(
          `${what}: feito depois de vencer o certificado da autoridade do carimbo anterior (${r.anterior_valido_ate ?? "validade ilegível"}); a prova contínua vale só a partir dele.`,
        );
    }
  }

  // 1c. Long-term validation data (decision 053): what the DSS holds, which signatures it describes.
  let dss: SignedPdfReport["dss"] = null;
  let vriOf: ((index: number) => { crls: number[]; ocsps: number[] } | undefined) | null = null;
  try {
    const store = readDss(pdf);
    if (store) {
      const keys = signatureBytes(pdf);
      vriOf = (index) => {
        const key = keys.find((k) => k.index === index)?.vriKey;
        return key ? store.vri.get(key) : undefined;
      };
      const withVri = keys.filter((k) => store.vri.has(k.vriKey)).map((k) => k.index + 1);
      dss = {
        certificados: store.certs.length,
        lcr: store.crls.length,
        ocsp: store.ocsps.length,
        assinaturas_com_vri: withVri,
      };
      info(
        `Dados de validação de longo prazo (DSS) no arquivo: ${store.certs.length} certificado(s), ${store.crls.length} lista(s) de revogação (LCR)${store.ocsps.length ? `, ${store.ocsps.length} resposta(s) OCSP` : ""}; entradas VRI para ${withVri.length ? `as assinaturas ${withVri.join(", ")}` : "nenhuma assinatura"}.`,
      );
    } else {
      info("Sem dados de validação de longo prazo (DSS) no arquivo.");
    }
  } catch (error) {
    info(
      `Não foi possível ler os dados de validação (DSS): ${error instanceof Error ? error.message : String(error)}.`,
    );
  }

  // 1d. A signature declaring AD-RC (or AD-RA) promises what only the file can show (decision 081):
  // its /VRI with revocation values in the DSS and a valid document time-stamp after it.
  lines.push(
    ...policyPromiseLines(
      all.signatures.map((signature) => ({
        kind: signature.kind,
        policyOid: signature.policyOid,
        timestamped: !!signature.timestamp,
        valid: signature.valid,
      })),
      (index) => {
        const vri = vriOf?.(index);
        return vri ? { crls: vri.crls.length, ocsps: vri.ocsps.length } : undefined;
      },
    ),
  );

  // 2–4. The embedded files, the content hash, the event chain and what the evidence records.
  const embedded = checkEmbeddedEvidence({
    pdf,
    readFiles: () => embeddedFiles(pdf),
    sha256,
    original: options.original,
  });
  lines.push(...embedded.lines);
  const { evidence, record, parties, conteudoOk, cadeiaOk } = embedded;

  // 5. Whose document it is (/verificar/:code): the evidence must name this code.
  if (options.expectedCode !== undefined) {
    const code = evidence?.documento?.codigo_verificacao ?? null;
    check(
      code === options.expectedCode,
      code === options.expectedCode
        ? `As evidências são deste documento (código de verificação ${code}).`
        : `As evidências são de OUTRO documento (código ${code ?? "ausente"}, esperado ${options.expectedCode}): este arquivo não é deste documento.`,
    );
  }

  const ok = seloOk && conteudoOk && cadeiaOk && certificadoOk !== false && lines.every((l) => l.ok !== false);
  const doc = evidence?.documento;
  const { certificateDer: _certificate, ...sealCheck } = seal;
  const report: SignedPdfReport = {
    ok,
    selo_ok: seloOk,
    certificado,
    certificado_ok: certificadoOk,
    conteudo_ok: conteudoOk,
    cadeia_ok: cadeiaOk,
    eventos: embedded.eventos,
    documento: doc
      ? {
          titulo: doc.titulo,
          id_curto: doc.id_curto,
          codigo_verificacao: doc.codigo_verificacao,
          conteudo_sha256: doc.conteudo_sha256,
        }
      : null,
    partes: parties.map((p) => ({
      nome: p.nome,
      nivel: p.nivel,
      // Decision 070: who signed at whose request, and the reading aloud as the signer declared it.
      descricao: p.a_rogo
        ? `${partyLevelLine(p)}; assinatura a rogo de ${p.a_rogo.a_pedido_de}, que ${p.a_rogo.motivo_texto}; termo lido em voz alta por ${p.a_rogo.leitura_em_voz_alta.lido_por} (declarado por quem assinou)`
        : partyLevelLine(p),
    })),
    dss,
    carimbos_documento: carimbos,
    revisoes_arquivo: revisoes,
    registro: record
      ? {
          tipo: record.tipo,
          item: record.item,
          original_codigo_verificacao: record.original_codigo_verificacao,
          original_pdf_sha256: record.original_pdf_sha256,
        }
      : null,
    linhas: lines,
  };
  return { report, seal: sealCheck };
}

/** The report as the CLI prints it (pt-BR, ✓ / ✗ / •). */
export function formatSignedPdfReport(report: SignedPdfReport, file?: string): string {
  const out: string[] = [];
  out.push(`Verificação de PDF assinado${file ? `: ${file}` : ""}`);
  if (report.documento) {
    if (report.registro) out.push(CHOICE_RECORD_TITLE[report.registro.tipo]);
    out.push(`Documento ${report.documento.id_curto} — ${report.documento.titulo}`);
    out.push(`Código de verificação: ${report.documento.codigo_verificacao}`);
  }
  out.push("");
  for (const line of report.linhas) out.push(`${line.ok === null ? "•" : line.ok ? "✓" : "✗"} ${line.text}`);
  out.push("");
  out.push(
    !report.ok
      ? "RESULTADO: FALHOU. Não confie neste arquivo como evidência sem apurar as linhas marcadas com ✗."
      : report.certificado_ok === null
        ? "RESULTADO: íntegro, mas o certificado do selo NÃO foi confirmado: o arquivo não mudou depois de selado e a evidência confere, porém qualquer um pode fazer um selo com o mesmo nome. Confirme a impressão digital com --certificado ou --confiaveis (lista publicada em /api/public/seal-certificates?codigo=<código de verificação>), ou, com certificado ICP-Brasil, com --raizes."
        : `RESULTADO: tudo confere. O selo cobre o arquivo inteiro${report.dss || report.carimbos_documento.length ? " (depois dele, só dados de validação e carimbos do tempo do documento)" : ""} e é de um certificado conhecido, o conteúdo recalculado é o declarado nas evidências e a cadeia de eventos é coerente até o hash final declarado.`,
  );
  return out.join("\n");
}
