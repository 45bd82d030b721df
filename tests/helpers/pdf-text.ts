import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import type { FastifyInstance } from "fastify";
import type { SignedIn } from "./sessions.js";

const words = (file: string, args: string[]) =>
  execFileSync("pdftotext", [...args, file, "-"])
    .toString("utf8")
    .split(/\s+/)
    .filter(Boolean);

/**
 * The diagonal text of a PDF page (a watermark), as the sorted list of its non-space characters.
 * pdftotext cuts diagonal text into fragments interleaved with the page's lines; `-nodiag` leaves
 * it out, so what the plain extraction has beyond the -nodiag one is the diagonal text. Sorted,
 * because identical fragments ("e") may be told apart in the wrong order.
 */
export function diagonalChars(file: string, page: number): string {
  const range = ["-f", String(page), "-l", String(page)];
  const straight = new Map<string, number>();
  for (const word of words(file, [...range, "-nodiag"])) straight.set(word, (straight.get(word) ?? 0) + 1);
  const diagonal = words(file, range).filter((word) => {
    const left = straight.get(word) ?? 0;
    if (left === 0) return true;
    straight.set(word, left - 1);
    return false;
  });
  return sortedChars(diagonal.join(""));
}

/** The non-space characters of `text`, sorted (to compare with diagonalChars). */
export function sortedChars(text: string): string {
  return Array.from(text.replace(/\s+/g, "")).sort().join("");
}

export function pageCount(file: string): number {
  return Number(/Pages:\s+(\d+)/.exec(execFileSync("pdfinfo", [file]).toString("utf8"))![1]);
}

/**
 * The sealed PDF of a signed document, as its text (white space folded): the worker runs a round
 * (to seal it), the PDF is downloaded as `who` and kept at `file` to look at.
 */
export async function sealedPdfText(
  app: FastifyInstance,
  who: SignedIn,
  documentId: string,
  file: string,
): Promise<string> {
  await app.worker.tick();
  const pdf = await app.inject({
    method: "GET",
    url: `/api/documents/${documentId}/signed-pdf`,
    headers: { cookie: who.cookie },
  });
  if (pdf.statusCode !== 200) throw new Error(`signed-pdf: ${pdf.statusCode} ${pdf.body}`);
  writeFileSync(file, pdf.rawPayload);
  return execFileSync("pdftotext", [file, "-"], { encoding: "utf8" }).replace(/\s+/g, " ");
}
