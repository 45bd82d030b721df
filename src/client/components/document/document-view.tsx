import { Fragment, type ReactNode } from "react";
import type { DocumentModel, DocumentSection, Inline } from "@shared/document-model/build-document-model";
import { sectionBlocks } from "@shared/document-model/section-blocks";
import { cn } from "@/lib/utils";
import { InlineText } from "./inline-text";
import { SignatureBlock } from "./signature-block";
import { OptionalConsentsView } from "./optional-consents-view";

/**
 * Draws a DocumentModel (spec part 2 §3; DESIGN.md §2): the same model the PDF renderer draws.
 * Text only: user content is never turned into HTML.
 */
export function DocumentView({
  model,
  className,
  sectionTools,
  optional_consents = "list",
  optionalAnswers,
}: {
  model: DocumentModel;
  className?: string;
  /** Controls drawn beside each section's title (the signing page's "Ouvir", decision 052). */
  sectionTools?: (section: DocumentSection) => ReactNode;
  /**
   * The optional consents (decision 057): listed as offered (default), with the signer's answers
   * when given, or left out where the page asks them itself (the signing form).
   */
  optional_consents?: "list" | "hidden";
  optionalAnswers?: readonly { id: string; aceito: boolean; revogado_em?: string | null }[] | null;
}) {
  const hasIntroduction = model.introduction.length > 0;
  // Before the signature section, as in the PDF (decision 057).
  const signatureAt = model.sections.findIndex((section) => section.type === "signature");
  const optional =
    optional_consents === "list" && model.optional_consents?.length ? (
      <OptionalConsentsView items={model.optional_consents} answers={optionalAnswers ?? null} />
    ) : null;
  return (
    <article
      data-slot="document-view"
      className={cn(
        "mx-auto grid w-full max-w-3xl gap-6 text-sm leading-relaxed text-foreground sm:text-[0.95rem]",
        className,
      )}
    >
      {model.title.trim() ? (
        <h2 className="text-center text-lg font-semibold tracking-tight text-balance break-words sm:text-xl">
          {model.title}
        </h2>
      ) : null}
      {hasIntroduction ? (
        <p className="whitespace-pre-line break-words sm:text-justify">
          <InlineText inlines={model.introduction} />
        </p>
      ) : null}
      {model.sections.map((section, index) => (
        <Fragment key={section.id}>
          {index === signatureAt ? optional : null}
          <DocumentSectionView section={section} tools={sectionTools?.(section)} />
        </Fragment>
      ))}
      {signatureAt === -1 ? optional : null}
    </article>
  );
}

function DocumentSectionView({ section, tools }: { section: DocumentSection; tools?: ReactNode }) {
  const title = section.title.trim() ? <h3 className="font-semibold break-words">{section.title}</h3> : null;
  const heading = tools ? (
    <div className="flex items-start justify-between gap-2">
      {title ?? <span />}
      {tools}
    </div>
  ) : (
    title
  );
  const paragraphs = section.paragraphs ?? [];
  const items = section.items ?? [];

  switch (section.type) {
    case "bullet_list":
    case "numbered_list":
      return (
        <section data-section-id={section.id} className="grid gap-2" data-section-type={section.type}>
          {heading}
          {items.length > 0 ? <BlockList ordered={section.type === "numbered_list"} start={1} items={items} /> : null}
        </section>
      );
    case "patient_data":
      return (
        <section
          className="grid gap-2 rounded-lg border bg-muted/40 p-4"
          data-section-type="patient_data"
          aria-label={section.title.trim() || "Dados do Paciente"}
        >
          {heading ?? (
            <h3 className="text-xs font-semibold tracking-wide text-muted-foreground uppercase">Dados do Paciente</h3>
          )}
          {paragraphs.map((paragraph, index) => (
            <p key={index} className="whitespace-pre-line break-words">
              <InlineText inlines={paragraph} />
            </p>
          ))}
        </section>
      );
    case "signature":
      return (
        <section data-section-id={section.id} className="grid gap-4" data-section-type="signature">
          {heading}
          {paragraphs.length > 0 ? (
            paragraphs.map((paragraph, index) => <SignatureBlock key={index} paragraph={paragraph} />)
          ) : (
            <div aria-hidden="true" className="mx-auto mt-8 h-px w-full max-w-80 bg-foreground/70" />
          )}
        </section>
      );
    default:
      return (
        <section data-section-id={section.id} className="grid gap-2" data-section-type="paragraph">
          {heading}
          {sectionBlocks(section).map((block, index) =>
            block.kind === "paragraph" ? (
              <p key={index} className="whitespace-pre-line break-words sm:text-justify">
                <InlineText inlines={block.inlines} />
              </p>
            ) : (
              <BlockList key={index} ordered={block.ordered} start={block.start} items={block.items} />
            ),
          )}
        </section>
      );
  }
}

function BlockList({ ordered, start, items }: { ordered: boolean; start: number; items: Inline[][] }) {
  const List = ordered ? "ol" : "ul";
  return (
    <List
      className={cn("grid gap-1 pl-6 break-words", ordered ? "list-decimal" : "list-disc")}
      start={ordered && start !== 1 ? start : undefined}
    >
      {items.map((item, index) => (
        <li key={index} className="pl-1 whitespace-pre-line">
          <InlineText inlines={item} />
        </li>
      ))}
    </List>
  );
}
