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

/** The keys a post-seal trailer may carry: no /XRefStm (a hybrid file's second table), /Encrypt or new /Info. */
const TRAILER_KEYS = new Set(["Size", "Root", "Prev", "ID", "Info"]);
/** A document time-stamp's dictionary (ETSI EN 319 142-1, 5.4.3): nothing that draws. */
const DOC_TIMESTAMP_KEYS = new Set([
  "Type",
  "Filter",
  "SubFilter",
  "ByteRange",
  "Contents",
  "M",
  "Name",
  "Reason",
  "Location",
  "ContactInfo",
  "Prop_Build",
  "Reference",
]);
const WIDGET_KEYS = new Set(["Type", "Subtype", "FT", "Rect", "V", "T", "F", "P"]);

const onlyKeys = (dict: Map<string, PdfValue> | null, keys: Set<string>) =>
  !!dict && [...dict.keys()].every((k) => keys.has(k));
const refNums = (value: PdfValue | undefined): number[] | null =>
  value === undefined
    ? []
    : value.kind === "array" && value.items.every((item) => item.kind === "ref")
      ? value.items.map((item) => (item as { num: number }).num)
      : null;
/** `next` is `previous` plus some of `added`, in order: an array of references that only grew by them. */
function grewBy(previous: PdfValue | undefined, next: PdfValue | undefined, added: Set<number>): boolean {
  const before = refNums(previous);
  const after = refNums(next);
  if (!before || !after || after.length < before.length) return false;
  return before.every((num, i) => after[i] === num) && after.slice(before.length).every((num) => added.has(num));
}

/**
 * `sealEnd`: where the seal's signed revision ends (its byte range's end). `timestampEnds`: where
 * each document time-stamp's byte range ends.
 */
export function checkAfterSeal(pdf: Uint8Array, sealEnd: number, timestampEnds: readonly number[]): AfterSeal {
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
      const previousTrailer = revisions[i - 1]!.trailer;
      const previousRoot = previousTrailer.get("Root");
      const root = revision.trailer.get("Root");
      if (root?.kind !== "ref" || previousRoot?.kind !== "ref" || root.num !== previousRoot.num)
        return fail("o catálogo do documento mudou", seen);
      if (![...revision.trailer.keys()].every((key) => TRAILER_KEYS.has(key)))
        return fail("o trailer traz chaves que um leitor usaria para redefinir objetos", seen);
      const info = revision.trailer.get("Info");
      const previousInfo = previousTrailer.get("Info");
      if (info && (!previousInfo || writeValue(info) !== writeValue(previousInfo)))
        return fail("o dicionário /Info mudou", seen);
      // A free entry takes an object away from every viewer: after the seal, nothing may go.
      for (const num of revision.freed) if (objectIn(pdf, before, num)) return fail(`objeto ${num} apagado`, seen);
      // What a time-stamp revision may reference from pages and fields: its own invisible widgets.
      const stamps = new Set<number>();
      const widgets = new Set<number>();
      if (timestamp) {
        for (const [num, offset] of revision.defined) {
          const dict = dictOf(readObjectAt(pdf, offset).value);
          if (nameOf(dict?.get("Type")) === "DocTimeStamp") stamps.add(num);
        }
        for (const [num, offset] of revision.defined) {
          const dict = dictOf(readObjectAt(pdf, offset).value);
          const target = dict?.get("V");
          if (
            invisibleSignatureWidget(dict) &&
            onlyKeys(dict, WIDGET_KEYS) &&
            target?.kind === "ref" &&
            stamps.has(target.num)
          )
            widgets.add(num);
        }
      }
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
            (!old && stamps.has(num) && object.stream === undefined && onlyKeys(dict, DOC_TIMESTAMP_KEYS)) ||
            (!old && widgets.has(num)) ||
            (type === "AcroForm" &&
              object.stream === undefined &&
              (old
                ? sameExcept(dict, oldDict, ["Fields"]) && grewBy(oldDict?.get("Fields"), dict?.get("Fields"), widgets)
                : onlyKeys(dict, new Set(["Type", "Fields", "SigFlags"])) &&
                  grewBy(undefined, dict?.get("Fields"), widgets))) ||
            (type === "Page" &&
              !!old &&
              sameExcept(dict, oldDict, ["Annots"]) &&
              grewBy(oldDict?.get("Annots"), dict?.get("Annots"), widgets));
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
