import type { Inline } from "@shared/document-model/build-document-model";

/**
 * A run of inlines as React text: resolved text as is (newlines kept by the parent's
 * `whitespace-pre-line`), a missing placeholder as a visible amber chip.
 */
export function InlineText({ inlines }: { inlines: readonly Inline[] }) {
  return (
    <>
      {inlines.map((inline, index) =>
        inline.kind === "text" ? (
          <span key={index}>{inline.text}</span>
        ) : (
          <MissingVariable key={index} name={inline.name} />
        ),
      )}
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
