import { MailCheck } from "lucide-react";
import type * as React from "react";
import { useEffect, useId, useState } from "react";
import type { SigningPage } from "@shared/schemas/signing";
import { OTP_DIGITS, SIGNING_MESSAGES } from "@shared/signing-rules";
import { Spinner } from "./components/spinner";
import { Panel, PlainButton } from "./components/public-shell";
import { withDestination } from "./lib/format";
import { publicFetch } from "./lib/http";

type CodeCanal = "email" | "sms" | "whatsapp";
const SENT_TEXT: Record<CodeCanal, string> = {
  email: SIGNING_MESSAGES.otpSent,
  sms: SIGNING_MESSAGES.otpSentSms,
  whatsapp: SIGNING_MESSAGES.otpSentWhatsapp,
};
const FIRST_TEXT: Record<CodeCanal, string> = {
  email: SIGNING_MESSAGES.codeFirst,
  sms: SIGNING_MESSAGES.codeFirstSms,
  whatsapp: SIGNING_MESSAGES.codeFirstWhatsapp,
};
const CANAL_NAME: Record<CodeCanal, string> = { email: "E-mail", sms: "SMS", whatsapp: "WhatsApp" };

/** Where a WhatsApp code went instead when WhatsApp could not deliver it (decision 066). */
const FALLBACK_TEXT: Record<"email" | "sms", string> = {
  email: SIGNING_MESSAGES.otpFallbackEmail,
  sms: SIGNING_MESSAGES.otpFallbackSms,
};
/** How often the page asks where a WhatsApp code really went, and for how long. */
const DELIVERY_EVERY_MS = 4000;
const DELIVERY_WATCH_MS = 15 * 60_000;

/** Revoking a signed consent (decision 056): what the code is for, said before it is sent. */
const REVOKE_FIRST_TEXT: Record<CodeCanal, string> = {
  email: "Para revogar, confirme que é você: enviaremos um código ao seu e-mail cadastrado.",
  sms: "Para revogar, confirme que é você: enviaremos um código por SMS ao seu celular cadastrado.",
  whatsapp: "Para revogar, confirme que é você: enviaremos um código por WhatsApp ao seu celular cadastrado.",
};

/**
 * Before the whole term and the form: the signer proves control of the e-mail on the patient's
 * record. Enviar código → the 6 digits → Confirmar código; the server answers the
 * page unmasked, and the code is kept to be consumed by the signature.
 *
 * `revoking`: the same step on a signed link (decision 056). There is nothing to unmask, so the
 * code is only kept: the revocation itself checks it (a wrong one comes back from there).
 */
export function CodeStep({
  token,
  page,
  onVerified,
  onInvalid,
  revoking,
  initialError,
  onAlreadyRevoked,
}: {
  token: string;
  page: SigningPage;
  onVerified: (page: SigningPage, code: string) => void;
  onInvalid: () => void;
  revoking?: boolean;
  /** Shown on arrival (the revocation refused the code kept here). */
  initialError?: string | null;
  /** Revoking, and it was revoked meanwhile (another tab, the clinic): the page reloads. */
  onAlreadyRevoked?: () => void;
}) {
  const base = `/api/public/sign/${encodeURIComponent(token)}`;
  const [state, setState] = useState<"idle" | "sending" | "sent" | "verifying">(initialError ? "sent" : "idle");
  const channels = revoking ? (page.revogacao?.codigo_canais ?? []) : page.codigo_canais;
  const [canal, setCanal] = useState<CodeCanal>(channels[0]?.canal ?? "email");
  const destinoOf = (which: CodeCanal) => channels.find((c) => c.canal === which)?.destino ?? null;
  const [email, setEmail] = useState(destinoOf(canal));
  const [code, setCode] = useState("");
  const [error, setError] = useState<string | null>(initialError ?? null);
  const [cooldown, setCooldown] = useState(0);
  /** Set when the WhatsApp code fell back to SMS or e-mail: the page then names where it went. */
  const [fellBack, setFellBack] = useState<"email" | "sms" | null>(null);
  const codeId = useId();
  const sent = state === "sent" || state === "verifying";

  // A WhatsApp code can fail after it left (decision 066): ask where it really went while waiting.
  useEffect(() => {
    if (!sent || canal !== "whatsapp" || fellBack) return;
    const started = Date.now();
    const timer = setInterval(() => {
      if (Date.now() - started > DELIVERY_WATCH_MS) return clearInterval(timer);
      void publicFetch<{ entrega: { canal: CodeCanal; destino: string; reenvio_whatsapp: boolean } | null }>(
        `${base}/code`,
      ).then((result) => {
        const entrega = result.ok ? result.data.entrega : null;
        if (!entrega?.reenvio_whatsapp || entrega.canal === "whatsapp") return;
        setCanal(entrega.canal);
        setEmail(entrega.destino);
        setFellBack(entrega.canal);
        setCode("");
      });
    }, DELIVERY_EVERY_MS);
    return () => clearInterval(timer);
  }, [sent, canal, fellBack, base]);

  useEffect(() => {
    if (cooldown <= 0) return;
    const timer = setTimeout(() => setCooldown((left) => left - 1), 1000);
    return () => clearTimeout(timer);
  }, [cooldown]);

  async function send() {
    setState("sending");
    setError(null);
    const result = await publicFetch<{ enviado: boolean; canal: CodeCanal; destino: string }>(`${base}/code`, {
      method: "POST",
      json: { canal },
    });
    if (result.ok) {
      setFellBack(null);
      setCanal(result.data.canal);
      setEmail(result.data.destino);
      setState("sent");
      setCooldown(30);
      return;
    }
    if (result.status === 410) return onInvalid();
    if (onAlreadyRevoked && result.code === "DOCUMENT_ALREADY_REVOKED") return onAlreadyRevoked();
    setState((current) => (current === "sending" ? "idle" : current));
    setError(result.message ?? SIGNING_MESSAGES.signError);
  }

  async function verify(event: React.FormEvent) {
    event.preventDefault();
    if (!new RegExp(`^\\d{${OTP_DIGITS}}$`).test(code)) return setError(SIGNING_MESSAGES.otpRequired);
    if (revoking) return onVerified(page, code);
    setState("verifying");
    setError(null);
    const result = await publicFetch<SigningPage>(`${base}/verify-code`, { method: "POST", json: { codigo: code } });
    if (result.ok) return onVerified(result.data, code);
    if (result.status === 410) return onInvalid();
    setState("sent");
    setError(result.message ?? SIGNING_MESSAGES.otpInvalid);
  }

  return (
    <Panel aria-labelledby="code-title" className="print:hidden" data-testid="otp-step">
      <form className="grid gap-4" onSubmit={(event) => void verify(event)} noValidate>
        <div className="grid gap-1">
          <h2 id="code-title" className="flex items-center gap-2 text-base font-semibold">
            <MailCheck className="size-5 text-primary" aria-hidden /> Confirme que é você
          </h2>
          <p className="text-sm text-muted-foreground">
            {withDestination(
              fellBack
                ? FALLBACK_TEXT[fellBack]
                : sent
                  ? SENT_TEXT[canal]
                  : (revoking ? REVOKE_FIRST_TEXT : FIRST_TEXT)[canal],
              canal,
              email,
            )}
          </p>
          {fellBack ? (
            <p className="text-sm font-medium" role="status" data-testid="otp-fallback">
              {SIGNING_MESSAGES.otpFallbackOld}
            </p>
          ) : null}
        </div>
        {channels.length > 1 && !sent ? (
          <fieldset className="grid gap-2" data-testid="code-channels">
            <legend className="mb-1 text-sm font-medium">Receber o código por</legend>
            {channels.map((option) => (
              <label
                key={option.canal}
                className="flex min-h-11 cursor-pointer items-center gap-3 rounded-md border border-input px-3 text-sm"
              >
                <input
                  type="radio"
                  name="canal"
                  value={option.canal}
                  checked={canal === option.canal}
                  onChange={() => {
                    setCanal(option.canal);
                    setEmail(option.destino);
                  }}
                  className="size-5 shrink-0 accent-primary"
                />
                {`${CANAL_NAME[option.canal]} para ${option.destino}`}
              </label>
            ))}
          </fieldset>
        ) : null}
        <div className="flex flex-wrap items-end gap-3">
          <PlainButton
            variant={sent ? "outline" : "primary"}
            onClick={() => void send()}
            disabled={state === "sending" || state === "verifying" || cooldown > 0}
          >
            {state === "sending" ? <Spinner /> : null}
            {sent ? (cooldown > 0 ? `Reenviar código (${cooldown}s)` : "Reenviar código") : "Enviar código"}
          </PlainButton>
        </div>
        {sent ? (
          <div className="flex flex-wrap items-end gap-3">
            <div className="grid gap-1.5">
              <label htmlFor={codeId} className="text-sm font-medium">
                Código de 6 dígitos
              </label>
              <input
                id={codeId}
                value={code}
                onChange={(event) => setCode(event.target.value.replace(/\D/g, "").slice(0, OTP_DIGITS))}
                inputMode="numeric"
                autoComplete="one-time-code"
                maxLength={OTP_DIGITS}
                placeholder="000000"
                aria-invalid={error ? true : undefined}
                className="h-11 w-40 rounded-md border border-input bg-background px-3 text-center font-mono text-base tracking-[0.3em] shadow-xs outline-none focus-visible:border-ring focus-visible:ring-[3px] focus-visible:ring-ring/50"
              />
            </div>
            <PlainButton type="submit" disabled={state === "verifying"}>
              {state === "verifying" ? <Spinner /> : null} Confirmar código
            </PlainButton>
          </div>
        ) : null}
        {error ? (
          <p className="text-sm text-destructive" role="alert" data-testid="otp-error">
            {error}
          </p>
        ) : null}
      </form>
    </Panel>
  );
}
