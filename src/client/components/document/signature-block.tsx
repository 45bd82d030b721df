import type { Inline } from "@shared/document-model/build-document-model";
import { InlineText } from "./inline-text";

/** Splits inlines at the newlines inside their text (a paragraph's lines). */
export function splitInlineLines(inlines: readonly Inline[]): Inline[][] {
  const lines: Inline[][] = [[]];
  for (const inline of inlines) {
    if (inline.kind === "missing") {
      lines[lines.length - 1]!.push(inline);
      continue;
    }
    inline.text.split("\n").forEach((part, index) => {
      if (index > 0) lines.push([]);
      if (part !== "") lines[lines.length - 1]!.push({ ...inline, text: part });
    });
  }
  return lines.filter((line) => line.length > 0);
}

/** A date or place line ("Data: …", "Local e data: …") is not signed. */
const DATE_OR_PLACE = /^\s*(data|local)\b/i;

function isDateOrPlace(lines: readonly Inline[][]): boolean {
  const first = lines[0]?.[0];
  return lines.length === 1 && first?.kind === "text" && DATE_OR_PLACE.test(first.text);
}

/**
 * One paragraph of a signature section: the signer's line (its last line) goes under a line to
 * sign on; any text before it stays above. A lone date/place line gets no signing line.
 */
export function SignatureBlock({ paragraph }: { paragraph: readonly Inline[] }) {
  const lines = splitInlineLines(paragraph);
  if (lines.length === 0) return null;
  if (isDateOrPlace(lines)) {
    return (
      <p className="break-words">
        <InlineText inlines={lines[0]!} />
      </p>
    );
  }
  const before = lines.slice(0, -1);
  const signer = lines[lines.length - 1]!;
  return (
    <div className="grid gap-2" data-slot="signature-block">
      {before.map((line, index) => (
        <p key={index} className="break-words">
          <InlineText inlines={line} />
        </p>
      ))}
      <div className="grid justify-items-center gap-1 pt-8 text-center">
        <div aria-hidden="true" className="h-px w-full max-w-80 bg-foreground/70" />
        <p className="text-xs break-words text-muted-foreground sm:text-sm">
          <InlineText inlines={signer} />
        </p>
      </div>
    </div>
  );
}
