import {
  ALargeSmall,
  ArrowDown,
  CalendarClock,
  Download,
  FileCheck,
  FileWarning,
  Printer,
  ShieldCheck,
  Volume2,
} from "lucide-react";
import { useCallback, useEffect, useRef, useState } from "react";
import { DocumentView } from "@/components/document/document-view";
import { Spinner } from "./components/spinner";
import { asDocumentModel } from "@/features/documents/lib/as-document-model";
import type { SigningPage as SigningPageData } from "@shared/schemas/signing";
import { SIGNING_MESSAGES } from "@shared/signing-rules";
import { buttonClasses, Notice, Panel, Pill, PlainButton, PublicShell } from "./components/public-shell";
import { SignatureList } from "./components/signature-list";
import { CodeStep } from "./code-step";
import { SignForm } from "./sign-form";
import { ChoiceForm } from "./choice-form";
import { ChoiceDone } from "./choice-done";
import { OptionalRevocations, RevokePanel } from "./revoke-panel";
import { FrontDeskNotice, isFrontDesk } from "./front-desk-notice";
import { formatDate, formatDateTime } from "./lib/format";
import { publicFetch } from "./lib/http";
import { embedParentOrigin, postToParent } from "./lib/embed";
import { signedPdfPath, useSignedPdfReady } from "./lib/use-signed-pdf-ready";
import { useReadingRecord } from "./lib/use-reading-record";
import { ComprehensionDone, ComprehensionQuiz, comprehensionPending } from "./comprehension-quiz";
import { AudioConsent } from "./audio-consent";

type State =
  | { kind: "loading" }
  | { kind: "invalid" }
  | { kind: "error" }
  | { kind: "ready"; page: SigningPageData; justSigned: boolean; justRevoked?: boolean }
  /** Just refused on this visit (decision 056): the link accepts no signature any more. */
  | { kind: "refused"; page: SigningPageData; em: string; codigo: string };

const pagePath = (token: string) => `/api/public/sign/${encodeURIComponent(token)}`;

/** /assinar/:token (spec part 1 §2 Public signing page). */
export function SigningPage({ token }: { token: string }) {
  const [state, setState] = useState<State>({ kind: "loading" });
  // The e-mail code the signer confirmed (kept for the signature, which consumes it).
  const [code, setCode] = useState<string | null>(null);
  // The code step or the form: where "Ir para a assinatura" leads.
  const stepRef = useRef<HTMLDivElement>(null);
  // The term as shown: its sections are watched for the reading record (decision 052).
  const termRef = useRef<HTMLDivElement>(null);
  const [largeText, setLargeText] = useState(false);
  // The optional consent this visitor just revoked (decision 057): its notice says so.
  const [justRevokedItem, setJustRevokedItem] = useState<string | null>(null);
  const pending = state.kind === "ready" && state.page.estado === "pending";
  const reading = useReadingRecord(token, termRef, pending);

  const load = useCallback(
    async (justSigned = false, justRevoked = false) => {
      const result = await publicFetch<SigningPageData>(pagePath(token));
      if (result.ok) setState({ kind: "ready", page: result.data, justSigned, justRevoked });
      else if (result.status === 410 || result.status === 404 || result.code === "SIGNING_LINK_INVALID")
        setState({ kind: "invalid" });
      else setState({ kind: "error" });
    },
    [token],
  );

  useEffect(() => {
    void load();
  }, [load]);

  // Just signed: the confirmation is at the top of the page.
  const justSigned = state.kind === "ready" && state.justSigned;
  // …and so is a revocation just made (decision 056).
  const justRevoked = state.kind === "ready" && state.justRevoked === true;
  useEffect(() => {
    if (justSigned || justRevoked) window.scrollTo({ top: 0, behavior: "smooth" });
  }, [justSigned, justRevoked]);

  // Embedded in a clinic's system (decision 071): loaded, signed and refused go to that site only.
  const shown = state.kind === "ready" || state.kind === "refused" ? state.page : null;
  const embedOrigin = shown?.incorporacao ? embedParentOrigin(shown.incorporacao.origens) : null;
  const posted = useRef(new Set<string>());
  useEffect(() => {
    if (!shown?.incorporacao || !embedOrigin) return;
    const post = (type: "consentir:loaded" | "consentir:signed" | "consentir:refused", status: string) => {
      if (posted.current.has(type)) return;
      posted.current.add(type);
      postToParent(embedOrigin, { type, documento_id: shown.incorporacao!.documento_id, status });
    };
    post("consentir:loaded", shown.documento.status);
    if (state.kind === "ready" && state.justSigned) post("consentir:signed", shown.documento.status);
    if (state.kind === "refused") post("consentir:refused", "recusado");
  }, [shown, embedOrigin, state]);

  if (state.kind === "loading") {
    return (
      <PublicShell>
        <Panel aria-busy="true" className="place-items-center py-16 text-sm text-muted-foreground">
          <Spinner large label="Carregando documento" />
          <span>Carregando documento…</span>
        </Panel>
      </PublicShell>
    );
  }

  if (state.kind === "invalid") {
    return (
      <PublicShell>
        <Panel className="justify-items-center py-10 text-center" data-testid="signing-invalid">
          <span className="grid size-12 place-items-center rounded-full bg-destructive/10 text-destructive">
            <FileWarning className="size-6" aria-hidden />
          </span>
          <h1 className="text-lg font-semibold text-balance">{SIGNING_MESSAGES.invalidLink}</h1>
          <p className="max-w-sm text-sm text-balance text-muted-foreground">
            O link pode ter sido substituído por um novo, cancelado ou ter passado do prazo. Peça à clínica um novo link
            de assinatura.
          </p>
        </Panel>
      </PublicShell>
    );
  }

  if (state.kind === "refused") {
    return (
      <PublicShell clinic={state.page.documento.clinica} clinicLogoUrl={state.page.documento.clinica_logo_url}>
        <ChoiceDone page={state.page} em={state.em} codigo={state.codigo} />
      </PublicShell>
    );
  }

  if (state.kind === "error") {
    return (
      <PublicShell>
        <Panel className="justify-items-center py-10 text-center">
          <h1 className="text-lg font-semibold">{SIGNING_MESSAGES.validateError}</h1>
          <p className="text-sm text-muted-foreground">Verifique sua conexão e tente novamente.</p>
          <PlainButton variant="outline" onClick={() => (setState({ kind: "loading" }), void load())}>
            Tentar novamente
          </PlainButton>
        </Panel>
      </PublicShell>
    );
  }

  const { page } = state;
  const doc = page.documento;
  const model = asDocumentModel(doc.modelo);
  const signed = page.estado === "signed";
  const revokedAt = page.revogacao?.revogado_em ?? null;
  const revokePanel = (
    <RevokePanel
      token={token}
      page={page}
      justRevoked={justRevoked}
      onRevoked={() => void load(false, true)}
      onAlreadyRevoked={() => void load()}
      onInvalid={() => setState({ kind: "invalid" })}
    />
  );

  /** Past a long term: to the signature step, scrolled into view and focused (keyboard and screen readers follow). */
  const goToSignature = (event: { preventDefault(): void }) => {
    event.preventDefault();
    const step = stepRef.current;
    if (!step) return;
    reading.jump();
    const reduced = window.matchMedia?.("(prefers-reduced-motion: reduce)").matches;
    step.scrollIntoView({ block: "start", behavior: reduced ? "auto" : "smooth" });
    step.focus({ preventScroll: true });
  };

  return (
    <PublicShell clinic={doc.clinica} clinicLogoUrl={doc.clinica_logo_url}>
      <Panel className="gap-3 print:hidden">
        <div className="grid gap-2">
          <p className="text-xs font-medium tracking-wide text-muted-foreground uppercase">
            {doc.clinica} · {doc.short_id}
          </p>
          <h1 className="text-xl font-semibold tracking-tight text-balance break-words sm:text-2xl">{doc.titulo}</h1>
          <div>
            {signed && page.aguardando_outras_assinaturas ? (
              <Pill tone="warning" data-testid="signing-status">
                {page.aguardando_profissional ? "Aguardando o profissional" : "Aguardando as demais assinaturas"}
              </Pill>
            ) : signed && revokedAt ? (
              <Pill tone="warning" data-testid="signing-status">
                Consentimento revogado
              </Pill>
            ) : signed ? (
              <Pill tone="success" data-testid="signing-status">
                Documento assinado
              </Pill>
            ) : (
              <Pill tone="warning" data-testid="signing-status">
                Aguardando assinatura
              </Pill>
            )}
          </div>
        </div>
        <dl
          className="grid gap-2 rounded-lg border border-primary/20 bg-primary/5 p-3 text-sm sm:grid-cols-2"
          data-testid="signing-info"
        >
          <div className="grid gap-0.5">
            <dt className="text-xs text-muted-foreground">Criado em</dt>
            <dd className="font-medium tabular-nums">{formatDate(doc.created_at)}</dd>
          </div>
          <div className="grid gap-0.5">
            <dt className="flex items-center gap-1 text-xs text-muted-foreground">
              <CalendarClock className="size-3.5" aria-hidden /> Prazo para assinatura
            </dt>
            <dd className="font-medium tabular-nums">{formatDateTime(doc.prazo_assinatura)}</dd>
          </div>
          {doc.profissional ? (
            <div className="grid gap-0.5 sm:col-span-2">
              <dt className="text-xs text-muted-foreground">Profissional responsável</dt>
              <dd className="font-medium break-words">{doc.profissional}</dd>
            </div>
          ) : null}
        </dl>
        {!signed && model ? (
          <a
            href={`#${SIGNATURE_STEP_ID}`}
            onClick={goToSignature}
            className={buttonClasses("outline", "w-full sm:w-fit")}
            data-testid="go-to-signature"
          >
            <ArrowDown aria-hidden /> Ir para a assinatura
          </a>
        ) : null}
      </Panel>

      {isFrontDesk() ? <FrontDeskNotice signed={signed} /> : null}

      {signed ? (
        <div className="grid gap-3 print:hidden">
          {page.aguardando_outras_assinaturas ? (
            // Witnesses (or the patient) still to sign: the document is not signed yet, no sealed PDF (decision 021).
            <Notice
              tone={state.justSigned ? "success" : "info"}
              title={SIGNING_MESSAGES.waitingOthersTitle}
              data-testid="waiting-others"
            >
              {page.aguardando_profissional
                ? SIGNING_MESSAGES.waitingProfessional(doc.profissional)
                : SIGNING_MESSAGES.waitingOthers}
            </Notice>
          ) : (
            <>
              {revokedAt ? revokePanel : null}
              {state.justSigned ? (
                // Only right after this visitor signed; reopening a signed link is not a new success.
                <Notice tone="success" title={SIGNING_MESSAGES.signedTitle} data-testid="signing-success">
                  {SIGNING_MESSAGES.signed}
                </Notice>
              ) : revokedAt ? null : (
                // Revoked: the notice above says what stays (the signed copy) and what was recorded.
                <SignedRevisit />
              )}
              <SignedPdfDownload token={token} page={page} onInvalid={() => setState({ kind: "invalid" })} />
            </>
          )}
        </div>
      ) : null}

      <Panel className="gap-3 print:border-0 print:p-0 print:shadow-none" aria-label="Documento">
        <div className="flex items-center justify-between gap-2 print:hidden">
          <h2 className="text-sm font-semibold text-muted-foreground">Leia o documento</h2>
          <PlainButton variant="outline" className="px-3" onClick={() => window.print()}>
            <Printer aria-hidden /> Imprimir cópia
          </PlainButton>
        </div>
        {page.conteudo_mascarado ? (
          <p className="text-sm text-muted-foreground print:hidden" data-testid="masked-notice">
            {MASKED_NOTICE}
          </p>
        ) : null}
        {model && !signed ? (
          <div className="flex flex-wrap gap-2 print:hidden">
            <PlainButton
              variant="outline"
              className="px-3"
              aria-pressed={largeText}
              data-testid="large-text"
              onClick={() => {
                reading.largeText(!largeText);
                setLargeText(!largeText);
              }}
            >
              <ALargeSmall aria-hidden /> {largeText ? "Texto normal" : "Texto grande"}
            </PlainButton>
            {canSpeak() ? <ListenAllButton term={termRef} onListen={reading.heardAloud} /> : null}
          </div>
        ) : null}
        {model ? (
          <div ref={termRef} className="rounded-lg border bg-background p-4 sm:p-8 print:border-0 print:p-0">
            <DocumentView
              model={model}
              // While pending, the form below asks each optional consent (decision 057).
              optional_consents={signed ? "list" : "hidden"}
              optionalAnswers={page.consentimentos_opcionais ?? null}
              className={largeText ? "text-lg leading-relaxed sm:text-lg" : undefined}
              sectionTools={
                signed || !canSpeak()
                  ? undefined
                  : (section) => <ListenButton id={section.id} onListen={reading.heardAloud} />
              }
            />
          </div>
        ) : (
          <Notice tone="error" title={SIGNING_MESSAGES.noContent} />
        )}
      </Panel>

      {!signed && model ? <ComprehensionDone page={page} /> : null}

      {signed ? (
        <Panel aria-labelledby="signatures-title" data-testid="signatures-block">
          <h2 id="signatures-title" className="text-base font-semibold">
            Assinaturas digitais
          </h2>
          <SignatureList signatures={page.assinaturas} />
        </Panel>
      ) : model ? (
        <div
          ref={stepRef}
          id={SIGNATURE_STEP_ID}
          tabIndex={-1}
          role="group"
          aria-label="Assinatura"
          className="grid scroll-mt-3 rounded-xl outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50"
          data-testid="signature-step"
        >
          {page.signatario.a_rogo && !isFrontDesk() ? (
            // Decision 070: signed "a rogo" only on the clinic's device, the term read aloud.
            <Notice tone="info" title={SIGNING_MESSAGES.aRogoAtClinicTitle} data-testid="a-rogo-at-clinic">
              {SIGNING_MESSAGES.aRogoAtClinic}
            </Notice>
          ) : comprehensionPending(page) ? (
            // Comprehension questions first, scored by the server (decision 061).
            <ComprehensionQuiz
              token={token}
              page={page}
              onChange={(compreensao) => setState({ kind: "ready", page: { ...page, compreensao }, justSigned: false })}
              onInvalid={() => setState({ kind: "invalid" })}
              onStale={() => void load()}
            />
          ) : page.codigo_obrigatorio && !page.codigo_verificado ? (
            <CodeStep
              token={token}
              page={page}
              onVerified={(verified, confirmed) => {
                setCode(confirmed);
                setState({ kind: "ready", page: verified, justSigned: false });
              }}
              onInvalid={() => setState({ kind: "invalid" })}
            />
          ) : (
            <div className="grid gap-4">
              {page.codigo_verificado && page.audio ? (
                // Said once, above the first step after the code (the audio, when asked).
                <p className="flex items-center gap-2 text-sm text-emerald-700" data-testid="otp-verified">
                  <ShieldCheck className="size-4" aria-hidden /> {SIGNING_MESSAGES.codeVerified}
                </p>
              ) : null}
              {page.audio ? (
                // Decision 069: the agreement in the patient's voice; never a reason the signature waits.
                <AudioConsent
                  token={token}
                  audio={page.audio}
                  onSaved={(audio) => setState({ kind: "ready", page: { ...page, audio }, justSigned: false })}
                  onInvalid={() => setState({ kind: "invalid" })}
                  onStale={() => void load()}
                />
              ) : null}
              <SignForm
                token={token}
                page={page}
                code={code}
                reading={reading.takeFinal}
                embedOrigin={embedOrigin}
                onSigned={() => {
                  reading.stop();
                  void load(true);
                }}
                onInvalid={() => setState({ kind: "invalid" })}
                onStale={() => void load()}
              />
            </div>
          )}
        </div>
      ) : null}

      {signed && page.revogacao && !revokedAt && model ? (
        <OptionalRevocations
          token={token}
          page={page}
          items={model.optional_consents ?? []}
          justRevokedItem={justRevokedItem}
          onRevoked={(id) => {
            setJustRevokedItem(id);
            void load();
          }}
          onInvalid={() => setState({ kind: "invalid" })}
          onReload={() => void load()}
        />
      ) : null}

      {signed && page.revogacao && !revokedAt ? revokePanel : null}

      {!signed &&
      model &&
      page.signatario.papel !== "testemunha" &&
      !page.signatario.a_rogo &&
      (!page.codigo_obrigatorio || page.codigo_verificado) ? (
        <ChoiceForm
          token={token}
          page={page}
          tipo="recusa"
          code={code}
          onDone={(done) => {
            reading.stop();
            window.scrollTo({ top: 0 });
            setState({ kind: "refused", page, em: done.em, codigo: done.codigo_verificacao });
          }}
          onInvalid={() => setState({ kind: "invalid" })}
        />
      ) : null}
    </PublicShell>
  );
}

/** The page never shows a full CPF (decision 051): the signer types theirs to sign. */
const MASKED_NOTICE =
  "Os números de CPF aparecem mascarados nesta página. Para assinar, você digita o seu CPF completo.";

const canSpeak = () => typeof window !== "undefined" && "speechSynthesis" in window;

/**
 * What "Ouvir" says of a section: its title and each paragraph or list item, in order, each ending
 * in a full stop so the voice pauses between them — never the button's own label, which sits
 * beside the title (its textContent ran "Título OuvirPrimeiro parágrafo…").
 */
function speakableText(section: Element, outsideSections = false): string {
  return Array.from(section.querySelectorAll("h1, h2, h3, h4, p, li"))
    .filter((block) => !outsideSections || !block.closest("[data-section-id]"))
    .map((block) => (block.textContent ?? "").replace(/\s+/g, " ").trim())
    .filter(Boolean)
    .map((line) => (/[.!?:;…]$/.test(line) ? line : `${line}.`))
    .join(" ");
}

/**
 * "Ouvir": the section read aloud by the browser's own pt-BR voice (speechSynthesis) — no server,
 * no audio leaves the phone. Its use is part of the reading record (decision 052).
 */
function ListenButton({ id, onListen }: { id: string; onListen: (id: string) => void }) {
  const [speaking, setSpeaking] = useState(false);
  useEffect(() => () => void (speaking && window.speechSynthesis.cancel()), [speaking]);
  const toggle = (event: { currentTarget: HTMLElement }) => {
    const synth = window.speechSynthesis;
    synth.cancel();
    if (speaking) return setSpeaking(false);
    const section = event.currentTarget.closest("[data-section-id]");
    const text = section ? speakableText(section) : "";
    if (!text) return;
    const utterance = new SpeechSynthesisUtterance(text);
    utterance.lang = "pt-BR";
    utterance.onend = utterance.onerror = () => setSpeaking(false);
    onListen(id);
    setSpeaking(true);
    synth.speak(utterance);
  };
  return (
    <button
      type="button"
      onClick={toggle}
      aria-pressed={speaking}
      className="inline-flex shrink-0 items-center gap-1 rounded-md border px-2 py-1 text-xs font-medium text-primary print:hidden"
      data-testid="listen"
    >
      <Volume2 className="size-3.5" aria-hidden /> {speaking ? "Parar" : "Ouvir"}
    </button>
  );
}

/**
 * "Ouvir o termo inteiro": every section in turn, each spoken only after the one before ended, so
 * a section is marked as heard aloud (decision 052) only when its reading really began — stopping
 * halfway leaves the rest unmarked.
 */
function ListenAllButton({
  term,
  onListen,
}: {
  term: React.RefObject<HTMLDivElement | null>;
  onListen: (id: string) => void;
}) {
  const [speaking, setSpeaking] = useState(false);
  const run = useRef(0);
  const active = useRef(false);
  active.current = speaking;
  // Leaving the page stops the voice; a re-render does not.
  useEffect(() => {
    const runs = run;
    const on = active;
    return () => {
      runs.current += 1;
      if (on.current) window.speechSynthesis.cancel();
    };
  }, []);
  const start = () => {
    const synth = window.speechSynthesis;
    const mine = ++run.current;
    synth.cancel();
    if (speaking) return setSpeaking(false);
    // The term's title and introduction first (not a section: nothing is marked for them), then each section.
    const lead = term.current ? speakableText(term.current, true) : "";
    const sections = [
      ...(lead ? [{ id: "", text: lead }] : []),
      ...Array.from(term.current?.querySelectorAll("[data-section-id]") ?? [])
        .map((section) => ({ id: section.getAttribute("data-section-id") ?? "", text: speakableText(section) }))
        .filter((section) => section.id && section.text),
    ];
    const next = (index: number) => {
      const section = sections[index];
      if (run.current !== mine) return;
      if (!section) return setSpeaking(false);
      const utterance = new SpeechSynthesisUtterance(section.text);
      utterance.lang = "pt-BR";
      utterance.onend = () => next(index + 1);
      utterance.onerror = () => run.current === mine && setSpeaking(false);
      if (section.id) onListen(section.id);
      synth.speak(utterance);
    };
    if (sections.length === 0) return;
    setSpeaking(true);
    next(0);
  };
  return (
    <PlainButton variant="outline" className="px-3" aria-pressed={speaking} onClick={start} data-testid="listen-all">
      <Volume2 aria-hidden /> {speaking ? "Parar a leitura" : "Ouvir o termo inteiro"}
    </PlainButton>
  );
}

/** Where "Ir para a assinatura" leads. */
const SIGNATURE_STEP_ID = "etapa-assinatura";

/**
 * A signed link opened again (or signed elsewhere meanwhile): the state, stated plainly — the
 * "assinado com sucesso" banner belongs only to the visit in which the signature was made.
 */
function SignedRevisit() {
  return (
    <Panel className="gap-2" data-testid="signed-revisit" aria-labelledby="signed-revisit-title">
      <h2 id="signed-revisit-title" className="flex items-center gap-2 text-base font-semibold">
        <FileCheck className="size-5 text-primary" aria-hidden /> {SIGNING_MESSAGES.signedRevisitTitle}
      </h2>
      <p className="text-sm text-muted-foreground">{SIGNING_MESSAGES.signedRevisit}</p>
    </Panel>
  );
}

/**
 * Once signed: the sealed PDF to keep. A job seals it a few seconds after the signature;
 * until it exists the button says so and the page asks again every 3 s. The copy by e-mail is
 * promised only when e-mail really leaves this server (`email_configurado`); otherwise the page
 * says the copy is here.
 */
function SignedPdfDownload({
  token,
  page,
  onInvalid,
}: {
  token: string;
  page: SigningPageData;
  onInvalid: () => void;
}) {
  const { state, retry } = useSignedPdfReady(token, {
    enabled: true,
    initiallyReady: page.pdf_assinado_pronto,
    onInvalid,
  });
  return (
    <Panel className="gap-3" aria-label="Cópia do documento assinado" data-testid="signed-pdf-panel">
      <p className="text-sm" data-testid="signed-notice">
        {page.email_configurado ? SIGNING_MESSAGES.signedNotice : SIGNING_MESSAGES.signedNoticeDownload}
        {page.email_configurado && page.copia_para ? ` ${SIGNING_MESSAGES.signedNoticeTo(page.copia_para)}` : null}
      </p>
      {state === "ready" ? (
        // A plain link: the browser downloads it itself (Content-Disposition: attachment), with its
        // own progress on phones; no copy of the file is held in the page's memory.
        <a
          href={signedPdfPath(token)}
          download
          rel="noreferrer"
          className={buttonClasses("primary", "w-full sm:w-fit")}
          data-testid="signed-pdf-download"
        >
          <Download aria-hidden /> {SIGNING_MESSAGES.signedPdfDownload}
        </a>
      ) : (
        <div className="grid gap-1.5">
          <PlainButton className="w-full sm:w-fit" disabled data-testid="signed-pdf-download">
            {state === "preparing" ? (
              <span aria-hidden className="contents">
                <Spinner />
              </span>
            ) : (
              <Download aria-hidden />
            )}
            {state === "preparing" ? SIGNING_MESSAGES.signedPdfPreparing : SIGNING_MESSAGES.signedPdfDownload}
          </PlainButton>
          {state === "preparing" ? (
            <p className="text-xs text-muted-foreground" role="status">
              {SIGNING_MESSAGES.signedPdfPreparingHint}
            </p>
          ) : (
            <p className="flex flex-wrap items-center gap-2 text-xs text-muted-foreground" role="status">
              {SIGNING_MESSAGES.signedPdfLate}
              <PlainButton variant="outline" className="px-3" onClick={retry}>
                Tentar novamente
              </PlainButton>
            </p>
          )}
        </div>
      )}
    </Panel>
  );
}
