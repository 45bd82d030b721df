/**
 * Steps 2–4 of checking a sealed PDF (decisions 014 and 077), the same for `npm run verify`
 * (verify-signed-pdf.ts) and the browser verifier (pdf-verifier.ts): the embedded documento.json
 * and evidencias.json, one of each and in canonical JSON; the content hash against the evidence,
 * every party and the PDF's metadata; the document's event chain against its declared head, the
 * metadata and the events each party, the conclusion, a refusal or a revocation must have. Then the
 * lines that only say or check what the evidence records: each party's level, the optional
 * consents (decision 057), the comprehension answers, audio and reading record (decisions 061,
 * 069, 052) and a refusal/revocation record (decision 056). Pure: the hash and the embedded-file
 * reader are given (node:crypto / node:zlib on the server, a JS SHA-256 / fflate in the browser).
 */
import { checkDocumentChainWith } from "../evidence/document-chain-check.js";
import { canonicalJson } from "../evidence/canonical-json.js";
import type { Evidence } from "../evidence/evidence.js";
import { DOCUMENT_FILE, EVIDENCE_FILE } from "../evidence/file-names.js";
import { infoEntry } from "../pdf-reader/embedded-files.js";
import { type ChoiceRecordEvidence, choiceRecordLines, readChoiceRecord } from "./choice-record-lines.js";
import { comprehensionReadingLines } from "./comprehension-reading-lines.js";
import { type EvidenceLine, optionalConsentLines } from "./optional-consent-lines.js";

export interface EmbeddedEvidenceInput {
  pdf: Uint8Array;
  /** The PDF's embedded files, in name-tree order; throws when they cannot be read. */
  readFiles: () => { name: string; bytes: Uint8Array }[];
  /** SHA-256 as lower-case hex. */
  sha256: (data: Uint8Array | string) => string;
  /** For a "Registro de revogação": the original PDF given to compare (CLI --original). */
  original?: Uint8Array | undefined;
}

export interface EmbeddedEvidenceResult {
  lines: EvidenceLine[];
  evidence: Evidence | null;
  /** The refusal/revocation record the evidence carries, or null (a signed document). */
  record: ChoiceRecordEvidence | null;
  parties: Evidence["partes"];
  conteudoOk: boolean;
  cadeiaOk: boolean;
  /** Events in the recomputed chain. */
  eventos: number;
}

/** UTF-8 as Buffer#toString("utf8") reads it: a byte-order mark is kept (and is not canonical JSON). */
const utf8 = (bytes: Uint8Array) => new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes);

function safeInfo(pdf: Uint8Array, key: string): string | null {
  try {
    return infoEntry(pdf, key);
  } catch {
    return null;
  }
}

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

export function checkEmbeddedEvidence(input: EmbeddedEvidenceInput): EmbeddedEvidenceResult {
  const { pdf, sha256 } = input;
  const lines: EvidenceLine[] = [];
  const check = (ok: boolean, text: string) => {
    lines.push({ ok, text });
    return ok;
  };
  const info = (text: string) => lines.push({ ok: null, text });

  // 2. The embedded files.
  let files: { name: string; bytes: Uint8Array }[] = [];
  try {
    files = input.readFiles();
  } catch (error) {
    check(false, `Não foi possível ler os anexos do PDF: ${message(error)}.`);
  }
  const one = (name: string) => {
    const found = files.filter((f) => f.name === name);
    return found.length === 1 ? found[0]!.bytes : null;
  };
  const documentBytes = one(DOCUMENT_FILE);
  const evidenceBytes = one(EVIDENCE_FILE);
  check(
    documentBytes !== null && evidenceBytes !== null,
    documentBytes !== null && evidenceBytes !== null
      ? `Anexos ${DOCUMENT_FILE} e ${EVIDENCE_FILE} presentes (um de cada).`
      : `Anexos ausentes ou repetidos: são esperados um ${DOCUMENT_FILE} e um ${EVIDENCE_FILE}.`,
  );

  let evidence: Evidence | null = null;
  let record: ChoiceRecordEvidence | null = null;
  let documentValue: unknown;
  if (evidenceBytes) {
    const text = utf8(evidenceBytes);
    try {
      evidence = JSON.parse(text) as Evidence;
      record = readChoiceRecord(evidence);
      check(canonicalJson(evidence) === text, `${EVIDENCE_FILE} está em JSON canônico (RFC 8785).`);
    } catch {
      check(false, `${EVIDENCE_FILE} não é JSON válido.`);
    }
  }
  if (documentBytes) {
    const text = utf8(documentBytes);
    try {
      documentValue = JSON.parse(text);
      check(canonicalJson(documentValue) === text, `${DOCUMENT_FILE} está em JSON canônico (RFC 8785).`);
    } catch {
      check(false, `${DOCUMENT_FILE} não é JSON válido.`);
    }
  }
  const parties = Array.isArray(evidence?.partes) ? evidence.partes : [];

  // 3. The content hash.
  let conteudoOk = false;
  const computed = documentBytes ? sha256(documentBytes) : null;
  const declared = evidence?.documento?.conteudo_sha256;
  if (computed !== null && declared) {
    conteudoOk = check(
      computed === declared,
      computed === declared
        ? `SHA-256 de ${DOCUMENT_FILE} recalculado (${computed}) igual ao SHA-256 do conteúdo assinado.`
        : `SHA-256 de ${DOCUMENT_FILE} (${computed}) DIFERENTE do conteúdo declarado (${declared}).`,
    );
    const subject = safeInfo(pdf, "Subject");
    const printed = subject ? /SHA-256 ([0-9a-f]{64})/.exec(subject)?.[1] : undefined;
    if (printed !== undefined) {
      conteudoOk =
        check(
          printed === computed,
          printed === computed
            ? "O SHA-256 do conteúdo gravado nos metadados do PDF (o mesmo que o rodapé das páginas mostra) é o mesmo."
            : `O SHA-256 do conteúdo nos metadados do PDF (${printed}) difere do recalculado.`,
        ) && conteudoOk;
    }
    // A refused document may have no signer at all (decision 056); any other needs one.
    const refusedUnsigned = record?.tipo === "recusa" && parties.length === 0;
    const partiesOk = (parties.length > 0 || refusedUnsigned) && parties.every((p) => p.conteudo_sha256 === computed);
    conteudoOk =
      check(
        partiesOk,
        refusedUnsigned
          ? "Documento recusado antes de qualquer assinatura: nenhum signatário nas evidências."
          : partiesOk
            ? `Cada signatário (${parties.length}) está registrado nas evidências com este mesmo SHA-256 do conteúdo.`
            : "Há signatário sem o mesmo SHA-256 do conteúdo, ou nenhum signatário.",
      ) && conteudoOk;
  } else {
    check(false, "Não foi possível recalcular o SHA-256 do conteúdo.");
  }

  // 4. The document's event chain.
  const chain = checkDocumentChainWith(evidence?.eventos, (text) => sha256(text));
  for (const problem of chain.problems) check(false, `Cadeia de eventos: ${problem}.`);
  let cadeiaOk = check(
    chain.ok && chain.count > 0,
    chain.ok && chain.count > 0
      ? `Cadeia de ${chain.count} eventos recalculada: cada evento traz o hash do anterior.`
      : "Cadeia de eventos quebrada ou vazia.",
  );
  const declaredHead = evidence?.cadeia?.hash_final;
  const declaredCount = evidence?.cadeia?.eventos;
  cadeiaOk =
    check(
      chain.head === declaredHead && chain.count === declaredCount,
      chain.head === declaredHead && chain.count === declaredCount
        ? `Hash final da cadeia recalculado igual ao declarado: ${chain.head}.`
        : `Hash final recalculado (${chain.head ?? "—"}, ${chain.count} eventos) difere do declarado (${declaredHead ?? "—"}, ${declaredCount ?? "—"} eventos).`,
    ) && cadeiaOk;
  const printedHead = safeInfo(pdf, "EvidenciasCadeiaSha256");
  cadeiaOk =
    check(
      printedHead !== null && printedHead === chain.head,
      printedHead === chain.head
        ? "O hash final gravado nos metadados do PDF (o mesmo que o Registro de assinaturas mostra) é o mesmo."
        : `O hash final gravado nos metadados do PDF (${printedHead ?? "ausente"}) difere do recalculado — falta, sobra ou mudou um evento.`,
    ) && cadeiaOk;
  const events = Array.isArray(evidence?.eventos) ? evidence.eventos : [];
  const partyEvents = events.filter((e) => e?.action === "document.party_signed").length;
  const completed = events.some((e) => e?.action === "document.signed");
  if (record?.tipo === "recusa") {
    // A refusal: whoever signed before it has their event; the refusal is in the chain.
    const refused = partyEvents >= parties.length && events.some((e) => e?.action === "document.refused");
    cadeiaOk =
      check(
        refused,
        refused
          ? "A recusa tem seu evento na cadeia (e cada assinatura anterior a ela, o seu)."
          : "Falta na cadeia o evento da recusa, ou o de alguma assinatura anterior a ela.",
      ) && cadeiaOk;
  } else {
    const everyParty = parties.length > 0 && partyEvents >= parties.length && completed;
    cadeiaOk =
      check(
        everyParty,
        everyParty
          ? "Cada assinatura tem seu evento “Assinatura registrada” na cadeia, e a conclusão do documento também."
          : "Falta na cadeia o evento de assinatura de algum signatário, ou o de conclusão do documento.",
      ) && cadeiaOk;
  }
  if (record?.tipo === "revogacao") {
    const action = record.item ? "document.optional_consent_revoked" : "document.revoked";
    const revoked = events.some((e) => e?.action === action);
    cadeiaOk =
      check(revoked, revoked ? "A revogação tem seu evento na cadeia." : "Falta na cadeia o evento da revogação.") &&
      cadeiaOk;
  }

  for (const p of parties) info(`${p.nome}: ${partyLevelLine(p)}.`);
  // The patient's Sim/Não to each optional consent, against the frozen model's items (decision 057).
  lines.push(...optionalConsentLines(documentValue, parties));
  // Each signer's comprehension answers (decision 061) and reading record (decision 052).
  lines.push(...comprehensionReadingLines(documentValue, parties, events));
  // A "Registro de recusa/revogação" (decision 056): what it records, and its original.
  if (record)
    lines.push(
      ...choiceRecordLines(record, {
        contentSha256: computed,
        documentValue,
        originalSha256: input.original ? sha256(input.original) : undefined,
      }),
    );

  return { lines, evidence, record, parties, conteudoOk, cadeiaOk, eventos: chain.count };
}

/** A party's level in words, as the evidence records it (the professional's password signature is not a code). */
export function partyLevelLine(p: {
  nivel?: string;
  tipo_assinatura?: string;
  motivo_simples?: string | null;
  codigo_canal?: string | null;
  otp_verificado?: boolean;
}): string {
  if (p.tipo_assinatura === "senha") {
    if (p.nivel !== "avancada" || !p.otp_verificado)
      return "assinatura do profissional por login e senha (senha digitada de novo, sem código)";
    return p.codigo_canal === "caixa_de_saida"
      ? "assinatura eletrônica simples do profissional (servidor de desenvolvimento: senha e código na caixa de saída, sem envio real)"
      : "assinatura eletrônica avançada do profissional (senha e código de uso único enviado ao e-mail da conta)";
  }
  if (p.nivel === "avancada") {
    return p.codigo_canal === "caixa_de_saida"
      ? "assinatura eletrônica simples (servidor de desenvolvimento: código na caixa de saída, sem envio real)"
      : "assinatura eletrônica avançada (código de uso único enviado ao contato cadastrado e confirmado)";
  }
  return `assinatura eletrônica simples${p.motivo_simples ? ` — ${p.motivo_simples.replace(/\.+$/, "")}` : ""}`;
}
