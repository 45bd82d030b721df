import type { DocumentOptionalConsent } from "@shared/document-model/build-document-model";
import { OPTIONAL_CONSENT_MESSAGES } from "@shared/document-model/optional-consents";
import { InlineText } from "@/components/document/inline-text";

export type OptionalChoices = Record<string, boolean | undefined>;

/**
 * The separate optional consents (decision 057): one question per item, Sim or Não, none chosen
 * beforehand. Each answer is the signer's own choice for that item and does not change the
 * signature of the term.
 */
export function OptionalConsentsField({
  items,
  choices,
  onChange,
  invalid,
  disabled,
}: {
  items: readonly DocumentOptionalConsent[];
  choices: OptionalChoices;
  onChange: (id: string, aceito: boolean) => void;
  invalid: boolean;
  disabled?: boolean;
}) {
  return (
    <div className="grid gap-3" data-testid="optional-consents">
      <div className="grid gap-1">
        <h2 className="text-base font-semibold">{OPTIONAL_CONSENT_MESSAGES.heading}</h2>
        <p className="text-sm text-muted-foreground">{OPTIONAL_CONSENT_MESSAGES.hint}</p>
      </div>
      {items.map((item) => {
        const chosen = choices[item.id];
        const missing = invalid && chosen === undefined;
        return (
          <fieldset
            key={item.id}
            className={`grid gap-2 rounded-lg border p-3 ${missing ? "border-destructive" : "border-input"}`}
            data-optional-id={item.id}
            aria-invalid={missing || undefined}
          >
            <legend className="px-1 text-sm font-semibold break-words">{item.title}</legend>
            {item.paragraphs.map((paragraph, index) => (
              <p key={index} className="text-sm break-words whitespace-pre-line">
                <InlineText inlines={paragraph} />
              </p>
            ))}
            <div className="grid grid-cols-2 gap-2">
              {([true, false] as const).map((aceito) => (
                <label
                  key={String(aceito)}
                  className={`flex min-h-11 cursor-pointer items-center justify-center gap-2 rounded-md border px-3 text-base font-medium ${
                    chosen === aceito ? "border-primary bg-primary/10 text-primary" : "border-input"
                  }`}
                >
                  <input
                    type="radio"
                    name={`opcional-${item.id}`}
                    checked={chosen === aceito}
                    onChange={() => onChange(item.id, aceito)}
                    disabled={disabled}
                    className="size-5 accent-primary"
                  />
                  {aceito ? OPTIONAL_CONSENT_MESSAGES.yes : OPTIONAL_CONSENT_MESSAGES.no}
                </label>
              ))}
            </div>
          </fieldset>
        );
      })}
    </div>
  );
}
