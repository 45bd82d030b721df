/**
 * What the file holds after the seal's revision (decision 053). Long-term validation appends
 * incremental updates that no signature covers whole: the DSS (validation data) and a document
 * time-stamp. Those are expected; anything else appended after the seal — a changed page, a new
 * annotation, bytes without a cross-reference section — is "atualização incremental posterior ao
 * selo", and the seal no longer speaks for the file as it is.
 *
 * A DSS revision may define only: the catalog, unchanged but for /DSS; the /DSS dictionary; /VRI
 * dictionaries; streams whose dictionary is just /Length (certificates, lists, OCSP answers).
 * A document time-stamp revision (one whose end is where a /DocTimeStamp's byte range ends) may
 * define only: the /DocTimeStamp dictionary, its invisible signature widget, the /AcroForm (other entries
 * unchanged but /Fields), the catalog (unchanged but /AcroForm and /DSS) and pages unchanged but
 * /Annots.
 */
import {
  dictOf,
  nameOf,
  objectIn,
  objectOffsets,
  PdfStructureError,
  type PdfValue,
  readObjectAt,
  readRevisions,
  writeValue,
} from "./pdf-objects.js";

export interface AfterSealRevision {
  kind: "dss" | "carimbo_documento";
  end: number;
}

export type AfterSeal =
  { ok: true; revisions: AfterSealRevision[] } | { ok: false; revisions: AfterSealRevision[]; reason: string };

export const UPDATE_AFTER_SEAL = "atualização incremental posterior ao selo";

/** Entries but `ignored`, written out: equal text means equal values for our writer's subset. */
function sameExcept(a: Map<string, PdfValue> | null, b: Map<string, PdfValue> | null, ignored: string[]): boolean {
  if (!a || !b) return false;
  const strip = (m: Map<string, PdfValue>) =>
    writeValue({
      kind: "dict",
      entries: new Map([...m].filter(([k]) => !ignored.includes(k)).sort(([x], [y]) => (x < y ? -1 : 1))),
    });
  return strip(a) === strip(b);
}

/** A signature field's widget that draws nothing: zero-area /Rect and no appearance (/AP). */
function invisibleSignatureWidget(dict: Map<string, PdfValue> | null): boolean {
  if (!dict || nameOf(dict.get("Subtype")) !== "Widget" || nameOf(dict.get("FT")) !== "Sig" || dict.has("AP"))
    return false;
  const rect = dict.get("Rect");
  return rect?.kind === "array" && rect.items.every((item) => item.kind === "number" && item.value === 0);
}

/**
 * `sealEnd`: where the seal's signed revision ends (its byte range's end). `timestampEnds`: where
 * each document time-stamp's byte range ends.
 */
export function checkAfterSeal(pdf: Buffer, sealEnd: number, timestampEnds: readonly number[]): AfterSeal {
  if (sealEnd === pdf.length) return { ok: true, revisions: [] };
  const fail = (reason: string, revisions: AfterSealRevision[]): AfterSeal => ({
    ok: false,
    revisions,
    reason: `${UPDATE_AFTER_SEAL} (${reason})`,
  });
  let revisions;
  try {
    revisions = readRevisions(pdf);
  } catch (error) {
    return fail(error instanceof PdfStructureError ? error.message : "bytes sem tabela de referências", []);
  }
  const seen: AfterSealRevision[] = [];
  const sealIndex = revisions.findIndex((r) => r.end === sealEnd || r.end === sealEnd + 1 || r.end === sealEnd + 2);
  if (sealIndex < 0) return fail("o selo não termina numa revisão do arquivo", seen);
  if (revisions.at(-1)!.end !== pdf.length) return fail("bytes depois do último %%EOF", seen);
  // The objects as of the revision before the one being checked, kept up to date (one pass).
  const before = objectOffsets(revisions.slice(0, sealIndex + 1));
  for (let i = sealIndex + 1; i < revisions.length; i++) {
    const revision = revisions[i]!;
    const timestamp = timestampEnds.some(
      (end) => end === revision.end || end + 1 === revision.end || end + 2 === revision.end,
    );
    const kind = timestamp ? "carimbo_documento" : "dss";
    try {
      const previousRoot = revisions[i - 1]!.trailer.get("Root");
      const root = revision.trailer.get("Root");
      if (root?.kind !== "ref" || previousRoot?.kind !== "ref" || root.num !== previousRoot.num)
        return fail("o catálogo do documento mudou", seen);
      for (const [num, offset] of revision.defined) {
        const object = readObjectAt(pdf, offset);
        const dict = dictOf(object.value);
        const old = objectIn(pdf, before, num);
        const oldDict = dictOf(old?.value);
        const type = nameOf(dict?.get("Type"));
        let allowed = false;
        if (num === root.num) {
          allowed = sameExcept(dict, oldDict, timestamp ? ["AcroForm", "DSS"] : ["DSS"]);
        } else if (kind === "dss") {
          allowed =
            type === "DSS"
              ? !old || nameOf(oldDict?.get("Type")) === "DSS"
              : !old &&
                (type === "VRI" ||
                  (object.stream !== undefined && dict !== null && [...dict.keys()].every((k) => k === "Length")));
        } else {
          allowed =
            (!old && type === "DocTimeStamp") ||
            (!old && invisibleSignatureWidget(dict)) ||
            (type === "AcroForm" && (!old || sameExcept(dict, oldDict, ["Fields"]))) ||
            (type === "Page" && !!old && sameExcept(dict, oldDict, ["Annots"]));
        }
        if (!allowed) return fail(`objeto ${num} alterado ou acrescentado`, seen);
      }
    } catch (error) {
      return fail(error instanceof PdfStructureError ? error.message : "revisão ilegível", seen);
    }
    seen.push({ kind, end: revision.end });
    for (const [num, offset] of revision.defined) before.set(num, offset);
  }
  return { ok: true, revisions: seen };
}
