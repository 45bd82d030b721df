import { and, asc, eq, isNull, sql } from "drizzle-orm";
import type { Db, Tx } from "../../../db/client.js";
import { auditEvents, contratos } from "../../../db/schema.js";
import { withTenant } from "../../../db/tenant-scope.js";
import {
  allVerified,
  type ComprehensionAnswerInput,
  type ComprehensionSummary,
  isRight,
  MAX_ATTEMPTS_PER_QUESTION,
  modelQuestions,
  type StoredAnswer,
  summarizeAnswers,
} from "../../../shared/document-model/comprehension.js";
import type { SigningPage } from "../../../shared/schemas/signing.js";
import { AppError } from "../../errors.js";
import { recordAuditEvent } from "../audit/record-audit-event.js";
import type { LinkSigner } from "./link-signer.js";
import { type LinkState, loadLinkState } from "./open-signing-page.js";
import { findSigningTokenOrThrow, type SigningTokenRow } from "./signing-tokens.js";

/**
 * Comprehension answers and the pause are events of the document's own chain (decision 061): each
 * try is there, so the printed chain and evidencias.json show them; the signature's event carries
 * their summary. At most MAX_ATTEMPTS_PER_QUESTION per question and link.
 */
export const ANSWER_ACTION = "document.comprehension_answered";
export const PAUSE_ACTION = "document.signing_paused";

type Audit = { ip?: string | undefined; userAgent?: string | undefined };

/** This link's kept answers, oldest first. */
export async function keptAnswers(
  tx: Tx,
  link: Pick<SigningTokenRow, "id" | "tenantId">,
  contratoId: string,
): Promise<StoredAnswer[]> {
  const rows = await tx
    .select({ data: auditEvents.data })
    .from(auditEvents)
    .where(
      and(
        eq(auditEvents.tenant_id, link.tenantId),
        eq(auditEvents.entity_type, "contrato"),
        eq(auditEvents.entity_id, contratoId),
        eq(auditEvents.action, ANSWER_ACTION),
        sql`${auditEvents.data} ->> 'link_id' = ${link.id}`,
      ),
    )
    .orderBy(asc(auditEvents.seq));
  return rows.map((r) => r.data as unknown as StoredAnswer);
}

/** The link's record against the frozen model's questions; null when the model asks none. */
export async function comprehensionSummary(
  tx: Tx,
  link: Pick<SigningTokenRow, "id" | "tenantId">,
  document: { id: string; documento: unknown; compreensao_pausada_at?: Date | null },
): Promise<ComprehensionSummary | null> {
  const questions = modelQuestions(document.documento);
  if (questions.length === 0) return null;
  return summarizeAnswers(
    questions,
    await keptAnswers(tx, link, document.id),
    document.compreensao_pausada_at?.toISOString() ?? null,
  );
}

/** Whether this signer answers the questions: the patient or guardian, never a witness. */
export function answersQuestions(signer: Pick<LinkSigner, "papel">): boolean {
  return signer.papel !== "testemunha";
}

/**
 * In the signature's transaction, before anything is written: a paused signature is refused, and
 * so is one whose questions are not all answered rightly through this link. The summary goes
 * into the signature's event.
 */
export async function checkComprehension(
  tx: Tx,
  link: SigningTokenRow,
  document: { id: string; documento: unknown; compreensao_pausada_at: Date | null },
  signer: Pick<LinkSigner, "papel">,
): Promise<ComprehensionSummary | null> {
  if (!answersQuestions(signer)) return null;
  const summary = await comprehensionSummary(tx, link, document);
  if (!summary) return null;
  if (document.compreensao_pausada_at) throw new AppError("SIGNING_PAUSED");
  if (!allVerified(summary)) throw new AppError("COMPREHENSION_PENDING");
  return summary;
}

/** What the public page is told: the questions' state, never the right option of an open one. */
export function publicComprehension(summary: ComprehensionSummary | null): SigningPage["compreensao"] {
  if (!summary) return null;
  return {
    respostas: summary.perguntas.map((p) => ({
      pergunta_id: p.id,
      verificada: p.verificada,
      tentativas: p.tentativas.length,
    })),
    pausada: !!summary.pausada_em,
    max_tentativas: MAX_ATTEMPTS_PER_QUESTION,
  };
}

/**
 * The link's state under the document's row lock, taken first as the signature and Reenviar take
 * it: an answer or a pause racing either waits for it, then reads the link as it is now (revoked
 * by a resend, signed), not as it was before the transaction.
 */
async function openState(tx: Tx, found: SigningTokenRow, now: Date): Promise<LinkState> {
  const state = await loadLinkState(tx, found, now, { lock: true });
  if (state.estado === "signed") throw new AppError("SIGNING_ALREADY_SIGNED");
  if (state.estado === "invalid") throw new AppError("SIGNING_LINK_INVALID");
  if (!answersQuestions(state.signer) || modelQuestions(state.document.documento).length === 0)
    throw new AppError("COMPREHENSION_NONE");
  return state;
}

export interface AnswerResult {
  correta: boolean;
  /** The section to read again (a wrong answer) or the one the question was about. */
  secao_id: string;
  tentativas: number;
  compreensao: NonNullable<SigningPage["compreensao"]>;
}

export interface AnswerQuestionOptions {
  db: Db;
  token: string;
  input: ComprehensionAnswerInput;
  audit: Audit;
  now?: Date;
}

/**
 * POST /api/public/sign/:token/comprehension: one answer to one question of the frozen model.
 * Checked on the server (the page never has the right option); refused with a pt-BR 4xx for
 * another version's content, an unknown question, an option out of range, a question already
 * answered rightly, too many tries, a paused signature, a signed or dead link.
 */
export async function answerQuestion({
  db,
  token,
  input,
  audit,
  now = new Date(),
}: AnswerQuestionOptions): Promise<AnswerResult> {
  const link = await findSigningTokenOrThrow(db, token);
  return withTenant(db, link.tenantId, async (tx) => {
    const { document, signer } = await openState(tx, link, now);
    if (document.compreensao_pausada_at) throw new AppError("SIGNING_PAUSED");
    if (input.conteudo_sha256 !== document.conteudo_sha256) throw new AppError("COMPREHENSION_VERSION_MISMATCH");
    const questions = modelQuestions(document.documento);
    const question = questions.find((q) => q.id === input.pergunta_id);
    if (!question) throw new AppError("COMPREHENSION_UNKNOWN_QUESTION");
    if (input.opcao >= question.options.length) throw new AppError("COMPREHENSION_OPTION_INVALID");
    // Two answers at once are counted in turn: openState holds the document's row.
    const kept = await keptAnswers(tx, link, document.id);
    const mine = kept.filter((a) => a.pergunta_id === question.id);
    if (mine.some((a) => a.correta)) throw new AppError("COMPREHENSION_ALREADY_RIGHT");
    if (mine.length >= MAX_ATTEMPTS_PER_QUESTION) throw new AppError("COMPREHENSION_TOO_MANY");
    const answer: StoredAnswer = {
      pergunta_id: question.id,
      opcao: input.opcao,
      correta: isRight(question, input.opcao),
      em: now.toISOString(),
    };
    await recordAuditEvent(
      tx,
      { tenantId: link.tenantId, actorProfileId: null, ...audit },
      {
        action: ANSWER_ACTION,
        entityType: "contrato",
        entityId: document.id,
        data: {
          link_id: link.id,
          papel: signer.papel,
          ...answer,
          tentativa: mine.length + 1,
          secao_id: question.section_id,
        },
      },
    );
    const summary = summarizeAnswers(questions, [...kept, answer]);
    return {
      correta: answer.correta,
      secao_id: question.section_id,
      tentativas: mine.length + 1,
      compreensao: publicComprehension(summary)!,
    };
  });
}

export interface PauseSigningOptions {
  db: Db;
  token: string;
  input: { pergunta_id?: string | undefined };
  audit: Audit;
  now?: Date;
}

/**
 * POST /api/public/sign/:token/comprehension/pause — "Quero falar com o profissional": the
 * signature is paused (the link says so and refuses to sign), the responsible professional sees a
 * notice ('document.paused') and the document's chain records it. Idempotent.
 */
export async function pauseSigning({
  db,
  token,
  input,
  audit,
  now = new Date(),
}: PauseSigningOptions): Promise<{ pausada: true; em: string }> {
  const link = await findSigningTokenOrThrow(db, token);
  return withTenant(db, link.tenantId, async (tx) => {
    const { document, signer } = await openState(tx, link, now);
    const questions = modelQuestions(document.documento);
    if (input.pergunta_id !== undefined && !questions.some((q) => q.id === input.pergunta_id))
      throw new AppError("COMPREHENSION_UNKNOWN_QUESTION");
    const moved = await tx
      .update(contratos)
      .set({ compreensao_pausada_at: now, updated_at: now })
      .where(
        and(
          eq(contratos.tenant_id, link.tenantId),
          eq(contratos.id, document.id),
          isNull(contratos.compreensao_pausada_at),
        ),
      )
      .returning({ at: contratos.compreensao_pausada_at });
    if (moved.length === 0)
      return { pausada: true as const, em: (document.compreensao_pausada_at ?? now).toISOString() };
    await recordAuditEvent(
      tx,
      { tenantId: link.tenantId, actorProfileId: null, ...audit },
      {
        action: PAUSE_ACTION,
        entityType: "contrato",
        entityId: document.id,
        data: {
          link_id: link.id,
          papel: signer.papel,
          motivo: "compreensao",
          ...(input.pergunta_id ? { pergunta_id: input.pergunta_id } : {}),
        },
      },
    );
    return { pausada: true as const, em: now.toISOString() };
  });
}
