import { FileX2, ShieldCheck } from "lucide-react";
import type * as React from "react";
import { useEffect, useRef, useState } from "react";
import { CHOICE_MESSAGES } from "@shared/schemas/choices";
import type { SigningPage } from "@shared/schemas/signing";
import { ChoiceForm } from "./choice-form";
import { CodeStep } from "./code-step";
import { buttonClasses, Notice, Panel, PlainButton } from "./components/public-shell";
import { formatDateTime } from "./lib/format";

type Step =
  | { kind: "offer" }
  /** The code the clinic asks for (decision 056); `error`: the revocation refused the one kept. */
  | { kind: "code"; error: string | null }
  | { kind: "form" };

/**
 * The patient's (or guardian's) revocation of a signed consent on their own link (decision 056):
 * what revoking means, then the same checks as the signature — the code when the clinic asks for
 * it, name, CPF, an optional reason — and a confirmation. A revoked consent shows when, and the
 * record's code; no button. The page gives `page.revogacao` to the patient's link only, never a
 * witness's, and only once every party has signed.
 */
export function RevokePanel({
  token,
  page,
  justRevoked,
  onRevoked,
  onAlreadyRevoked,
  onInvalid,
}: {
  token: string;
  page: SigningPage;
  justRevoked: boolean;
  onRevoked: () => void;
  /** Revoked meanwhile elsewhere (another tab, the clinic): the page reloads, no "your revocation" banner. */
  onAlreadyRevoked: () => void;
  onInvalid: () => void;
}) {
  const [step, setStep] = useState<Step>({ kind: "offer" });
  // The code the form sends (null: none asked); undefined: the form is not open.
  const [formCode, setFormCode] = useState<string | null | undefined>(undefined);
  // Each step replaces the one before, with the button just pressed: keyboard and screen-reader
  // focus follows to the new step (not on the first render).
  const stepRef = useRef<HTMLDivElement>(null);
  const moved = useRef(false);
  useEffect(() => {
    if (!moved.current) {
      moved.current = true;
      return;
    }
    stepRef.current?.focus();
  }, [step.kind]);
  const revocation = page.revogacao;
  if (!revocation) return null;

  if (revocation.revogado_em) {
    return (
      <Notice
        tone={justRevoked ? "success" : "info"}
        title={
          justRevoked ? CHOICE_MESSAGES.revoked : CHOICE_MESSAGES.revokedAt(formatDateTime(revocation.revogado_em))
        }
        data-testid="revoked-state"
      >
        <span className="grid gap-2">
          {justRevoked ? (
            <span className="font-medium">{CHOICE_MESSAGES.revokedAt(formatDateTime(revocation.revogado_em))}</span>
          ) : null}
          <span>{justRevoked ? CHOICE_MESSAGES.revokedText : CHOICE_MESSAGES.revokedNoticeText}</span>
          {justRevoked ? (
            <span>
              {page.email_configurado
                ? CHOICE_MESSAGES.revokedCopyByEmail(page.copia_para)
                : CHOICE_MESSAGES.revokedCopyAtClinic}
            </span>
          ) : null}
          {revocation.codigo_verificacao ? (
            <>
              <span>
                Código do registro de revogação:{" "}
                <span className="font-mono font-semibold" data-testid="revocation-code">
                  {revocation.codigo_verificacao}
                </span>
              </span>
              <a
                href={`/verificar/${encodeURIComponent(revocation.codigo_verificacao)}`}
                className={buttonClasses("outline", "w-full text-foreground sm:w-fit")}
                data-testid="revocation-check"
              >
                <ShieldCheck aria-hidden /> {CHOICE_MESSAGES.revokedCheck}
              </a>
            </>
          ) : null}
        </span>
      </Notice>
    );
  }

  const focusable = (children: React.ReactNode) => (
    <div ref={stepRef} tabIndex={-1} className="grid rounded-xl outline-none" aria-label={CHOICE_MESSAGES.revokeTitle}>
      {children}
    </div>
  );

  const toOffer = () => {
    setFormCode(undefined);
    setStep({ kind: "offer" });
  };
  return focusable(
    <>
      {step.kind === "offer" ? (
        <Panel className="gap-3" aria-labelledby="revoke-offer-title" data-testid="revoke-offer">
          <h2 id="revoke-offer-title" className="flex items-center gap-2 text-base font-semibold">
            <ShieldCheck className="size-5 text-primary" aria-hidden /> {CHOICE_MESSAGES.revokeOfferTitle}
          </h2>
          <ul className="grid list-disc gap-1.5 pl-5 text-sm text-muted-foreground">
            {CHOICE_MESSAGES.revokeOfferPoints.map((point) => (
              <li key={point}>{point}</li>
            ))}
            <li>{CHOICE_MESSAGES.revokeOfferChecks(revocation.codigo_obrigatorio)}</li>
          </ul>
          <PlainButton
            variant="outline"
            className="w-full sm:w-fit"
            onClick={() => {
              if (revocation.codigo_obrigatorio) return setStep({ kind: "code", error: null });
              setFormCode(null);
              setStep({ kind: "form" });
            }}
          >
            <FileX2 aria-hidden /> {CHOICE_MESSAGES.revokeOfferButton}
          </PlainButton>
        </Panel>
      ) : null}
      {step.kind === "code" ? (
        <div className="grid gap-2" data-testid="revoke-code">
          <CodeStep
            token={token}
            page={page}
            revoking
            initialError={step.error}
            onAlreadyRevoked={onAlreadyRevoked}
            onVerified={(_page, code) => {
              setFormCode(code);
              setStep({ kind: "form" });
            }}
            onInvalid={onInvalid}
          />
          <PlainButton variant="outline" className="w-full sm:w-fit" onClick={toOffer}>
            Voltar
          </PlainButton>
        </div>
      ) : null}
      {formCode !== undefined ? (
        // Kept while a refused code is asked again: what the patient typed is not lost.
        <div hidden={step.kind !== "form"} className="grid">
          <ChoiceForm
            token={token}
            page={page}
            tipo="revogacao"
            code={formCode}
            onDone={() => onRevoked()}
            onInvalid={onInvalid}
            onClose={toOffer}
            onCodeRejected={(message) => setStep({ kind: "code", error: message })}
            onAlreadyDone={onAlreadyRevoked}
          />
        </div>
      ) : null}
    </>,
  );
}
