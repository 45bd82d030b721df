import { FileX2 } from "lucide-react";
import { useId, useState } from "react";
import { isValidCpf } from "@shared/br/cpf";
import { maskCpf } from "@shared/br/masks";
import { CHOICE_MESSAGES, type ChoiceKind, type LinkChoiceInput, MAX_REASON } from "@shared/schemas/choices";
import type { SigningPage } from "@shared/schemas/signing";
import { SIGNING_MESSAGES } from "@shared/signing-rules";
import { DigitsInput } from "./components/digits-input";
import { Notice, Panel, PlainButton } from "./components/public-shell";
import { Spinner } from "./components/spinner";
import { embedParentOrigin } from "./lib/embed";
import { publicFetch } from "./lib/http";

const inputClass = (invalid: boolean) =>
  `w-full min-w-0 rounded-md border bg-background px-3 text-base shadow-xs outline-none transition focus-visible:border-ring focus-visible:ring-[3px] focus-visible:ring-ring/50 sm:text-sm ${
    invalid ? "border-destructive ring-destructive/20" : "border-input"
  }`;

const TEXTS: Record<ChoiceKind, { title: string; intro: string; confirm: string; path: string }> = {
  recusa: {
    title: CHOICE_MESSAGES.refuseTitle,
    intro: CHOICE_MESSAGES.refuseIntro,
    confirm: CHOICE_MESSAGES.refuseConfirm,
    path: "refuse",
  },
  revogacao: {
    title: CHOICE_MESSAGES.revokeTitle,
    intro: CHOICE_MESSAGES.revokeIntro,
    confirm: CHOICE_MESSAGES.revokeConfirm,
    path: "revoke",
  },
};

/**
 * "Não concordo / Recusar" after reading, or "Revogar meu consentimento" on a signed link
 * (decision 056): the patient's name, CPF and an optional reason, checked by the server exactly as
 * a signature is (the code verified before, `code`, goes with it). Closed until asked for, so
 * nobody refuses by accident.
 */
export function ChoiceForm({
  token,
  page,
  tipo,
  code,
  onDone,
  onInvalid,
  onClose,
  onCodeRejected,
  onAlreadyDone,
  item,
}: {
  token: string;
  page: SigningPage;
  tipo: ChoiceKind;
  /** A revocation of this optional consent only (decision 057): its own route and texts. */
  item?: { id: string; title: string };
  code: string | null;
  onDone: (result: { em: string; codigo_verificacao: string }) => void;
  onInvalid: () => void;
  /** Given: the form starts open and "Voltar" hands back to the caller (the revocation panel). */
  onClose?: () => void;
  /** The code kept before was refused (wrong or expired): the caller asks for a new one. */
  onCodeRejected?: (message: string) => void;
  /** Already revoked meanwhile (another tab, the clinic): the caller reloads the page. */
  onAlreadyDone?: () => void;
}) {
  const texts =
    tipo === "revogacao" && item
      ? {
          title: CHOICE_MESSAGES.itemRevokeTitle(item.title),
          intro: CHOICE_MESSAGES.itemRevokeIntro,
          confirm: CHOICE_MESSAGES.revokeConfirm,
          path: `optional-consents/${encodeURIComponent(item.id)}/revoke`,
        }
      : TEXTS[tipo];
  const ids = { nome: useId(), cpf: useId(), motivo: useId() };
  const [open, setOpenState] = useState(onClose !== undefined);
  const setOpen = (next: boolean) => (!next && onClose ? onClose() : setOpenState(next));
  const [values, setValues] = useState({ nome: "", cpf: "", motivo: "" });
  const [problem, setProblem] = useState<{ title: string; field?: "nome" | "cpf" | "motivo" } | null>(null);
  const [sending, setSending] = useState(false);
  // A revocation is confirmed once more before it is sent: it cannot be undone on this link.
  const [confirming, setConfirming] = useState(false);

  if (!open) {
    return (
      <Panel className="gap-2" data-testid={item ? `choice-item-${item.id}` : `choice-${tipo}`}>
        <PlainButton variant="outline" className="w-full sm:w-fit" onClick={() => setOpen(true)}>
          <FileX2 aria-hidden /> {texts.title}
        </PlainButton>
      </Panel>
    );
  }

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    if (!values.nome.trim() || !values.cpf.trim())
      return setProblem({ title: SIGNING_MESSAGES.required, field: values.nome.trim() ? "cpf" : "nome" });
    if (!isValidCpf(values.cpf)) return setProblem({ title: "CPF inválido", field: "cpf" });
    setProblem(null);
    if (tipo === "revogacao" && !confirming) return setConfirming(true);
    setSending(true);
    // Shown inside a clinic's system (decision 071): the record names the site, as a signature does.
    const embedOrigin = page.incorporacao ? embedParentOrigin(page.incorporacao.origens) : null;
    const body: LinkChoiceInput = {
      nome: values.nome,
      cpf: values.cpf,
      conteudo_sha256: page.documento.conteudo_sha256,
      ...(embedOrigin ? { incorporado: { origem: embedOrigin } } : {}),
      ...(values.motivo.trim() ? { motivo: values.motivo.trim() } : {}),
      ...(code ? { codigo: code } : {}),
    };
    const result = await publicFetch<{ em: string; codigo_verificacao: string }>(
      `/api/public/sign/${encodeURIComponent(token)}/${texts.path}`,
      { method: "POST", json: body },
    );
    setSending(false);
    setConfirming(false);
    if (result.ok) return onDone(result.data);
    if (result.status === 410) return onInvalid();
    if (onCodeRejected && (result.code === "SIGNING_OTP_INVALID" || result.code === "SIGNING_OTP_REQUIRED"))
      return onCodeRejected(result.message ?? SIGNING_MESSAGES.otpInvalid);
    if (
      onAlreadyDone &&
      (result.code === "DOCUMENT_ALREADY_REVOKED" || result.code === "OPTIONAL_CONSENT_ALREADY_REVOKED")
    )
      return onAlreadyDone();
    const field =
      result.code === "SIGNING_NAME_MISMATCH" ? "nome" : result.code === "SIGNING_CPF_MISMATCH" ? "cpf" : undefined;
    setProblem({ title: result.message ?? SIGNING_MESSAGES.signError, ...(field ? { field } : {}) });
  };

  return (
    <Panel
      className="gap-4"
      aria-labelledby={`${ids.nome}-title`}
      data-testid={item ? `choice-item-${item.id}` : `choice-${tipo}`}
    >
      <form className="grid gap-4" onSubmit={submit} noValidate>
        <div className="grid gap-1">
          <h2 id={`${ids.nome}-title`} className="flex items-center gap-2 text-base font-semibold">
            <FileX2 className="size-5 text-destructive" aria-hidden /> {texts.title}
          </h2>
          <p className="text-sm text-muted-foreground">{texts.intro}</p>
        </div>
        <div className="grid gap-1.5">
          <label htmlFor={ids.nome} className="text-sm font-medium">
            Nome completo <span className="text-destructive">*</span>
          </label>
          <input
            id={ids.nome}
            value={values.nome}
            onChange={(event) => setValues({ ...values, nome: event.target.value })}
            autoComplete="name"
            maxLength={160}
            aria-invalid={problem?.field === "nome" || undefined}
            className={`h-11 sm:h-10 ${inputClass(problem?.field === "nome")}`}
          />
        </div>
        <div className="grid gap-1.5">
          <label htmlFor={ids.cpf} className="text-sm font-medium">
            CPF <span className="text-destructive">*</span>
          </label>
          <DigitsInput
            id={ids.cpf}
            format={maskCpf}
            value={values.cpf}
            onValueChange={(value) => setValues({ ...values, cpf: value })}
            inputMode="numeric"
            autoComplete="off"
            placeholder="000.000.000-00"
            aria-invalid={problem?.field === "cpf" || undefined}
            className={`h-11 sm:h-10 ${inputClass(problem?.field === "cpf")}`}
          />
        </div>
        <div className="grid gap-1.5">
          <label htmlFor={ids.motivo} className="text-sm font-medium">
            {CHOICE_MESSAGES.reasonLabel}
          </label>
          <textarea
            id={ids.motivo}
            value={values.motivo}
            onChange={(event) => setValues({ ...values, motivo: event.target.value })}
            maxLength={MAX_REASON}
            rows={3}
            className={`py-2 ${inputClass(false)}`}
          />
        </div>
        {problem ? <Notice tone="error" title={problem.title} /> : null}
        {page.codigo_obrigatorio && !code ? (
          <p className="text-xs text-muted-foreground">{SIGNING_MESSAGES.otpRequired}</p>
        ) : null}
        {confirming ? (
          <div role="group" aria-labelledby={`${ids.nome}-confirm`} className="grid gap-3" data-testid="choice-confirm">
            <Notice tone="info" title={CHOICE_MESSAGES.revokeAreYouSure}>
              <span id={`${ids.nome}-confirm`}>{CHOICE_MESSAGES.revokeAreYouSureText}</span>
            </Notice>
            <div className="flex flex-wrap gap-2">
              <PlainButton
                type="submit"
                disabled={sending}
                className="bg-destructive text-white hover:bg-destructive/90"
              >
                {sending ? <Spinner /> : <FileX2 aria-hidden />} {CHOICE_MESSAGES.revokeYes}
              </PlainButton>
              <PlainButton variant="outline" disabled={sending} onClick={() => setConfirming(false)}>
                {CHOICE_MESSAGES.revokeNo}
              </PlainButton>
            </div>
          </div>
        ) : (
          <div className="flex flex-wrap gap-2">
            <PlainButton type="submit" disabled={sending} className="bg-destructive text-white hover:bg-destructive/90">
              {sending ? <Spinner /> : <FileX2 aria-hidden />} {texts.confirm}
            </PlainButton>
            <PlainButton variant="outline" disabled={sending} onClick={() => setOpen(false)}>
              Voltar
            </PlainButton>
          </div>
        )}
      </form>
    </Panel>
  );
}
