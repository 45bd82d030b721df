import { Fragment } from "react";
import type { Inline } from "@shared/document-model/build-document-model";

/**
 * A run of inlines as React text (bold in <strong>, italic in <em>): resolved text as is (newlines kept by the parent's
 * `whitespace-pre-line`), a missing placeholder as a visible amber chip.
 */
export function InlineText({ inlines }: { inlines: readonly Inline[] }) {
  return (
    <>
      {inlines.map((inline, index) => {
        const node = inline.kind === "text" ? <span>{inline.text}</span> : <MissingVariable name={inline.name} />;
        // Formatting (decision 034) as elements: <strong>/<em>, never markup from the text.
        const italic = inline.italic ? <em>{node}</em> : node;
        const styled = inline.bold ? <strong className="font-semibold">{italic}</strong> : italic;
        return <Fragment key={index}>{styled}</Fragment>;
      })}
    </>
  );
}

/** `{{name}}` with no value: never blank, always visible. */
export function MissingVariable({ name }: { name: string }) {
  return (
    <mark
      data-slot="missing-variable"
      title="Variável sem valor"
      className="mx-0.5 inline-block rounded border border-amber-300 bg-amber-100 px-1 font-mono text-[0.85em] leading-snug text-amber-900"
    >
      {`{{${name}}}`}
    </mark>
  );
}
