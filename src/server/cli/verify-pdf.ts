/**
 * `npm run verify -- arquivo.pdf [--certificado <SHA-256>] [--confiaveis <arquivo>] [--raizes <raizes.pem>]
 * [--original <assinado.pdf>] [--json]`: checks a
 * sealed Consentir PDF with nothing but the file — no database, no network, no poppler (decision
 * 014): the PAdES seal, the signer certificate, the embedded content and evidence, the document's
 * event chain. Prints a pt-BR report; exits 0 only when everything holds and the seal's
 * certificate is confirmed, 1 when a check fails (a seal by another certificate included), 2 on a
 * usage error, 3 when everything holds but no trusted certificate was given to confirm the seal.
 * The expected fingerprint may also come from CONSENTIR_CERTIFICADO_SHA256; --confiaveis reads a
 * list of trusted fingerprints: the JSON of /api/public/seal-certificates, or one per line;
 * --raizes a PEM file of the official ICP-Brasil roots (ITI's AC Raiz), against which each
 * signature's chain is checked and reported; the seal's holder is still confirmed only by a
 * fingerprint (decision 060). For a "Registro de revogação", --original names the signed PDF it
 * revokes, checked to be that very file (decision 056).
 */
import { readFileSync } from "node:fs";
import { type OfficialRoots, parseOfficialRoots } from "../services/certificates/official-roots.js";
import { readTrustList } from "../services/sealing/trust-list.js";
import {
  formatSignedPdfReport,
  type TrustedCertificate,
  verifySignedPdf,
} from "../services/sealing/verify-signed-pdf.js";

const USAGE =
  "Uso: npm run verify -- arquivo.pdf [--certificado <impressão digital SHA-256 do selo>] [--confiaveis <lista.json|lista.txt>] [--raizes <raizes.pem>] [--original <assinado.pdf>] [--json]";

function main(argv: string[]): number {
  let file: string | undefined;
  let expected = process.env.CONSENTIR_CERTIFICADO_SHA256 || undefined;
  let json = false;
  let trustFile: string | undefined;
  let rootsFile: string | undefined;
  let originalFile: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--certificado") expected = argv[++i];
    else if (arg.startsWith("--certificado=")) expected = arg.slice("--certificado=".length);
    else if (arg === "--confiaveis") trustFile = argv[++i];
    else if (arg.startsWith("--confiaveis=")) trustFile = arg.slice("--confiaveis=".length);
    else if (arg === "--raizes") rootsFile = argv[++i];
    else if (arg.startsWith("--raizes=")) rootsFile = arg.slice("--raizes=".length);
    else if (arg === "--original") originalFile = argv[++i];
    else if (arg.startsWith("--original=")) originalFile = arg.slice("--original=".length);
    else if (arg === "--json") json = true;
    else if (arg === "--help" || arg === "-h") {
      console.log(USAGE);
      return 0;
    } else if (!file) file = arg;
    else {
      console.error(USAGE);
      return 2;
    }
  }
  if (!file || (expected !== undefined && !expected)) {
    console.error(USAGE);
    return 2;
  }
  let pdf: Buffer;
  try {
    pdf = readFileSync(file);
  } catch (error) {
    console.error(`Não foi possível ler ${file}: ${error instanceof Error ? error.message : String(error)}`);
    return 2;
  }
  let trusted: TrustedCertificate[] | undefined;
  if (trustFile !== undefined) {
    try {
      trusted = readTrustList(readFileSync(trustFile, "utf8"), trustFile);
    } catch (error) {
      console.error(
        `Não foi possível ler a lista de certificados confiáveis ${trustFile}: ${error instanceof Error ? error.message : String(error)}`,
      );
      return 2;
    }
  }
  let roots: OfficialRoots | undefined;
  if (rootsFile !== undefined) {
    try {
      roots = parseOfficialRoots(readFileSync(rootsFile, "utf8"));
    } catch (error) {
      console.error(
        `Não foi possível ler as raízes oficiais ${rootsFile}: ${error instanceof Error ? error.message : String(error)}`,
      );
      return 2;
    }
  }
  let original: Buffer | undefined;
  if (originalFile !== undefined) {
    try {
      original = readFileSync(originalFile);
    } catch (error) {
      console.error(
        `Não foi possível ler o PDF original ${originalFile}: ${error instanceof Error ? error.message : String(error)}`,
      );
      return 2;
    }
  }
  const report = verifySignedPdf(pdf, { expectedFingerprint: expected, trusted, roots, original });
  console.log(json ? JSON.stringify(report, null, 2) : formatSignedPdfReport(report, file));
  if (!report.ok) return 1;
  return report.certificado_ok === true ? 0 : 3;
}

process.exitCode = main(process.argv.slice(2));
