import { PenLine, ShieldCheck } from "lucide-react";
import type * as React from "react";
import { useEffect, useId, useRef, useState } from "react";
import { Spinner } from "./components/spinner";
import { isValidCpf } from "@shared/br/cpf";
import type { ReadingBatchOut } from "./lib/reading-clock";
import { maskCpf, maskPhone } from "@shared/br/masks";
import type { SignInput, SigningPage } from "@shared/schemas/signing";
import { ELECTRONIC_CONSENT, SIGNING_MESSAGES } from "@shared/signing-rules";
import { SignatureCanvas, type SignatureCanvasHandle } from "./components/signature-canvas";
import { TypedSignature } from "./components/typed-signature";
import { DigitsInput } from "./components/digits-input";
import { Notice, Panel, PlainButton } from "./components/public-shell";
import { publicFetch } from "./lib/http";
import { OptionalConsentsField, type OptionalChoices } from "./components/optional-consents-field";
import { asDocumentModel } from "@/features/documents/lib/as-document-model";
import { OPTIONAL_CONSENT_MESSAGES } from "@shared/document-model/optional-consents";

/** Who the form asks for: the patient, the legal guardian in their own name, or a witness (decision 021). */
const SIGNER_HEADING: Record<SigningPage["signatario"]["papel"], { title: string; hint: (patient: string) => string }> =
  {
    paciente: {
      title: "Seus dados",
      hint: () => "Preencha como no cadastro da clínica. Eles serão conferidos antes de registrar a assinatura.",
    },
    responsavel: {
      title: "Dados do responsável legal",
      hint: (patient) =>
        `Você assina como responsável legal de ${patient}. Preencha com o seu nome e o seu CPF, como no cadastro da clínica.`,
    },
    testemunha: {
      title: "Dados da testemunha",
      hint: (patient) =>
        `Você assina como testemunha deste documento de ${patient}. Preencha com o seu nome e o seu CPF, como informados à clínica.`,
    },
  };

type Field =
  | "nome"
  | "cpf"
  | "email"
  | "email_confirmacao"
  | "telefone"
  | "codigo"
  | "assinatura"
  | "aceite"
  | "consentimentos_opcionais"
  | "lido_por"
  | "leitura";
type Problem = { title: string; message?: string; fields: Field[] };

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const FIELDS: readonly Field[] = [
  "nome",
  "cpf",
  "email",
  "email_confirmacao",
  "telefone",
  "codigo",
  "assinatura",
  "aceite",
  "consentimentos_opcionais",
  "lido_por",
  "leitura",
];

/** The page's own checks, with the spec's messages (the server repeats every one of them). */
export function checkSigner(
  values: { nome: string; cpf: string; email: string; email_confirmacao: string },
  options: { signatureEmpty: boolean; consent: boolean; confirmEmail: boolean; optionalUnanswered?: boolean },
): Problem | null {
  // Each optional consent answered Sim or Não (decision 057), before the rest of the form.
  if (options.optionalUnanswered)
    return { title: OPTIONAL_CONSENT_MESSAGES.answerRequired, fields: ["consentimentos_opcionais"] };
  const required = options.confirmEmail
    ? (["nome", "cpf", "email", "email_confirmacao"] as const)
    : (["nome", "cpf", "email"] as const);
  const missing = required.filter((field) => !values[field].trim());
  if (missing.length > 0) return { title: SIGNING_MESSAGES.required, fields: missing };
  if (!isValidCpf(values.cpf)) return { title: "CPF inválido", fields: ["cpf"] };
  if (!EMAIL.test(values.email.trim())) return { title: "E-mail inválido", fields: ["email"] };
  if (options.confirmEmail && values.email_confirmacao.trim().toLowerCase() !== values.email.trim().toLowerCase()) {
    return { title: SIGNING_MESSAGES.emailConfirmationMismatch, fields: ["email_confirmacao"] };
  }
  if (options.signatureEmpty)
    return {
      title: SIGNING_MESSAGES.signatureRequiredTitle,
      message: SIGNING_MESSAGES.signatureRequired,
      fields: ["assinatura"],
    };
  if (!options.consent) return { title: SIGNING_MESSAGES.consentRequired, fields: ["aceite"] };
  return null;
}

/**
 * Signer data (nome, CPF, e-mail, telefone opcional), the drawing, the consent to sign
 * electronically and Assinar Documento. `code` is the e-mail code already verified (CodeStep).
 */
export function SignForm({
  token,
  page,
  code,
  onSigned,
  onInvalid,
  onStale,
  reading,
  embedOrigin,
}: {
  token: string;
  page: SigningPage;
  code: string | null;
  /** The clinic-allowed site this page is shown inside (decision 071), recorded with the signature. */
  embedOrigin?: string | null;
  /** The reading record's last batch, sent with the signature (decision 052). */
  reading?: () => ReadingBatchOut | null;
  onSigned: () => void;
  onInvalid: () => void;
  onStale: () => void;
}) {
  const [values, setValues] = useState({
    nome: "",
    cpf: "",
    email: "",
    email_confirmacao: "",
    telefone: "",
    lido_por: "",
  });
  // Signed "a rogo" at the front desk (decision 070): who read the term aloud, and that it was.
  const aRogo = page.signatario.a_rogo;
  const [readAloud, setReadAloud] = useState(false);
  // No address on record: the copy goes to the typed one, so it is typed twice (decision 047).
  const confirmEmail = page.copia_para === null;
  const [consent, setConsent] = useState(false);
  const [consentDetailOpen, setConsentDetailOpen] = useState(false);
  // The optional consents a patient or guardian answers (decision 057); a witness answers none.
  const optionalItems =
    page.signatario.papel === "testemunha" ? [] : (asDocumentModel(page.documento.modelo)?.optional_consents ?? []);
  const [choices, setChoices] = useState<OptionalChoices>({});
  const [signatureKind, setSignatureKind] = useState<"desenhada" | "digitada">("desenhada");
  const [problem, setProblem] = useState<Problem | null>(null);
  const [sending, setSending] = useState(false);
  const canvas = useRef<SignatureCanvasHandle>(null);
  const problemRef = useRef<HTMLDivElement>(null);
  const base = `/api/public/sign/${encodeURIComponent(token)}`;

  useEffect(() => {
    if (problem) problemRef.current?.scrollIntoView({ block: "center", behavior: "smooth" });
  }, [problem]);

  const set = (field: keyof typeof values, value: string) => {
    setValues((current) => ({ ...current, [field]: value }));
    if (problem?.fields.includes(field)) setProblem(null);
  };
  const invalid = (field: Field) => problem?.fields.includes(field) ?? false;

  async function submit(event: React.FormEvent) {
    event.preventDefault();
    if (sending) return;
    const pad = canvas.current;
    const found = checkSigner(values, {
      signatureEmpty: pad?.isEmpty() ?? true,
      consent,
      confirmEmail,
      optionalUnanswered: optionalItems.some((item) => choices[item.id] === undefined),
    });
    if (found) return setProblem(found);
    if (aRogo && values.lido_por.trim().length < 3)
      return setProblem({ title: SIGNING_MESSAGES.aRogoReaderRequired, fields: ["lido_por"] });
    if (aRogo && !readAloud) return setProblem({ title: SIGNING_MESSAGES.aRogoReadingRequired, fields: ["leitura"] });
    setProblem(null);
    setSending(true);
    const input: SignInput = {
      nome: values.nome.trim(),
      cpf: values.cpf,
      email: values.email.trim(),
      email_confirmacao: confirmEmail ? values.email_confirmacao.trim() : undefined,
      telefone: values.telefone.trim() || undefined,
      assinatura: pad!.toDataUrl(),
      conteudo_sha256: page.documento.conteudo_sha256,
      codigo: page.codigo_obrigatorio && code ? code : undefined,
      aceite_eletronico: consent as true,
      aceite_detalhe_aberto: consentDetailOpen,
      tipo_assinatura: signatureKind,
      leitura: reading?.() ?? undefined,
      ...(embedOrigin ? { incorporado: { origem: embedOrigin } } : {}),
      ...(aRogo ? { a_rogo: { lido_por: values.lido_por.trim(), leitura_confirmada: true as const } } : {}),
      ...(optionalItems.length > 0
        ? { consentimentos_opcionais: optionalItems.map((item) => ({ id: item.id, aceito: choices[item.id]! })) }
        : {}),
    };
    const result = await publicFetch<{ estado: "signed"; assinou_em: string }>(base, { method: "POST", json: input });
    setSending(false);
    if (result.ok) return onSigned();
    if (result.status === 410) return onInvalid();
    // Signed meanwhile (another tab, another device): the page shows the signed state, not a success of this visit.
    if (result.code === "SIGNING_ALREADY_SIGNED") return onStale();
    if (result.code === "SIGNING_CONTENT_CHANGED") {
      setProblem({ title: result.message ?? SIGNING_MESSAGES.signError, fields: [] });
      return onStale();
    }
    if (result.status >= 400 && result.status < 500 && result.message) {
      // The server's own words, as they are (spec part 1 §5 messages).
      const fields = fieldsOf(result.code, result.issues);
      const isSignature = fields.includes("assinatura");
      setProblem({
        title: isSignature ? SIGNING_MESSAGES.signatureRequiredTitle : result.message,
        message: isSignature ? result.message : undefined,
        fields,
      });
      return;
    }
    setProblem({ title: SIGNING_MESSAGES.signErrorTitle, message: SIGNING_MESSAGES.signError, fields: [] });
  }

  const ids = {
    nome: useId(),
    cpf: useId(),
    email: useId(),
    emailConfirmacao: useId(),
    emailHint: useId(),
    telefone: useId(),
    aceite: useId(),
    aceiteDetalhe: useId(),
    lidoPor: useId(),
    leitura: useId(),
  };
  const heading = aRogo
    ? { title: SIGNING_MESSAGES.aRogoTitle, hint: SIGNING_MESSAGES.aRogoHint(aRogo.a_pedido_de) }
    : {
        title: SIGNER_HEADING[page.signatario.papel].title,
        hint: SIGNER_HEADING[page.signatario.papel].hint(page.signatario.paciente_nome),
      };

  return (
    <Panel aria-labelledby="sign-title" className="print:hidden">
      <form className="grid gap-5" onSubmit={(event) => void submit(event)} noValidate data-testid="sign-form">
        {page.codigo_verificado && !page.audio ? (
          <p className="flex items-center gap-2 text-sm text-emerald-700" data-testid="otp-verified">
            <ShieldCheck className="size-4" aria-hidden /> {SIGNING_MESSAGES.codeVerified}
          </p>
        ) : null}
        {optionalItems.length > 0 ? (
          <OptionalConsentsField
            items={optionalItems}
            choices={choices}
            disabled={sending}
            invalid={invalid("consentimentos_opcionais")}
            onChange={(id, aceito) => {
              setChoices((current) => ({ ...current, [id]: aceito }));
              if (invalid("consentimentos_opcionais")) setProblem(null);
            }}
          />
        ) : null}
        <div className="grid gap-1" data-testid="signer-heading">
          <h2 id="sign-title" className="text-base font-semibold">
            {heading.title}
          </h2>
          <p className="text-sm text-muted-foreground">{heading.hint}</p>
        </div>

        {aRogo ? (
          <fieldset
            className={`grid gap-3 rounded-lg border p-3 text-sm ${invalid("leitura") || invalid("lido_por") ? "border-destructive" : "border-input"}`}
            data-testid="a-rogo-reading"
          >
            <legend className="px-1 text-sm font-semibold">{SIGNING_MESSAGES.aRogoReadingTitle}</legend>
            <TextField
              id={ids.lidoPor}
              label={SIGNING_MESSAGES.aRogoReaderLabel}
              required
              invalid={invalid("lido_por")}
            >
              <input
                id={ids.lidoPor}
                value={values.lido_por}
                onChange={(event) => set("lido_por", event.target.value)}
                autoComplete="off"
                maxLength={160}
                aria-invalid={invalid("lido_por") || undefined}
                className={inputClass(invalid("lido_por"))}
              />
            </TextField>
            <label htmlFor={ids.leitura} className="flex min-h-11 cursor-pointer items-start gap-3">
              <input
                id={ids.leitura}
                type="checkbox"
                checked={readAloud}
                onChange={(event) => {
                  setReadAloud(event.target.checked);
                  if (invalid("leitura")) setProblem(null);
                }}
                className="mt-0.5 size-5 shrink-0 accent-primary"
              />
              <span>{SIGNING_MESSAGES.aRogoReadingConfirm(aRogo.a_pedido_de)}</span>
            </label>
            <p className="text-muted-foreground">{SIGNING_MESSAGES.aRogoDeskHint}</p>
          </fieldset>
        ) : null}

        <div className="grid gap-4 sm:grid-cols-2">
          <TextField id={ids.nome} label="Nome completo" required invalid={invalid("nome")} className="sm:col-span-2">
            <input
              id={ids.nome}
              value={values.nome}
              onChange={(event) => set("nome", event.target.value)}
              autoComplete="name"
              maxLength={160}
              aria-invalid={invalid("nome") || undefined}
              className={inputClass(invalid("nome"))}
            />
          </TextField>
          <TextField id={ids.cpf} label="CPF" required invalid={invalid("cpf")}>
            <DigitsInput
              id={ids.cpf}
              format={maskCpf}
              value={values.cpf}
              onValueChange={(value) => set("cpf", value)}
              inputMode="numeric"
              autoComplete="off"
              placeholder="000.000.000-00"
              aria-invalid={invalid("cpf") || undefined}
              className={inputClass(invalid("cpf"))}
            />
          </TextField>
          <TextField id={ids.telefone} label="Telefone (opcional)" invalid={invalid("telefone")}>
            <DigitsInput
              id={ids.telefone}
              format={maskPhone}
              value={values.telefone}
              onValueChange={(value) => set("telefone", value)}
              inputMode="tel"
              type="tel"
              autoComplete="tel-national"
              placeholder="(00) 00000-0000"
              className={inputClass(invalid("telefone"))}
            />
          </TextField>
          <TextField id={ids.email} label="E-mail" required invalid={invalid("email")} className="sm:col-span-2">
            <EmailInput
              id={ids.email}
              value={values.email}
              onChange={(value) => set("email", value)}
              invalid={invalid("email")}
              describedBy={ids.emailHint}
            />
            <p id={ids.emailHint} className="text-xs text-muted-foreground" data-testid="copy-destination">
              {page.copia_para ? SIGNING_MESSAGES.copyGoesTo(page.copia_para) : SIGNING_MESSAGES.copyGoesToTyped}
            </p>
          </TextField>
          {confirmEmail ? (
            <TextField
              id={ids.emailConfirmacao}
              label="Confirme o e-mail"
              required
              invalid={invalid("email_confirmacao")}
              className="sm:col-span-2"
            >
              <EmailInput
                id={ids.emailConfirmacao}
                value={values.email_confirmacao}
                onChange={(value) => set("email_confirmacao", value)}
                invalid={invalid("email_confirmacao")}
              />
            </TextField>
          ) : null}
        </div>

        <div className="grid gap-2">
          <h3 className="flex items-center gap-2 text-sm font-semibold">
            <PenLine className="size-4 text-primary" aria-hidden /> Assinatura{" "}
            <span className="text-destructive">*</span>
          </h3>
          <div className="flex gap-2" role="group" aria-label="Como assinar">
            {(["desenhada", "digitada"] as const).map((kind) => (
              <PlainButton
                key={kind}
                variant={signatureKind === kind ? "primary" : "outline"}
                className="min-w-11 px-4"
                aria-pressed={signatureKind === kind}
                onClick={() => {
                  setSignatureKind(kind);
                  if (invalid("assinatura")) setProblem(null);
                }}
                disabled={sending}
              >
                {kind === "desenhada" ? "Desenhar" : "Digitar"}
              </PlainButton>
            ))}
          </div>
          {signatureKind === "desenhada" ? (
            <>
              <p className="text-sm text-muted-foreground">
                Desenhe sua assinatura no quadro abaixo, com o dedo ou o mouse.
              </p>
              <SignatureCanvas
                ref={canvas}
                disabled={sending}
                invalid={invalid("assinatura")}
                onChange={(empty) => !empty && invalid("assinatura") && setProblem(null)}
              />
            </>
          ) : (
            <>
              <p className="text-sm text-muted-foreground">
                Se preferir não desenhar, digite seu nome: ele vira a imagem da assinatura e fica registrado como
                assinatura digitada.
              </p>
              <TypedSignature
                ref={canvas}
                disabled={sending}
                invalid={invalid("assinatura")}
                onChange={(empty) => !empty && invalid("assinatura") && setProblem(null)}
              />
            </>
          )}
        </div>

        {/* One line to tick; the full versioned text opens under "Saiba mais" (decision 067). */}
        <div
          className={`grid gap-1 rounded-lg border p-3 text-sm ${invalid("aceite") ? "border-destructive" : "border-input"}`}
          data-testid="consent-box"
        >
          <label htmlFor={ids.aceite} className="flex min-h-11 cursor-pointer items-center gap-3" data-testid="consent">
            <input
              id={ids.aceite}
              type="checkbox"
              checked={consent}
              onChange={(event) => {
                setConsent(event.target.checked);
                if (invalid("aceite")) setProblem(null);
              }}
              className="size-5 shrink-0 accent-primary"
            />
            <span>{ELECTRONIC_CONSENT.rotulo}</span>
          </label>
          <button
            type="button"
            className="min-h-11 w-fit pl-8 text-left text-sm font-medium text-primary underline underline-offset-4"
            aria-expanded={consentDetailOpen}
            aria-controls={ids.aceiteDetalhe}
            onClick={() => setConsentDetailOpen((open) => !open)}
            data-testid="consent-more"
          >
            {consentDetailOpen ? "Fechar" : "Saiba mais"}
          </button>
          <p
            id={ids.aceiteDetalhe}
            hidden={!consentDetailOpen}
            className="pl-8 text-muted-foreground"
            data-testid="consent-detail"
          >
            {ELECTRONIC_CONSENT.detalhe}
          </p>
        </div>

        {problem ? (
          <div ref={problemRef}>
            <Notice tone="error" title={problem.title} data-testid="sign-error">
              {problem.message}
            </Notice>
          </div>
        ) : null}

        <PlainButton type="submit" className="min-h-11 w-full text-base" disabled={sending}>
          {sending ? <Spinner label="Assinando" /> : null}
          {sending ? "Assinando…" : "Assinar Documento"}
        </PlainButton>
      </form>
    </Panel>
  );
}

function fieldsOf(code: string | null, issues: { path: string; message: string }[]): Field[] {
  if (code === "SIGNING_NAME_MISMATCH") return ["nome"];
  if (code === "SIGNING_CPF_MISMATCH") return ["cpf"];
  if (code === "SIGNING_SIGNATURE_REQUIRED") return ["assinatura"];
  if (code === "SIGNING_OTP_REQUIRED" || code === "SIGNING_OTP_INVALID") return ["codigo"];
  if (code === "SIGNING_OPTIONAL_ANSWERS_INVALID") return ["consentimentos_opcionais"];
  if (code === "A_ROGO_READING_REQUIRED") return ["leitura"];
  if (issues.some((issue) => issue.path.startsWith("aceite"))) return ["aceite"];
  return issues.map((issue) => issue.path.split(".")[0] as Field).filter((field) => FIELDS.includes(field));
}

const inputClass = (invalid: boolean) =>
  `h-11 w-full min-w-0 rounded-md border bg-background px-3 text-base shadow-xs outline-none transition focus-visible:border-ring focus-visible:ring-[3px] focus-visible:ring-ring/50 sm:h-10 sm:text-sm ${
    invalid ? "border-destructive ring-destructive/20" : "border-input"
  }`;

function EmailInput({
  id,
  value,
  onChange,
  invalid,
  describedBy,
}: {
  id: string;
  value: string;
  onChange: (value: string) => void;
  invalid: boolean;
  describedBy?: string;
}) {
  return (
    <input
      id={id}
      value={value}
      onChange={(event) => onChange(event.target.value)}
      type="email"
      inputMode="email"
      autoComplete="email"
      maxLength={254}
      aria-invalid={invalid || undefined}
      aria-describedby={describedBy}
      className={inputClass(invalid)}
    />
  );
}

function TextField({
  id,
  label,
  required,
  invalid,
  className = "",
  children,
}: {
  id: string;
  label: string;
  required?: boolean;
  invalid?: boolean;
  className?: string;
  children: React.ReactNode;
}) {
  return (
    <div className={`grid gap-1.5 ${className}`}>
      <label htmlFor={id} className={`text-sm font-medium ${invalid ? "text-destructive" : ""}`}>
        {label}
        {required ? <span className="text-destructive"> *</span> : null}
      </label>
      {children}
    </div>
  );
}
