/**
 * `npm run verify -- arquivo.pdf [--certificado <impressão digital SHA-256>] [--json]`: checks a
 * sealed Consentir PDF with nothing but the file — no database, no network, no poppler (decision
 * 014): the PAdES seal, the signer certificate, the embedded content and evidence, the document's
 * event chain. Prints a pt-BR report; exits 0 only when everything holds, 1 when a check fails,
 * 2 on a usage error. The expected fingerprint may also come from CONSENTIR_CERTIFICADO_SHA256.
 */
import { readFileSync } from "node:fs";
import { formatSignedPdfReport, verifySignedPdf } from "../services/sealing/verify-signed-pdf.js";

const USAGE = "Uso: npm run verify -- arquivo.pdf [--certificado <impressão digital SHA-256 do selo>] [--json]";

function main(argv: string[]): number {
  let file: string | undefined;
  let expected = process.env.CONSENTIR_CERTIFICADO_SHA256 || undefined;
  let json = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--certificado") expected = argv[++i];
    else if (arg.startsWith("--certificado=")) expected = arg.slice("--certificado=".length);
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
  const report = verifySignedPdf(pdf, { expectedFingerprint: expected });
  console.log(json ? JSON.stringify(report, null, 2) : formatSignedPdfReport(report, file));
  return report.ok ? 0 : 1;
}

process.exitCode = main(process.argv.slice(2));
