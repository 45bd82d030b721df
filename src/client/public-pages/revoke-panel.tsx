import { FileX2, ShieldCheck } from "lucide-react";
import type * as React from "react";
import { useEffect, useRef, useState } from "react";
import { CHOICE_MESSAGES, recordCopyLine } from "@shared/schemas/choices";
import type { SigningPage } from "@shared/schemas/signing";
import { ChoiceForm } from "./choice-form";
import { CodeStep } from "./code-step";
import { buttonClasses, Notice, Panel, PlainButton } from "./components/public-shell";
import { formatDateTime } from "./lib/format";
import type { DocumentOptionalConsent } from "@shared/document-model/build-document-model";

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
 *
 * `item`: the same steps for one optional consent answered "Sim" (decision 057) — a compact offer
 * ("Revogar esta autorização"), then the code, the form and the confirmation as for the whole
 * consent, sent to that item's route; once revoked, when and its record's code.
 */
export function RevokePanel({
  token,
  page,
  justRevoked,
  onRevoked,
  onAlreadyRevoked,
  onInvalid,
  item,
}: {
  token: string;
  page: SigningPage;
  justRevoked: boolean;
  /** One optional consent only: its id and title, and when it was revoked (with its record's code). */
  item?: { id: string; title: string; revogado_em: string | null; codigo_verificacao: string | null };
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

  if (item?.revogado_em) {
    return (
      <Notice
        tone={justRevoked ? "success" : "info"}
        title={justRevoked ? CHOICE_MESSAGES.itemRevoked : CHOICE_MESSAGES.revokedAt(formatDateTime(item.revogado_em))}
        data-testid={`item-revoked-${item.id}`}
      >
        <span className="grid gap-2">
          {justRevoked ? (
            <span className="font-medium">{CHOICE_MESSAGES.revokedAt(formatDateTime(item.revogado_em))}</span>
          ) : null}
          {justRevoked ? <span>{recordCopyLine("revogacao", page)}</span> : null}
          {item.codigo_verificacao ? (
            <span>
              {CHOICE_MESSAGES.itemRevokedCode}{" "}
              <a
                href={`/verificar/${encodeURIComponent(item.codigo_verificacao)}`}
                className="font-mono font-semibold underline underline-offset-2"
                data-testid="item-revocation-code"
              >
                {item.codigo_verificacao}
              </a>
            </span>
          ) : null}
        </span>
      </Notice>
    );
  }

  if (!item && revocation.revogado_em) {
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
          {justRevoked ? <span>{recordCopyLine("revogacao", page)}</span> : null}
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
    <div
      ref={stepRef}
      tabIndex={-1}
      className="grid rounded-xl outline-none"
      aria-label={item ? CHOICE_MESSAGES.itemRevokeTitle(item.title) : CHOICE_MESSAGES.revokeTitle}
    >
      {children}
    </div>
  );

  const toOffer = () => {
    setFormCode(undefined);
    setStep({ kind: "offer" });
  };
  const start = () => {
    if (revocation.codigo_obrigatorio) return setStep({ kind: "code", error: null });
    setFormCode(null);
    setStep({ kind: "form" });
  };
  return focusable(
    <>
      {step.kind === "offer" && item ? (
        <PlainButton
          variant="outline"
          className="w-full sm:w-fit"
          onClick={start}
          aria-label={CHOICE_MESSAGES.itemRevokeTitle(item.title)}
          data-testid={`item-revoke-${item.id}`}
        >
          <FileX2 aria-hidden /> {CHOICE_MESSAGES.itemRevokeButton}
        </PlainButton>
      ) : null}
      {step.kind === "offer" && !item ? (
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
          <PlainButton variant="outline" className="w-full sm:w-fit" onClick={start}>
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
            {...(item ? { item: { id: item.id, title: item.title } } : {})}
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

/**
 * "Suas autorizações opcionais" on a signed, unrevoked link (decision 057): each item answered
 * "Sim" with its own "Revogar esta autorização" (the panel above in item mode), or when it was
 * revoked. Nothing when no item was answered "Sim".
 */
export function OptionalRevocations({
  token,
  page,
  items,
  justRevokedItem,
  onRevoked,
  onInvalid,
  onReload,
}: {
  token: string;
  page: SigningPage;
  items: readonly DocumentOptionalConsent[];
  justRevokedItem: string | null;
  onRevoked: (id: string) => void;
  onInvalid: () => void;
  onReload: () => void;
}) {
  const answers = new Map((page.consentimentos_opcionais ?? []).map((a) => [a.id, a]));
  const accepted = items.filter((item) => answers.get(item.id)?.aceito === true);
  if (accepted.length === 0) return null;
  return (
    <Panel className="gap-3" aria-labelledby="optional-revocations-title" data-testid="optional-revocations">
      <div className="grid gap-1">
        <h2 id="optional-revocations-title" className="flex items-center gap-2 text-base font-semibold">
          <ShieldCheck className="size-5 text-primary" aria-hidden /> {CHOICE_MESSAGES.itemsHeading}
        </h2>
        <p className="text-sm text-muted-foreground">{CHOICE_MESSAGES.itemsIntro}</p>
      </div>
      <ul className="grid gap-3">
        {accepted.map((item) => {
          const answer = answers.get(item.id);
          return (
            <li key={item.id} className="grid gap-2 rounded-lg border p-3" data-optional-revocation={item.id}>
              <span className="font-medium break-words">{item.title}</span>
              <RevokePanel
                token={token}
                page={page}
                justRevoked={justRevokedItem === item.id}
                item={{
                  id: item.id,
                  title: item.title,
                  revogado_em: answer?.revogado_em ?? null,
                  codigo_verificacao: answer?.codigo_revogacao ?? null,
                }}
                onRevoked={() => onRevoked(item.id)}
                onAlreadyRevoked={onReload}
                onInvalid={onInvalid}
              />
            </li>
          );
        })}
      </ul>
    </Panel>
  );
}
