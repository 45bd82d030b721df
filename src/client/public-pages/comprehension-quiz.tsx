import { CircleCheck, CircleHelp, MessageCircleQuestion, RotateCcw } from "lucide-react";
import { useState } from "react";
import { COMPREHENSION_MESSAGES, type PublicQuestion, readPublicQuestions } from "@shared/document-model/comprehension";
import type { SigningPage } from "@shared/schemas/signing";
import { Notice, Panel, PlainButton } from "./components/public-shell";
import { Spinner } from "./components/spinner";
import { publicFetch } from "./lib/http";

type Comprehension = NonNullable<SigningPage["compreensao"]>;

/** The section a question is about, shown again: scrolled into view and outlined for a while. */
const HIGHLIGHT = ["ring-4", "ring-warning", "ring-offset-4", "rounded-md", "bg-warning/10", "scroll-mt-6"];

export function highlightSection(sectionId: string): void {
  const section = document.querySelector<HTMLElement>(`[data-section-id="${CSS.escape(sectionId)}"]`);
  if (!section) return;
  const reduced = window.matchMedia?.("(prefers-reduced-motion: reduce)").matches;
  // The outline first: its scroll margin keeps the ring and the title below the screen's top edge.
  section.classList.add(...HIGHLIGHT);
  section.scrollIntoView({ block: "start", behavior: reduced ? "auto" : "smooth" });
  section.setAttribute("data-quiz-highlight", "true");
  window.setTimeout(() => {
    section.classList.remove(...HIGHLIGHT);
    section.removeAttribute("data-quiz-highlight");
  }, 8000);
}

/** Questions still to answer rightly, or the pause: the signature form waits for these (decision 061). */
export function comprehensionPending(page: SigningPage): boolean {
  const state = page.compreensao;
  if (!state) return false;
  return state.pausada || state.respostas.some((r) => !r.verificada);
}

/**
 * Comprehension questions before signing (decision 061), one at a time. The page has no right
 * option: each answer is scored by the server. A wrong one shows the section again and offers
 * "Quero falar com o profissional", which pauses the signature.
 */
export function ComprehensionQuiz({
  token,
  page,
  onChange,
  onInvalid,
  onStale,
}: {
  token: string;
  page: SigningPage;
  onChange: (state: Comprehension) => void;
  onInvalid: () => void;
  onStale: () => void;
}) {
  const state = page.compreensao!;
  // The model the page got holds the questions without their right option.
  const questions: PublicQuestion[] = readPublicQuestions(page.documento.modelo);
  const current = questions.find((q) => !state.respostas.find((r) => r.pergunta_id === q.id)?.verificada) ?? null;
  const [choice, setChoice] = useState<number | null>(null);
  const [wrong, setWrong] = useState<string | null>(null);
  const [lastRight, setLastRight] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const path = `/api/public/sign/${encodeURIComponent(token)}/comprehension`;
  const fail = (result: { status: number; code: string | null; message: string | null }) => {
    if (result.status === 410) return onInvalid();
    if (result.code === "COMPREHENSION_VERSION_MISMATCH" || result.code === "SIGNING_ALREADY_SIGNED") return onStale();
    setError(result.message ?? "Não foi possível enviar a resposta. Verifique sua conexão e tente novamente.");
  };

  const answer = async () => {
    if (!current || choice === null) return;
    setBusy(true);
    setError(null);
    const result = await publicFetch<{ correta: boolean; secao_id: string; compreensao: Comprehension }>(path, {
      json: { conteudo_sha256: page.documento.conteudo_sha256, pergunta_id: current.id, opcao: choice },
    });
    setBusy(false);
    if (!result.ok) return fail(result);
    setChoice(null);
    setLastRight(result.data.correta);
    if (result.data.correta) setWrong(null);
    else {
      setWrong(current.id);
      highlightSection(result.data.secao_id);
    }
    onChange(result.data.compreensao);
  };

  const pause = async () => {
    setBusy(true);
    setError(null);
    const result = await publicFetch<{ pausada: true }>(`${path}/pause`, {
      json: wrong ? { pergunta_id: wrong } : {},
    });
    setBusy(false);
    if (!result.ok) return fail(result);
    onChange({ ...state, pausada: true });
    window.scrollTo({ top: 0 });
  };

  if (state.pausada) {
    return (
      <Panel data-testid="comprehension-paused">
        <Notice tone="info" title="Assinatura pausada">
          {COMPREHENSION_MESSAGES.paused}
        </Notice>
      </Panel>
    );
  }
  if (!current) return null;

  const index = questions.indexOf(current);
  const tries = state.respostas.find((r) => r.pergunta_id === current.id)?.tentativas ?? 0;
  const exhausted = tries >= state.max_tentativas;
  const showWrong = wrong === current.id;

  return (
    <Panel aria-labelledby="comprehension-title" data-testid="comprehension-quiz">
      <div className="grid gap-1">
        <h2 id="comprehension-title" className="flex items-center gap-2 text-base font-semibold">
          <CircleHelp className="size-5 text-primary" aria-hidden /> {COMPREHENSION_MESSAGES.heading}
        </h2>
        <p className="text-sm text-muted-foreground">{COMPREHENSION_MESSAGES.hint}</p>
      </div>
      {lastRight && index > 0 ? (
        <p className="flex items-center gap-2 text-sm font-medium text-success" role="status">
          <CircleCheck className="size-4" aria-hidden /> {COMPREHENSION_MESSAGES.right}
        </p>
      ) : null}
      <fieldset
        className="grid gap-2"
        data-question-id={current.id}
        data-testid="comprehension-question"
        disabled={busy || exhausted}
      >
        <legend className="mb-2 grid gap-1">
          <span className="text-xs font-medium text-muted-foreground">
            Pergunta {index + 1} de {questions.length}
          </span>
          <span className="text-base font-semibold text-balance break-words">{current.text}</span>
        </legend>
        {current.options.map((option, optionIndex) => (
          <label
            key={optionIndex}
            className={`flex min-h-11 cursor-pointer items-center gap-3 rounded-md border px-3 py-2 text-base ${
              choice === optionIndex ? "border-primary bg-primary/10" : "border-input"
            }`}
          >
            <input
              type="radio"
              name={`pergunta-${current.id}`}
              checked={choice === optionIndex}
              onChange={() => setChoice(optionIndex)}
              className="size-5 shrink-0 accent-primary"
              data-testid="comprehension-option"
            />
            <span className="break-words">{option}</span>
          </label>
        ))}
      </fieldset>
      {showWrong || exhausted ? (
        <div
          role="alert"
          className="grid gap-3 rounded-lg border border-warning/50 bg-warning/15 p-3 text-sm"
          data-testid="comprehension-wrong"
        >
          <p className="font-medium">{COMPREHENSION_MESSAGES.wrong}</p>
          <div className="flex flex-wrap gap-2">
            <PlainButton variant="outline" className="px-3" onClick={() => highlightSection(current.section_id)}>
              <RotateCcw aria-hidden /> Ver o trecho de novo
            </PlainButton>
            <PlainButton
              variant="outline"
              className="px-3"
              onClick={() => void pause()}
              disabled={busy}
              data-testid="comprehension-talk"
            >
              <MessageCircleQuestion aria-hidden /> {COMPREHENSION_MESSAGES.talk}
            </PlainButton>
          </div>
        </div>
      ) : null}
      {exhausted ? (
        <Notice tone="error" title="Tentativas esgotadas">
          Você já tentou {tries} vezes. Toque em “{COMPREHENSION_MESSAGES.talk}” para a clínica entrar em contato.
        </Notice>
      ) : null}
      {error ? <Notice tone="error" title={error} /> : null}
      <PlainButton
        onClick={() => void answer()}
        disabled={busy || choice === null || exhausted}
        className="w-full sm:w-fit"
        data-testid="comprehension-answer"
      >
        {busy ? <Spinner label="Enviando" /> : null}
        {showWrong ? COMPREHENSION_MESSAGES.retry : "Responder"}
      </PlainButton>
    </Panel>
  );
}

/** Above the signature form once every question was answered rightly. */
export function ComprehensionDone({ page }: { page: SigningPage }) {
  const state = page.compreensao;
  if (!state || comprehensionPending(page)) return null;
  return (
    <Notice tone="success" title="Compreensão verificada" data-testid="comprehension-done">
      {state.respostas.length === 1
        ? "A pergunta foi respondida corretamente. Agora você pode assinar."
        : `As ${state.respostas.length} perguntas foram respondidas corretamente. Agora você pode assinar.`}
    </Notice>
  );
}
