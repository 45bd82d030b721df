import type { DocumentOptionalConsent } from "@shared/document-model/build-document-model";
import { answerLabel, OPTIONAL_CONSENT_MESSAGES } from "@shared/document-model/optional-consents";
import { formatDateTimeAt } from "@shared/format";
import { CHOICE_MESSAGES } from "@shared/schemas/choices";
import { InlineText } from "./inline-text";

/**
 * The document's separate optional consents (decision 057) as offered: each item, and the
 * signer's Sim/Não when there are answers; otherwise a line saying they are answered when signing.
 */
export function OptionalConsentsView({
  items,
  answers,
}: {
  items: readonly DocumentOptionalConsent[];
  /** `revogado_em`: a "Sim" revoked on its own later (decision 057). */
  answers: readonly { id: string; aceito: boolean; revogado_em?: string | null }[] | null;
}) {
  const answerOf = new Map((answers ?? []).map((a) => [a.id, a.aceito]));
  const revokedOf = new Map((answers ?? []).map((a) => [a.id, a.revogado_em ?? null]));
  return (
    <section className="grid gap-3 rounded-lg border border-dashed p-4" data-testid="optional-consents-view">
      <div className="grid gap-1">
        <h3 className="font-semibold">{OPTIONAL_CONSENT_MESSAGES.heading}</h3>
        {answers ? null : <p className="text-xs text-muted-foreground">{OPTIONAL_CONSENT_MESSAGES.previewHint}</p>}
      </div>
      <ul className="grid gap-3">
        {items.map((item) => {
          const aceito = answerOf.get(item.id);
          return (
            <li key={item.id} className="grid gap-1" data-optional-id={item.id}>
              <div className="flex flex-wrap items-baseline justify-between gap-2">
                <span className="font-medium break-words">{item.title}</span>
                {aceito === undefined ? null : (
                  <span
                    className={`rounded-full px-2 py-0.5 text-xs font-semibold ${aceito ? "bg-emerald-100 text-emerald-800" : "bg-muted text-foreground"}`}
                    data-testid="optional-answer"
                  >
                    {answerLabel(aceito)}
                  </span>
                )}
              </div>
              {revokedOf.get(item.id) ? (
                <span className="text-xs font-semibold text-amber-800" data-testid="optional-revoked">
                  {CHOICE_MESSAGES.revokedAt(formatDateTimeAt(revokedOf.get(item.id)!))}
                </span>
              ) : null}
              {item.paragraphs.map((paragraph, index) => (
                <p key={index} className="text-sm break-words whitespace-pre-line text-muted-foreground">
                  <InlineText inlines={paragraph} />
                </p>
              ))}
            </li>
          );
        })}
      </ul>
    </section>
  );
}
